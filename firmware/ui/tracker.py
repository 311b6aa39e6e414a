# The trick tracker: each trick's winning side and the count it caught, one line a trick,
# the running points, and the hand closed as soon as it is decided (marks): "set: they
# have 13". The choices: [close], each side with each count it may still catch, result.
from micropython import const

from engine_core import codec
from firmware.ui import draw as D

# Copies of engine_core/codes.py (private: no heap on the device; tests/test_private_codes.py)
_EV_TRUMP = const(2)
_EV_TRICK = const(3)
_EV_MADE = const(4)
# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_MARKS = const(0)
_TEAMS = const(1)
_TRICKS_PER_HAND = const(2)
_COUNT = const(4)
_TOTAL = const(5)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_PREV = const(1)
_NEXT = const(2)
_OK = const(3)
_BACK = const(4)
_LINE = const(10)
_LONG = const(0x10)

HELP = "<> winner, count (hold: side)\nOK take  BACK undo"
_COL = const(96)     # pixels a trick's entry takes: "11 Them 30" and a gap
_CLOSE = -1
_RESULT = -2


def _per_side(s):
    left = s.row[_COUNT] - s.count_caught()
    top = left if left < 30 else 30
    return top // 5 + 1


def _sides(s):
    return 2 if s.row[_TEAMS] else s.seats


def decided(s):
    """0 while the hand is open; 1 made, 2 set once the tracked tricks decide it (marks)."""
    if s.rules.scoring != _MARKS or not s.row[_TEAMS]:
        return 0
    need = D.need(s)
    b = s.side_points(True)
    o = s.side_points(False)
    if need < 0:
        return 2 if b else 0
    if b >= need:
        return 1
    if o > s.row[_TOTAL] - need:
        return 2
    return 0


def count(s):
    return (1 if decided(s) else 0) + _sides(s) * _per_side(s) + 1


def item(s, i):
    """(side, count) of choice i; side _CLOSE closes the hand, _RESULT enters a result."""
    if decided(s):
        if i == 0:
            return _CLOSE, 0
        i -= 1
    k = _per_side(s)
    if i < _sides(s) * k:
        return i // k, (i % k) * 5
    return _RESULT, 0


def winner(s, side):
    # The seat taking a trick for a side: the bidder for the bidders, the next seat for
    # the opponents (the engine scores by team); in Moon the side is the seat.
    if not s.row[_TEAMS]:
        return side
    return s.bidder() if side == 0 else (s.bidder() + 1) % s.seats


def enter(app):
    app.cur = 0


def _label(app, side):
    s = app.s
    if not s.row[_TEAMS]:
        return app.names[side]
    bt = s.side_of(s.bidder())
    return app.teams[bt if side == 0 else 1 - bt]


def _status(app):
    s = app.s
    d = decided(s)
    total = s.row[_TOTAL]
    need = D.need(s)
    if d == 1:
        return "made: they cannot reach %d" % (total - need + 1)
    if d == 2:
        if need < 0:
            return "set: the bidder took a trick"
        return "set: they have %d" % s.side_points(False)
    if not s.row[_TEAMS]:
        return "%s has %d of %d" % (app.names[s.bidder()], s.seat_tricks(s.bidder()),
                                     s.high_value())
    return "%s %d  %s %d  (need %d)" % (_label(app, 0), s.side_points(True), _label(app, 1),
                                       s.side_points(False), need if need >= 0 else 0)


def _tricks(app, fb, y):
    # One entry a trick played so far: the tricks after the contract in the history.
    s = app.s
    hist = s.hist
    end = s.hlen
    pos = 0
    start = 0
    while pos < end:
        ev = codec.decode_at(hist, pos)
        pos += codec.length_at(hist, pos)
        if ev >> 24 == _EV_TRUMP:
            start = pos
    per = fb.width // _COL
    n = 0
    pos = start
    while pos < end:
        ev = codec.decode_at(hist, pos)
        pos += codec.length_at(hist, pos)
        if ev >> 24 != _EV_TRICK:
            continue
        seat = (ev >> 8) & 0xFF
        caught = ev & 0xFF
        side = seat if not s.row[_TEAMS] else (
            0 if s.side_of(seat) == s.side_of(s.bidder()) else 1)
        x = (n % per) * _COL
        yy = y + (n // per) * _LINE
        t = "%d %s" % (n + 1, _label(app, side)[:4])
        if caught:
            t += " " + str(caught)
        fb.text(t, x, yy, _BLACK)
        n += 1
    return (n + per - 1) // per


def draw(app, fb):
    s = app.s
    D.top(app, fb)
    y = _LINE + 3
    fb.text(D.contract_line(app), 0, y, _BLACK)
    D.right(fb, "trick %d/%d" % (s.tricks_played() + 1, s.row[_TRICKS_PER_HAND]), y)
    y += _LINE + 2
    per = fb.width // _COL
    rows = (s.row[_TRICKS_PER_HAND] + per - 1) // per
    _tricks(app, fb, y)
    y += rows * _LINE + 2
    fb.text(_status(app)[:D.cols(fb)], 0, y, _BLACK)
    y += _LINE + 2
    side, caught = item(s, app.cur)
    if side == _CLOSE:
        word = "close: " + ("made" if decided(s) == 1 else "set")
    elif side == _RESULT:
        word = "result..."
    else:
        word = _label(app, side)
        if s.row[_COUNT]:
            word += " +" + str(caught)
    D.choice(fb, 0, y, word, 0, 2)
    D.help(fb, HELP)


def press(app, key):
    s = app.s
    n = count(s)
    if key == _NEXT or key == _PREV:
        app.cur = (app.cur + (1 if key == _NEXT else -1)) % n
    elif key == _LONG | _NEXT or key == _LONG | _PREV:
        # Jump to the other side's choices.
        app.cur = (app.cur + (_per_side(s) if key == _LONG | _NEXT else -_per_side(s))) % n
    elif key == _OK:
        side, caught = item(s, app.cur)
        if side == _CLOSE:
            if app.take(_EV_MADE << 24 | (1 if decided(s) == 1 else 0)):
                app.follow()
        elif side == _RESULT:
            app.hand_mode = 2
            app.follow()
        elif app.take(_EV_TRICK << 24 | winner(s, side) << 8 | caught):
            app.follow()
    elif key == _BACK:
        app.undo()
