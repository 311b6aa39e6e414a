# The short messages that explain the engine's refusals. Loaded only when a refusal is
# shown (it allocates), and unloaded again on the device.
from engine_core.compat import const

# Copies of engine_core/codes.py (private: no heap on the device; tests/test_private_codes.py)
_PLUNGE = const(0x71)
_SPLASH = const(0x72)
# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_POINTS = const(1)
_TRICKS_PER_HAND = const(2)
_COUNT = const(4)
_TOTAL = const(5)
_TOP_SUIT = const(6)
_TOP_NUMBER = const(9)
_MARK = const(10)
_STEP = const(11)
_SHOOT = const(12)

# Refusal codes (engine_core/errors.py; private here, so that they cost no heap on
# the device: tests/test_refusal_codes.py checks that they match).
_E_OVER = const(1)
_E_NOT_BIDDING = const(2)
_E_DEALER_MUST_BID = const(3)
_E_AFTER_GAME = const(4)
_E_BID_RANGE = const(5)
_E_GAME_POINTS = const(6)
_E_GAME_STEP = const(7)
_E_NOT_ALLOWED = const(8)
_E_BAD_EVENT = const(9)
_E_BID_LOW = const(10)
_E_MARK_STEP = const(11)
_E_OPENING = const(12)
_E_GAME_NEXT = const(13)
_E_NOT_TRUMP = const(14)
_E_SUIT = const(15)
_E_NELLO_DOUBLES = const(16)
_E_PARTNER_TRUMP = const(17)
_E_NEEDS_MARK = const(18)
_E_NO_SEAT = const(19)
_E_NELLO_PARTNER = const(20)
_E_COUNT_STEP = const(21)
_E_NO_COUNT = const(22)
_E_COUNT_OVER = const(23)
_E_NEED_POINTS = const(24)
_E_NEED_TRICKS = const(25)
_E_NELLO_TRICK = const(26)
_E_TRACKED = const(27)
_E_POINTS_RANGE = const(28)
_E_SHORT_ALL = const(29)
_E_CLAIM = const(30)
_E_TRICKS_MOON = const(31)
_E_TRICKS_SEATS = const(32)
_E_TRICKS_SUM = const(33)
_E_CONFIRM = const(34)
_E_NAME_CONTRACT = const(35)
_E_NO_PLAY = const(36)
_E_UNDO = const(37)
_E_FULL = const(38)
_E_DOUBLES = const(39)


def explain(s, err, ev):
    """The message for refusal `err` of event `ev` by sitting `s` (allocates; refusals only)."""
    arg = ev & 0xFFFFFF
    row = s.row
    total = row[_TOTAL]
    if err == _E_OVER:
        return "the sitting is over"
    if err == _E_NOT_BIDDING:
        return "the bidding is closed"
    if err == _E_DEALER_MUST_BID:
        return "everyone else passed: the dealer must bid (forced bid)"
    if err == _E_AFTER_GAME:
        return "nothing beats a game bid"
    if err == _E_BID_RANGE:
        if arg <= 0x5F:
            lo = s.rules.min_bid
            top = row[_MARK] or row[_TOP_NUMBER]
            extra = ", or %d" % row[_SHOOT] if row[_SHOOT] else ""
            step = " in steps of %d" % row[_STEP] if row[_STEP] > 1 else ""
            return "bid %d is not a bid here (bids run from %d to %d%s%s)" % (
                arg, lo, top, step, extra)
        return "bid %s is not a bid in %s" % (s.bid_name(arg), s.rules.name)
    if err == _E_GAME_POINTS:
        return "a game bid needs scoring points"
    if err == _E_GAME_STEP:
        return "a game bid may only follow a bid of %d" % (4 * row[_MARK])
    if err == _E_NOT_ALLOWED:
        names = {_PLUNGE: "plunge", _SPLASH: "splash"}
        if ev >> 24 == 1:
            return "%s is not allowed by the house options" % names.get(arg, "that bid")
        return "%s is not allowed by the house options" % contract_name(arg)
    if err == _E_BID_LOW:
        return "bid %s does not beat the standing bid %s" % (
            s.bid_name(arg), s.bid_name(s.high_bid()))
    if err == _E_MARK_STEP:
        return "bid %s: after a bid of %d the next bid is exactly %d" % (
            s.bid_name(arg), s.high_value(), s.high_value() + row[_MARK])
    if err == _E_OPENING:
        return "bid %s: no one may open above 2 marks (%d)" % (s.bid_name(arg), 2 * row[_MARK])
    if err == _E_GAME_NEXT:
        return "bid %s: in points scoring the bid after %d is game" % (
            s.bid_name(arg), 4 * row[_MARK])
    if err == _E_NOT_TRUMP:
        if s.phase() == 0:
            return "the contract is named after the bidding"
        return "the contract is already named"
    if err == _E_SUIT:
        return "suit %d is not in this set (suits 0 to %d)" % (arg, row[_TOP_SUIT])
    if err == _E_NELLO_DOUBLES:
        return "nello with doubles %s is not allowed by the house options" % (
            ("high", "low", "suit")[arg - 11])
    if err == _E_PARTNER_TRUMP:
        return "after %s the partner names a suit, doubles or follow-me" % s.bid_name(s.high_bid())
    if err == _E_NEEDS_MARK:
        return "%s needs a bid of at least one mark (%d)" % (contract_name(arg), row[_MARK])
    if err == _E_NO_SEAT:
        return "seat %d is not at the table (seats 0 to %d)" % (arg >> 8, s.seats - 1)
    if err == _E_NELLO_PARTNER:
        return "seat %d sits out this nello hand and cannot win a trick" % (arg >> 8)
    if err == _E_COUNT_STEP:
        return "count %d is not a multiple of 5" % (arg & 0xFF)
    if err == _E_NO_COUNT:
        return "there is no count in %s" % s.rules.name
    if err == _E_COUNT_OVER:
        return "count %d would make %d, more than the %d count in a hand" % (
            arg & 0xFF, s.count_caught() + (arg & 0xFF), row[_COUNT])
    if err == _E_NEED_POINTS:
        if s.rules.scoring == _POINTS:
            return "points scoring needs the points taken, not only made or set"
        return "give the bidding team's tricks (points), not only made or set"
    if err == _E_NEED_TRICKS:
        return "Moon results need each seat's tricks"
    if err == _E_NELLO_TRICK:
        return "a made nello cannot have taken a trick"
    if err == _E_TRACKED:
        return "the result disagrees with the tracked tricks (bidders %d, opponents %d)" % (
            s.side_points(True), s.side_points(False))
    if err == _E_POINTS_RANGE:
        return "points %d are outside 0..%d" % (arg & 0xFF, total)
    if err == _E_SHORT_ALL:
        return "a made bid of %s needs all %d points, not %d" % (
            s.bid_name(s.high_bid()), total, arg & 0xFF)
    if err == _E_CLAIM:
        verdict = "made" if s._made(arg & 0xFF) else "set"
        return "%d points means the bid of %s was %s" % (
            arg & 0xFF, s.bid_name(s.high_bid()), verdict)
    if err == _E_TRICKS_MOON:
        return "a list of each seat's tricks is for Moon; give points"
    if err == _E_TRICKS_SEATS:
        return "tricks must list the %d seats" % s.seats
    if err == _E_TRICKS_SUM:
        n = 0
        for i in range(6):
            n += arg >> (4 * i) & 15
        return "tricks add up to %d, not %d" % (n, row[_TRICKS_PER_HAND])
    if err == _E_CONFIRM:
        return "the result disagrees with the tracked tricks that scored the hand"
    if err == _E_NAME_CONTRACT:
        return "the contract must be named first"
    if err == _E_NO_PLAY:
        return "no hand is being played: bid first"
    if err == _E_UNDO:
        return "nothing to undo"
    if err == _E_FULL:
        return "the sitting's history is full"
    if err == _E_DOUBLES:
        return "%s: the set has 7 doubles and the plunge or splash already bid holds %s" % (
            s.bid_name(arg), "4" if s.high_bid() == _PLUNGE else "3 or more")
    if err == _E_BAD_EVENT:
        return "not an event"
    return "refused (%d)" % err


def contract_name(c):
    if c <= 8:
        return str(c)
    return ("doubles", "follow-me", "nello", "nello", "nello", "sevens")[c - 9]
