"""The desk's view of a night: each scorer, the table number it keeps, the table it is
at (handed to it, or heard from it), what that table is doing, the next table sent to
it over the radio and whether it has confirmed, conflicts, and when it was last heard.
`tally42 event desk NAME` prints it; the radio's relay (host_tools/events/radio.py)
writes what only it knows (last heard, next tables, conflicts) into `event_desk`, so
any desk's PC on the same database sees it."""
import datetime
import sqlite3

from host_tools.events import live as LV
from host_tools.events.event import Transaction, load
from host_tools.events.state import event_state, table_status

_TABLE = ("CREATE TABLE IF NOT EXISTS event_desk (event TEXT NOT NULL REFERENCES "
          "events(name) ON DELETE CASCADE, device TEXT NOT NULL, heard_at TEXT, "
          "next_text TEXT, next_state TEXT, conflict TEXT, PRIMARY KEY (event, device))")
_FIELDS = ("heard_at", "next_text", "next_state", "conflict")


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def note(database, event, device, **fields):
    """Record what the radio knows of a scorer: heard_at=True (now), next_text,
    next_state ("sent", "confirmed", "wait"), conflict. One write transaction."""
    if fields.get("heard_at") is True:
        fields["heard_at"] = _now()
    with Transaction(database, "note scorer %s at the desk" % device):
        conn = database.conn
        conn.execute(_TABLE)
        row = conn.execute("SELECT device FROM event_desk WHERE event = ? AND device = ?",
                           (event, device)).fetchone()
        if row is None:
            conn.execute("INSERT INTO event_desk (event, device) VALUES (?, ?)",
                         (event, device))
        for key in _FIELDS:
            if key in fields:
                conn.execute("UPDATE event_desk SET %s = ? WHERE event = ? AND device = ?"
                             % key, (fields[key], event, device))


def _has_table(conn):
    # event_desk is made at the first frame the radio hears (note()).
    if isinstance(conn, sqlite3.Connection):
        return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                            "name = 'event_desk'").fetchone() is not None
    return "event_desk" in conn.table_names()


def _noted(database, event):
    conn = database.conn
    if not _has_table(conn):
        return {}
    rows = conn.execute("SELECT device, heard_at, next_text, next_state, conflict FROM "
                        "event_desk WHERE event = ?", (event,)).fetchall()
    return {r[0]: {"heard_at": r[1], "next": r[2], "next_state": r[3], "conflict": r[4]}
            for r in rows}


def desk(database, event, now=None):
    """The desk's rows: {"event", "scorers": [{"device", "home", "at", "live", "next",
    "next_state", "conflict", "heard"}], "unscored": [(round, table)] of open tables of
    the earliest open round no scorer holds}."""
    ev = load(database, event)
    state = event_state(ev, database)
    progress = LV.read(database, ev)
    noted = _noted(database, ev.name)
    conn = database.conn
    homes = {r[0]: r[1] for r in conn.execute(
        "SELECT device, table_no FROM event_scorers WHERE event = ?", (ev.name,))}
    at = {}
    for t in ev.tables:
        status = table_status(ev, t, state)
        if t.device is not None and status in ("ready", "playing"):
            if t.device not in at or (t.round, t.table) < at[t.device][:2]:
                at[t.device] = (t.round, t.table, status)
    for (rnd, table), lv in progress.items():
        if lv.device and lv.device not in at:
            at[lv.device] = (rnd, table, "playing")
    devices = sorted(set(homes) | set(at) | set(noted))
    now = now or datetime.datetime.now(datetime.timezone.utc)
    rows = []
    for d in devices:
        where = at.get(d)
        live = None
        if where is not None:
            lv = progress.get(where[:2])
            games = state["results"].get(where[:2], [])
            live = lv.text if lv is not None else (
                LV.playing(games[-1].score, games[-1].hands) if games else "ready")
        n = noted.get(d, {})
        heard = n.get("heard_at")
        rows.append({"device": d, "home": homes.get(d), "at": where[:2] if where else None,
                     "live": live, "next": n.get("next"), "next_state": n.get("next_state"),
                     "conflict": n.get("conflict"),
                     "heard": _ago(now, heard) if heard else None})
    open_rounds = [t.round for t in ev.tables if table_status(ev, t, state) in (
        "ready", "playing")]
    first = min(open_rounds) if open_rounds else None
    unscored = [(t.round, t.table) for t in ev.tables if t.round == first and
                t.device is None and table_status(ev, t, state) == "ready"]
    return {"event": ev.name, "scorers": rows, "unscored": unscored}


def _ago(now, iso):
    try:
        then = datetime.datetime.fromisoformat(iso)
    except ValueError:
        return iso
    s = int((now - then).total_seconds())
    return "%d s ago" % s if s < 120 else "%d min ago" % (s // 60) if s < 7200 else iso


def text(d):
    """The desk as text, a line a scorer, then what needs the organiser."""
    head = ("Scorer", "Keeps", "At", "Table", "Next (radio)", "Heard")
    rows = [head]
    for r in d["scorers"]:
        nxt = "-"
        if r["next"]:
            nxt = "%s (%s)" % (r["next"], r["next_state"] or "sent")
        rows.append((r["device"], "table %d" % r["home"] if r["home"] else "-",
                     "round %d table %d" % r["at"] if r["at"] else "-", r["live"] or "-",
                     nxt, r["heard"] or "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    out = ["%s: the desk" % d["event"], "=" * (len(d["event"]) + 10)]
    for row in rows:
        out.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    if not d["scorers"]:
        out.append("(no scorer yet: `tally42 sync --event` hands each its table)")
    pending = [r for r in d["scorers"] if r["next"] and r["next_state"] == "sent"]
    for r in pending:
        out.append("pending: %s has not confirmed its next table (%s)" % (r["device"],
                                                                          r["next"]))
    for r in d["scorers"]:
        if r["conflict"]:
            out.append("CONFLICT: %s" % r["conflict"])
    if d["unscored"]:
        out.append("no scorer at: %s" % ", ".join("round %d table %d" % x
                                                  for x in d["unscored"]))
    return "\n".join(out) + "\n"
