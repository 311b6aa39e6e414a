# Random legal gin sittings for tests and benchmarks (CPython and MicroPython alike,
# allocation-free once made): turn-up cards, then gins, knocks and draw-outs with
# plausible totals, checked with GinSitting.check before they are offered.
from engine_core.gin import sitting as Gn
from engine_core.gin import rules as G
from engine_core.codes import EV_UNDO
from randsit import RandomPlayer

# Gin variants and house options worth a random sitting each.
SETUPS = (
    ("oklahoma-gin", {}),
    ("oklahoma-gin", {"spade_doubles": True, "game_bonus": 100, "box_bonus": 25,
                      "shutout_doubles": True, "deal": "winner"}),
    ("sequence-gin", {"bonus": True, "deal": "loser"}),
    ("sequence-gin", {}),
    ("skarney-gin", {"game_bonus": 100, "box_bonus": 25, "shutout_doubles": True}),
    ("skarney-gin", {"target": 300, "deal": "winner"}),
    ("oklahoma-gin", {"knock_scores": "difference", "gin_bonus": 25, "undercut_bonus": 25,
                      "ace_turnup": "gin"}),
    ("sequence-gin", {"bonus": True, "knock_scores": "difference", "undercut_bonus": 22}),
)


class RandomGinPlayer(RandomPlayer):
    def next_event(self, s):
        """A legal event for gin sitting s (undo included), or -1 when it is over."""
        if self.undo_rate and s.hlen and self.rand(self.undo_rate) == 0:
            return EV_UNDO << 24
        p = s.phase()
        if p == Gn.OVER:
            return -1
        if p == Gn.TURNUP:
            return Gn.turnup(1 + self.rand(13), 1 if self.rand(4) == 0 else 0)
        while True:
            ev = self._end(s)
            if not s.check(ev):
                return ev

    def _end(self, s):
        r = self.rand(20)
        seat = self.rand(2)
        skarney = not s.row[G.TURNUP]
        if r < 3:
            if skarney:
                return Gn.drawout(self.rand(120), self.rand(120))
            return Gn.drawout()
        b0 = -1
        b1 = 0
        if s.rules.bonus and self.rand(3) == 0:
            b0 = self.rand(4)
            b1 = self.rand(4)
        if skarney or r < 8:
            opp = self.rand(160 if skarney else 80)
            return Gn.gin(seat, opp, 1 if (not skarney or self.rand(3)) else 0, b0, b1)
        k = 1 + self.rand(s.limit())
        return Gn.knock(seat, k, self.rand(60), b0, b1)
