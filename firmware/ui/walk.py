# Moving a cursor through the engine's legal bids or contracts (positions of its legal
# walk), wrapping at the ends, and the keys of a bid: the bidding screen's, and the
# score's at a fresh deal (where the first seat bids). The walk allocates nothing.
from engine_core.codes import BIDDING, EV_BID, GAME, PASS
from engine_core.texas42.variants import MARK, TOP_NUMBER
from firmware.codes import LONG, NEXT, OK, PREV

PASS_BID = EV_BID << 24 | PASS     # the event of a pass


def first(s):
    return s.next_legal(-1)


def step(s, j, n):
    """The position n legal actions after j (before it when n < 0), wrapping."""
    if n < 0:
        n %= s.legal_count()
    while n > 0:
        j = s.next_legal(j)
        if j < 0:
            j = s.next_legal(-1)
        n -= 1
    return j


def find(s, code):
    """The position of a legal bid or contract code, or -1."""
    j = s.next_legal(-1)
    while j >= 0:
        if s.legal_at(j) == code:
            return j
        j = s.next_legal(j)
    return -1


def again(app, kind, j):
    """Where a cursor starts: on the bid or contract (an event of `kind`) that BACK has
    just taken back, so that it can be changed or taken again; else at j."""
    ev = app.undone
    if ev >> 24 == kind:
        k = find(app.scorer.s, ev & 0xFFFFFF)
        if k >= 0:
            return k
    return j


def bid_press(app, key):
    """A bid's keys (their footer: help_text): the arrows through the legal bids (▶
    held: 5 up, pass counting as the lowest bid, so that 30 and pass both give 35; ◀
    held: the mark bids, 42 then 84); OK takes the bid under the cursor, OK held takes
    it and passes for the seats after it. False for any other key."""
    s = app.scorer.s
    if key == NEXT or key == PREV:
        app.cur = step(s, app.cur, 1 if key == NEXT else -1)
    elif key == LONG | NEXT:
        app.cur = step(s, app.cur, 6 if s.legal_at(app.cur) == PASS else 5)
    elif key == LONG | PREV:
        # The first legal mark bid above the cursor's (42, 84, 3 marks ...; the top
        # number bid in games without marks); after the last, the first legal bid.
        c = s.legal_at(app.cur)
        low = s.row[MARK] or s.row[TOP_NUMBER]
        j = s.next_legal(-1)
        app.cur = j
        while j >= 0:
            b = s.legal_at(j)
            if b > c and b >= low and b < GAME:
                app.cur = j
                break
            j = s.next_legal(j)
    elif key == OK or key == LONG | OK:
        if app.take(EV_BID << 24 | s.legal_at(app.cur)):
            if key != OK:
                rest_pass(app)
            app.follow()
    else:
        return False
    return True


def help_text(s):
    """The footer of a bid: every key, the held ones in words. OK held passes for the
    seats after the bidder, so the dealer (the last to bid) is not offered it."""
    m = s.row[MARK]
    marks = "%d/%d" % (m, 2 * m) if m else str(s.row[TOP_NUMBER])
    ok = "OK bid  BACK undo  M menu"
    if s.seat() != s.dealer():
        ok = "OK bid  hold OK: bid, rest pass\nBACK undo  M menu"
    return "<> bid  hold >: +5  hold <: %s\n%s" % (marks, ok)


def rest_pass(app):
    """Pass for the seats after the one that just bid, while passing is legal and the
    auction lasts (a forced dealer is left to bid)."""
    s = app.scorer.s
    hands = s.hands()
    n = s.seats
    while n and s.phase() == BIDDING and s.hands() == hands and not s.check(PASS_BID):
        if not app.take(PASS_BID):
            return
        n -= 1


def around(s, j, words):
    """Where the arrows lead from position j: `< 84   30 >`."""
    return "< %s   %s >" % (words(s, s.legal_at(step(s, j, -1))),
                            words(s, s.legal_at(step(s, j, 1))))
