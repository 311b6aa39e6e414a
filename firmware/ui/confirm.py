# Undo a finished hand? BACK on the first screen of a new deal (or after the game is
# over) would take back the result that closed the last hand: ask first.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.texas42.slots import (LAST_AWARD, LAST_BID, LAST_BIDDER, LAST_CONTRACT,
    LAST_DEALER, LAST_MADE, LAST_THROWN)
from engine_core.texas42.variants import MARKS
from firmware.codes import BACK, BLACK, LINE, OK
from firmware.ui import draw as D

HELP = "OK undo it  BACK keep it  M menu"


def hand_words(app, s):
    """The last finished hand in a few words: `Di bid 30, fives: made (Us +1)`."""
    if s.last(LAST_THROWN):
        return "%s dealt: all passed, thrown in" % app.scorer.names[s.last(LAST_DEALER)]
    b = s.last(LAST_BIDDER)
    made = s.last(LAST_MADE) == 1
    out = "%s bid %s, %s: %s" % (app.scorer.names[b], D.bid_words(s, s.last(LAST_BID)),
                                 D.contract_words(s.last(LAST_CONTRACT)),
                                 "made" if made else "set")
    return out


def draw(app, fb):
    s = app.scorer.s
    D.center(fb, "Undo hand %d?" % s.hands(), 4, 2)
    y = 30
    for line in D.wrap(hand_words(app, s), D.cols(fb)):
        D.center(fb, line, y)
        y += LINE
    y += 4
    i = 0
    while i < s.sides:
        a = s.last(LAST_AWARD + i)
        if a:
            D.center(fb, "%s %+d comes off" % (app.scorer.side_name(i), a), y)
            y += LINE
        i += 1
    if s.over():
        D.center(fb, "the game opens again", y)
    fb.rect(0, 0, fb.width, D.help_top(fb, HELP) + 1, BLACK)
    D.help(fb, HELP)


def press(app, key):
    if key == OK:
        app.really_undo()
    elif key == BACK:
        app.follow()


def saved(app):
    """What a hand saved by a held key gave, shown on the score until the next press:
    `Them +1 mark: hand 4 saved, BACK undoes`."""
    s = app.scorer.s
    out = ""
    i = 0
    while i < s.sides:
        a = s.last(LAST_AWARD + i)
        if a:
            out += "%s%s %+d" % (", " if out else "", app.scorer.side_name(i), a)
        i += 1
    if s.rules.scoring == MARKS:
        out += " mark" if abs(s.last(LAST_AWARD) + s.last(LAST_AWARD + 1)) == 1 else " marks"
    return "%s: hand %d saved, BACK undoes" % (out or "no score", s.hands())
