# Undo a finished gin hand? BACK at the start of a hand (or after the game is over) would
# take back the ending that closed the last hand: ask first.
from engine_core.gin import sitting as Gn
from firmware.codes import BACK, BLACK, LINE, OK
from firmware.ui import draw as D
from firmware.ui import gin_draw as GD

HELP = "OK undo it  BACK keep it  M menu"


def hand_words(app, s):
    """The last finished hand in a few words: `Bob knocked: knock stands, Bob +23`."""
    end = s.last(Gn.LAST_END)
    seat = s.last(Gn.LAST_SEAT)
    w = s.last(Gn.LAST_WINNER)
    if end == Gn.END_DRAWOUT:
        out = "draw-out"
    elif end == Gn.END_GIN:
        out = "%s gin" % app.scorer.names[seat]
    else:
        out = "%s knocked: %s" % (app.scorer.names[seat],
                                  "undercut" if end == Gn.END_UNDERCUT else "knock stands")
    if w < 0:
        return out + ", nobody scored"
    return "%s, %s +%d" % (out, app.scorer.names[w], s.last(Gn.LAST_POINTS))


def draw(app, fb):
    s = app.scorer.s
    D.center(fb, "Undo hand %d?" % s.hands(), 4, 2)
    y = 30
    for line in D.wrap(hand_words(app, s), D.cols(fb)):
        D.center(fb, line, y)
        y += LINE
    if s.over():
        D.center(fb, "the game opens again", y + 4)
    fb.rect(0, 0, fb.width, D.help_top(fb, HELP) + 1, BLACK)
    D.help(fb, HELP)


def keep(app, s):
    """The ending of the last hand into the entry fields (firmware/ui/gin_draw.py), so
    that once it is undone the screens start at what was keyed in, not at their
    defaults."""
    from engine_core.gin import codec as Gc
    f = app.fields
    ev = s.last_event()
    kind = ev >> 24
    arg = ev & 0xFFFFFF
    f[GD.MODE] = 1 if kind == Gc.EV_DRAWOUT else 0
    f[GD.SEAT] = Gc.seat_of(arg) if not f[GD.MODE] else 0
    f[GD.K] = Gc.knocker_total(arg) if kind == Gc.EV_KNOCK else 0
    total = 0
    if kind == Gc.EV_KNOCK:
        total = Gc.knock_opponent(arg)
    elif kind == Gc.EV_GIN:
        total = Gc.gin_opponent(arg)
        f[GD.CONTRACT] = 0 if Gc.gin_no_contract(arg) else 1
    elif arg & 1:
        total = Gc.drawout_total(arg, 0)
    GD.set_first_total(app, total)
    if Gc.has_bonus(arg) and kind != Gc.EV_DRAWOUT:
        bonus = Gc.knock_bonus if kind == Gc.EV_KNOCK else Gc.gin_bonus
        f[GD.B0] = bonus(arg, 0)
        f[GD.B1] = bonus(arg, 1)
    f[GD.KEEP] = 3


def press(app, key):
    if key == OK:
        s = app.scorer.s
        if s.hlen:
            keep(app, s)
        app.really_undo()
    elif key == BACK:
        app.follow()
