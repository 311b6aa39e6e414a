# Bidding: the seat in turn picks among its legal bids only. The cursor starts on the
# likelier answer: the lowest bid when none stands (or the dealer is forced), else pass.
from engine_core import codes as C
from engine_core import variants as V
from firmware import fonts
from firmware.display import BLACK
from firmware.ui import BACK, LONG, NEXT, OK, PREV
from firmware.ui import draw as D
from firmware.ui import walk

HELP = "<> choose  OK bid  BACK undo"


def enter(app):
    s = app.s
    j = walk.first(s)
    if s.high_bid() < 0 and s.legal_at(j) == C.PASS:
        k = s.next_legal(j)
        if k >= 0:
            j = k
    app.cur = j


def draw(app, fb):
    s = app.s
    w = fb.width
    D.top(app, fb)
    y = D.LINE + 3
    h = s.high_bid()
    if h >= 0:
        line = "high bid: %s (%s)" % (D.bid_words(s, h), app.names[s.bidder()])
    else:
        line = "no bid yet"
    fb.text(line, 0, y, BLACK)
    code = s.legal_at(app.cur)
    if code != C.PASS and s.row[V.MARK] and code >= C.MARKS and code < C.GAME:
        D.right(fb, "%d marks" % (code - C.MARKS), y)
    elif code == C.PLUNGE or code == C.SPLASH:
        D.right(fb, "%d marks" % (s.bid_value(code) // s.row[V.MARK]), y)
    y += D.LINE + 4
    who = app.names[s.seat()] + " bids"
    big = 3 if fb.height >= 120 else 2
    bottom = D.help_top(fb, HELP)
    if w >= 240:
        fonts.text(fb, who, 2, y + (fonts.DIGIT_H * big - 16) // 2, 2, BLACK)
        _value(s, fb, code, y, big, w // 3)
    else:
        D.center(fb, who, y, 2)
        y += 20
        _value(s, fb, code, y, big, 0)
    n = s.legal_count()
    D.right(fb, "%d choices" % n, bottom - 9)
    D.help(fb, HELP)


def _value(s, fb, code, y, big, x0):
    if code == C.PASS or code >= C.GAME:
        word = D.bid_words(s, code)
        number = 0
    else:
        word = None
        number = s.bid_value(code)
    D.choice(fb, x0, y, word, number, big)


def press(app, key):
    s = app.s
    if key == NEXT or key == PREV:
        app.cur = walk.step(s, app.cur, 1 if key == NEXT else -1)
    elif key == LONG | NEXT or key == LONG | PREV:
        app.cur = walk.step(s, app.cur, 5 if key == LONG | NEXT else -5)
    elif key == OK:
        if app.take(C.event(C.EV_BID, s.legal_at(app.cur))):
            app.follow()
    elif key == BACK:
        app.undo()
