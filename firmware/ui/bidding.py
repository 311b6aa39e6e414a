# Bidding: the seat in turn picks among its legal bids only, the bids of the deal so far
# on the line above. The cursor starts on pass whenever passing is legal (OK out of habit
# never records a bid), else on the lowest bid (a forced dealer). ▶ held steps 5 up, ◀
# held goes to the mark bids (42, 84); OK held takes the bid and passes for the seats
# after it (not offered to the dealer, who bids last). After BACK the cursor is on the
# bid taken back. The footer is walk.help_text's.
from engine_core.codes import EV_BID, GAME, MARKS, PASS, PLUNGE, SPLASH
from engine_core.texas42.variants import MARK
from firmware import fonts
from firmware.codes import BACK, BLACK, DIGIT_H, LINE
from firmware.ui import draw as D
from firmware.ui import walk

HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK


def enter(app):
    app.cur = walk.again(app, EV_BID, walk.first(app.scorer.s))


def headline(app):
    """The line over the choice: the bids of this deal so far, `bids: E pass, S 30`, or
    that none is made yet."""
    s = app.scorer.s
    forced = s.check(walk.PASS_BID)
    # The seats after the dealer that have bid; their bids are the history's last events
    # (an undo takes its event out of the history).
    k = (s.seat() - s.dealer() - 1) % s.seats
    if not k:
        return "no bid yet"
    if forced:
        return "all passed: dealer must bid"
    hist = s.hist
    codec = s.codec
    ends = []
    pos = 0
    while pos < s.hlen:
        ends.append(pos)
        pos += codec.length_at(hist, pos)
    out = "bids:"
    seat = s.dealer() + 1
    for pos in ends[len(ends) - k:]:
        out += " %s %s," % (app.scorer.names[seat % s.seats],
                            D.bid_words(s, codec.decode_at(hist, pos) & 0xFFFFFF))
        seat += 1
    return out[:-1]


def draw(app, fb):
    s = app.scorer.s
    w = fb.width
    D.top(app, fb)
    y = LINE + 3
    line = headline(app)
    fb.text(line[:D.cols(fb)], 0, y, BLACK)
    code = s.legal_at(app.cur)
    marks = 0
    if code != PASS and s.row[MARK] and code >= MARKS and code < GAME:
        marks = code - MARKS
    elif code == PLUNGE or code == SPLASH:
        marks = s.bid_value(code) // s.row[MARK]
    if marks and len(line) + 9 <= D.cols(fb):
        D.right(fb, "%d marks" % marks, y)
    y += LINE + 4
    who = app.scorer.names[s.seat()] + " bids"
    big = 3 if fb.height >= 120 else 2
    hp = walk.help_text(app)
    bottom = D.help_top(fb, hp)
    if w >= 240:
        fonts.text(fb, who, 2, y + (DIGIT_H * big - 16) // 2, 2, BLACK)
        _value(s, fb, code, y, big, w // 3)
    else:
        D.center(fb, who, y, 2)
        y += 20
        _value(s, fb, code, y, big, 0)
    # Where the arrows lead: the mark bids are one or two presses of < from pass.
    D.right(fb, walk.around(s, app.cur, D.bid_words), bottom - 9)
    D.help(fb, hp)


def _value(s, fb, code, y, big, x0):
    if code == PASS or code >= GAME:
        word = D.bid_words(s, code)
        number = 0
    else:
        word = None
        number = s.bid_value(code)
    D.choice(fb, x0, y, word, number, big)


def press(app, key):
    if not walk.bid_press(app, key) and key == BACK:
        app.undo()
