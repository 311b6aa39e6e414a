# The short messages that explain the engine's refusals. Loaded only when a refusal is
# shown (it allocates), and unloaded again on the device.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core import codes as C
from engine_core.texas42 import variants as V
from engine_core import errors as E


def explain(s, err, ev):
    """The message for refusal `err` of event `ev` by sitting `s` (allocates; refusals only)."""
    arg = ev & 0xFFFFFF
    row = s.row
    total = row[V.TOTAL]
    if err == E.E_OVER:
        return "the sitting is over"
    if err == E.E_NOT_BIDDING:
        return "the bidding is closed"
    if err == E.E_DEALER_MUST_BID:
        return "everyone else passed: the dealer must bid (forced bid)"
    if err == E.E_AFTER_GAME:
        return "nothing beats a game bid"
    if err == E.E_BID_RANGE:
        if arg <= 0x5F:
            lo = s.rules.min_bid
            top = row[V.MARK] or row[V.TOP_NUMBER]
            extra = ", or %d" % row[V.SHOOT] if row[V.SHOOT] else ""
            step = " in steps of %d" % row[V.STEP] if row[V.STEP] > 1 else ""
            return "bid %d is not a bid here (bids run from %d to %d%s%s)" % (
                arg, lo, top, step, extra)
        return "bid %s is not a bid in %s" % (s.bid_name(arg), s.rules.name)
    if err == E.E_GAME_POINTS:
        return "a game bid needs scoring points"
    if err == E.E_GAME_STEP:
        return "a game bid may only follow a bid of %d" % (4 * row[V.MARK])
    if err == E.E_NOT_ALLOWED:
        names = {C.PLUNGE: "plunge", C.SPLASH: "splash"}
        if ev >> 24 == 1:
            return "%s is not allowed by the house options" % names.get(arg, "that bid")
        return "%s is not allowed by the house options" % contract_name(arg)
    if err == E.E_BID_LOW:
        return "bid %s does not beat the standing bid %s" % (
            s.bid_name(arg), s.bid_name(s.high_bid()))
    if err == E.E_MARK_STEP:
        return "bid %s: after a bid of %d the next bid is exactly %d" % (
            s.bid_name(arg), s.high_value(), s.high_value() + row[V.MARK])
    if err == E.E_OPENING:
        return "bid %s: no one may open above 2 marks (%d)" % (s.bid_name(arg), 2 * row[V.MARK])
    if err == E.E_GAME_NEXT:
        return "bid %s: in points scoring the bid after %d is game" % (
            s.bid_name(arg), 4 * row[V.MARK])
    if err == E.E_NOT_TRUMP:
        if s.phase() == 0:
            return "the contract is named after the bidding"
        return "the contract is already named"
    if err == E.E_SUIT:
        return "suit %d is not in this set (suits 0 to %d)" % (arg, row[V.TOP_SUIT])
    if err == E.E_NELLO_DOUBLES:
        return "nello with doubles %s is not allowed by the house options" % (
            ("high", "low", "suit")[arg - 11])
    if err == E.E_PARTNER_TRUMP:
        return "after %s the partner names a suit, doubles or follow-me" % s.bid_name(s.high_bid())
    if err == E.E_NEEDS_MARK:
        return "%s needs a bid of at least one mark (%d)" % (contract_name(arg), row[V.MARK])
    if err == E.E_NO_SEAT:
        return "seat %d is not at the table (seats 0 to %d)" % (arg >> 8, s.seats - 1)
    if err == E.E_NELLO_PARTNER:
        return "seat %d sits out this nello hand and cannot win a trick" % (arg >> 8)
    if err == E.E_COUNT_STEP:
        return "count %d is not a multiple of 5" % (arg & 0xFF)
    if err == E.E_NO_COUNT:
        return "there is no count in %s" % s.rules.name
    if err == E.E_COUNT_OVER:
        return "count %d would make %d, more than the %d count in a hand" % (
            arg & 0xFF, s.count_caught() + (arg & 0xFF), row[V.COUNT])
    if err == E.E_NEED_POINTS:
        if s.rules.scoring == V.POINTS:
            return "points scoring needs the points taken, not only made or set"
        return "give the bidding team's tricks (points), not only made or set"
    if err == E.E_NEED_TRICKS:
        return "Moon results need each seat's tricks"
    if err == E.E_NELLO_TRICK:
        return "a made nello cannot have taken a trick"
    if err == E.E_TRACKED:
        return "the result disagrees with the tracked tricks (bidders %d, opponents %d)" % (
            s.side_points(True), s.side_points(False))
    if err == E.E_POINTS_RANGE:
        return "points %d are outside 0..%d" % (arg & 0xFF, total)
    if err == E.E_SHORT_ALL:
        return "a made bid of %s needs all %d points, not %d" % (
            s.bid_name(s.high_bid()), total, arg & 0xFF)
    if err == E.E_CLAIM:
        verdict = "made" if s._made(arg & 0xFF) else "set"
        return "%d points means the bid of %s was %s" % (
            arg & 0xFF, s.bid_name(s.high_bid()), verdict)
    if err == E.E_TRICKS_MOON:
        return "a list of each seat's tricks is for Moon; give points"
    if err == E.E_TRICKS_SEATS:
        return "tricks must list the %d seats" % s.seats
    if err == E.E_TRICKS_SUM:
        n = 0
        for i in range(6):
            n += arg >> (4 * i) & 15
        return "tricks add up to %d, not %d" % (n, row[V.TRICKS_PER_HAND])
    if err == E.E_CONFIRM:
        return "the result disagrees with the tracked tricks that scored the hand"
    if err == E.E_NAME_CONTRACT:
        return "the contract must be named first"
    if err == E.E_NO_PLAY:
        return "no hand is being played: bid first"
    if err == E.E_UNDO:
        return "nothing to undo"
    if err == E.E_FULL:
        return "the sitting's history is full"
    if err == E.E_DOUBLES:
        return "%s: the set has 7 doubles and the plunge or splash already bid holds %s" % (
            s.bid_name(arg), "4" if s.high_bid() == C.PLUNGE else "3 or more")
    if err == E.E_FORCED_MIN:
        return "bid %d: the forced dealer bids at least %d (house rule forced_min)" % (
            arg, s.rules.forced_min)
    if err == E.E_NELLO_MIN:
        return "nello needs a bid of at least %s (house rule nello_min), not %s" % (
            _value_name(s, s.rules.nello_min), s.bid_name(s.high_bid()))
    if err == E.E_NELLO_BY:
        return ("nello is only for the dealer forced to bid after everyone passed "
                "(house rule nello_by)")
    if err == E.E_COUNT_SHORT:
        left = row[V.COUNT] - s.count_caught()
        return "the last trick must take the %d count left (a hand has %d), not %d" % (
            left, row[V.COUNT], arg & 0xFF)
    if err == E.E_BAD_EVENT:
        return "not an event"
    return "refused (%d)" % err


def _value_name(s, v):
    # A bid value as the players say it: 42 and more in marks too ("84 (2 marks)").
    m = s.row[V.MARK]
    if m and v >= m and v % m == 0:
        return "%d (%d mark%s)" % (v, v // m, "s" if v > m else "")
    return str(v)


def contract_name(c):
    if c <= 8:
        return str(c)
    return ("doubles", "follow-me", "nello", "nello", "nello", "sevens")[c - 9]
