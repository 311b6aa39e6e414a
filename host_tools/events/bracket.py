"""A double-elimination bracket of teams, pure: its matches, the waves they are played
in, and who plays whom given the winners so far. A team is out after its second lost
match. The grand final pits the winners' bracket champion against the losers' bracket
champion; when the losers' side wins it, both have lost once, so a reset match is
played and its winner takes the event."""

# A side of a match: ("seed", i), ("winner", key) or ("loser", key); a match key is
# ("W", round, i), ("L", round, i), ("GF", 1, 0) or ("GF", 2, 0).


def _seed_order(size):
    # Standard seeding: 1 v size, and the top two seeds meet only in the final.
    order = [0]
    while len(order) < size:
        m = len(order) * 2
        order = [x for s in order for x in (s, m - 1 - s)]
    return order


class Bracket:
    """The structure for n teams (seeds 0..n-1, best first)."""

    def __init__(self, n):
        if n < 2:
            raise ValueError("a bracket needs at least 2 teams")
        self.n = n
        k = 1
        while 1 << k < n:
            k += 1
        self.k = k
        size = 1 << k
        self.sides = {}             # key -> (side_a, side_b)
        order = _seed_order(size)
        for i in range(size // 2):
            self.sides[("W", 1, i)] = (("seed", order[2 * i]), ("seed", order[2 * i + 1]))
        for r in range(2, k + 1):
            for i in range(size >> r):
                self.sides[("W", r, i)] = (("winner", ("W", r - 1, 2 * i)),
                                           ("winner", ("W", r - 1, 2 * i + 1)))
        if k == 1:
            lb_champ = ("loser", ("W", 1, 0))
        else:
            for i in range(size >> 2):
                self.sides[("L", 1, i)] = (("loser", ("W", 1, 2 * i)),
                                           ("loser", ("W", 1, 2 * i + 1)))
            for j in range(1, k):
                # Drop-in round 2j: losers of winners' round j+1, order flipped every
                # other time so teams that met in the winners' bracket do not meet again.
                count = size >> (j + 1)
                for i in range(count):
                    drop = count - 1 - i if j % 2 else i
                    self.sides[("L", 2 * j, i)] = (("winner", ("L", 2 * j - 1, i)),
                                                   ("loser", ("W", j + 1, drop)))
                if j < k - 1:
                    for i in range(count // 2):
                        self.sides[("L", 2 * j + 1, i)] = (("winner", ("L", 2 * j, 2 * i)),
                                                           ("winner", ("L", 2 * j, 2 * i + 1)))
            lb_champ = ("winner", ("L", 2 * (k - 1), 0))
        self.sides[("GF", 1, 0)] = (("winner", ("W", k, 0)), lb_champ)
        self.sides[("GF", 2, 0)] = (("winner", ("GF", 1, 0)), ("loser", ("GF", 1, 0)))
        self._empty = {}
        for key in self.order():
            self._empty[key] = (self._side_empty(self.sides[key][0]),
                                self._side_empty(self.sides[key][1]))

    def wave(self, key):
        """The round of play a match belongs to (1, 2, ...): a match's wave comes after
        every match it waits for."""
        kind, r, _ = key
        if kind == "W":
            return r
        if kind == "L":
            return r + 1
        return 2 * self.k - 1 + r if self.k > 1 else 1 + r

    def order(self):
        """Every match key, in play order (wave, then bracket, then position)."""
        rank = {"W": 0, "L": 1, "GF": 2}
        return sorted(self.sides, key=lambda m: (self.wave(m), rank[m[0]], m[1], m[2]))

    def _side_empty(self, side):
        # True when a side can never be filled: a seed past n, or a match that has
        # nobody to pass on (a winner from a match with both sides empty; a loser from
        # a match with a side empty, which is a bye and has no loser).
        kind, ref = side
        if kind == "seed":
            return ref >= self.n
        a, b = self._empty[ref]
        if kind == "winner":
            return a and b
        return a or b

    def is_bye(self, key):
        """A match that is never played: a side is empty (the other goes through)."""
        a, b = self._empty[key]
        return a or b

    def played(self):
        """The matches that are played (the reset only when it is needed), in order."""
        return [m for m in self.order() if not self.is_bye(m)]

    def label(self, key):
        kind, r, i = key
        if kind == "W":
            return "Winners R%d M%d" % (r, i + 1) if r < self.k else "Winners final"
        if kind == "L":
            return ("Losers R%d M%d" % (r, i + 1) if r < 2 * (self.k - 1)
                    else "Losers final")
        return "Grand final" if r == 1 else "Grand final reset"

    def state(self, winners):
        """Given winners {match key: team} of matches decided so far, a dict:
        teams {key: (team_a or None, team_b or None)} for every match, winner {key: team}
        including byes, needed {key: bool} (the reset is needed only when the losers'
        champion wins the grand final), champion (team or None), losses {team: n}."""
        teams, winner, losers = {}, {}, {}

        def fill(side):
            kind, ref = side
            if kind == "seed":
                return ref if ref < self.n else None
            if kind == "winner":
                return winner.get(ref)
            return losers.get(ref)

        for key in self.order():
            a, b = (fill(s) for s in self.sides[key])
            teams[key] = (a, b)
            ea, eb = self._empty[key]
            if ea or eb:
                if not (ea and eb):
                    w = b if ea else a
                    if w is not None:
                        winner[key] = w
                continue
            w = winners.get(key)
            if w is not None and a is not None and b is not None and w in (a, b):
                winner[key] = w
                losers[key] = b if w == a else a
        gf, reset = ("GF", 1, 0), ("GF", 2, 0)
        needed = {key: not self.is_bye(key) for key in self.order()}
        needed[reset] = gf in winner and winner[gf] == teams[gf][1]
        champion = None
        if gf in winner:
            if not needed[reset]:
                champion = winner[gf]
            elif reset in winner:
                champion = winner[reset]
        losses = {t: 0 for t in range(self.n)}
        for key, t in losers.items():
            if needed.get(key, True):
                losses[t] += 1
        return {"teams": teams, "winner": winner, "needed": needed, "champion": champion,
                "losses": losses}
