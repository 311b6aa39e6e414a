# Moving a cursor through the engine's legal bids or contracts (positions of its legal
# walk), wrapping at the ends, and the keys of a bid: the bidding screen's, and the
# score's at a fresh deal (where the first seat bids). The walk allocates nothing.
from engine_core import codes as C
from engine_core import sitting as S
from firmware.ui import LONG, NEXT, OK, PREV

_PASS = C.event(C.EV_BID, C.PASS)


def first(s):
    return s.next_legal(-1)


def step(s, j, n):
    """The position n legal actions after j (before it when n < 0), wrapping."""
    while n > 0:
        j = s.next_legal(j)
        if j < 0:
            j = s.next_legal(-1)
        n -= 1
    while n < 0:
        j = before(s, j)
        n += 1
    return j


def before(s, j):
    # The legal position before j, or the last one when j is the first.
    k = s.next_legal(-1)
    prev = -1
    while k >= 0 and k != j:
        prev = k
        k = s.next_legal(k)
    if prev >= 0:
        return prev
    last = k
    while k >= 0:
        last = k
        k = s.next_legal(k)
    return last


def find(s, code):
    """The position of a legal bid or contract code, or -1."""
    j = s.next_legal(-1)
    while j >= 0:
        if s.legal_at(j) == code:
            return j
        j = s.next_legal(j)
    return -1


def bid_press(app, key):
    """A bid's keys: the arrows through the legal bids (held: 5 at a time, pass counting
    as the lowest bid, so that 30 and pass held up both give 35); OK takes the bid under
    the cursor, OK held takes it and passes for the seats after it. False for any other
    key."""
    s = app.s
    if key == NEXT or key == PREV:
        app.cur = step(s, app.cur, 1 if key == NEXT else -1)
    elif key == LONG | NEXT or key == LONG | PREV:
        n = 5 if key == LONG | NEXT else -5
        if n > 0 and s.legal_at(app.cur) == C.PASS:
            n += 1
        app.cur = step(s, app.cur, n)
    elif key == OK or key == LONG | OK:
        if app.take(C.event(C.EV_BID, s.legal_at(app.cur))):
            if key != OK:
                rest_pass(app)
            app.follow()
    else:
        return False
    return True


def rest_pass(app):
    """Pass for the seats after the one that just bid, while passing is legal and the
    auction lasts (a forced dealer is left to bid)."""
    s = app.s
    hands = s.hands()
    n = s.seats
    while n and s.phase() == S.BIDDING and s.hands() == hands and not s.check(_PASS):
        if not app.take(_PASS):
            return
        n -= 1


def around(s, j, words):
    """Where the arrows lead from position j: `< 84   30 >`."""
    return "< %s   %s >" % (words(s, s.legal_at(step(s, j, -1))),
                            words(s, s.legal_at(step(s, j, 1))))
