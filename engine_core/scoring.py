# The scores of a 42-family sitting: closing a deal (its record for last()), the scoring
# in marks, points or tricks (Moon, Partnership Moon, with the check of the tricks by
# seat), and the end of a game and of the sitting. Sitting (sitting.py) builds on it.
# Allocates nothing.
from engine_core.codes import (GAME, GAME_SCORE, GAME_WINNER, LAST_AWARD, LAST_BID, LAST_BIDDER,
                               LAST_CONTRACT, LAST_DEALER, LAST_KNOWN, LAST_MADE, LAST_POINTS,
                               LAST_THROWN, LAST_TRICKS, LAST_VALUE, OVER)
from engine_core.errors import OK, E_TRACKED, E_TRICKS_SEATS, E_TRICKS_SUM
from engine_core.history import History
from engine_core.state import (DEALER, HANDS, ENDED, WINNER, GAMES, WON, SCORE, PHASE, HIGH,
                               VALUE, BIDDER, CONTRACT, TRACKED, SEAT_TRICKS)
from engine_core.variants import MARK, MARKS, POINTS, SHOOT, TEAMS, TOTAL, TRICKS_PER_HAND, team_of


class Scoring(History):
    """The scores of a 42-family sitting and the close of each deal. A subclass (Sitting)
    gives self.rules, self.row, self.seats, self.st and _next_deal()."""

    # ---- reading the scores (no allocation) ----
    def score(self, side):
        return self.st[SCORE + side]

    def games(self):
        return self.st[GAMES]

    def games_won(self, team):
        return self.st[WON + team]

    def last(self, slot):
        """A fact of the last finished deal: a slot name from LAST_*."""
        return self.st[slot]

    def side_of(self, seat):
        return team_of(self.row, seat)

    def marks_of(self, value):
        m = self.row[MARK]
        return value // m if value >= m else 1

    # ---- closing a deal ----
    def _begin_last(self, thrown):
        st = self.st
        st[LAST_DEALER] = st[DEALER]
        st[LAST_THROWN] = thrown
        st[LAST_BIDDER] = st[BIDDER]
        st[LAST_BID] = st[HIGH]
        st[LAST_VALUE] = st[VALUE]
        st[LAST_CONTRACT] = st[CONTRACT]
        st[LAST_MADE] = -1
        st[LAST_POINTS] = -1
        st[LAST_KNOWN] = 0
        i = 0
        while i < 6:
            st[LAST_AWARD + i] = 0
            st[LAST_TRICKS + i] = st[SEAT_TRICKS + i]
            i += 1

    def _throw_in(self):
        self._begin_last(1)
        self.st[HANDS] += 1
        self._next_deal()

    def _close(self, made, points, tricks_known):
        st = self.st
        self._begin_last(0)
        st[LAST_MADE] = made
        st[LAST_POINTS] = points
        st[LAST_KNOWN] = 1 if (tricks_known or st[TRACKED] == self.row[TRICKS_PER_HAND]) else 0
        sc = self.rules.scoring
        if sc == MARKS:
            self._score_marks(made)
        elif sc == POINTS:
            self._score_points(made, points)
        else:
            self._score_tricks(made, points)
        st[HANDS] += 1
        if not st[ENDED]:
            self._next_deal()
        else:
            st[PHASE] = OVER

    def _award(self, side, n):
        self.st[LAST_AWARD + side] += n
        self.st[SCORE + side] += n

    def _score_marks(self, made):
        st = self.st
        bt = self.side_of(st[BIDDER])
        marks = self.marks_of(st[VALUE])
        side = bt if made else 1 - bt
        self._award(side, marks)
        if st[SCORE + side] >= self.rules.target:
            self._end(side)

    def _score_points(self, made, points):
        st = self.st
        r = self.row
        total = r[TOTAL]
        bt = self.side_of(st[BIDDER])
        ot = 1 - bt
        v = st[VALUE]
        if st[HIGH] == GAME:
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
        b_in = st[SCORE + bt] >= target
        o_in = st[SCORE + ot] >= target
        if b_in and o_in:
            self._end(bt if made else ot)
        elif b_in:
            self._end(bt)
        elif o_in:
            self._end(ot)

    def _end(self, side):
        self.st[ENDED] = 1
        self.st[WINNER] = side

    def _new_game_state(self):
        st = self.st
        st[HANDS] = 0
        st[ENDED] = 0
        st[WINNER] = -1
        st[GAME_WINNER] = -1
        st[LAST_DEALER] = -1

    # ---- the scoring in tricks (Moon, Partnership Moon) ----
    def _check_tricks(self, packed):
        r = self.row
        total = 0
        i = 0
        while i < 6:
            t = packed >> (4 * i) & 15
            if i >= self.seats and t:
                return E_TRICKS_SEATS
            if t < self.st[SEAT_TRICKS + i]:
                return E_TRACKED
            total += t
            i += 1
        if total != r[TRICKS_PER_HAND]:
            return E_TRICKS_SUM
        return OK


    def _score_tricks(self, made, points):
        st = self.st
        r = self.row
        bidder = st[BIDDER]
        v = st[VALUE]
        target = self.rules.target
        if not r[TEAMS]:
            # Moon: each seat for its.
            i = 0
            while i < self.seats:
                if i == bidder:
                    self._award(i, v if made else -v)
                else:
                    self._award(i, st[SEAT_TRICKS + i])
                i += 1
            if made and v == r[SHOOT]:
                self._end(bidder)
                return
            if st[SCORE + bidder] >= target:
                self._end(bidder)
                return
            best = -1
            tie = 0
            i = 0
            while i < self.seats:
                got = st[SCORE + i]
                if got >= target:
                    if best < 0 or got > st[SCORE + best]:
                        best = i
                        tie = 0
                    elif got == st[SCORE + best]:
                        tie = 1
                i += 1
            if best >= 0 and not tie:
                self._end(best)
            return
        # Partnership Moon: games to the target, a match of match_games.
        bt = self.side_of(bidder)
        ot = 1 - bt
        self._award(bt, points if made else -v)
        self._award(ot, r[TRICKS_PER_HAND] - points)
        b_in = st[SCORE + bt] >= target
        o_in = st[SCORE + ot] >= target
        if not (b_in or o_in):
            return
        w = bt if b_in else ot
        st[GAME_SCORE] = st[SCORE]
        st[GAME_SCORE + 1] = st[SCORE + 1]
        st[GAME_WINNER] = w
        st[GAMES] += 1
        st[WON + w] += 1
        if st[WON + w] >= self.rules.match_games // 2 + 1:
            self._end(w)
        else:
            st[SCORE] = 0
            st[SCORE + 1] = 0
