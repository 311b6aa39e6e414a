# Undo a finished gin hand? BACK at the start of a hand (or after the game is over) would
# take back the ending that closed the last hand: ask first.
from micropython import const

from engine_core.gin import sitting as Gn
from firmware.ui import draw as D

# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_OK = const(3)
_BACK = const(4)
_LINE = const(10)

HELP = "OK undo it  BACK keep it"


def hand_words(app, s):
    """The last finished hand in a few words: `Bob knocked: knock stands, Bob +23`."""
    end = s.last(Gn.LAST_END)
    seat = s.last(Gn.LAST_SEAT)
    w = s.last(Gn.LAST_WINNER)
    if end == Gn.END_DRAWOUT:
        out = "draw-out"
    elif end == Gn.END_GIN:
        out = "%s gin" % app.names[seat]
    else:
        out = "%s knocked: %s" % (app.names[seat],
                                  "undercut" if end == Gn.END_UNDERCUT else "knock stands")
    if w < 0:
        return out + ", nobody scored"
    return "%s, %s +%d" % (out, app.names[w], s.last(Gn.LAST_POINTS))


def draw(app, fb):
    s = app.s
    D.center(fb, "Undo hand %d?" % s.hands(), 4, 2)
    y = 30
    for line in D.wrap(hand_words(app, s), D.cols(fb)):
        D.center(fb, line, y)
        y += _LINE
    if s.over():
        D.center(fb, "the game opens again", y + 4)
    fb.rect(0, 0, fb.width, D.help_top(fb, HELP) + 1, _BLACK)
    D.help(fb, HELP)


def press(app, key):
    if key == _OK:
        app.really_undo()
    elif key == _BACK:
        app.follow()
