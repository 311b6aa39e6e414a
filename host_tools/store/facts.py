"""The facts the database indexes about a replayed sitting (players, hands, bids,
contracts, results, games): the log stays the truth, these are read from it."""
import hashlib
import json

from host_tools.log import sittinglog as L
from host_tools.log.lines import dump_log

PARTNERSHIP_MOON = "partnership-moon"


def _contract_text(c):
    return None if c is None else str(c)


class Facts:
    """What the database indexes about a replayed sitting (the log stays the truth)."""

    def __init__(self, rp):
        self.replay = rp
        header = rp.header
        self.header = header
        self.report = L.report(rp)
        canonical = dump_log(L.log_lines(header, [ev for _, ev in rp.events]))
        self.log = canonical        # what is stored: comments and spacing are not kept
        self.log_hash = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        self.id = header.extra.get("id") or "log-" + self.log_hash[:16]
        self.events = [ev for _, ev in rp.events]
        self.hands = []
        self.games = []
        sides = len(self.report["score"])
        running = [0] * sides
        for kind, info in L.walk(header, rp.events):
            if kind == "hand":
                h = dict(info)
                h["number"] = len(self.hands) + 1
                h["game"] = len(self.games) + 1
                for i, a in enumerate(info.get("award", ())):
                    running[i] += a
                h["score"] = list(running)
                self.hands.append(h)
            elif kind == "game":
                self.games.append(info)
                running = [0] * sides

    def games_json(self):
        if self.header.rules.name != PARTNERSHIP_MOON:
            return None
        return json.dumps({"games": self.games, "match": self.report["match"]})

    def seats(self):
        """(seat, name, team) for every seat."""
        s = self.replay.sitting
        names = self.header.players
        return [(i, names[i] if names else None, s.side_of(i)) for i in range(s.seats)]


def hand_row(h):
    """A report hand dict (with number, game, score) as the hands table's columns."""
    bid = h.get("bid")
    contract = h.get("contract")
    return {
        "number": h["number"], "game": h["game"], "dealer": h["dealer"],
        "thrown_in": 1 if h.get("thrown_in") else 0,
        "bidder": h.get("bidder"),
        "bid": None if bid == "game" else bid,
        "bid_name": "game" if bid == "game" else (
            contract if contract in ("plunge", "splash") else None),
        "contract": _contract_text(contract),
        "trump": _contract_text(h.get("trump")),
        "made": None if "made" not in h else (1 if h["made"] else 0),
        "points": h.get("points"),
        "award": None if "award" not in h else json.dumps(h["award"]),
        "score": json.dumps(h["score"]),
    }


def hand_dict(row):
    """A hands table row (a dict or sqlite3.Row) back as the replay report's hand dict."""
    d = {"dealer": row["dealer"]}
    if row["thrown_in"]:
        d["thrown_in"] = True
        return d

    def contract(text):
        return int(text) if text.isdigit() else text

    d["bidder"] = row["bidder"]
    d["bid"] = "game" if row["bid_name"] == "game" else row["bid"]
    d["contract"] = contract(row["contract"])
    if row["trump"] is not None:
        d["trump"] = contract(row["trump"])
    d["made"] = row["made"] == 1
    d["points"] = row["points"]
    d["award"] = json.loads(row["award"])
    return d
