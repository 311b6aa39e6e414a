"""Results in and tables out: a stored sitting slotted as a table's result, and the
table a scorer plays next, handed out by sync. Each is one write transaction, so PCs
doing either at once never clash."""
import json

from host_tools.events.event import EventError, load, names, Transaction
from host_tools.events.state import event_state, flipped, sides_of, table_status
from host_tools.log.text import printable


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
    row = conn.execute("SELECT id, variant, options, players FROM sittings WHERE id = ?",
                       (sitting_id,)).fetchone()
    if row is None:
        raise EventError("no sitting %s stored (import or sync it first)"
                         % printable(sitting_id))
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
    seats = ev.seats(a, b)
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
    return "slotted"


def next_assignment(database, device_id, event=None):
    """The table a scorer should play next, as the sync pushes it: {"event", "round",
    "table", "players": [names by seat], "variant", "options"}, or None when there is
    nothing to play. A table already pushed to this scorer and not decided comes first;
    else the first open table of the event's current round is claimed for it. In one
    write transaction: PCs handing out tables at once never hand out the same one."""
    with Transaction(database, "hand out a table to %s" % printable(device_id)):
        return _next_assignment(database, device_id, event)


def _next_assignment(database, device_id, event):
    todo = [event] if event is not None else names(database)
    for name in todo:
        ev = load(database, name)
        state = event_state(ev, database)
        open_tables = [t for t in ev.tables
                       if table_status(ev, t, state) in ("ready", "playing")]
        mine = [t for t in open_tables if t.device == device_id]
        if not mine and open_tables:
            # A bracket's matches go out as soon as both teams are known; a round
            # robin's or a progressive's round only when the one before is decided.
            current = min(t.round for t in open_tables)
            free = [t for t in open_tables if t.device is None and (
                ev.bracket is not None or t.round == current)]
            if free:
                t = free[0]
                database.conn.execute(
                    "UPDATE event_tables SET device = ? WHERE event = ? AND round = ? "
                    "AND table_no = ?", (device_id, ev.name, t.round, t.table))
                mine = [t]
        if mine:
            t = mine[0]
            a, b = sides_of(ev, t, state)
            return {"event": ev.name, "round": t.round, "table": t.table,
                    "players": ev.seats(a, b), "variant": ev.variant,
                    "options": dict(ev.options)}
    return None
