# Home of a gin pad: both totals big enough to read across the table, who deals and the
# game target. Before a hand the arrows pick its turn-up card (the knock limit; held, 5
# cards a step round the 13, so that every card is at most two presses away), OK held
# takes it as a spade where spades double. During the hand the screen asks how it ended:
# the arrows go round the player's knocks 1 up to the limit, gin, then the draw-out (gin
# after the limit, so that a small knock is a few presses the other way), held 2 a step;
# OK takes the ending on show, OK held the same ending for the other player (either may
# go out, and the press is the same for both). The cursor starts where the answer most
# often is: the turn-up at 10 (10 J Q K: 4 cards in 13), the ending one under the knock
# limit of the player who played first (the dealer's opponent): a player knocks as soon
# as the cards allow, at the limit or a little under it, and the limit and the next two
# down are then a press, gin a held press. Where a player can only go gin (Skarney Gin, an
# ace turn-up under ace_turnup gin) the arrows, short or held, go round the first
# player's gin, the dealer's, the draw-out. BACK undoes, and what was undone is where the
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
        return
    f[GD.KEEP] = 0
    if s.phase() == Gn.TURNUP:
        # The turn-up card BACK has just taken back (rank | spade << 4), offered again.
        up = app.undone & 0xFFFFFF if app.undone >> 24 == EV_TURNUP else 0
        app.cur = up & 15 or 10
        f[GD.SPADE] = up >> 4
    else:
        f[GD.MODE] = 0
        f[GD.SEAT] = 1 - s.dealer()
        k = s.limit()
        f[GD.K] = (k - 1 if k > 1 else k) if s.may_knock() else 0


def _help(app):
    s = app.scorer.s
    if s.phase() == Gn.TURNUP:
        if s.rules.spade_doubles:
            return "<> card  hold <>: 5 a step  OK take\nhold OK: a spade  BACK undo  M menu"
        return "<> card  hold <>: 5 a step  OK take\nBACK undo  M menu"
    arrows = "<> how it ended  hold <>: 2 a step" if s.may_knock() else "<> how it ended"
    if app.fields[GD.MODE]:
        return arrows + "\nOK  BACK undo  M menu"
    # Either player may go out: OK held takes the ending on show for the other one.
    return ("%s\nOK  hold OK: the same for %s\nBACK undo  M menu"
            % (arrows, app.scorer.names[1 - app.fields[GD.SEAT]]))


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
        line = "< %s >" % GD.ending_words(app)
        if s.row[G.TURNUP]:
            # The limit's reason: the turn-up, said where the knocks stop.
            up = G.RANK_NAMES[s.turnup_rank() - 1]
            info = _fit(n, "knock limit %d: the turn-up is %s" % (s.limit(), up),
                        "limit %d: turn-up %s" % (s.limit(), up))
        else:
            info = "%s dealt, game to %d" % (dealer, s.rules.target)
    D.center(fb, line[:n], y)
    D.center(fb, info[:n], y + LINE)
    D.help(fb, hp)


def _fit(n, long, short):
    # The long wording when the panel has room for it (n columns), else the short one.
    return long if len(long) <= n else short


def _round(app, d):
    # d steps round the endings: the knocks 1 up to the limit, gin, the draw-out (the
    # player on show kept).
    s = app.scorer.s
    f = app.fields
    k = s.limit()
    n = k + 2
    p = k + 1 if f[GD.MODE] else (f[GD.K] - 1 if f[GD.K] else k)
    p = (p + d) % n
    f[GD.MODE] = 1 if p == k + 1 else 0
    f[GD.K] = p + 1 if p < k else 0


def _who(app, d):
    # Where only gin is a player's ending: the first player's gin, the dealer's, the
    # draw-out, in turn.
    s = app.scorer.s
    f = app.fields
    first = 1 - s.dealer()
    g = 2 if f[GD.MODE] else (0 if f[GD.SEAT] == first else 1)
    g = (g + d) % 3
    f[GD.MODE] = 1 if g == 2 else 0
    f[GD.SEAT] = first if g == 0 else 1 - first


def press(app, key):
    s = app.scorer.s
    f = app.fields
    if key == LONG | OK and s.phase() == Gn.TURNUP and not s.rules.spade_doubles:
        key = OK    # held OK means a spade only where spades double
    if key == BACK:
        app.undo()
        return
    if s.phase() == Gn.TURNUP:
        if key & 0xF == PREV or key & 0xF == NEXT:
            d = 5 if key & LONG else 1
            app.cur = (app.cur - 1 + (d if key & 0xF == NEXT else -d)) % 13 + 1
        elif key == OK or key == LONG | OK:
            if app.take(Gn.turnup(app.cur, 1 if key != OK else f[GD.SPADE])):
                app.follow()
        return
    if key & 0xF == PREV or key & 0xF == NEXT:
        d = 1 if key & 0xF == NEXT else -1
        if s.may_knock():
            _round(app, 2 * d if key & LONG else d)
        else:
            _who(app, d)
    elif key == OK or key == LONG | OK:
        if key != OK and not f[GD.MODE]:
            f[GD.SEAT] = 1 - f[GD.SEAT]     # the same ending, the other player's
        if f[GD.MODE] and s.row[G.TURNUP]:
            if app.take(Gn.drawout()):
                app.follow()
            return
        app.go(RESULT)
