"""Live progress of the sittings being played at an event's tables: what a table stands
at between its results ("playing 3-2, hand 5"), shown on the page for the room and never
counted as a result. A sync records the open sitting of the scorer it talks to; any
other link to a scorer (a radio, say) records the same way.

    from host_tools.events import live
    live.record(database, "Tuesday", 2, 3, "T42-0000A1-04B8DA66",
                players=["Ann", "Cy", "Bob", "Di"], score=[3, 2], hands=4)
        -> True: table 3 of round 2 now reads "playing 3-2, hand 5" (side A first)
    live.record_log(database, lines, device="T42-0000A1")
        -> the same from the sitting's log lines so far (as log.device.from_device makes
           them: its `#tally42` line names the event, round and table): (event, round,
           table, Live), or None when it is no table's
    live.read(database, ev)  -> {(round, table): Live}; Live.text, .score, .hands
    live.clear(database, "Tuesday", 2, 3)

record() takes the sitting as its log has it: players by seat, the score of seat 1's
side then seat 2's, the hands scored so far. It checks the players against the table's
(either way round) and keeps one state a table, the latest; it returns False, storing
nothing, when the sitting is not the table's or the table is decided already. Each call
is one write transaction. A result slotted at the table clears its state
(host_tools/events/slots.py)."""
import datetime
import json

from host_tools.events.event import Transaction, load
from host_tools.events.state import event_state, flipped, sides_of, table_status
from host_tools.log.text import printable

# Its table, event_live: host_tools/store/eventschema.py LIVE_SCHEMA.


class Live:
    """A table's progress as last recorded."""

    def __init__(self, row):
        self.sitting = row["sitting_id"]
        self.score = [row["score_a"], row["score_b"]]
        self.hands = row["hands"]
        self.device = row["device"]
        self.updated_at = row["updated_at"]

    @property
    def text(self):
        return playing(self.score, self.hands)


def playing(score, hands):
    """A game in progress as the room reads it: "playing 3-2, hand 5" (hands: those
    played so far). Said alike of a scorer's last word at a sync and of the hands a base
    station relayed (host_tools/events/radio.py), which are stored as they come."""
    return "playing %d-%d, hand %d" % (score[0], score[1], hands + 1)


def record(database, event, round_no, table_no, sitting_id, players, score, hands,
           device=None):
    """Record a table's open sitting (see the module's docstring). True when recorded;
    False when the sitting is not the table's, or the table is decided; EventError when
    the event has no such table."""
    name = event if isinstance(event, str) else event.name
    with Transaction(database, "record the progress of %s" % printable(sitting_id)):
        ev = load(database, name)
        table = ev.table(round_no, table_no)
        state = event_state(ev, database, only=None if ev.bracket else (round_no, table_no))
        if table_status(ev, table, state) not in ("ready", "playing"):
            return False
        a, b = sides_of(ev, table, state)
        side_b_first = flipped(ev, json.dumps(list(players)), ev.seats(a, b, round_no))
        if side_b_first is None:
            return False
        sa, sb = (score[1], score[0]) if side_b_first else (score[0], score[1])
        conn = database.conn
        conn.execute("DELETE FROM event_live WHERE event = ? AND round = ? AND table_no = ?",
                     (name, round_no, table_no))
        conn.execute("INSERT INTO event_live (event, round, table_no, sitting_id, score_a, "
                     "score_b, hands, device, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (name, round_no, table_no, sitting_id, int(sa), int(sb), int(hands),
                      device, _now()))
    return True


def read(database, event):
    """{(round, table): Live} of an event (an Event or its name)."""
    name = event if isinstance(event, str) else event.name
    rows = database.conn.execute("SELECT * FROM event_live WHERE event = ?", (name,))
    return {(r["round"], r["table_no"]): Live(r) for r in rows}


def clear(database, event, round_no, table_no):
    """Forget a table's progress (inside the caller's transaction, if any)."""
    database.conn.execute("DELETE FROM event_live WHERE event = ? AND round = ? AND "
                          "table_no = ?", (event, round_no, table_no))


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")



def record_log(database, lines, device=None):
    """Record the progress of a sitting given as its log lines so far (what a sync
    fetches of the scorer's open sitting). Returns (event, round, table, Live) when
    recorded; None when the sitting is of no event's table in this database, is not
    that table's, or does not replay."""
    from host_tools.log.lines import LogError, dump_log, seat_names
    from host_tools.log.sittinglog import replay, report
    from host_tools.events.event import EventError
    try:
        rp = replay(dump_log(lines).encode("utf-8"))
    except LogError:
        return None
    x = rp.header.extra
    if not x.get("event") or x.get("round") is None or x.get("table") is None:
        return None
    r = report(rp)
    if r["over"]:
        return None         # a finished sitting is stored as such, not as progress
    try:
        if not record(database, x["event"], x["round"], x["table"], x.get("id", "?"),
                      seat_names(rp.header), r["score"], len(r["hands"]), device):
            return None
    except EventError:
        return None
    return x["event"], x["round"], x["table"], read(database, x["event"])[(x["round"],
                                                                            x["table"])]
