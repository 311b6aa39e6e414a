# Home of a gin pad: both totals big enough to read across the table, who deals and the
# game target. Before a hand the arrows pick its turn-up card (the knock limit; held, 5
# cards a step round the 13, so that every card is at most two presses away), OK held
# takes it as a spade where spades double (the card on show, and more said of it).
# During the hand the screen asks who went out, both players' names side by side: ◀ the
# one on the left, ▶ the one on the right, OK neither (a draw-out); then how: the arrows
# go round that player's knocks 1 up to the limit, then gin (gin after the limit, so
# that a small knock is a few presses the other way), held 2 a step, the limit and its
# reason on show (`knock limit 5: the turn-up is 5`: no knock above it is offered). The
# cursor starts one under the knock limit: a player knocks as soon as the cards allow,
# at the limit or a little under it, and the limit and the next two down are then a
# press, gin a held press. Where a player can only go gin, the how is the opponent's
# contract meld, down (most hands) or not, in Skarney Gin; after an ace turn-up under
# ace_turnup gin it is gin, said on the screen, with nothing for the arrows to choose. OK takes what is on show, held or
# not; BACK goes back a question, and undoes at the first; what was undone is where the
# cursor starts again.
from engine_core.gin import sitting as Gn
from engine_core.gin import rules as G
from engine_core.gin.codec import EV_TURNUP
from firmware.codes import BACK, BLACK, LINE, LONG, NEXT, OK, PREV, RESULT
from firmware.ui import draw as D
from firmware.ui import gin_draw as GD

HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK


def enter(app):
    s = app.scorer.s
    f = app.fields
    if f[GD.KEEP] & 1:
        f[GD.KEEP] &= ~1
        f[GD.STAGE] = 1
        return
    f[GD.KEEP] = 0
    if s.phase() == Gn.TURNUP:
        # The turn-up card BACK has just taken back (rank | spade << 4), offered again.
        up = app.undone & 0xFFFFFF if app.undone >> 24 == EV_TURNUP else 0
        app.cur = up & 15 or 10
        f[GD.SPADE] = up >> 4
    else:
        f[GD.STAGE] = 0
        _went_out(app, 1 - s.dealer())


def _went_out(app, seat):
    # The how for `seat`: one knock under the limit (gin where there is no knock), the
    # opponent's contract meld down.
    f = app.fields
    s = app.scorer.s
    k = s.limit()
    f[GD.MODE] = 0
    f[GD.SEAT] = seat
    f[GD.K] = (k - 1 if k > 1 else k) if s.may_knock() else 0
    f[GD.CONTRACT] = 1


def _help(app):
    s = app.scorer.s
    f = app.fields
    if s.phase() == Gn.TURNUP:
        if s.rules.spade_doubles:
            return "<> card  hold <>: 5 a step  OK take\nhold OK: a spade  BACK undo  M menu"
        return "<> card  hold <>: 5 a step  OK take\nBACK undo  M menu"
    if not f[GD.STAGE]:
        return "<> who went out  OK neither\nBACK undo  M menu"
    if f[GD.MODE]:
        return "OK take it\nBACK back  M menu"
    if s.may_knock():
        return "<> how  hold <>: 2 a step\nOK next  BACK back  M menu"
    if s.row[G.KNOCK]:
        return "OK next  BACK back  M menu"     # an ace turn-up: gin only
    return "<> meld or not\nOK next  BACK back  M menu"


def draw(app, fb):
    s = app.scorer.s
    w = fb.width
    hp = _help(app)
    bottom = D.help_top(fb, hp)
    D.center(fb, "hand %d" % (s.hands() + 1), 0)
    y = bottom - 2 * LINE - 4
    GD.scores(app, fb, LINE + 2, y - 2)
    fb.hline(0, y - 1, w, BLACK)
    y += 2
    dealer = app.scorer.names[s.dealer()]
    n = D.cols(fb)
    if s.phase() == Gn.TURNUP:
        t = G.RANK_NAMES[app.cur - 1]
        if app.fields[GD.SPADE]:
            t += " spade"
        knock = Gn.limit_of(app.cur)
        line = _fit(n, "turn-up < %s >  knock at %d" % (t, knock), "turn-up < %s >" % t)
        info = "%s deals, game to %d" % (dealer, s.rules.target)
    else:
        if app.fields[GD.STAGE]:
            line = "< %s >" % GD.ending_words(app)
        else:
            line = _who_line(app, n)
        if s.row[G.TURNUP]:
            # The limit's reason: the turn-up, said where the knocks stop.
            up = G.RANK_NAMES[s.turnup_rank() - 1]
            if s.may_knock():
                info = _fit(n, "knock limit %d: the turn-up is %s" % (s.limit(), up),
                            "limit %d: turn-up %s" % (s.limit(), up))
            else:
                info = _fit(n, "gin only: the turn-up is %s" % up, "gin only: %s" % up)
        else:
            info = "%s dealt, game to %d" % (dealer, s.rules.target)
    D.center(fb, line[:n], y)
    D.center(fb, info[:n], y + LINE)
    D.help(fb, hp)


def _who_line(app, n):
    # Both players side by side, each on the side of its arrow: `< Ann  went out?  Bob >`.
    names = app.scorer.names
    mid = "  went out?  "
    if len(names[0]) + len(names[1]) + len(mid) + 4 > n:
        mid = "  or  "
    return "< %s%s%s >" % (names[0], mid, names[1])


def _fit(n, long, short):
    # The long wording when the panel has room for it (n columns), else the short one.
    return long if len(long) <= n else short


def _round(app, d):
    # d steps round the endings of the player who went out: the knocks 1 up to the
    # limit, then gin.
    s = app.scorer.s
    f = app.fields
    k = s.limit()
    p = f[GD.K] - 1 if f[GD.K] else k
    p = (p + d) % (k + 1)
    f[GD.K] = p + 1 if p < k else 0


def press(app, key):
    s = app.scorer.s
    f = app.fields
    if key == LONG | OK and (s.phase() != Gn.TURNUP or not s.rules.spade_doubles):
        key = OK    # held OK means a spade only on a turn-up, where spades double
    if s.phase() == Gn.TURNUP:
        if key & 0xF == PREV or key & 0xF == NEXT:
            d = 5 if key & LONG else 1
            app.cur = (app.cur - 1 + (d if key & 0xF == NEXT else -d)) % 13 + 1
        elif key == OK or key == LONG | OK:
            if app.take(Gn.turnup(app.cur, 1 if key != OK else f[GD.SPADE])):
                app.follow()
        elif key == BACK:
            app.undo()
        return
    if not f[GD.STAGE]:
        # Who went out: the player on the arrow's side, or neither (a draw-out).
        if key & 0xF == PREV or key & 0xF == NEXT:
            _went_out(app, 0 if key & 0xF == PREV else 1)
            f[GD.STAGE] = 1
        elif key == OK:
            f[GD.MODE] = 1
            f[GD.STAGE] = 1
        elif key == BACK:
            app.undo()
        return
    if key == BACK:
        f[GD.STAGE] = 0
    elif key & 0xF == PREV or key & 0xF == NEXT:
        if f[GD.MODE]:
            return
        d = 1 if key & 0xF == NEXT else -1
        if s.may_knock():
            _round(app, 2 * d if key & LONG else d)
        elif not s.row[G.KNOCK]:
            f[GD.CONTRACT] ^= 1     # Skarney Gin: the opponent's meld down or not
    elif key == OK:
        if f[GD.MODE] and s.row[G.TURNUP]:
            if app.take(Gn.drawout()):
                app.follow()
            return
        app.go(RESULT)
