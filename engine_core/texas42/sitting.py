# A sitting of any 42-family game: the auction, the contract, tricks and results, on the
# scoring (scoring.py) and the undo history (history.py) it builds on. The event path
# (apply, undo, the legal-bid walk) allocates nothing: the state is one array of small
# ints (its slots: state.py), the history one bytearray of coded events.
from array import array

from engine_core.compat import const
from engine_core import codes as C
from engine_core.texas42 import variants as V
from engine_core.texas42.variants import sides
from engine_core import errors as E
from engine_core import codec
from engine_core.texas42.scoring import Scoring
from engine_core.texas42 import slots as S

_PLUNGE_DOUBLES = const(4)
_SPLASH_DOUBLES = const(3)
_ALL_DOUBLES = const(7)

_HISTORY = const(384)    # bytes of coded events kept for undo (compacted when full)


class Sitting(Scoring):
    """The state of one sitting. Feed it events with apply() (history.py: apply, check,
    undo); it returns 0 or a refusal."""

    def __init__(self, rules, dealer=0, history=_HISTORY):
        self.rules = rules
        self.row = rules.row
        r = rules.row
        self.seats = r[V.SEATS]
        self.sides = sides(r)
        self.st = array("h", bytes(2 * S.N_SLOTS))
        self._base = array("h", bytes(2 * S.N_SLOTS))   # state where the history starts
        self.codec = codec
        self._init_history(history)
        self.restart(dealer)

    def restart(self, dealer=0):
        """Start the sitting again from its first deal, with the same rules."""
        st = self.st
        i = 0
        while i < S.N_SLOTS:
            st[i] = 0
            i += 1
        st[S.DEALER] = dealer % self.seats
        self._new_game_state()
        self._new_deal()
        self._clear_history()

    # ---- reading the state (no allocation) ----
    def phase(self):
        return self.st[S.PHASE]

    def seat(self):
        """Whose action it is: the bidder in turn, who names the contract, or the leader."""
        st = self.st
        p = st[S.PHASE]
        if p == C.BIDDING:
            return st[S.TURN]
        if p == C.TRUMP:
            return self._namer()
        if p == C.PLAY:
            return st[S.LEADER]
        return -1

    def high_bid(self):
        return self.st[S.HIGH]

    def high_value(self):
        return self.st[S.VALUE]

    def bidder(self):
        return self.st[S.BIDDER]

    def contract(self):
        return self.st[S.CONTRACT]

    def tricks_played(self):
        return self.st[S.TRACKED]

    def side_points(self, bidding):
        """Points (tricks in Moon) the bidding side, or the opponents, took in tracked tricks."""
        return self.st[S.BPTS] if bidding else self.st[S.OPTS]

    def count_caught(self):
        return self.st[S.CAUGHT]

    def seat_tricks(self, seat):
        return self.st[S.SEAT_TRICKS + seat]

    def partner(self, seat):
        if not self.row[V.TEAMS]:
            return -1
        return (seat + 2) % self.seats

    def bid_value(self, code):
        """The value of a bid code in points (tricks) at this point of the auction."""
        r = self.row
        if code < C.MARKS:
            return code
        if code < C.GAME:
            return (code - C.MARKS) * r[V.MARK]
        if code == C.GAME:
            return 5 * r[V.MARK]
        marks = self.rules.plunge_marks if code == C.PLUNGE else self.rules.splash_marks
        v = marks * r[V.MARK]
        h = self.st[S.VALUE]
        if h >= v:
            v = (h // r[V.MARK] + 1) * r[V.MARK]
        return v

    # ---- checks: return a refusal code, change nothing ----
    def _check(self, ev):
        kind = ev >> 24
        arg = ev & 0xFFFFFF
        st = self.st
        if kind == C.EV_MADE or kind == C.EV_POINTS or kind == C.EV_TRICKS:
            if st[S.CONFIRM]:
                return self._check_confirm(kind, arg)
        if st[S.ENDED]:
            return E.E_OVER
        if kind == C.EV_BID:
            return self._check_bid(arg)
        if kind == C.EV_TRUMP:
            return self._check_contract(arg)
        if st[S.PHASE] != C.PLAY:
            return E.E_NAME_CONTRACT if st[S.PHASE] == C.TRUMP else E.E_NO_PLAY
        if kind == C.EV_TRICK:
            return self._check_trick(arg >> 8, arg & 0xFF)
        if kind == C.EV_MADE:
            return self._check_made(arg)
        if kind == C.EV_POINTS:
            return self._check_points(arg & 0xFF, arg >> 8)
        if kind == C.EV_TRICKS:
            if self.rules.scoring != V.TRICKS:
                return E.E_TRICKS_MOON
            return self._check_tricks(arg)
        return E.E_BAD_EVENT

    def _forced(self):
        # The dealer may not pass when everyone else has passed with no bid standing.
        st = self.st
        return (self.rules.all_pass == V.FORCED and st[S.HIGH] < 0
                and st[S.TURN] == st[S.DEALER])

    def _check_bid(self, code):
        st = self.st
        r = self.row
        rules = self.rules
        if st[S.PHASE] != C.BIDDING:
            return E.E_NOT_BIDDING
        if code == C.PASS:
            return E.E_DEALER_MUST_BID if self._forced() else E.OK
        if st[S.HIGH] == C.GAME:
            return E.E_AFTER_GAME
        mark = r[V.MARK]
        if code <= C.MAX_NUMBER:
            if code == mark or (code == r[V.SHOOT] and code):
                pass
            elif (code < rules.min_bid or code > r[V.TOP_NUMBER]
                  or (code - rules.min_bid) % r[V.STEP]):
                return E.E_BID_RANGE
            elif code < rules.forced_min and self._forced():
                return E.E_FORCED_MIN   # "forced 31": the forced dealer's own least bid
        elif code < C.GAME:
            top = r[V.TOP_MARKS] or C.MAX_MARKS
            if not mark or code < C.MARKS + 2 or code > C.MARKS + top:
                return E.E_BID_RANGE
        elif code == C.GAME:
            if rules.scoring != V.POINTS or not mark:
                return E.E_GAME_POINTS
            if st[S.VALUE] != 4 * mark:
                return E.E_GAME_STEP
            return E.OK
        elif code == C.PLUNGE or code == C.SPLASH:
            if not (rules.plunge if code == C.PLUNGE else rules.splash):
                return E.E_NOT_ALLOWED
            # Each needs its doubles in the bidder's hand: the set has only seven.
            if st[S.CLAIMED] + self._doubles(code) > _ALL_DOUBLES:
                return E.E_DOUBLES
            if self.bid_value(code) > C.MAX_MARKS * mark:
                return E.E_BID_RANGE
            return E.OK
        else:
            return E.E_BAD_EVENT
        v = self.bid_value(code)
        h = st[S.VALUE]
        if v <= h:
            return E.E_BID_LOW
        if mark and v >= mark:
            if h >= mark:
                if v != h + mark:
                    return E.E_MARK_STEP
            elif v > 2 * mark:
                return E.E_OPENING
            if rules.scoring == V.POINTS and v > 4 * mark:
                return E.E_GAME_NEXT
        return E.OK

    def _doubles(self, code):
        return _PLUNGE_DOUBLES if code == C.PLUNGE else _SPLASH_DOUBLES

    def _namer(self):
        st = self.st
        b = st[S.BIDDER]
        h = st[S.HIGH]
        if h == C.PLUNGE or h == C.SPLASH:
            return self.partner(b)
        return b

    def _check_contract(self, c):
        st = self.st
        rules = self.rules
        if st[S.PHASE] != C.TRUMP:
            return E.E_NOT_TRUMP
        if c <= 8:
            return E.E_SUIT if c > self.row[V.TOP_SUIT] else E.OK
        if c == C.DOUBLES or c == C.FOLLOW_ME:
            return E.OK
        h = st[S.HIGH]
        if c >= C.NELLO_HIGH and c <= C.SEVENS:
            if c == C.SEVENS:
                if not rules.sevens:
                    return E.E_NOT_ALLOWED
            elif not rules.nello:
                return E.E_NOT_ALLOWED
            elif not rules.nello_doubles >> (c - C.NELLO_HIGH) & 1:
                return E.E_NELLO_DOUBLES
            if h == C.PLUNGE or h == C.SPLASH:
                return E.E_PARTNER_TRUMP
            if c == C.SEVENS:
                return E.E_NEEDS_MARK if st[S.VALUE] < self.row[V.MARK] else E.OK
            if rules.nello_by:
                # Only a dealer forced to bid after every other seat passed (all_pass
                # forced), whatever the bid.
                d = st[S.DEALER]
                others = ((1 << self.seats) - 1) & ~(1 << d)
                if (rules.all_pass == V.FORCED and st[S.BIDDER] == d
                        and st[S.PASSED] & others == others):
                    return E.OK
                return E.E_NELLO_BY
            return E.E_NELLO_MIN if st[S.VALUE] < rules.nello_min else E.OK
        return E.E_BAD_EVENT

    def _check_trick(self, seat, count):
        st = self.st
        if seat >= self.seats:
            return E.E_NO_SEAT
        c = st[S.CONTRACT]
        if c >= C.NELLO_HIGH and c <= C.NELLO_SUIT and seat == self.partner(st[S.BIDDER]):
            return E.E_NELLO_PARTNER
        if count % 5:
            return E.E_COUNT_STEP
        if count and not self.row[V.COUNT]:
            return E.E_NO_COUNT
        if st[S.CAUGHT] + count > self.row[V.COUNT]:
            return E.E_COUNT_OVER
        if (st[S.TRACKED] == self.row[V.TRICKS_PER_HAND] - 1
                and st[S.CAUGHT] + count != self.row[V.COUNT]):
            return E.E_COUNT_SHORT  # a hand is worth all its count: the last trick places it
        return E.OK

    def _need(self):
        # What the bidding side must take: -1 nothing (nello), total for every trick.
        st = self.st
        c = st[S.CONTRACT]
        r = self.row
        if c >= C.NELLO_HIGH and c <= C.NELLO_SUIT:
            return -1
        v = st[S.VALUE]
        h = st[S.HIGH]
        if (c == C.SEVENS or h >= C.GAME or (r[V.MARK] and v >= r[V.MARK])
                or (r[V.SHOOT] and v == r[V.SHOOT])):
            return r[V.TOTAL]
        return v

    def _made(self, points):
        need = self._need()
        return points == 0 if need < 0 else points >= need

    def _check_made(self, made):
        rules = self.rules
        if rules.scoring == V.POINTS:
            return E.E_NEED_POINTS
        if rules.scoring == V.TRICKS:
            return E.E_NEED_TRICKS if not self.row[V.TEAMS] else E.E_NEED_POINTS
        st = self.st
        need = self._need()
        total = self.row[V.TOTAL]
        if made:
            if need < 0:
                return E.E_NELLO_TRICK if st[S.BPTS] else E.OK
            if total - st[S.OPTS] < need:
                return E.E_TRACKED
            return E.OK
        if need >= 0 and st[S.BPTS] >= need:
            return E.E_TRACKED
        return E.OK

    def _check_points(self, points, claim):
        r = self.row
        st = self.st
        if self.rules.scoring == V.TRICKS and not r[V.TEAMS]:
            return E.E_NEED_TRICKS
        if points > r[V.TOTAL]:
            return E.E_POINTS_RANGE
        if points < st[S.BPTS] or r[V.TOTAL] - points < st[S.OPTS]:
            return E.E_TRACKED
        if claim:
            made = self._made(points)
            if claim == 2 and not made:
                return E.E_NELLO_TRICK if self._need() < 0 else (
                    E.E_SHORT_ALL if self._need() == r[V.TOTAL] else E.E_CLAIM)
            if claim == 1 and made:
                return E.E_CLAIM
        return E.OK

    def _check_confirm(self, kind, arg):
        # A result right after the last trick closed the deal: it must say the same.
        st = self.st
        if kind == C.EV_MADE:
            return E.OK if arg == st[S.LAST_MADE] else E.E_CONFIRM
        if kind == C.EV_POINTS:
            points = arg & 0xFF
            claim = arg >> 8
            if points != st[S.LAST_POINTS] or (claim and (claim == 2) != (st[S.LAST_MADE] == 1)):
                return E.E_CONFIRM
            return E.OK
        i = 0
        while i < 6:
            if arg >> (4 * i) & 15 != (st[S.LAST_TRICKS + i] if i < self.seats else 0):
                return E.E_CONFIRM
            i += 1
        return E.OK

    # ---- doing: only called with an event that passed its check ----
    def _do(self, ev):
        kind = ev >> 24
        arg = ev & 0xFFFFFF
        st = self.st
        if st[S.CONFIRM]:
            st[S.CONFIRM] = 0
            if kind == C.EV_MADE or kind == C.EV_POINTS or kind == C.EV_TRICKS:
                return
        if kind == C.EV_BID:
            self._do_bid(arg)
        elif kind == C.EV_TRUMP:
            st[S.CONTRACT] = arg
            st[S.PHASE] = C.PLAY
            st[S.LEADER] = self._namer()
        elif kind == C.EV_TRICK:
            self._do_trick(arg >> 8, arg & 0xFF)
        elif kind == C.EV_MADE:
            self._close(arg, -1, 0)
        elif kind == C.EV_POINTS:
            points = arg & 0xFF
            self._close(1 if self._made(points) else 0, points, 0)
        elif kind == C.EV_TRICKS:
            i = 0
            while i < self.seats:
                st[S.SEAT_TRICKS + i] = arg >> (4 * i) & 15
                i += 1
            points = self._side_tricks()
            self._close(1 if self._made(points) else 0, points, 1)

    def _do_bid(self, code):
        st = self.st
        seats = self.seats
        turn = st[S.TURN]
        if code == C.PASS:
            st[S.PASSED] |= 1 << turn
        else:
            st[S.VALUE] = self.bid_value(code)
            st[S.HIGH] = code
            st[S.BIDDER] = turn
            if code == C.PLUNGE or code == C.SPLASH:
                st[S.CLAIMED] += self._doubles(code)
        st[S.ACTED] += 1
        if self.row[V.AUCTION] == V.ONE_ROUND:
            if st[S.ACTED] < seats:
                st[S.TURN] = (turn + 1) % seats
                return
        else:
            everyone = (1 << seats) - 1
            others = everyone & ~(1 << st[S.BIDDER]) if st[S.BIDDER] >= 0 else everyone
            if st[S.PASSED] & others != others:
                s = (turn + 1) % seats
                while st[S.PASSED] >> s & 1:
                    s = (s + 1) % seats
                st[S.TURN] = s
                return
        if st[S.BIDDER] >= 0:
            st[S.PHASE] = C.TRUMP
        else:
            self._throw_in()

    def _do_trick(self, seat, count):
        st = self.st
        st[S.TRACKED] += 1
        st[S.SEAT_TRICKS + seat] += 1
        st[S.CAUGHT] += count
        pts = self.row[V.TRICK_POINTS] + count
        if self.side_of(seat) == self.side_of(st[S.BIDDER]):
            st[S.BPTS] += pts
        else:
            st[S.OPTS] += pts
        st[S.LEADER] = seat
        if st[S.TRACKED] == self.row[V.TRICKS_PER_HAND]:
            points = st[S.BPTS]
            self._close(1 if self._made(points) else 0, points, 1)
            st[S.CONFIRM] = 1

    def _side_tricks(self):
        st = self.st
        side = self.side_of(st[S.BIDDER])
        n = 0
        i = 0
        while i < self.seats:
            if self.side_of(i) == side:
                n += st[S.SEAT_TRICKS + i]
            i += 1
        return n

    # ---- deals ----
    def _next_deal(self):
        st = self.st
        st[S.DEALER] = (st[S.DEALER] + 1) % self.seats
        self._new_deal()

    def _new_deal(self):
        st = self.st
        st[S.PHASE] = C.BIDDING
        st[S.TURN] = (st[S.DEALER] + 1) % self.seats
        st[S.ACTED] = 0
        st[S.PASSED] = 0
        st[S.HIGH] = -1
        st[S.VALUE] = 0
        st[S.BIDDER] = -1
        st[S.CONTRACT] = -1
        st[S.LEADER] = -1
        st[S.TRACKED] = 0
        st[S.BPTS] = 0
        st[S.OPTS] = 0
        st[S.CAUGHT] = 0
        st[S.CLAIMED] = 0
        i = 0
        while i < 6:
            st[S.SEAT_TRICKS + i] = 0
            i += 1

    # ---- legal actions, in the order the log lists them ----
    def _candidate(self, j):
        # The j-th bid code in ascending order of value (named bids after the number of
        # equal value), or -1 when j names no code.
        if j == 0:
            return C.PASS
        if j <= C.MAX_NUMBER:
            return j
        j -= C.MAX_NUMBER + 1
        k = j // 4 + 2
        if k > C.MAX_MARKS:
            return -2
        w = j % 4
        if w == 0:
            return C.MARKS + k
        code = C.GAME + w - 1
        mark = self.row[V.MARK]
        if not mark or self.bid_value(code) != k * mark:
            return -1
        return code

    def next_legal(self, j):
        """The position after j of the next legal action (start with -1), or -1 at the end.
        Read the action itself with legal_at(position)."""
        p = self.st[S.PHASE]
        j += 1
        if p == C.BIDDING:
            while True:
                code = self._candidate(j)
                if code == -2:
                    return -1
                if code >= 0 and not self._check_bid(code):
                    return j
                j += 1
        if p == C.TRUMP:
            while j < C.SEVENS + 1:
                if not self._check_contract(j):
                    return j
                j += 1
        return -1

    def legal_at(self, j):
        """The bid code (bidding) or contract code (trump) at position j."""
        if self.st[S.PHASE] == C.BIDDING:
            return self._candidate(j)
        return j

    def legal_count(self):
        n = 0
        j = self.next_legal(-1)
        while j >= 0:
            n += 1
            j = self.next_legal(j)
        return n

    # ---- messages (only on a refusal: these may allocate) ----
    def bid_name(self, code):
        if code == C.PASS:
            return "pass"
        if code == C.GAME:
            return "game"
        if code == C.PLUNGE:
            return "plunge"
        if code == C.SPLASH:
            return "splash"
        return str(self.bid_value(code))

    def reason(self, err, ev):
        """A short message a player can act on, for refusal `err` of event `ev`."""
        from engine_core.texas42 import messages
        return messages.explain(self, err, ev)
