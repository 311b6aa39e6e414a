# Moving a cursor through the engine's legal bids or contracts (positions of its legal
# walk), wrapping at the ends, and the keys of a bid: the bidding screen's, and the
# score's at a fresh deal (where the first seat bids). The walk allocates nothing.
from engine_core.codes import BIDDING, EV_BID, GAME, MARKS, PASS
from engine_core.texas42.variants import FORCED, MARK, TOP_NUMBER
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
    held: 5 up from the bid shown, pass counting as 30, so that 30 and pass both give
    35; ◀ held: the mark bids, 42 then 84); OK takes the bid under the cursor, OK held
    takes it and passes for the seats after it. False for any other key."""
    s = app.scorer.s
    if key == NEXT or key == PREV:
        app.cur = step(s, app.cur, 1 if key == NEXT else -1)
    elif key == LONG | NEXT:
        app.cur = up5(s, app.cur)
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


def up5(s, j):
    """▶ held: the first legal number bid at least 5 above the bid shown (pass counts as
    30, the lowest opening), so that the step is from what the player sees; past the
    number bids (the mark bids are ◀ held's), the first choice again."""
    c = s.legal_at(j)
    want = (30 if c == PASS or c >= GAME else s.bid_value(c)) + 5
    k = s.next_legal(-1)
    while k >= 0:
        b = s.legal_at(k)
        if b != PASS and b < MARKS and s.bid_value(b) >= want:
            return k
        k = s.next_legal(k)
    return s.next_legal(-1)


def help_text(app):
    """The footer of a bid: every key, the held ones in words. OK held passes for the
    seats after the bidder, and says how the auction then ends with the bid under the
    cursor: `hold OK: 30, rest pass`, `hold OK: all pass, N must bid`, `hold OK: all
    pass, S has it`. The dealer (the last to bid) is not offered it."""
    s = app.scorer.s
    m = s.row[MARK]
    marks = "%d/%d" % (m, 2 * m) if m else str(s.row[TOP_NUMBER])
    ok = "OK bid  BACK undo  M menu"
    if s.seat() != s.dealer():
        ok = "OK bid  hold OK: %s\nBACK undo  M menu" % _ends(app)
    return "<> bid  hold >: +5  hold <: %s\n%s" % (marks, ok)


def _ends(app):
    # How OK held ends the auction, the bid under the cursor taken first.
    from firmware.ui.draw import bid_words
    s = app.scorer.s
    names = app.scorer.names
    c = s.legal_at(app.cur)
    if c != PASS:
        return bid_words(s, c) + ", rest pass"
    b = s.bidder()
    if b >= 0:
        return "all pass, %s has it" % names[b]
    if s.rules.all_pass == FORCED:
        return "all pass, %s must bid" % names[s.dealer()]
    return "all pass, deal again"


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
