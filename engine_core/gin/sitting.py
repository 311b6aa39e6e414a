# A sitting of a gin pad game (Oklahoma, Sequence or Skarney Gin): the players key in
# each hand's turn-up card and how it ended with the card totals; this checks what it
# can, scores, and keeps the game. Same interface as the 42 family's Sitting (apply,
# check, undo, the state readers); the event path allocates nothing: the state is one
# array of small ints, the history (history.py) one bytearray of coded events.
from array import array

from engine_core.compat import const
from engine_core.gin import codec as gincodec
from engine_core.gin import rules as G
from engine_core.gin.codec import (EV_TURNUP, EV_GIN, EV_KNOCK, EV_DRAWOUT,  # noqa: F401
                                    turnup, gin, knock, drawout, seat_of, has_bonus,
                                    gin_opponent, gin_no_contract, gin_bonus, knocker_total,
                                    knock_opponent, knock_bonus, drawout_total)
from engine_core.codes import OVER
from engine_core.errors import OK, E_OVER, E_BAD_EVENT  # noqa: F401
from engine_core.gin.errors import (E_GIN_TURNUP_FIRST, E_GIN_TURNUP_TAKEN,  # noqa: F401
                                    E_GIN_NO_TURNUP, E_GIN_NO_KNOCK, E_GIN_KNOCK_ZERO,
                                    E_GIN_KNOCK_LIMIT, E_GIN_TOTAL, E_GIN_BONUS_OFF,
                                    E_GIN_BONUS_MANY, E_GIN_TOTALS, E_GIN_CONTRACT, E_GIN_RANK,
                                    E_GIN_ACE)
from engine_core.history import History, DEALER, HANDS, ENDED, WINNER

# Phases: OVER (codes.py) as in the 42 family, then the gin pads' own.
TURNUP = const(4)       # waiting for the turn-up card
HAND = const(5)         # waiting for how the hand ended

# How a hand ended.
END_GIN = const(0)
END_KNOCK = const(1)    # the knock stood
END_UNDERCUT = const(2)
END_DRAWOUT = const(3)
END_NAMES = ("gin", "knock", "undercut", "drawout")

# Slots of the state array, after the four every family has (history.py).
_SCORE = const(4)       # 2 slots: hand points by seat
_BONUS = const(6)       # 2 slots: game-end bonuses (game, box, shutout), once over
_WON = const(8)         # 2 slots: hands won by seat
_PHASE = const(10)
_RANK = const(11)       # the hand's turn-up card, 1 (ace) .. 13 (king); 0: none yet
_SPADE = const(12)
_L_DEALER = const(13)   # the last finished hand
_L_LIMIT = const(14)    # its knock limit, -1: no turn-up
_L_SPADE = const(15)
_L_END = const(16)
_L_SEAT = const(17)     # who went gin or knocked, -1
_L_WINNER = const(18)   # who scored, -1
_L_POINTS = const(19)
_L_AWARD = const(20)    # 2 slots
N_SLOTS = const(22)

_HISTORY = const(384)   # bytes of coded events kept for undo (some 100 hands)


def limit_of(rank):
    """A turn-up card's knock limit: its value (ace 1, 10 J Q K 10)."""
    return 10 if rank > 10 else rank


class GinSitting(History):
    """The state of one gin sitting. Feed it events with apply(); 0 or a refusal."""

    def __init__(self, rules, dealer=0, history=_HISTORY):
        self.rules = rules
        self.row = rules.row
        self.seats = 2
        self.sides = 2
        self.codec = gincodec
        self.st = array("i", bytes(4 * N_SLOTS))
        self._base = array("i", bytes(4 * N_SLOTS))
        self._init_history(history)
        self.restart(dealer)

    def restart(self, dealer=0):
        """Start the sitting again from its first hand, with the same rules."""
        st = self.st
        i = 0
        while i < N_SLOTS:
            st[i] = 0
            i += 1
        st[DEALER] = dealer & 1
        st[WINNER] = -1
        st[_L_DEALER] = -1
        st[_L_LIMIT] = -1
        st[_L_END] = -1
        st[_L_SEAT] = -1
        st[_L_WINNER] = -1
        self._new_hand()
        self._clear_history()

    # ---- reading the state (no allocation) ----
    def phase(self):
        return self.st[_PHASE]

    def seat(self):
        """No seat is asked to act in the gin pads: -1."""
        return -1

    def score(self, seat):
        """The seat's game total: hand points, and once the game is over its bonuses."""
        return self.st[_SCORE + seat] + self.st[_BONUS + seat]

    def hand_points(self, seat):
        return self.st[_SCORE + seat]

    def bonus(self, seat):
        return self.st[_BONUS + seat]

    def won(self, seat):
        """Hands the seat has won."""
        return self.st[_WON + seat]

    def games(self):
        """Games finished before the one in progress: none (a gin sitting is one game)."""
        return 0

    def side_of(self, seat):
        return seat

    def fresh_hand(self):
        """No event of the hand in progress is taken yet (its first question is asked)."""
        st = self.st
        return st[_PHASE] == (TURNUP if self.row[G.TURNUP] else HAND)

    def turnup_rank(self):
        """The hand's turn-up card (1 ace .. 13 king), 0 before it is keyed in."""
        return self.st[_RANK]

    def spade(self):
        return self.st[_SPADE]

    def limit(self):
        """The knock limit of the hand in progress (0 before the turn-up)."""
        return limit_of(self.st[_RANK])

    def may_knock(self):
        """A hand may end in a knock: not in Skarney Gin, nor after an ace turn-up under
        ace_turnup gin."""
        return self.row[G.KNOCK] and not (self.st[_RANK] == 1 and self.rules.ace_turnup)

    def last(self, slot):
        """A fact of the last finished hand: a slot name from LAST_*."""
        return self.st[slot]

    def total_max(self):
        """The most a card total may be in this game."""
        return self.row[G.CARDS_MAX]

    # ---- checks: return a refusal code, change nothing ----
    def _check(self, ev):
        kind = ev >> 24
        arg = ev & 0xFFFFFF
        st = self.st
        row = self.row
        if st[ENDED]:
            return E_OVER
        if kind == EV_TURNUP:
            if not row[G.TURNUP]:
                return E_GIN_NO_TURNUP
            if st[_PHASE] != TURNUP:
                return E_GIN_TURNUP_TAKEN
            rank = arg & 15
            if rank < 1 or rank > 13 or arg >> 5:
                return E_GIN_RANK
            return OK
        if kind != EV_GIN and kind != EV_KNOCK and kind != EV_DRAWOUT:
            return E_BAD_EVENT
        if kind == EV_KNOCK and not row[G.KNOCK]:
            return E_GIN_NO_KNOCK
        if st[_PHASE] == TURNUP:
            return E_GIN_TURNUP_FIRST
        if kind == EV_DRAWOUT:
            return self._check_drawout(arg)
        if has_bonus(arg):
            if not self.rules.bonus:
                return E_GIN_BONUS_OFF
            b = 16 if kind == EV_KNOCK else 12
            if arg >> b & 15 > 10 or arg >> (b + 4) & 15 > 10:
                return E_GIN_BONUS_MANY
        if kind == EV_GIN:
            if gin_no_contract(arg) and row[G.TURNUP]:
                return E_GIN_CONTRACT
            if gin_opponent(arg) > row[G.CARDS_MAX]:
                return E_GIN_TOTAL
            return OK
        k = knocker_total(arg)
        if k > row[G.CARDS_MAX] or knock_opponent(arg) > row[G.CARDS_MAX]:
            return E_GIN_TOTAL
        if k == 0:
            return E_GIN_KNOCK_ZERO
        if k > limit_of(st[_RANK]):
            return E_GIN_KNOCK_LIMIT
        if st[_RANK] == 1 and self.rules.ace_turnup:
            return E_GIN_ACE    # ace_turnup gin: an ace turn-up allows only gin
        return OK

    def _check_drawout(self, arg):
        if self.row[G.TURNUP]:
            return E_GIN_TOTALS if arg else OK
        if not arg & 1:
            return E_GIN_TOTALS
        m = self.row[G.CARDS_MAX]
        if drawout_total(arg, 0) > m or drawout_total(arg, 1) > m:
            return E_GIN_TOTAL
        return OK

    # ---- doing: only called with an event that passed its check ----
    def _do(self, ev):
        st = self.st
        if ev >> 24 == EV_TURNUP:
            st[_RANK] = ev & 15
            st[_SPADE] = ev >> 4 & 1
            st[_PHASE] = HAND
            return
        o = self.outcome(ev)
        self._close(o & 3, (o >> 2 & 3) - 1, (o >> 4 & 3) - 1, o >> 6)

    def outcome(self, ev):
        """How a hand-ending event `ev` scores in the hand in progress, without taking it:
        end | (seat + 1) << 2 | (winner + 1) << 4 | points << 6 (seat, winner -1: none).
        Read it with outcome_end, outcome_seat, outcome_winner, outcome_points."""
        kind = ev >> 24
        arg = ev & 0xFFFFFF
        seat = arg & 1
        if kind == EV_GIN:
            opp = gin_opponent(arg)
            if has_bonus(arg):
                opp = _less(opp, gin_bonus(arg, 1 - seat))
            bonus = self.rules.gin_bonus
            if gin_no_contract(arg):
                bonus *= 2
            return self._pack(END_GIN, seat, seat, bonus + opp)
        if kind == EV_KNOCK:
            k = knocker_total(arg)
            d = knock_opponent(arg)
            if has_bonus(arg):
                ka = _less(k, knock_bonus(arg, seat))
                da = _less(d, knock_bonus(arg, 1 - seat))
            else:
                ka = k
                da = d
            if k < d:
                # The knock stands: the opponent's total, or (Hoyle's) the difference.
                return self._pack(END_KNOCK, seat, seat,
                                  _less(da, ka) if self.rules.knock_scores else da)
            return self._pack(END_UNDERCUT, seat, 1 - seat,
                              self.rules.undercut_bonus + ka - da)
        if arg & 1:
            t0 = drawout_total(arg, 0)
            t1 = drawout_total(arg, 1)
            if t0 < t1:
                return self._pack(END_DRAWOUT, -1, 0, t1 - t0)
            if t1 < t0:
                return self._pack(END_DRAWOUT, -1, 1, t0 - t1)
        return self._pack(END_DRAWOUT, -1, -1, 0)

    def _pack(self, end, seat, winner, points):
        if winner < 0:
            points = 0
        elif self.st[_SPADE] and self.rules.spade_doubles:
            points *= 2
        return end | (seat + 1) << 2 | (winner + 1) << 4 | points << 6

    def _close(self, end, seat, winner, points):
        st = self.st
        rules = self.rules
        st[_L_DEALER] = st[DEALER]
        st[_L_LIMIT] = limit_of(st[_RANK]) if self.row[G.TURNUP] else -1
        st[_L_SPADE] = st[_SPADE]
        st[_L_END] = end
        st[_L_SEAT] = seat
        st[_L_WINNER] = winner
        st[_L_POINTS] = points
        st[_L_AWARD] = 0
        st[_L_AWARD + 1] = 0
        st[HANDS] += 1
        if winner >= 0:
            st[_L_AWARD + winner] = points
            st[_SCORE + winner] += points
            st[_WON + winner] += 1
            if st[_SCORE + winner] >= rules.target:
                self._end(winner)
                return
            if rules.deal == G.WINNER:
                st[DEALER] = winner
            elif rules.deal == G.LOSER:
                st[DEALER] = 1 - winner
        if rules.deal == G.ALTERNATE:
            st[DEALER] = 1 - st[DEALER]
        self._new_hand()

    def _end(self, w):
        # The game is won: box and game bonuses, and the shutout doubling of the winner's
        # whole total (bonuses included) when the loser scored no hand points.
        st = self.st
        rules = self.rules
        st[ENDED] = 1
        st[WINNER] = w
        st[_PHASE] = OVER
        st[_BONUS] = rules.box_bonus * st[_WON]
        st[_BONUS + 1] = rules.box_bonus * st[_WON + 1]
        st[_BONUS + w] += rules.game_bonus
        if rules.shutout_doubles and st[_SCORE + 1 - w] == 0:
            st[_BONUS + w] += st[_SCORE + w] + st[_BONUS + w]

    def _new_hand(self):
        st = self.st
        st[_PHASE] = TURNUP if self.row[G.TURNUP] else HAND
        st[_RANK] = 0
        st[_SPADE] = 0

    # ---- messages (only on a refusal: these may allocate) ----
    def reason(self, err, ev):
        """A short message a player can act on, for refusal `err` of event `ev`."""
        from engine_core.gin import messages as ginmessages
        return ginmessages.explain(self, err, ev)


def outcome_end(o):
    return o & 3


def outcome_seat(o):
    return (o >> 2 & 3) - 1


def outcome_winner(o):
    return (o >> 4 & 3) - 1


def outcome_points(o):
    return o >> 6


def _less(total, bonus):
    # A total less its bonus cards, never below 0.
    return total - bonus if total > bonus else 0


# Slots of the last finished hand, for last().
LAST_DEALER = _L_DEALER
LAST_LIMIT = _L_LIMIT
LAST_SPADE = _L_SPADE
LAST_END = _L_END
LAST_SEAT = _L_SEAT
LAST_WINNER = _L_WINNER
LAST_POINTS = _L_POINTS
LAST_AWARD = _L_AWARD
