# The contract: the bid winner (the partner after plunge or splash) names trump among
# the legal names only. The cursor starts on the last hand's trump (and says so), else
# sixes. In a marks game OK held names it and takes the hand as made (BACK undoes that).
from micropython import const

from firmware.ui import draw as D
from firmware.ui import walk

# Copies of engine_core/codes.py (private: no heap on the device; tests/test_private_codes.py)
_EV_TRUMP = const(2)
_EV_MADE = const(4)
_DOUBLES = const(9)
_LAST_THROWN = const(18)
_LAST_CONTRACT = const(22)
# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_MARKS = const(0)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_PREV = const(1)
_NEXT = const(2)
_OK = const(3)
_BACK = const(4)
_LINE = const(10)
_LONG = const(0x10)

HELP = "<> choose (hold: 3 a step)\nOK name it  BACK undo"
MADE = "<> choose (hold: 3)  BACK undo\nOK name it (hold: and made)"
HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK


def _made(s):
    # Whether OK held also takes the hand as made: a game scored in marks.
    return s.rules.scoring == _MARKS


def _last(s):
    # The position of the last hand's trump, when it may be named again; else -1.
    if s.hands() and not s.last(_LAST_THROWN):
        return walk.find(s, s.last(_LAST_CONTRACT))
    return -1


def enter(app):
    s = app.s
    j = _last(s)
    if j < 0:
        j = walk.find(s, 6)
    if j < 0:
        j = walk.first(s)
    app.cur = j


def draw(app, fb):
    s = app.s
    D.top(app, fb)
    y = _LINE + 3
    fb.text(D.contract_line(app), 0, y, _BLACK)
    y += _LINE + 4
    D.center(fb, app.names[s.seat()] + " names", y, 2)
    y += 22
    c = s.legal_at(app.cur)
    word = D.contract_words(c)
    D.choice(fb, 0, y, word, 0, 2)
    y += 28
    # Every legal name, the one under the cursor boxed.
    line = ""
    j = walk.first(s)
    at = 0
    while j >= 0:
        if j == app.cur:
            at = len(line)
        line += _short(s.legal_at(j)) + " "
        j = s.next_legal(j)
    n = D.cols(fb)
    if len(line) > n:
        first = at - n // 2
        if first < 0:
            first = 0
        if first > len(line) - n:
            first = len(line) - n
        line = line[first:first + n]
        at -= first
    x = (fb.width - len(line) * 8) // 2
    fb.text(line, x, y, _BLACK)
    k = len(_short(c))
    fb.rect(x + at * 8 - 2, y - 2, k * 8 + 3, 12, _BLACK)
    if app.cur == _last(s):
        D.center(fb, "the last hand's trump", y + _LINE + 3)
    D.help(fb, MADE if _made(s) else HELP)


def _short(c):
    if c <= 8:
        return str(c)
    return ("doubles", "follow-me", "nello", "nel-lo", "nel-su", "sevens")[c - _DOUBLES]


# Like bidding's press(): a shared one would sit in the resident walk module, which
# measured 2.7 KB more heap after boot (bench/bench_ui.py).
def press(app, key):
    s = app.s
    if key == _NEXT or key == _PREV:
        app.cur = walk.step(s, app.cur, 1 if key == _NEXT else -1)
    elif key == _LONG | _NEXT or key == _LONG | _PREV:
        app.cur = walk.step(s, app.cur, 3 if key == _LONG | _NEXT else -3)
    elif key == _OK or key == _LONG | _OK:
        if app.take(_EV_TRUMP << 24 | s.legal_at(app.cur)):
            if key != _OK and _made(s):
                app.take(_EV_MADE << 24 | 1)
            app.follow()
    elif key == _BACK:
        app.undo()
