# Bidding: the seat in turn picks among its legal bids only. The cursor starts on pass
# whenever passing is legal (OK out of habit never records a bid), else on the lowest
# bid (a forced dealer). ▶ held steps 5 up, ◀ held goes to the mark bids (42, 84); OK
# held takes the bid and passes for the seats after it.
from engine_core import codes as C
from engine_core import variants as V
from firmware import fonts
from firmware.display import BLACK
from firmware.ui import BACK
from firmware.ui import draw as D
from firmware.ui import walk

HELP = "<> bid  hold <%s >+5\nOK (hold: rest pass)  BACK undo"   # walk.held
HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK
_PASS = C.event(C.EV_BID, C.PASS)


def enter(app):
    app.cur = walk.first(app.s)


def headline(app):
    """The line over the choice: the standing bid, or that none stands yet."""
    s = app.s
    h = s.high_bid()
    if h >= 0:
        return "high bid: %s (%s)" % (D.bid_words(s, h), app.names[s.bidder()])
    if s.check(_PASS):
        return "no bid yet: dealer must bid"
    return "no bid yet"


def draw(app, fb):
    s = app.s
    w = fb.width
    D.top(app, fb)
    y = D.LINE + 3
    fb.text(headline(app), 0, y, BLACK)
    code = s.legal_at(app.cur)
    if code != C.PASS and s.row[V.MARK] and code >= C.MARKS and code < C.GAME:
        D.right(fb, "%d marks" % (code - C.MARKS), y)
    elif code == C.PLUNGE or code == C.SPLASH:
        D.right(fb, "%d marks" % (s.bid_value(code) // s.row[V.MARK]), y)
    y += D.LINE + 4
    who = app.names[s.seat()] + " bids"
    big = 3 if fb.height >= 120 else 2
    hp = HELP % walk.held(s)
    bottom = D.help_top(fb, hp)
    if w >= 240:
        fonts.text(fb, who, 2, y + (fonts.DIGIT_H * big - 16) // 2, 2, BLACK)
        _value(s, fb, code, y, big, w // 3)
    else:
        D.center(fb, who, y, 2)
        y += 20
        _value(s, fb, code, y, big, 0)
    # Where the arrows lead: the mark bids are one or two presses of < from pass.
    D.right(fb, walk.around(s, app.cur, D.bid_words), bottom - 9)
    D.help(fb, hp)


def _value(s, fb, code, y, big, x0):
    if code == C.PASS or code >= C.GAME:
        word = D.bid_words(s, code)
        number = 0
    else:
        word = None
        number = s.bid_value(code)
    D.choice(fb, x0, y, word, number, big)


def press(app, key):
    if not walk.bid_press(app, key) and key == BACK:
        app.undo()
