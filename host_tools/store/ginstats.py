"""The gin pads on the PC: each player's gin figures (hands won, gins, knocks, undercuts
suffered and given, points a hand, games won), replayed from the stored logs, and a gin
hand as a row of the CSV export."""
from engine_core.gin import rules as G
from host_tools.log import sittinglog as L


class GinFigures:
    """One player's figures over the gin sittings."""

    def __init__(self):
        self.games = 0          # gin sittings played
        self.games_won = 0
        self.hands = 0          # hands played (draw-outs included)
        self.hands_won = 0
        self.gins = 0
        self.knocks = 0         # knocks that stood
        self.undercut = 0       # own knocks undercut
        self.undercuts = 0      # undercuts given
        self.points = 0         # hand points scored

    def per_hand(self):
        return round(self.points / self.hands, 1) if self.hands else 0.0


def is_gin(variant):
    return G.index(variant) >= 0


def collect_into(conn, players, new_player):
    """Add every named player's gin figures (Player.gin) from the stored gin sittings."""
    marks = ",".join("?" * len(G.NAMES))
    rows = conn.execute("SELECT id, log FROM sittings WHERE variant IN (%s) "
                        "AND (damaged = 0 OR accepted = 1)" % marks,
                        G.NAMES).fetchall()
    for _, log in rows:
        rp = L.replay(log.encode("utf-8"))
        names = rp.header.players
        if not names:
            continue
        figs = []
        for name in names:
            p = players.get(name)
            if p is None:
                p = players[name] = new_player(name)
            if getattr(p, "gin", None) is None:
                p.gin = GinFigures()
            p.gin.games += 1
            figs.append(p.gin)
        s = None
        for kind, info in L.walk(rp.header, rp.events):
            if kind == "end":
                s = info
                continue
            if kind != "hand":
                continue
            for f in figs:
                f.hands += 1
            w = info["winner"]
            if w is not None:
                figs[w].hands_won += 1
                figs[w].points += info["points"]
            end = info["end"]
            if end == "gin":
                figs[info["seat"]].gins += 1
            elif end == "knock":
                figs[info["seat"]].knocks += 1
            elif end == "undercut":
                figs[info["seat"]].undercut += 1
                figs[1 - info["seat"]].undercuts += 1
        if s is not None and s.over():
            figs[s.winner()].games_won += 1


HEADERS = ["player", "games", "won", "hands", "hands won", "gins", "knocks", "undercut",
           "undercuts given", "points/hand"]


def rows(players):
    out = []
    for p in sorted(players, key=lambda p: (-p.gin.games_won, -p.gin.games, p.name)):
        g = p.gin
        out.append([p.name, g.games, g.games_won, g.hands, g.hands_won, g.gins, g.knocks,
                    g.undercut, g.undercuts, g.per_hand()])
    return out


def csv_cells(names, h):
    """A gin hand in the CSV export's columns: bidder is who went gin or knocked, bid the
    knock limit (the turn-up), contract how the hand ended, made whether who went out
    scored (no: undercut)."""
    end = h["end"]
    seat = h.get("seat")
    made = "" if seat is None else ("no" if end == "undercut" else "yes")
    return ["" if seat is None else names[seat], h.get("turnup", ""), end, "", made,
            h["points"], "no"]

