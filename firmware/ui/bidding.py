# Bidding: the seat in turn picks among its legal bids only. The cursor starts on pass
# whenever passing is legal (OK out of habit never records a bid), else on the lowest
# bid (a forced dealer). ▶ held steps 5 up, ◀ held goes to the mark bids (42, 84); OK
# held takes the bid and passes for the seats after it.
from micropython import const

from firmware import fonts
from firmware.ui import draw as D
from firmware.ui import walk

# Copies of engine_core/codes.py (private: no heap on the device; tests/test_private_codes.py)
_PASS = const(0)
_MARKS = const(0x60)
_GAME = const(0x70)
_PLUNGE = const(0x71)
_SPLASH = const(0x72)
# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_MARK = const(10)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_BACK = const(4)
_LINE = const(10)
_DIGIT_H = const(12)

HELP = "<> bid  hold <%s >+5\nOK (hold: rest pass)  BACK undo"   # walk.held
HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK
_PASS_BID = const(0x1000000)    # the event of a pass: EV_BID << 24 | PASS


def enter(app):
    app.cur = walk.first(app.s)


def headline(app):
    """The line over the choice: the standing bid, or that none stands yet."""
    s = app.s
    h = s.high_bid()
    if h >= 0:
        return "high bid: %s (%s)" % (D.bid_words(s, h), app.names[s.bidder()])
    if s.check(_PASS_BID):
        return "no bid yet: dealer must bid"
    return "no bid yet"


def draw(app, fb):
    s = app.s
    w = fb.width
    D.top(app, fb)
    y = _LINE + 3
    fb.text(headline(app), 0, y, _BLACK)
    code = s.legal_at(app.cur)
    if code != _PASS and s.row[_MARK] and code >= _MARKS and code < _GAME:
        D.right(fb, "%d marks" % (code - _MARKS), y)
    elif code == _PLUNGE or code == _SPLASH:
        D.right(fb, "%d marks" % (s.bid_value(code) // s.row[_MARK]), y)
    y += _LINE + 4
    who = app.names[s.seat()] + " bids"
    big = 3 if fb.height >= 120 else 2
    hp = HELP % walk.held(s)
    bottom = D.help_top(fb, hp)
    if w >= 240:
        fonts.text(fb, who, 2, y + (_DIGIT_H * big - 16) // 2, 2, _BLACK)
        _value(s, fb, code, y, big, w // 3)
    else:
        D.center(fb, who, y, 2)
        y += 20
        _value(s, fb, code, y, big, 0)
    # Where the arrows lead: the mark bids are one or two presses of < from pass.
    D.right(fb, walk.around(s, app.cur, D.bid_words), bottom - 9)
    D.help(fb, hp)


def _value(s, fb, code, y, big, x0):
    if code == _PASS or code >= _GAME:
        word = D.bid_words(s, code)
        number = 0
    else:
        word = None
        number = s.bid_value(code)
    D.choice(fb, x0, y, word, number, big)


def press(app, key):
    if not walk.bid_press(app, key) and key == _BACK:
        app.undo()
