# The scores of a 42-family sitting: closing a deal (its record for last()), the scoring
# in marks, points or tricks (Moon, Partnership Moon, with the check of the tricks by
# seat), and the end of a game and of the sitting. Sitting (sitting.py) builds on it.
# Allocates nothing.
from engine_core import codes as C
from engine_core.compat import const
from engine_core import errors as E
from engine_core.history import History
from engine_core.texas42 import slots as S
from engine_core.texas42 import variants as V
from engine_core.texas42.variants import team_of

_TYPING = const(0)      # true for pyright only (history.py says how)
if _TYPING:
    from typing import Callable

    from engine_core.texas42.rules import Rules


class Scoring(History):
    """The scores of a 42-family sitting and the close of each deal. A subclass (Sitting)
    gives self.rules, self.row, self.seats, self.st and _next_deal()."""

    rules: "Rules"
    row: "tuple[int, ...]"     # the variant's row of variants.TABLE
    seats: int
    _next_deal: "Callable[[], None]"


    # ---- reading the scores (no allocation) ----
    def score(self, side):
        return self.st[S.SCORE + side]

    def games(self):
        return self.st[S.GAMES]

    def games_won(self, team):
        return self.st[S.WON + team]

    def last(self, slot):
        """A fact of the last finished deal: a slot name from LAST_*."""
        return self.st[slot]

    def side_of(self, seat):
        return team_of(self.row, seat)

    def marks_of(self, value):
        m = self.row[V.MARK]
        return value // m if value >= m else 1

    # ---- closing a deal ----
    def _begin_last(self, thrown):
        st = self.st
        st[S.LAST_DEALER] = st[S.DEALER]
        st[S.LAST_THROWN] = thrown
        st[S.LAST_BIDDER] = st[S.BIDDER]
        st[S.LAST_BID] = st[S.HIGH]
        st[S.LAST_VALUE] = st[S.VALUE]
        st[S.LAST_CONTRACT] = st[S.CONTRACT]
        st[S.LAST_MADE] = -1
        st[S.LAST_POINTS] = -1
        st[S.LAST_KNOWN] = 0
        i = 0
        while i < 6:
            st[S.LAST_AWARD + i] = 0
            st[S.LAST_TRICKS + i] = st[S.SEAT_TRICKS + i]
            i += 1

    def _throw_in(self):
        self._begin_last(1)
        self.st[S.HANDS] += 1
        self._next_deal()

    def _close(self, made, points, tricks_known):
        st = self.st
        self._begin_last(0)
        st[S.LAST_MADE] = made
        st[S.LAST_POINTS] = points
        st[S.LAST_KNOWN] = 1 if (tricks_known or st[S.TRACKED] == self.row[V.TRICKS_PER_HAND]) else 0
        sc = self.rules.scoring
        if sc == V.MARKS:
            self._score_marks(made)
        elif sc == V.POINTS:
            self._score_points(made, points)
        else:
            self._score_tricks(made, points)
        st[S.HANDS] += 1
        if not st[S.ENDED]:
            self._next_deal()
        else:
            st[S.PHASE] = C.OVER

    def _award(self, side, n):
        self.st[S.LAST_AWARD + side] += n
        self.st[S.SCORE + side] += n

    def _score_marks(self, made):
        st = self.st
        bt = self.side_of(st[S.BIDDER])
        marks = self.marks_of(st[S.VALUE])
        side = bt if made else 1 - bt
        self._award(side, marks)
        if st[S.SCORE + side] >= self.rules.target:
            self._end(side)

    def _score_points(self, made, points):
        st = self.st
        r = self.row
        total = r[V.TOTAL]
        bt = self.side_of(st[S.BIDDER])
        ot = 1 - bt
        v = st[S.VALUE]
        if st[S.HIGH] == C.GAME:
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
        b_in = st[S.SCORE + bt] >= target
        o_in = st[S.SCORE + ot] >= target
        if b_in and o_in:
            self._end(bt if made else ot)
        elif b_in:
            self._end(bt)
        elif o_in:
            self._end(ot)

    def _end(self, side):
        self.st[S.ENDED] = 1
        self.st[S.WINNER] = side

    def _new_game_state(self):
        st = self.st
        st[S.HANDS] = 0
        st[S.ENDED] = 0
        st[S.WINNER] = -1
        st[S.GAME_WINNER] = -1
        st[S.LAST_DEALER] = -1

    # ---- the scoring in tricks (Moon, Partnership Moon) ----
    def _check_tricks(self, packed):
        r = self.row
        total = 0
        i = 0
        while i < 6:
            t = packed >> (4 * i) & 15
            if i >= self.seats and t:
                return E.E_TRICKS_SEATS
            if t < self.st[S.SEAT_TRICKS + i]:
                return E.E_TRACKED
            total += t
            i += 1
        if total != r[V.TRICKS_PER_HAND]:
            return E.E_TRICKS_SUM
        return E.OK


    def _score_tricks(self, made, points):
        st = self.st
        r = self.row
        bidder = st[S.BIDDER]
        v = st[S.VALUE]
        target = self.rules.target
        if not r[V.TEAMS]:
            # Moon: each seat for its.
            i = 0
            while i < self.seats:
                if i == bidder:
                    self._award(i, v if made else -v)
                else:
                    self._award(i, st[S.SEAT_TRICKS + i])
                i += 1
            if made and v == r[V.SHOOT]:
                self._end(bidder)
                return
            if st[S.SCORE + bidder] >= target:
                self._end(bidder)
                return
            best = -1
            tie = 0
            i = 0
            while i < self.seats:
                got = st[S.SCORE + i]
                if got >= target:
                    if best < 0 or got > st[S.SCORE + best]:
                        best = i
                        tie = 0
                    elif got == st[S.SCORE + best]:
                        tie = 1
                i += 1
            if best >= 0 and not tie:
                self._end(best)
            return
        # Partnership Moon: games to the target, a match of match_games.
        bt = self.side_of(bidder)
        ot = 1 - bt
        self._award(bt, points if made else -v)
        self._award(ot, r[V.TRICKS_PER_HAND] - points)
        b_in = st[S.SCORE + bt] >= target
        o_in = st[S.SCORE + ot] >= target
        if not (b_in or o_in):
            return
        w = bt if b_in else ot
        st[S.GAME_SCORE] = st[S.SCORE]
        st[S.GAME_SCORE + 1] = st[S.SCORE + 1]
        st[S.GAME_WINNER] = w
        st[S.GAMES] += 1
        st[S.WON + w] += 1
        if st[S.WON + w] >= self.rules.match_games // 2 + 1:
            self._end(w)
        else:
            st[S.SCORE] = 0
            st[S.SCORE + 1] = 0
