"""Results in and tables out: a stored sitting slotted as a table's result, and the
table a scorer plays next, handed out by sync. Each is one write transaction, so PCs
doing either at once never clash."""
import json

from host_tools.events import club as CL
from host_tools.events import live
from host_tools.events.event import EventError, load, names, Transaction
from host_tools.events.state import event_state, flipped, sides_of, table_status
from host_tools.log.text import printable
from host_tools.store import db as D


def slot_sitting(database, sitting_id, event, round_no, table_no):
    """Make a stored sitting that table's result (the next game of its match). Returns
    'slotted' or 'already slotted'; EventError when the sitting does not fit the table.
    Checked and written in one write transaction: two PCs slotting at one table at once
    slot one sitting there, and the other is told the table's state."""
    with Transaction(database, "slot sitting %s" % printable(sitting_id)):
        if isinstance(event, str):
            event = load(database, event)
        elif database.conn.execute("SELECT 1 FROM events WHERE name = ?",
                                   (event.name,)).fetchone() is None:
            load(database, event.name)      # deleted meanwhile: says so
        # An Event as loaded before serves: what a slot reads of it (roster, tables,
        # bracket) never changes once the event is made.
        return _slot(database, sitting_id, event, round_no, table_no)


def _slot(database, sitting_id, ev, round_no, table_no):
    conn = database.conn
    row = conn.execute("SELECT id, variant, options, players, damaged, accepted "
                       "FROM sittings WHERE id = ?", (sitting_id,)).fetchone()
    if row is None:
        raise EventError("no sitting %s stored (import or sync it first)"
                         % printable(sitting_id))
    if row["damaged"] and not row["accepted"]:
        raise EventError("sitting %s is damaged (the scorer's journal was, inside it): only "
                         "its hands before the damage are stored; `tally42 accept %s` if "
                         "they stand as the table's result, then slot it"
                         % (printable(sitting_id), printable(sitting_id)))
    CL.check_open(database, ev.name)        # a finished night's results are locked
    table = ev.table(round_no, table_no)
    where = "%s round %d table %d" % (ev.name, round_no, table_no)
    have = conn.execute("SELECT event, round, table_no FROM event_results WHERE sitting_id = ?",
                        (sitting_id,)).fetchone()
    if have is not None:
        if (have["event"], have["round"], have["table_no"]) == (ev.name, round_no, table_no):
            return "already slotted"
        raise EventError("sitting %s is already the result of %s round %d table %d" % (
            sitting_id, have["event"], have["round"], have["table_no"]))
    if row["variant"] != ev.variant or json.loads(row["options"]) != ev.options:
        raise EventError("sitting %s plays %s with other options than %s (%s)" % (
            sitting_id, row["variant"], ev.name, ev.variant))
    state = event_state(ev, database, only=(round_no, table_no))
    status = table_status(ev, table, state)
    if status in ("waiting", "not needed", "done"):
        raise EventError("%s is %s: no result goes there" % (
            where, {"waiting": "waiting for an earlier match", "not needed": "not needed",
                    "done": "decided"}[status]))
    a, b = sides_of(ev, table, state)
    seats = ev.seats(a, b, round_no)
    if flipped(ev, row["players"], seats) is None:
        raise EventError("sitting %s was played by %s; %s seats %s" % (
            sitting_id, ", ".join(json.loads(row["players"])), where, ", ".join(seats)))
    games = state["results"].get((round_no, table_no), [])
    if games and not games[-1].over:
        raise EventError("%s is still playing sitting %s: it must end before the next"
                         % (where, games[-1].sitting))
    conn.execute("DELETE FROM event_results WHERE event = ? AND round = ? AND table_no = ? "
                 "AND sitting_id NOT IN (SELECT id FROM sittings)",
                 (ev.name, round_no, table_no))
    n = conn.execute("SELECT MAX(game) FROM event_results WHERE event = ? AND round = ? "
                     "AND table_no = ?", (ev.name, round_no, table_no)).fetchone()[0]
    conn.execute("INSERT INTO event_results (event, round, table_no, game, sitting_id) "
                 "VALUES (?, ?, ?, ?, ?)",
                 (ev.name, round_no, table_no, (n or 0) + 1, sitting_id))
    live.clear(database, ev.name, round_no, table_no)     # the result says it now
    return "slotted"


def slot_of(database, sitting_id):
    """(event, round, table) a stored or deleted sitting is the result of, or None."""
    row = database.conn.execute("SELECT event, round, table_no FROM event_results WHERE "
                                "sitting_id = ?", (sitting_id,)).fetchone()
    return None if row is None else (row["event"], row["round"], row["table_no"])


def slots(database):
    """{sitting id: (event, round, table)} of every slotted sitting."""
    return {r["sitting_id"]: (r["event"], r["round"], r["table_no"]) for r in
            database.conn.execute("SELECT sitting_id, event, round, table_no FROM "
                                  "event_results")}


def scorer_table(database, event, device_id):
    """The table number a scorer keeps in an event, or None before its first."""
    row = database.conn.execute("SELECT table_no FROM event_scorers WHERE event = ? AND "
                                "device = ?", (event, device_id)).fetchone()
    return None if row is None else row["table_no"]


def release(database, event, device_id=None, table_no=None):
    """Free a scorer's table for the night (by the scorer, or by the table's number):
    the table number goes back to the pool, and the tables handed to it and not decided
    yet go to whichever scorer asks next. Returns [(device, its table number or None)]
    released; EventError when there is nothing to release."""
    with Transaction(database, "release a table of %s" % printable(event)):
        ev = load(database, event)
        conn = database.conn
        held = conn.execute("SELECT device, table_no FROM event_scorers WHERE event = ?",
                            (ev.name,)).fetchall()
        state = event_state(ev, database)
        pushed = [(t.device, t.table) for t in ev.tables if t.device is not None and
                  table_status(ev, t, state) in ("ready", "playing")]
        mine = sorted({(r["device"], r["table_no"]) for r in held} | set(pushed))
        mine = [(d, t) for d, t in mine if (device_id is None or d == device_id) and
                (table_no is None or t == table_no)]
        if not mine:
            raise EventError("%s: no table is held by %s" % (
                ev.name, "scorer %s" % printable(device_id) if device_id else
                "a scorer at table %d" % table_no))
        released = []
        for d in sorted({d for d, _ in mine}):
            conn.execute("DELETE FROM event_scorers WHERE event = ? AND device = ?",
                         (ev.name, d))
            for t in ev.tables:
                if t.device == d and table_status(ev, t, state) in ("ready", "playing"):
                    conn.execute("UPDATE event_tables SET device = NULL WHERE event = ? AND "
                                 "round = ? AND table_no = ?", (ev.name, t.round, t.table))
            released.append((d, next((r["table_no"] for r in held if r["device"] == d),
                                     None)))
        return released


def next_assignment(database, device_id, event=None):
    """The table a scorer should play next, as the sync pushes it: {"event", "round",
    "table", "players": [names by seat], "variant", "options"}, or None when there is
    nothing to play. A table already pushed to this scorer and not decided comes first.
    In a round robin or a progressive a scorer keeps one physical table for the night
    (the first free number of the current round, claimed at its first table) and the
    teams move: it gets its number's next open table, which is the next round's as soon
    as its own table is decided, whatever the other tables are doing. A bracket's
    matches go to whichever scorer asks, as soon as both teams are known. In one write
    transaction: PCs handing out tables at once never hand out the same one."""
    with Transaction(database, "hand out a table to %s" % printable(device_id)):
        return _next_assignment(database, device_id, event)


def _next_assignment(database, device_id, event):
    todo = [event] if event is not None else names(database)
    for name in todo:
        ev = load(database, name)
        if CL.finished(database, ev.name):
            continue            # locked: no table handed out
        state = event_state(ev, database)
        open_tables = [t for t in ev.tables
                       if table_status(ev, t, state) in ("ready", "playing")]
        if open_tables and CL.gated(database, ev.name):
            # Round gating: nothing of a round until the one before is all decided.
            first = min(t.round for t in open_tables)
            open_tables = [t for t in open_tables if t.round == first]
        mine = [t for t in open_tables if t.device == device_id]
        if not mine and open_tables:
            t = (_first_match(open_tables) if ev.bracket is not None else
                 _at_home(database, ev, device_id, open_tables))
            if t is not None:
                database.conn.execute(
                    "UPDATE event_tables SET device = ? WHERE event = ? AND round = ? "
                    "AND table_no = ?", (device_id, ev.name, t.round, t.table))
                mine = [t]
        if mine:
            t = mine[0]
            a, b = sides_of(ev, t, state)
            return {"event": ev.name, "round": t.round, "table": t.table,
                    "players": ev.seats(a, b, t.round), "variant": ev.variant,
                    "options": dict(ev.options)}
    return None


def _first_match(open_tables):
    free = [t for t in open_tables if t.device is None]
    return free[0] if free else None


def _at_home(database, ev, device_id, open_tables):
    # The scorer's table number for the night, claimed at its first table: the number
    # of the first open table (the current round's first) that no scorer holds. Then
    # its number's first open table that no other scorer was handed.
    conn = database.conn
    home = scorer_table(database, ev.name, device_id)
    if home is None:
        held = {r["table_no"] for r in conn.execute(
            "SELECT table_no FROM event_scorers WHERE event = ?", (ev.name,))}
        free = [t.table for t in open_tables if t.device is None and t.table not in held]
        if not free:
            return None
        home = free[0]
        conn.execute("INSERT INTO event_scorers (event, device, table_no) VALUES (?, ?, ?)",
                     (ev.name, device_id, home))
    for t in open_tables:
        if t.table == home and t.device is None:
            return t
    return None


# ---- a sync's sittings (tally42 sync): slotted as they are stored, the next table ----

def next_table(database, event, refusals, said):
    # sync --event: the scorer's next table, claimed for it once its sittings are stored
    # and slotted (a table just decided can open the next round).

    def assignment_for(device_id):
        try:
            a = next_assignment(database, device_id, event)
        except (EventError, D.DbError) as e:
            refusals.append("no table pushed: %s" % e)
            return None
        if a is None:
            home = scorer_table(database, event, device_id)
            said.append("nothing to push: %s has no open table for scorer %s (%s)" % (
                event, device_id, "its table %d is decided in every round" % home
                if home is not None else "every table of the round has its scorer; "
                "`tally42 event release` frees one"))
        return a
    return assignment_for


class Slotter:
    """Each synced sitting that carries an event, round and table is slotted into that
    event once stored (host_tools.events.slots.slot_sitting): what was slotted, and what was
    refused (the sitting stays stored, the sync goes on)."""

    def __init__(self, database, only=None):
        self.database = database
        self.only = only        # sync --event: the event this desk runs
        self.slotted = []       # lines for stdout
        self.notes = []
        self.refused = []       # messages for stderr; the exit status is then 2
        self.nothing = []       # sync --event: why no table was pushed
        self._events = {}

    def __call__(self, sitting_id):
        conn = self.database.conn
        row = conn.execute("SELECT event, round, table_no, score, over FROM sittings "
                           "WHERE id = ?", (sitting_id,)).fetchone()
        if row is None or row["event"] is None:
            return
        name, rnd, table = row["event"], row["round"], row["table_no"]
        where = "%s round %s table %s" % (name, rnd, table)
        if self.only is not None and name != self.only:
            self.refused.append("sitting %s was played at %s, not in %s: not slotted (it "
                                "stays stored; `tally42 event slot` puts it in by hand)"
                                % (sitting_id, where, self.only))
            return
        try:
            ev = self._events.get(name)
            if ev is None:
                if conn.execute("SELECT 1 FROM events WHERE name = ?",
                                (name,)).fetchone() is None:
                    self.notes.append("sitting %s was played as %s: no event %s in the "
                                      "database, so it is not slotted" % (
                                          sitting_id, where, name))
                    return
                ev = self._events[name] = load(self.database, name)
            done = slot_sitting(self.database, sitting_id, ev, rnd, table)
        except (EventError, D.DbError) as e:
            why = str(e)
            if why.startswith(where + " "):
                why = "the table" + why[len(where):]
            self.refused.append("sitting %s not slotted into %s: %s (it stays stored; "
                                "`tally42 event slot` puts it right by hand)"
                                % (sitting_id, where, why))
            return
        if done == "slotted":
            score = json.loads(row["score"])
            self.slotted.append("slotted: sitting %s as the result of %s (%s%s)" % (
                sitting_id, where, "-".join(str(s) for s in score),
                "" if row["over"] else ", still playing"))
