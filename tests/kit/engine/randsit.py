# Random legal sittings for tests and benchmarks, the same on CPython and MicroPython
# (its own generator, no `random`), and allocation-free once made, on a 32-bit device too:
# it only picks among the engine's legal actions and checks each event with Sitting.check
# before applying it.
from engine_core.texas42 import variants as V
from engine_core.codes import (EV_BID, EV_TRUMP, EV_TRICK, EV_MADE, EV_POINTS, EV_TRICKS,
                               EV_UNDO, PASS)
from engine_core.codes import BIDDING, OVER, TRUMP


# Variants and house options worth a random sitting each (tests and benchmarks).
SETUPS = (
    ("42", {}), ("42", {"scoring": "points"}), ("42", {"scoring": "points", "made_scores": "bid"}),
    ("42", {"nello": True, "sevens": True, "plunge": True, "splash": True,
            "nello_doubles": ["low", "suit"]}),
    ("42", {"all_pass": "redeal", "min_bid": 31, "target": 5}),
    ("big-game", {}), ("moon", {}), ("moon", {"all_pass": "forced"}),
    ("partnership-moon", {}), ("partnership-moon", {"match_games": 5}),
    ("seventy-nine", {}), ("eighty", {}), ("eighty-eight", {}),
    ("42", {"forced_min": 34, "nello": True, "nello_min": 30, "sevens": True}),
    ("42", {"nello": True, "nello_by": "forced_dealer", "plunge": True}),
    ("moon", {"min_bid": 3, "all_pass": "forced"}), ("moon", {"min_bid": 5}),
)


# Park and Miller's minimal standard generator on the largest prime below 2**30, stepped
# by Schrage's method: every value on the way stays below 2**30, a small int on a 32-bit
# MicroPython (a product such as x * 1103515245 would be a heap object there).
_M = 1073741789             # 2**30 - 35, prime
_A = 16807
_Q = _M // _A               # 63886
_R = _M % _A                # 9787 (< _Q, as the method needs)


class RandomPlayer:
    def __init__(self, seed=1, undo_rate=40, track_rate=3):
        self.x = seed % _M or 1
        self.undo_rate = undo_rate    # about one undo in this many events (0: never)
        self.track_rate = track_rate  # about one deal in this many tracks its tricks

    def rand(self, n):
        x = _A * (self.x % _Q) - _R * (self.x // _Q)
        self.x = x if x > 0 else x + _M
        return (self.x >> 6) % n

    def next_event(self, s):
        """A legal event for sitting s (undo included), or -1 when the sitting is over."""
        if self.undo_rate and s.hlen and self.rand(self.undo_rate) == 0:
            return EV_UNDO << 24
        p = s.phase()
        if p == OVER:
            return -1
        if p == BIDDING or p == TRUMP:
            n = s.legal_count()
            k = self.rand(n)
            if p == BIDDING and self.rand(3):
                k = 0     # pass often, so auctions look like real ones
            j = s.next_legal(-1)
            while k:
                j = s.next_legal(j)
                k -= 1
            code = s.legal_at(j)
            if p == BIDDING:
                return EV_BID << 24 | code
            return EV_TRUMP << 24 | code
        return self._play(s)

    def _play(self, s):
        row = s.row
        if s.tricks_played() or self.rand(self.track_rate) == 0:
            ev = self._trick(s)
            if ev >= 0 and self.rand(8):
                return ev
        ev = self._result(s)
        if ev >= 0:
            return ev
        # No result fits what was picked: track a trick instead.
        ev = self._trick(s)
        return ev if ev >= 0 else EV_MADE << 24 | (1 if row[V.TOTAL] else 0)

    def _trick(self, s):
        row = s.row
        tries = 0
        while tries < 20:
            seat = self.rand(s.seats)
            left = row[V.COUNT] - s.count_caught()
            count = 0
            if left and self.rand(2):
                count = 5 * self.rand(min(left, 30) // 5 + 1)
            if s.tricks_played() == row[V.TRICKS_PER_HAND] - 1:
                count = left    # the last trick places the count left (fine point 13)
            ev = EV_TRICK << 24 | seat << 8 | count
            if not s.check(ev):
                return ev
            tries += 1
        return -1

    def _result(self, s):
        row = s.row
        rules = s.rules
        tries = 0
        while tries < 20:
            tries += 1
            if rules.scoring == V.MARKS and self.rand(2):
                ev = EV_MADE << 24 | self.rand(2)
            elif rules.scoring == V.TRICKS and not row[V.TEAMS]:
                ev = EV_TRICKS << 24 | self._tricks_list(s)
            else:
                lo = s.side_points(True)
                hi = row[V.TOTAL] - s.side_points(False)
                pts = lo + self.rand(hi - lo + 1)
                if self.rand(2):
                    pts = hi if self.rand(2) else lo
                ev = EV_POINTS << 24 | pts
            if not s.check(ev):
                return ev
        return -1

    def _tricks_list(self, s):
        # Each seat's tracked tricks, then the rest dealt out at random.
        left = s.row[V.TRICKS_PER_HAND] - s.tricks_played()
        packed = 0
        i = 0
        while i < s.seats:
            t = s.seat_tricks(i)
            if i == s.seats - 1:
                t += left
            else:
                k = self.rand(left + 1)
                t += k
                left -= k
            packed |= t << (4 * i)
            i += 1
        return packed


def play(s, player, out, limit):
    """Play random events into sitting s, storing them in array `out`; return how many."""
    n = 0
    while n < limit:
        ev = player.next_event(s)
        if ev < 0:
            break
        if s.apply(ev):
            raise AssertionError("the engine refused an event it offered")
        out[n] = ev
        n += 1
    return n


_PASS = PASS
