"""What a club sets for its night beyond the format, and its record of changes:

- how a bye scores (`bye`: nothing, a win, the team's average) and the order of the
  tie-breaks after matches won (`tiebreak`: h2h, diff, for), read by
  host_tools/events/standings.py from Event.club;
- round gating (`gate`): no table of round N+1 is handed out (by a sync, or over the
  radio) until every table of round N is decided; a scorer whose table is decided is
  told to wait for the round;
- a finished event (`finish`): its results are locked (no result slotted, no table
  handed out) until it is opened again;
- the audit trail (`log`): each correction (a result entered or slotted by hand, a
  scorer released, a substitute, a late team, gating, finishing), who made it and when.

Kept in two tables made when first written: event_settings (event, key, value) and
event_log (event, at, who, what)."""
import datetime
import getpass
import socket

from host_tools.events.event import EventError, Transaction, has_table, load

_SETTINGS = ("CREATE TABLE IF NOT EXISTS event_settings (event TEXT NOT NULL REFERENCES "
             "events(name) ON DELETE CASCADE, key TEXT NOT NULL, value TEXT, "
             "PRIMARY KEY (event, key))")
_LOG = ("CREATE TABLE IF NOT EXISTS event_log (event TEXT NOT NULL REFERENCES events(name) "
        "ON DELETE CASCADE, at TEXT NOT NULL, who TEXT NOT NULL, what TEXT NOT NULL)")


def _has(conn, table):
    return has_table(conn, table)


def setting(database, event, key):
    """The event's setting `key` (text), or None."""
    conn = database.conn
    if not _has(conn, "event_settings"):
        return None
    row = conn.execute("SELECT value FROM event_settings WHERE event = ? AND key = ?",
                       (event, key)).fetchone()
    return None if row is None else row[0]


def gated(database, event):
    return setting(database, event, "gate") == "on"


def finished(database, event):
    """When the event was finished (its time), or None while it is open."""
    return setting(database, event, "finished")


def check_open(database, event):
    """EventError when the event is finished (its results locked)."""
    at = finished(database, event)
    if at:
        raise EventError("%s is finished (%s): its results are locked (`tally42 event "
                         "finish %s --reopen` opens it again)" % (event, at, event))


def _who():
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "?"
    return "%s@%s" % (user, socket.gethostname())


def _now():
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def note(database, event, what):
    """Add a line to the event's audit trail (inside the caller's transaction, if any)."""
    with Transaction(database, "note a change to %s" % event):
        conn = database.conn
        conn.execute(_LOG)
        conn.execute("INSERT INTO event_log (event, at, who, what) VALUES (?, ?, ?, ?)",
                     (event, _now(), _who(), what))


def trail(database, event):
    """The audit trail, oldest first: [(at, who, what)]."""
    load(database, event)       # no such event: says so
    conn = database.conn
    if not _has(conn, "event_log"):
        return []
    return [tuple(r) for r in conn.execute(
        "SELECT at, who, what FROM event_log WHERE event = ? ORDER BY at", (event,))]


def _set(database, event, key, value, what):
    with Transaction(database, "set %s of %s" % (key, event)):
        load(database, event)
        conn = database.conn
        conn.execute(_SETTINGS)
        conn.execute("DELETE FROM event_settings WHERE event = ? AND key = ?", (event, key))
        if value is not None:
            conn.execute("INSERT INTO event_settings (event, key, value) VALUES (?, ?, ?)",
                         (event, key, value))
        note(database, event, what)


def set_gate(database, event, on):
    _set(database, event, "gate", "on" if on else None,
         "round gating %s" % ("on" if on else "off"))


BYES = ("nothing", "win", "average")
TIEBREAKS = ("h2h", "diff", "for")


def set_bye(database, event, how):
    if how not in BYES:
        raise EventError("--bye: %s (one of %s)" % (how, ", ".join(BYES)))
    _set(database, event, "bye", how, "a bye scores: %s" % how)


def set_tiebreak(database, event, text):
    """The tie-breaks after matches won, in order (tiebreak_order)."""
    order = tiebreak_order(text)
    _set(database, event, "tiebreak", ",".join(order), "tie-breaks: %s" % ", ".join(order))


def tiebreak_order(text):
    """A comma list of h2h, diff, for as the full order (those left out come after, in
    that order); EventError when it is not one."""
    given = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in given if t not in TIEBREAKS]
    if bad or not given or len(set(given)) != len(given):
        raise EventError("--tiebreak %s: a comma list of %s, each once (h2h: head to "
                         "head, diff: difference, for: marks or points for)"
                         % (text, ", ".join(TIEBREAKS)))
    return given + [t for t in TIEBREAKS if t not in given]


def finish(database, event, reopen=False):
    """Lock the event's results (reopen: unlock them). Returns the time it was finished
    (None when reopened); EventError when there is nothing to do."""
    at = finished(database, event)
    if reopen:
        if not at:
            raise EventError("%s is not finished" % event)
        _set(database, event, "finished", None, "opened again")
        return None
    if at:
        raise EventError("%s is finished already (%s)" % (event, at))
    now = _now()
    _set(database, event, "finished", now, "finished: results locked")
    return now


def trail_text(database, event):
    rows = trail(database, event)
    if not rows:
        return "%s: no change recorded\n" % event
    return "".join("%s  %s  %s\n" % r for r in rows)
