"""Sitting logs for tests and the bench: a 42 sitting to 7 marks where the side asked
for wins, built hand by hand (a bid of 30, made or set), checked by replay; random legal
sittings (tests/kit/engine/randsit.py) as logs, the hands a store should find in them,
and a log stored as tally42's schema 1 did."""
import json
from array import array

from engine_core.texas42 import options as O
from engine_core.texas42.sitting import Sitting
from host_tools.log import lines as LN
from host_tools.log import sittinglog as L
from host_tools.store import facts as F
from randsit import SETUPS, RandomPlayer, play


def sitting_42(players, winner, loser_marks, sitting_id, target=7):
    """Log text (JSON Lines) of a finished 42 sitting: side `winner` (0: seats 0 and 2)
    reaches `target` marks, the other side has `loser_marks` (< target)."""
    marks = [0, 0]
    order = []
    # The loser's marks come early, the winner's last mark ends the sitting.
    for i in range(loser_marks + target):
        order.append(1 - winner if i % 2 and marks[1 - winner] < loser_marks
                     or marks[winner] >= target - 1 and marks[1 - winner] < loser_marks
                     else winner)
        marks[order[-1]] += 1
    lines = [{"type": "sitting", "variant": "42", "id": sitting_id, "players": list(players),
              "dealer": 0}]
    for h, side in enumerate(order):
        bidder = (h + 1) % 4
        lines.append({"type": "bid", "bid": 30})
        lines += [{"type": "bid", "bid": "pass"}] * 3
        lines.append({"type": "trump", "trump": 5})
        lines.append({"type": "result", "points": 31 if bidder % 2 == side else 20})
    return "".join(json.dumps(x) + "\n" for x in lines)


def partial_42(players, hands, sitting_id):
    """A sitting in progress: `hands` hands, each made by the bidder."""
    lines = [{"type": "sitting", "variant": "42", "id": sitting_id, "players": list(players),
              "dealer": 0}]
    for h in range(hands):
        lines.append({"type": "bid", "bid": 30})
        lines += [{"type": "bid", "bid": "pass"}] * 3
        lines.append({"type": "trump", "trump": 5})
        lines.append({"type": "result", "points": 31})
    return "".join(json.dumps(x) + "\n" for x in lines)


def random_sitting(seed, setup=0, limit=300, players=None, extra=None, dealer=None):
    """(header, events) of a random legal sitting played by tests/kit/randsit.py."""
    variant, options = SETUPS[setup % len(SETUPS)]
    rules = O.resolve(variant, options)
    seats = rules.row[0]
    dealer = seed % seats if dealer is None else dealer
    s = Sitting(rules, dealer)
    out = array("l", bytes(8 * max(limit, 1)))
    n = play(s, RandomPlayer(seed), out, limit)
    if players is not None:
        players = list(players)[:seats]
        players += ["P%d" % i for i in range(len(players), seats)]
    header = LN.Header(rules, dealer, players, dict(extra or {}))
    return header, list(out[:n])


def random_log(seed, setup=0, limit=300, players=None, extra=None):
    header, events = random_sitting(seed, setup, limit, players, extra)
    return LN.dump_log(L.log_lines(header, events))


def expected_hands(text):
    """Every finished deal of a log, counted independently of host_tools.store.db: replay the
    standing events one by one and note each change of the deal count or of `over`."""
    rp = L.replay(text.encode("utf-8"))
    s = Sitting(rp.rules, rp.header.dealer)
    hands = []
    for _, ev in LN.effective(rp.events):
        before = (s.hands(), s.over())
        s.apply(ev)
        if s.hands() > before[0] or (s.over() and not before[1]):
            hands.append(L.hand_json(s))
    return hands


def count(database, table):
    return database.conn.execute("SELECT COUNT(*) FROM %s" % table).fetchone()[0]


def store_v1(conn, text):
    """Store a log as tally42 schema 1 did (no games)."""
    facts = F.Facts(L.replay(text.encode()))
    r = facts.report
    conn.execute(
        "INSERT INTO sittings (id, variant, options, players, dealer, started, source, device, "
        "imported_at, updated_at, events, hands, over, winner, score, log_hash, log) VALUES "
        "(?, ?, ?, NULL, ?, NULL, 'import', NULL, 'then', 'then', ?, ?, ?, ?, ?, ?, ?)",
        (facts.id, r["variant"], json.dumps(r["options"]), facts.header.dealer,
         len(facts.events), len(facts.hands), int(r["over"]), r["winner"],
         json.dumps(r["score"]), facts.log_hash, text))
    for seat, name, team in facts.seats():
        conn.execute("INSERT INTO seats VALUES (?, ?, ?, ?)", (facts.id, seat, name, team))
    for h in facts.hands:
        row = F.hand_row(h)
        del row["game"]
        row["score"] = "[0, 0]"     # as if v1 had it wrong: the migration rewrites it
        row["sitting_id"] = facts.id
        conn.execute("INSERT INTO hands (%s) VALUES (%s)" % (
            ", ".join(row), ", ".join("?" * len(row))), list(row.values()))
    return facts
