# A sitting of any 42-family game: bidding, contract, tricks, results, scores and undo.
# The event path (apply, undo, the legal-bid walk) allocates nothing: the state is one
# array of small ints, the history one bytearray of coded events.
from array import array

from engine_core.compat import const
from engine_core.codes import (BIDDING, DOUBLES, EV_BID, EV_MADE, EV_POINTS, EV_TRICK, EV_TRICKS,
                               EV_TRUMP, FOLLOW_ME, GAME, GAME_WINNER, LAST_AWARD,
                               LAST_BID, LAST_BIDDER, LAST_CONTRACT, LAST_DEALER, LAST_KNOWN,
                               LAST_MADE, LAST_POINTS, LAST_THROWN, LAST_TRICKS, LAST_VALUE, MARKS,
                               MAX_MARKS, MAX_NUMBER, NELLO_HIGH, NELLO_SUIT, OVER, PASS, PLAY,
                               PLUNGE, SEVENS, SPLASH, TRUMP)
from engine_core.variants import (AUCTION, COUNT, FORCED, MARK, MARKS as SCORE_MARKS, ONE_ROUND,
                                  POINTS, SEATS, SHOOT, STEP, TEAMS, TOP_MARKS, TOP_NUMBER,
                                  TOP_SUIT, TOTAL, TRICKS, TRICKS_PER_HAND, TRICK_POINTS)
from engine_core.errors import (E_AFTER_GAME, E_BAD_EVENT, E_BID_LOW, E_BID_RANGE, E_CLAIM,
                                E_CONFIRM, E_COUNT_OVER, E_COUNT_STEP, E_DEALER_MUST_BID,
                                E_DOUBLES, E_GAME_NEXT, E_GAME_POINTS, E_GAME_STEP, E_MARK_STEP,
                                E_NAME_CONTRACT, E_NEEDS_MARK, E_NEED_POINTS, E_NEED_TRICKS,
                                E_NELLO_DOUBLES, E_NELLO_PARTNER, E_NELLO_TRICK, E_NOT_ALLOWED,
                                E_NOT_BIDDING, E_NOT_TRUMP, E_NO_COUNT, E_NO_PLAY, E_NO_SEAT,
                                E_OPENING, E_OVER, E_PARTNER_TRUMP, E_POINTS_RANGE, E_SHORT_ALL,
                                E_SUIT, E_TRACKED, E_TRICKS_MOON, OK)
from engine_core import codec
from engine_core.history import History
from engine_core.rules import sides, team_of

# Slots of the state array. Sitting-level first, then the last finished deal, then the
# deal in progress.
_DEALER = const(0)       # slots 0-3 as every family has them (history.py)
_HANDS = const(1)        # deals finished (scored or thrown in)
_ENDED = const(2)
_WINNER = const(3)       # team (seat in Moon), -1 none
_GAMES = const(4)        # games finished (Partnership Moon)
_WON = const(5)          # 2 slots: games won by each team
_SCORE = const(7)        # 6 slots: by team, or by seat in Moon
_CONFIRM = const(16)     # 1: the last deal closed at its last trick, a result may confirm it
_PHASE = const(38)       # the deal in progress
_TURN = const(39)
_ACTED = const(40)       # bids and passes made this deal
_PASSED = const(41)      # bit mask of seats that passed
_HIGH = const(42)        # standing bid code, -1 none
_VALUE = const(43)       # standing bid value
_BIDDER = const(44)
_CONTRACT = const(45)
_LEADER = const(46)
_TRACKED = const(47)     # tricks tracked
_BPTS = const(48)        # points (tricks) the bidding side took in tracked tricks
_OPTS = const(49)        # the opponents'
_CAUGHT = const(50)      # count caught so far
_SEAT_TRICKS = const(51)  # 6 slots
_CLAIMED = const(57)     # doubles claimed by plunge and splash bids this deal
_N_SLOTS = const(58)
_PLUNGE_DOUBLES = const(4)
_SPLASH_DOUBLES = const(3)
_ALL_DOUBLES = const(7)

_HISTORY = const(384)    # bytes of coded events kept for undo (compacted when full)


class Sitting(History):
    """The state of one sitting. Feed it events with apply() (history.py: apply, check,
    undo); it returns 0 or a refusal."""

    def __init__(self, rules, dealer=0, history=_HISTORY):
        self.rules = rules
        self.row = rules.row
        r = rules.row
        self.seats = r[SEATS]
        self.sides = sides(r)
        self.st = array("h", bytes(2 * _N_SLOTS))
        self._base = array("h", bytes(2 * _N_SLOTS))   # state where the history starts
        self.codec = codec
        self._sc = None     # the scoring in tricks (scoring.py): Moon's alone
        if rules.scoring == TRICKS:
            from engine_core import scoring
            self._sc = scoring
        self._init_history(history)
        self.restart(dealer)

    def restart(self, dealer=0):
        """Start the sitting again from its first deal, with the same rules."""
        st = self.st
        i = 0
        while i < _N_SLOTS:
            st[i] = 0
            i += 1
        st[_DEALER] = dealer % self.seats
        self._new_game_state()
        self._new_deal()
        self._clear_history()

    # ---- reading the state (no allocation) ----
    def phase(self):
        return self.st[_PHASE]

    def seat(self):
        """Whose action it is: the bidder in turn, who names the contract, or the leader."""
        st = self.st
        p = st[_PHASE]
        if p == BIDDING:
            return st[_TURN]
        if p == TRUMP:
            return self._namer()
        if p == PLAY:
            return st[_LEADER]
        return -1

    def score(self, side):
        return self.st[_SCORE + side]

    def games(self):
        return self.st[_GAMES]

    def games_won(self, team):
        return self.st[_WON + team]

    def high_bid(self):
        return self.st[_HIGH]

    def high_value(self):
        return self.st[_VALUE]

    def bidder(self):
        return self.st[_BIDDER]

    def contract(self):
        return self.st[_CONTRACT]

    def tricks_played(self):
        return self.st[_TRACKED]

    def side_points(self, bidding):
        """Points (tricks in Moon) the bidding side, or the opponents, took in tracked tricks."""
        return self.st[_BPTS] if bidding else self.st[_OPTS]

    def count_caught(self):
        return self.st[_CAUGHT]

    def seat_tricks(self, seat):
        return self.st[_SEAT_TRICKS + seat]

    def last(self, slot):
        """A fact of the last finished deal: a slot name from LAST_*."""
        return self.st[slot]

    def side_of(self, seat):
        return team_of(self.row, seat)

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
        h = self.st[_VALUE]
        if h >= v:
            v = (h // r[MARK] + 1) * r[MARK]
        return v

    def marks_of(self, value):
        m = self.row[MARK]
        return value // m if value >= m else 1

    # ---- checks: return a refusal code, change nothing ----
    def _check(self, ev):
        kind = ev >> 24
        arg = ev & 0xFFFFFF
        st = self.st
        if kind == EV_MADE or kind == EV_POINTS or kind == EV_TRICKS:
            if st[_CONFIRM]:
                return self._check_confirm(kind, arg)
        if st[_ENDED]:
            return E_OVER
        if kind == EV_BID:
            return self._check_bid(arg)
        if kind == EV_TRUMP:
            return self._check_contract(arg)
        if st[_PHASE] != PLAY:
            return E_NAME_CONTRACT if st[_PHASE] == TRUMP else E_NO_PLAY
        if kind == EV_TRICK:
            return self._check_trick(arg >> 8, arg & 0xFF)
        if kind == EV_MADE:
            return self._check_made(arg)
        if kind == EV_POINTS:
            return self._check_points(arg & 0xFF, arg >> 8)
        if kind == EV_TRICKS:
            if self.rules.scoring != TRICKS:
                return E_TRICKS_MOON
            return self._sc.check_tricks(self, arg)
        return E_BAD_EVENT

    def _forced(self):
        # The dealer may not pass when everyone else has passed with no bid standing.
        st = self.st
        return (self.rules.all_pass == FORCED and st[_HIGH] < 0
                and st[_TURN] == st[_DEALER])

    def _check_bid(self, code):
        st = self.st
        r = self.row
        rules = self.rules
        if st[_PHASE] != BIDDING:
            return E_NOT_BIDDING
        if code == PASS:
            return E_DEALER_MUST_BID if self._forced() else OK
        if st[_HIGH] == GAME:
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
            if st[_VALUE] != 4 * mark:
                return E_GAME_STEP
            return OK
        elif code == PLUNGE or code == SPLASH:
            if not (rules.plunge if code == PLUNGE else rules.splash):
                return E_NOT_ALLOWED
            # Each needs its doubles in the bidder's hand: the set has only seven.
            if st[_CLAIMED] + self._doubles(code) > _ALL_DOUBLES:
                return E_DOUBLES
            if self.bid_value(code) > MAX_MARKS * mark:
                return E_BID_RANGE
            return OK
        else:
            return E_BAD_EVENT
        v = self.bid_value(code)
        h = st[_VALUE]
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
        b = st[_BIDDER]
        h = st[_HIGH]
        if h == PLUNGE or h == SPLASH:
            return self.partner(b)
        return b

    def _check_contract(self, c):
        st = self.st
        rules = self.rules
        if st[_PHASE] != TRUMP:
            return E_NOT_TRUMP
        if c <= 8:
            return E_SUIT if c > self.row[TOP_SUIT] else OK
        if c == DOUBLES or c == FOLLOW_ME:
            return OK
        h = st[_HIGH]
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
            if st[_VALUE] < self.row[MARK]:
                return E_NEEDS_MARK
            return OK
        return E_BAD_EVENT

    def _check_trick(self, seat, count):
        st = self.st
        if seat >= self.seats:
            return E_NO_SEAT
        c = st[_CONTRACT]
        if c >= NELLO_HIGH and c <= NELLO_SUIT and seat == self.partner(st[_BIDDER]):
            return E_NELLO_PARTNER
        if count % 5:
            return E_COUNT_STEP
        if count and not self.row[COUNT]:
            return E_NO_COUNT
        if st[_CAUGHT] + count > self.row[COUNT]:
            return E_COUNT_OVER
        return OK

    def _need(self):
        # What the bidding side must take: -1 nothing (nello), total for every trick.
        st = self.st
        c = st[_CONTRACT]
        r = self.row
        if c >= NELLO_HIGH and c <= NELLO_SUIT:
            return -1
        v = st[_VALUE]
        h = st[_HIGH]
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
                return E_NELLO_TRICK if st[_BPTS] else OK
            if total - st[_OPTS] < need:
                return E_TRACKED
            return OK
        if need >= 0 and st[_BPTS] >= need:
            return E_TRACKED
        return OK

    def _check_points(self, points, claim):
        r = self.row
        st = self.st
        if self.rules.scoring == TRICKS and not r[TEAMS]:
            return E_NEED_TRICKS
        if points > r[TOTAL]:
            return E_POINTS_RANGE
        if points < st[_BPTS] or r[TOTAL] - points < st[_OPTS]:
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
        if st[_CONFIRM]:
            st[_CONFIRM] = 0
            if kind == EV_MADE or kind == EV_POINTS or kind == EV_TRICKS:
                return
        if kind == EV_BID:
            self._do_bid(arg)
        elif kind == EV_TRUMP:
            st[_CONTRACT] = arg
            st[_PHASE] = PLAY
            st[_LEADER] = self._namer()
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
                st[_SEAT_TRICKS + i] = arg >> (4 * i) & 15
                i += 1
            points = self._side_tricks()
            self._close(1 if self._made(points) else 0, points, 1)

    def _do_bid(self, code):
        st = self.st
        seats = self.seats
        turn = st[_TURN]
        if code == PASS:
            st[_PASSED] |= 1 << turn
        else:
            st[_VALUE] = self.bid_value(code)
            st[_HIGH] = code
            st[_BIDDER] = turn
            if code == PLUNGE or code == SPLASH:
                st[_CLAIMED] += self._doubles(code)
        st[_ACTED] += 1
        if self.row[AUCTION] == ONE_ROUND:
            if st[_ACTED] < seats:
                st[_TURN] = (turn + 1) % seats
                return
        else:
            everyone = (1 << seats) - 1
            others = everyone & ~(1 << st[_BIDDER]) if st[_BIDDER] >= 0 else everyone
            if st[_PASSED] & others != others:
                s = (turn + 1) % seats
                while st[_PASSED] >> s & 1:
                    s = (s + 1) % seats
                st[_TURN] = s
                return
        if st[_BIDDER] >= 0:
            st[_PHASE] = TRUMP
        else:
            self._throw_in()

    def _do_trick(self, seat, count):
        st = self.st
        st[_TRACKED] += 1
        st[_SEAT_TRICKS + seat] += 1
        st[_CAUGHT] += count
        pts = self.row[TRICK_POINTS] + count
        if self.side_of(seat) == self.side_of(st[_BIDDER]):
            st[_BPTS] += pts
        else:
            st[_OPTS] += pts
        st[_LEADER] = seat
        if st[_TRACKED] == self.row[TRICKS_PER_HAND]:
            points = st[_BPTS]
            self._close(1 if self._made(points) else 0, points, 1)
            st[_CONFIRM] = 1

    def _side_tricks(self):
        st = self.st
        side = self.side_of(st[_BIDDER])
        n = 0
        i = 0
        while i < self.seats:
            if self.side_of(i) == side:
                n += st[_SEAT_TRICKS + i]
            i += 1
        return n

    # ---- closing a deal ----
    def _begin_last(self, thrown):
        st = self.st
        st[LAST_DEALER] = st[_DEALER]
        st[LAST_THROWN] = thrown
        st[LAST_BIDDER] = st[_BIDDER]
        st[LAST_BID] = st[_HIGH]
        st[LAST_VALUE] = st[_VALUE]
        st[LAST_CONTRACT] = st[_CONTRACT]
        st[LAST_MADE] = -1
        st[LAST_POINTS] = -1
        st[LAST_KNOWN] = 0
        i = 0
        while i < 6:
            st[LAST_AWARD + i] = 0
            st[LAST_TRICKS + i] = st[_SEAT_TRICKS + i]
            i += 1

    def _throw_in(self):
        self._begin_last(1)
        self.st[_HANDS] += 1
        self._next_deal()

    def _close(self, made, points, tricks_known):
        st = self.st
        self._begin_last(0)
        st[LAST_MADE] = made
        st[LAST_POINTS] = points
        st[LAST_KNOWN] = 1 if (tricks_known or st[_TRACKED] == self.row[TRICKS_PER_HAND]) else 0
        sc = self.rules.scoring
        if sc == SCORE_MARKS:
            self._score_marks(made)
        elif sc == POINTS:
            self._score_points(made, points)
        else:
            self._sc.score_tricks(self, made, points)
        st[_HANDS] += 1
        if not st[_ENDED]:
            self._next_deal()
        else:
            st[_PHASE] = OVER

    def _award(self, side, n):
        self.st[LAST_AWARD + side] += n
        self.st[_SCORE + side] += n

    def _score_marks(self, made):
        st = self.st
        bt = self.side_of(st[_BIDDER])
        marks = self.marks_of(st[_VALUE])
        side = bt if made else 1 - bt
        self._award(side, marks)
        if st[_SCORE + side] >= self.rules.target:
            self._end(side)

    def _score_points(self, made, points):
        st = self.st
        r = self.row
        total = r[TOTAL]
        bt = self.side_of(st[_BIDDER])
        ot = 1 - bt
        v = st[_VALUE]
        if st[_HIGH] == GAME:
            if made:
                self._award(bt, points)
            else:
                self._award(ot, total - points)
            self._end(bt if made else ot)
            return
        if made:
            self._award(bt, v if (self.rules.made_scores or v > total) else points)
            self._award(ot, total - points)
        else:
            self._award(ot, v + total - points)
        target = self.rules.target
        b_in = st[_SCORE + bt] >= target
        o_in = st[_SCORE + ot] >= target
        if b_in and o_in:
            self._end(bt if made else ot)
        elif b_in:
            self._end(bt)
        elif o_in:
            self._end(ot)

    def _end(self, side):
        self.st[_ENDED] = 1
        self.st[_WINNER] = side

    # ---- deals ----
    def _new_game_state(self):
        st = self.st
        st[_HANDS] = 0
        st[_ENDED] = 0
        st[_WINNER] = -1
        st[GAME_WINNER] = -1
        st[LAST_DEALER] = -1

    def _next_deal(self):
        st = self.st
        st[_DEALER] = (st[_DEALER] + 1) % self.seats
        self._new_deal()

    def _new_deal(self):
        st = self.st
        st[_PHASE] = BIDDING
        st[_TURN] = (st[_DEALER] + 1) % self.seats
        st[_ACTED] = 0
        st[_PASSED] = 0
        st[_HIGH] = -1
        st[_VALUE] = 0
        st[_BIDDER] = -1
        st[_CONTRACT] = -1
        st[_LEADER] = -1
        st[_TRACKED] = 0
        st[_BPTS] = 0
        st[_OPTS] = 0
        st[_CAUGHT] = 0
        st[_CLAIMED] = 0
        i = 0
        while i < 6:
            st[_SEAT_TRICKS + i] = 0
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
        p = self.st[_PHASE]
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
        if self.st[_PHASE] == BIDDING:
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
