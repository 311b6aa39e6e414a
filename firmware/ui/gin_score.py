# Home of a gin pad: both totals big enough to read across the table, who deals and the
# game target. Before a hand the arrows pick its turn-up card (the knock limit); during it
# they pick how it ended (a seat's knock with its total, its gin, or a draw-out), which OK
# takes, or takes to the totals screen. The cursors start where the answer most often is:
# the turn-up at 10 (10 J Q K: 4 cards in 13), the ending at the knock limit of the seat
# who played first (the dealer's opponent).
from micropython import const

from engine_core.gin import sitting as Gn
from engine_core.gin import rules as G
from firmware.ui import draw as D
from firmware.ui import gin_draw as GD

# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_PREV = const(1)
_NEXT = const(2)
_OK = const(3)
_RESULT = const(3)
_BACK = const(4)
_LINE = const(10)
_LONG = const(0x10)


def enter(app):
    s = app.s
    f = app.fields
    if f[GD.KEEP]:
        f[GD.KEEP] = 0
        return
    if s.phase() == Gn.TURNUP:
        app.cur = 10
        f[GD.SPADE] = 0
    else:
        f[GD.MODE] = 0
        f[GD.SEAT] = 1 - s.dealer()
        f[GD.K] = s.limit()


def _help(app):
    s = app.s
    if s.phase() == Gn.TURNUP:
        if s.rules.spade_doubles:
            return "<> turn-up  hold: spade  OK take"
        return "<> turn-up  OK take  M menu"
    return "<> how it ended  OK  M menu"


def draw(app, fb):
    s = app.s
    w = fb.width
    hp = _help(app)
    bottom = D.help_top(fb, hp)
    D.center(fb, "hand %d" % (s.hands() + 1), 0)
    y = bottom - 2 * _LINE - 4
    GD.scores(app, fb, _LINE + 2, y - 2)
    fb.hline(0, y - 1, w, _BLACK)
    y += 2
    dealer = app.names[s.dealer()]
    n = D.cols(fb)
    if s.phase() == Gn.TURNUP:
        t = GD.TURNUP_WORDS[app.cur - 1]
        if app.fields[GD.SPADE]:
            t += " spade"
        line = _fit(n, "turn-up < %s >  knock at %d" % (t, app.cur), "turn-up < %s >" % t)
        info = "%s deals, game to %d" % (dealer, s.rules.target)
    else:
        line = "< %s >" % GD.ending_words(app)
        if s.row[G.TURNUP]:
            info = _fit(n, "knock limit %d, %s dealt, to %d" % (s.limit(), dealer,
                                                               s.rules.target),
                        "limit %d, %s dealt, to %d" % (s.limit(), dealer, s.rules.target))
        else:
            info = "%s dealt, game to %d" % (dealer, s.rules.target)
    D.center(fb, line[:n], y)
    D.center(fb, info[:n], y + _LINE)
    D.help(fb, hp)


def _fit(n, long, short):
    # The long wording when the panel has room for it (n columns), else the short one.
    return long if len(long) <= n else short


def _move(app, d):
    # The ending cursor: within a seat, the knock total (0 is gin; Skarney Gin: gin only).
    s = app.s
    f = app.fields
    if f[GD.MODE] or not s.row[G.KNOCK]:
        _group(app, d)
        return
    k = f[GD.K] + d
    top = s.limit()
    f[GD.K] = top if k < 0 else (0 if k > top else k)


def _group(app, d):
    # The next ending group: the first player, the dealer, the draw-out.
    s = app.s
    f = app.fields
    first = 1 - s.dealer()
    g = 2 if f[GD.MODE] else (0 if f[GD.SEAT] == first else 1)
    g = (g + d) % 3
    f[GD.MODE] = 1 if g == 2 else 0
    f[GD.SEAT] = first if g == 0 else 1 - first
    f[GD.K] = s.limit() if s.row[G.KNOCK] else 0


def press(app, key):
    s = app.s
    f = app.fields
    if key == _BACK:
        app.undo()
        return
    if s.phase() == Gn.TURNUP:
        if key == _PREV:
            app.cur = 10 if app.cur == 1 else app.cur - 1
        elif key == _NEXT:
            app.cur = 1 if app.cur == 10 else app.cur + 1
        elif key & _LONG and s.rules.spade_doubles:
            f[GD.SPADE] ^= 1
        elif key == _OK:
            if app.take(Gn.turnup(app.cur, f[GD.SPADE])):
                app.follow()
        return
    if key == _PREV or key == _NEXT:
        _move(app, 1 if key == _NEXT else -1)
    elif key & _LONG:
        _group(app, 1 if key & 0xF == _NEXT else -1)
    elif key == _OK:
        if f[GD.MODE] and s.row[G.TURNUP]:
            if app.take(Gn.drawout()):
                app.follow()
            return
        app.go(_RESULT)
