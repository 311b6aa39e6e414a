# The trick tracker: each trick's winning side and the count it caught, one line a trick,
# the running points, and the hand closed as soon as it is decided (marks): "set: they
# have 13". The choices: [close], each side with each count it may still catch, result.
# The last trick must take the whole count left (a hand is worth all its points): the
# status says how much, and the engine refuses the trick until it adds up.
from micropython import const

from engine_core import codec
from engine_core.codes import EV_MADE, EV_TRICK, EV_TRUMP
from engine_core.texas42.variants import COUNT, MARKS, TEAMS, TOTAL, TRICKS_PER_HAND
from firmware.codes import BACK, BLACK, LINE, LONG, NEXT, OK, PREV
from firmware.ui import draw as D

HELP = "<> winner, count  hold <>: side\nOK take  BACK undo  M menu"
_COL = const(96)     # pixels a trick's entry takes: "11 Them 30" and a gap
_CLOSE = -1
_RESULT = -2


def _per_side(s):
    left = s.row[COUNT] - s.count_caught()
    top = left if left < 30 else 30
    return top // 5 + 1


def _sides(s):
    return 2 if s.row[TEAMS] else s.seats


def decided(s):
    """0 while the hand is open; 1 made, 2 set once the tracked tricks decide it (marks)."""
    if s.rules.scoring != MARKS or not s.row[TEAMS]:
        return 0
    need = D.need(s)
    b = s.side_points(True)
    o = s.side_points(False)
    if need < 0:
        return 2 if b else 0
    if b >= need:
        return 1
    if o > s.row[TOTAL] - need:
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
    if not s.row[TEAMS]:
        return side
    return s.bidder() if side == 0 else (s.bidder() + 1) % s.seats


def enter(app):
    app.cur = 0


def _label(app, side):
    s = app.scorer.s
    if not s.row[TEAMS]:
        return app.scorer.names[side]
    bt = s.side_of(s.bidder())
    return app.scorer.teams[bt if side == 0 else 1 - bt]


def _status(app):
    s = app.scorer.s
    d = decided(s)
    total = s.row[TOTAL]
    need = D.need(s)
    if d == 1:
        return "made: they cannot reach %d" % (total - need + 1)
    if d == 2:
        if need < 0:
            return "set: the bidder took a trick"
        return "set: they have %d" % s.side_points(False)
    if not s.row[TEAMS]:
        return "%s has %d of %d" % (app.scorer.names[s.bidder()], s.seat_tricks(s.bidder()),
                                     s.high_value())
    left = s.row[COUNT] - s.count_caught()
    if left and s.tricks_played() == s.row[TRICKS_PER_HAND] - 1:
        # The last trick places the count left (the engine refuses any other count).
        return "last trick takes the %d count left" % left
    return "%s %d  %s %d  (need %d)" % (_label(app, 0), s.side_points(True), _label(app, 1),
                                       s.side_points(False), need if need >= 0 else 0)


def _tricks(app, fb, y):
    # One entry a trick played so far: the tricks after the contract in the history.
    s = app.scorer.s
    hist = s.hist
    end = s.hlen
    pos = 0
    start = 0
    while pos < end:
        ev = codec.decode_at(hist, pos)
        pos += codec.length_at(hist, pos)
        if ev >> 24 == EV_TRUMP:
            start = pos
    per = fb.width // _COL
    n = 0
    pos = start
    while pos < end:
        ev = codec.decode_at(hist, pos)
        pos += codec.length_at(hist, pos)
        if ev >> 24 != EV_TRICK:
            continue
        seat = (ev >> 8) & 0xFF
        caught = ev & 0xFF
        side = seat if not s.row[TEAMS] else (
            0 if s.side_of(seat) == s.side_of(s.bidder()) else 1)
        x = (n % per) * _COL
        yy = y + (n // per) * LINE
        t = "%d %s" % (n + 1, _label(app, side)[:4])
        if caught:
            t += " " + str(caught)
        fb.text(t, x, yy, BLACK)
        n += 1
    return (n + per - 1) // per


def draw(app, fb):
    s = app.scorer.s
    D.top(app, fb)
    y = LINE + 3
    fb.text(D.contract_line(app), 0, y, BLACK)
    D.right(fb, "trick %d/%d" % (s.tricks_played() + 1, s.row[TRICKS_PER_HAND]), y)
    y += LINE + 2
    per = fb.width // _COL
    rows = (s.row[TRICKS_PER_HAND] + per - 1) // per
    _tricks(app, fb, y)
    y += rows * LINE + 2
    fb.text(_status(app)[:D.cols(fb)], 0, y, BLACK)
    y += LINE + 2
    side, caught = item(s, app.cur)
    if side == _CLOSE:
        word = "close: " + ("made" if decided(s) == 1 else "set")
    elif side == _RESULT:
        word = "result..."
    else:
        word = _label(app, side)
        if s.row[COUNT]:
            word += " +" + str(caught)
    D.choice(fb, 0, y, word, 0, 2)
    D.help(fb, HELP)


def press(app, key):
    s = app.scorer.s
    n = count(s)
    if key == NEXT or key == PREV:
        app.cur = (app.cur + (1 if key == NEXT else -1)) % n
    elif key == LONG | NEXT or key == LONG | PREV:
        # Jump to the other side's choices.
        app.cur = (app.cur + (_per_side(s) if key == LONG | NEXT else -_per_side(s))) % n
    elif key == OK:
        side, caught = item(s, app.cur)
        if side == _CLOSE:
            if app.take(EV_MADE << 24 | (1 if decided(s) == 1 else 0)):
                app.follow()
        elif side == _RESULT:
            app.scorer.hand_mode = 2
            app.follow()
        elif app.take(EV_TRICK << 24 | winner(s, side) << 8 | caught):
            app.follow()
    elif key == BACK:
        app.undo()
