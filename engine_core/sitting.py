# A sitting of any 42-family game: the auction, the contract, tricks and results, on the
# scoring (scoring.py) and the undo history (history.py) it builds on. The event path
# (apply, undo, the legal-bid walk) allocates nothing: the state is one array of small
# ints (its slots: state.py), the history one bytearray of coded events.
from array import array

from engine_core.compat import const
from engine_core.codes import (BIDDING, DOUBLES, EV_BID, EV_MADE, EV_POINTS, EV_TRICK, EV_TRICKS,
                               EV_TRUMP, FOLLOW_ME, GAME, LAST_MADE, LAST_POINTS, LAST_TRICKS, MARKS,
                               MAX_MARKS, MAX_NUMBER, NELLO_HIGH, NELLO_SUIT, PASS, PLAY,
                               PLUNGE, SEVENS, SPLASH, TRUMP)
from engine_core.variants import (AUCTION, COUNT, FORCED, MARK, ONE_ROUND, POINTS,
                                  SEATS, SHOOT, STEP, TEAMS, TOP_MARKS, TOP_NUMBER,
                                  TOP_SUIT, TOTAL, TRICKS, TRICKS_PER_HAND, TRICK_POINTS, sides)
from engine_core.errors import (E_AFTER_GAME, E_BAD_EVENT, E_BID_LOW, E_BID_RANGE, E_CLAIM,
                                E_CONFIRM, E_COUNT_OVER, E_COUNT_STEP, E_DEALER_MUST_BID,
                                E_DOUBLES, E_GAME_NEXT, E_GAME_POINTS, E_GAME_STEP, E_MARK_STEP,
                                E_NAME_CONTRACT, E_NEEDS_MARK, E_NEED_POINTS, E_NEED_TRICKS,
                                E_NELLO_DOUBLES, E_NELLO_PARTNER, E_NELLO_TRICK, E_NOT_ALLOWED,
                                E_NOT_BIDDING, E_NOT_TRUMP, E_NO_COUNT, E_NO_PLAY, E_NO_SEAT,
                                E_OPENING, E_OVER, E_PARTNER_TRUMP, E_POINTS_RANGE, E_SHORT_ALL,
                                E_SUIT, E_TRACKED, E_TRICKS_MOON, OK)
from engine_core import codec
from engine_core.scoring import Scoring
from engine_core.state import (DEALER, ENDED, CONFIRM, PHASE, TURN, ACTED, PASSED, HIGH, VALUE,
                               BIDDER, CONTRACT, LEADER, TRACKED, BPTS, OPTS, CAUGHT, SEAT_TRICKS,
                               CLAIMED, N_SLOTS)

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
        self.seats = r[SEATS]
        self.sides = sides(r)
        self.st = array("h", bytes(2 * N_SLOTS))
        self._base = array("h", bytes(2 * N_SLOTS))   # state where the history starts
        self.codec = codec
        self._init_history(history)
        self.restart(dealer)

    def restart(self, dealer=0):
        """Start the sitting again from its first deal, with the same rules."""
        st = self.st
        i = 0
        while i < N_SLOTS:
            st[i] = 0
            i += 1
        st[DEALER] = dealer % self.seats
        self._new_game_state()
        self._new_deal()
        self._clear_history()

    # ---- reading the state (no allocation) ----
    def phase(self):
        return self.st[PHASE]

    def seat(self):
        """Whose action it is: the bidder in turn, who names the contract, or the leader."""
        st = self.st
        p = st[PHASE]
        if p == BIDDING:
            return st[TURN]
        if p == TRUMP:
            return self._namer()
        if p == PLAY:
            return st[LEADER]
        return -1

    def high_bid(self):
        return self.st[HIGH]

    def high_value(self):
        return self.st[VALUE]

    def bidder(self):
        return self.st[BIDDER]

    def contract(self):
        return self.st[CONTRACT]

    def tricks_played(self):
        return self.st[TRACKED]

    def side_points(self, bidding):
        """Points (tricks in Moon) the bidding side, or the opponents, took in tracked tricks."""
        return self.st[BPTS] if bidding else self.st[OPTS]

    def count_caught(self):
        return self.st[CAUGHT]

    def seat_tricks(self, seat):
        return self.st[SEAT_TRICKS + seat]

    def partner(self, seat):
        if not self.row[TEAMS]:
            return -1
        return (seat + 2) % self.seats

    def bid_value(self, code):
        """The value of a bid code in points (tricks) at this point of the auction."""
        r = self.row
        if code < MARKS:
            return code
        if code < GAME:
            return (code - MARKS) * r[MARK]
        if code == GAME:
            return 5 * r[MARK]
        marks = self.rules.plunge_marks if code == PLUNGE else self.rules.splash_marks
        v = marks * r[MARK]
        h = self.st[VALUE]
        if h >= v:
            v = (h // r[MARK] + 1) * r[MARK]
        return v

    # ---- checks: return a refusal code, change nothing ----
    def _check(self, ev):
        kind = ev >> 24
        arg = ev & 0xFFFFFF
        st = self.st
        if kind == EV_MADE or kind == EV_POINTS or kind == EV_TRICKS:
            if st[CONFIRM]:
                return self._check_confirm(kind, arg)
        if st[ENDED]:
            return E_OVER
        if kind == EV_BID:
            return self._check_bid(arg)
        if kind == EV_TRUMP:
            return self._check_contract(arg)
        if st[PHASE] != PLAY:
            return E_NAME_CONTRACT if st[PHASE] == TRUMP else E_NO_PLAY
        if kind == EV_TRICK:
            return self._check_trick(arg >> 8, arg & 0xFF)
        if kind == EV_MADE:
            return self._check_made(arg)
        if kind == EV_POINTS:
            return self._check_points(arg & 0xFF, arg >> 8)
        if kind == EV_TRICKS:
            if self.rules.scoring != TRICKS:
                return E_TRICKS_MOON
            return self._check_tricks(arg)
        return E_BAD_EVENT

    def _forced(self):
        # The dealer may not pass when everyone else has passed with no bid standing.
        st = self.st
        return (self.rules.all_pass == FORCED and st[HIGH] < 0
                and st[TURN] == st[DEALER])

    def _check_bid(self, code):
        st = self.st
        r = self.row
        rules = self.rules
        if st[PHASE] != BIDDING:
            return E_NOT_BIDDING
        if code == PASS:
            return E_DEALER_MUST_BID if self._forced() else OK
        if st[HIGH] == GAME:
            return E_AFTER_GAME
        mark = r[MARK]
        if code <= MAX_NUMBER:
            if code == mark or (code == r[SHOOT] and code):
                pass
            elif (code < rules.min_bid or code > r[TOP_NUMBER]
                  or (code - rules.min_bid) % r[STEP]):
                return E_BID_RANGE
        elif code < GAME:
            top = r[TOP_MARKS] or MAX_MARKS
            if not mark or code < MARKS + 2 or code > MARKS + top:
                return E_BID_RANGE
        elif code == GAME:
            if rules.scoring != POINTS or not mark:
                return E_GAME_POINTS
            if st[VALUE] != 4 * mark:
                return E_GAME_STEP
            return OK
        elif code == PLUNGE or code == SPLASH:
            if not (rules.plunge if code == PLUNGE else rules.splash):
                return E_NOT_ALLOWED
            # Each needs its doubles in the bidder's hand: the set has only seven.
            if st[CLAIMED] + self._doubles(code) > _ALL_DOUBLES:
                return E_DOUBLES
            if self.bid_value(code) > MAX_MARKS * mark:
                return E_BID_RANGE
            return OK
        else:
            return E_BAD_EVENT
        v = self.bid_value(code)
        h = st[VALUE]
        if v <= h:
            return E_BID_LOW
        if mark and v >= mark:
            if h >= mark:
                if v != h + mark:
                    return E_MARK_STEP
            elif v > 2 * mark:
                return E_OPENING
            if rules.scoring == POINTS and v > 4 * mark:
                return E_GAME_NEXT
        return OK

    def _doubles(self, code):
        return _PLUNGE_DOUBLES if code == PLUNGE else _SPLASH_DOUBLES

    def _namer(self):
        st = self.st
        b = st[BIDDER]
        h = st[HIGH]
        if h == PLUNGE or h == SPLASH:
            return self.partner(b)
        return b

    def _check_contract(self, c):
        st = self.st
        rules = self.rules
        if st[PHASE] != TRUMP:
            return E_NOT_TRUMP
        if c <= 8:
            return E_SUIT if c > self.row[TOP_SUIT] else OK
        if c == DOUBLES or c == FOLLOW_ME:
            return OK
        h = st[HIGH]
        if c >= NELLO_HIGH and c <= SEVENS:
            if c == SEVENS:
                if not rules.sevens:
                    return E_NOT_ALLOWED
            elif not rules.nello:
                return E_NOT_ALLOWED
            elif not rules.nello_doubles >> (c - NELLO_HIGH) & 1:
                return E_NELLO_DOUBLES
            if h == PLUNGE or h == SPLASH:
                return E_PARTNER_TRUMP
            if st[VALUE] < self.row[MARK]:
                return E_NEEDS_MARK
            return OK
        return E_BAD_EVENT

    def _check_trick(self, seat, count):
        st = self.st
        if seat >= self.seats:
            return E_NO_SEAT
        c = st[CONTRACT]
        if c >= NELLO_HIGH and c <= NELLO_SUIT and seat == self.partner(st[BIDDER]):
            return E_NELLO_PARTNER
        if count % 5:
            return E_COUNT_STEP
        if count and not self.row[COUNT]:
            return E_NO_COUNT
        if st[CAUGHT] + count > self.row[COUNT]:
            return E_COUNT_OVER
        return OK

    def _need(self):
        # What the bidding side must take: -1 nothing (nello), total for every trick.
        st = self.st
        c = st[CONTRACT]
        r = self.row
        if c >= NELLO_HIGH and c <= NELLO_SUIT:
            return -1
        v = st[VALUE]
        h = st[HIGH]
        if (c == SEVENS or h >= GAME or (r[MARK] and v >= r[MARK])
                or (r[SHOOT] and v == r[SHOOT])):
            return r[TOTAL]
        return v

    def _made(self, points):
        need = self._need()
        return points == 0 if need < 0 else points >= need

    def _check_made(self, made):
        rules = self.rules
        if rules.scoring == POINTS:
            return E_NEED_POINTS
        if rules.scoring == TRICKS:
            return E_NEED_TRICKS if not self.row[TEAMS] else E_NEED_POINTS
        st = self.st
        need = self._need()
        total = self.row[TOTAL]
        if made:
            if need < 0:
                return E_NELLO_TRICK if st[BPTS] else OK
            if total - st[OPTS] < need:
                return E_TRACKED
            return OK
        if need >= 0 and st[BPTS] >= need:
            return E_TRACKED
        return OK

    def _check_points(self, points, claim):
        r = self.row
        st = self.st
        if self.rules.scoring == TRICKS and not r[TEAMS]:
            return E_NEED_TRICKS
        if points > r[TOTAL]:
            return E_POINTS_RANGE
        if points < st[BPTS] or r[TOTAL] - points < st[OPTS]:
            return E_TRACKED
        if claim:
            made = self._made(points)
            if claim == 2 and not made:
                return E_NELLO_TRICK if self._need() < 0 else (
                    E_SHORT_ALL if self._need() == r[TOTAL] else E_CLAIM)
            if claim == 1 and made:
                return E_CLAIM
        return OK

    def _check_confirm(self, kind, arg):
        # A result right after the last trick closed the deal: it must say the same.
        st = self.st
        if kind == EV_MADE:
            return OK if arg == st[LAST_MADE] else E_CONFIRM
        if kind == EV_POINTS:
            points = arg & 0xFF
            claim = arg >> 8
            if points != st[LAST_POINTS] or (claim and (claim == 2) != (st[LAST_MADE] == 1)):
                return E_CONFIRM
            return OK
        i = 0
        while i < 6:
            if arg >> (4 * i) & 15 != (st[LAST_TRICKS + i] if i < self.seats else 0):
                return E_CONFIRM
            i += 1
        return OK

    # ---- doing: only called with an event that passed its check ----
    def _do(self, ev):
        kind = ev >> 24
        arg = ev & 0xFFFFFF
        st = self.st
        if st[CONFIRM]:
            st[CONFIRM] = 0
            if kind == EV_MADE or kind == EV_POINTS or kind == EV_TRICKS:
                return
        if kind == EV_BID:
            self._do_bid(arg)
        elif kind == EV_TRUMP:
            st[CONTRACT] = arg
            st[PHASE] = PLAY
            st[LEADER] = self._namer()
        elif kind == EV_TRICK:
            self._do_trick(arg >> 8, arg & 0xFF)
        elif kind == EV_MADE:
            self._close(arg, -1, 0)
        elif kind == EV_POINTS:
            points = arg & 0xFF
            self._close(1 if self._made(points) else 0, points, 0)
        elif kind == EV_TRICKS:
            i = 0
            while i < self.seats:
                st[SEAT_TRICKS + i] = arg >> (4 * i) & 15
                i += 1
            points = self._side_tricks()
            self._close(1 if self._made(points) else 0, points, 1)

    def _do_bid(self, code):
        st = self.st
        seats = self.seats
        turn = st[TURN]
        if code == PASS:
            st[PASSED] |= 1 << turn
        else:
            st[VALUE] = self.bid_value(code)
            st[HIGH] = code
            st[BIDDER] = turn
            if code == PLUNGE or code == SPLASH:
                st[CLAIMED] += self._doubles(code)
        st[ACTED] += 1
        if self.row[AUCTION] == ONE_ROUND:
            if st[ACTED] < seats:
                st[TURN] = (turn + 1) % seats
                return
        else:
            everyone = (1 << seats) - 1
            others = everyone & ~(1 << st[BIDDER]) if st[BIDDER] >= 0 else everyone
            if st[PASSED] & others != others:
                s = (turn + 1) % seats
                while st[PASSED] >> s & 1:
                    s = (s + 1) % seats
                st[TURN] = s
                return
        if st[BIDDER] >= 0:
            st[PHASE] = TRUMP
        else:
            self._throw_in()

    def _do_trick(self, seat, count):
        st = self.st
        st[TRACKED] += 1
        st[SEAT_TRICKS + seat] += 1
        st[CAUGHT] += count
        pts = self.row[TRICK_POINTS] + count
        if self.side_of(seat) == self.side_of(st[BIDDER]):
            st[BPTS] += pts
        else:
            st[OPTS] += pts
        st[LEADER] = seat
        if st[TRACKED] == self.row[TRICKS_PER_HAND]:
            points = st[BPTS]
            self._close(1 if self._made(points) else 0, points, 1)
            st[CONFIRM] = 1

    def _side_tricks(self):
        st = self.st
        side = self.side_of(st[BIDDER])
        n = 0
        i = 0
        while i < self.seats:
            if self.side_of(i) == side:
                n += st[SEAT_TRICKS + i]
            i += 1
        return n

    # ---- deals ----
    def _next_deal(self):
        st = self.st
        st[DEALER] = (st[DEALER] + 1) % self.seats
        self._new_deal()

    def _new_deal(self):
        st = self.st
        st[PHASE] = BIDDING
        st[TURN] = (st[DEALER] + 1) % self.seats
        st[ACTED] = 0
        st[PASSED] = 0
        st[HIGH] = -1
        st[VALUE] = 0
        st[BIDDER] = -1
        st[CONTRACT] = -1
        st[LEADER] = -1
        st[TRACKED] = 0
        st[BPTS] = 0
        st[OPTS] = 0
        st[CAUGHT] = 0
        st[CLAIMED] = 0
        i = 0
        while i < 6:
            st[SEAT_TRICKS + i] = 0
            i += 1

    # ---- legal actions, in the order the log lists them ----
    def _candidate(self, j):
        # The j-th bid code in ascending order of value (named bids after the number of
        # equal value), or -1 when j names no code.
        if j == 0:
            return PASS
        if j <= MAX_NUMBER:
            return j
        j -= MAX_NUMBER + 1
        k = j // 4 + 2
        if k > MAX_MARKS:
            return -2
        w = j % 4
        if w == 0:
            return MARKS + k
        code = GAME + w - 1
        mark = self.row[MARK]
        if not mark or self.bid_value(code) != k * mark:
            return -1
        return code

    def next_legal(self, j):
        """The position after j of the next legal action (start with -1), or -1 at the end.
        Read the action itself with legal_at(position)."""
        p = self.st[PHASE]
        j += 1
        if p == BIDDING:
            while True:
                code = self._candidate(j)
                if code == -2:
                    return -1
                if code >= 0 and not self._check_bid(code):
                    return j
                j += 1
        if p == TRUMP:
            while j < SEVENS + 1:
                if not self._check_contract(j):
                    return j
                j += 1
        return -1

    def legal_at(self, j):
        """The bid code (bidding) or contract code (trump) at position j."""
        if self.st[PHASE] == BIDDING:
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
        if code == PASS:
            return "pass"
        if code == GAME:
            return "game"
        if code == PLUNGE:
            return "plunge"
        if code == SPLASH:
            return "splash"
        return str(self.bid_value(code))

    def reason(self, err, ev):
        """A short message a player can act on, for refusal `err` of event `ev`."""
        from engine_core import messages
        return messages.explain(self, err, ev)
