# Undo a finished hand? BACK on the first screen of a new deal (or after the game is
# over) would take back the result that closed the last hand: ask first.
from micropython import const

from firmware.ui import draw as D

# Copies of engine_core/codes.py (private: no heap on the device; tests/test_private_codes.py)
_LAST_DEALER = const(17)
_LAST_THROWN = const(18)
_LAST_BIDDER = const(19)
_LAST_BID = const(20)
_LAST_CONTRACT = const(22)
_LAST_MADE = const(23)
_LAST_AWARD = const(25)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_OK = const(3)
_BACK = const(4)
_LINE = const(10)

HELP = "OK undo it  BACK keep it"


def hand_words(app, s):
    """The last finished hand in a few words: `Di bid 30, fives: made (Us +1)`."""
    if s.last(_LAST_THROWN):
        return "%s dealt: all passed, thrown in" % app.names[s.last(_LAST_DEALER)]
    b = s.last(_LAST_BIDDER)
    made = s.last(_LAST_MADE) == 1
    out = "%s bid %s, %s: %s" % (app.names[b], D.bid_words(s, s.last(_LAST_BID)),
                                 D.contract_words(s.last(_LAST_CONTRACT)),
                                 "made" if made else "set")
    return out


def draw(app, fb):
    s = app.s
    D.center(fb, "Undo hand %d?" % s.hands(), 4, 2)
    y = 30
    for line in D.wrap(hand_words(app, s), D.cols(fb)):
        D.center(fb, line, y)
        y += _LINE
    y += 4
    i = 0
    while i < s.sides:
        a = s.last(_LAST_AWARD + i)
        if a:
            D.center(fb, "%s %+d comes off" % (app.side_name(i), a), y)
            y += _LINE
        i += 1
    if s.over():
        D.center(fb, "the game opens again", y)
    fb.rect(0, 0, fb.width, D.help_top(fb, HELP) + 1, _BLACK)
    D.help(fb, HELP)


def press(app, key):
    if key == _OK:
        app.really_undo()
    elif key == _BACK:
        app.follow()
