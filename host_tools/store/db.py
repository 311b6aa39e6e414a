"""The PC's store of sittings (SQLite): each sitting's full log, exactly as it came, plus
the facts that stats and exports look up (players, hands, bids, contracts, results)."""
import datetime
import json
import os
import sqlite3
import sys

from host_tools.log import sittinglog as L
from host_tools.log.lines import dump_log
from host_tools.log.text import printable
from host_tools.log.times import utc
from host_tools.store.errors import Conflict, DbError
from host_tools.store.facts import Facts, hand_row
from host_tools.store.schema import SCHEMA_VERSION, check_ours, migrate, rollback as _rollback  # noqa: F401


def default_path():
    """tally42.db in the platform's user data directory (TALLY42_DB overrides it)."""
    if os.environ.get("TALLY42_DB"):
        return os.environ["TALLY42_DB"]
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
    elif sys.platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, "tally42", "tally42.db")


# ---- the database ----

class Stored:
    """What storing a sitting did: status is 'stored', 'updated' or 'already stored'."""

    def __init__(self, status, sitting_id, facts, added=0):
        self.status = status
        self.id = sitting_id
        self.facts = facts
        self.added = added          # events the update added

    def describe(self):
        r = self.facts.report
        state = "over" if r["over"] else "in progress"
        n = len(r["hands"])
        what = "%s, %d hand%s, %s" % (r["variant"], n, "" if n == 1 else "s", state)
        if self.status == "stored":
            return "stored sitting %s (%s)" % (self.id, what)
        if self.status == "updated":
            return "updated sitting %s: %d more events (%s)" % (self.id, self.added, what)
        return "already stored: sitting %s" % self.id


def _untimed(header):
    # A sitting's header but for its start time: the same sitting heard over the radio
    # (started when the PC first heard of it) and synced over USB (its start placed by
    # the scorer's clock at the hello) may differ by seconds, and is still the same one.
    out = header.to_json()
    out.pop("started", None)
    return out


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


class Database:
    """An open tally42 database. Every sitting is written in one transaction."""

    def __init__(self, conn, path):
        self.conn = conn
        self.path = path            # a file, or a postgresql:// URL without its password
        # The last key of "oldest first": the order rows were stored in (SQLite's rowid;
        # PostgreSQL has none, the id then).
        self.stored_order = "rowid" if isinstance(conn, sqlite3.Connection) else "id"

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- writing --
    def store(self, data, source="import", device=None):
        """Check a log (bytes or text) with the engine and store it: a Stored.
        LogError when the engine refuses it, Conflict when its id holds another log."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        facts = Facts(L.replay(data))
        return self.store_facts(facts, facts.log, source, device)

    def store_lines(self, lines, source="sync", device=None):
        """Store a sitting given as log lines (dicts), as log.device.from_device makes them."""
        return self.store(dump_log(lines), source, device)

    def store_facts(self, facts, text, source, device):
        if source not in ("import", "sync"):
            raise ValueError("source must be import or sync")
        sid = facts.id

        def store(row):
            if row is None:
                now = _now()
                self._insert(facts, text, source, device, now, now)
                return Stored("stored", sid, facts)
            return self._restore(facts, text, row["log"])
        return self._transaction("store", sid, store)

    def _transaction(self, what, sitting_id, work):
        # work(the sitting's row or None) in one transaction: all of it or nothing. Inside
        # a batch(), part of the batch's transaction.
        conn = self.conn
        if conn.in_transaction:
            try:
                row = conn.execute("SELECT * FROM sittings WHERE id = ?",
                                   (sitting_id,)).fetchone()
                return work(row)
            except sqlite3.Error as e:
                raise DbError("%s: cannot %s sitting %s: %s" % (self.path, what, sitting_id,
                                                                e)) from e
        try:
            conn.execute("BEGIN IMMEDIATE")
            row = conn.execute("SELECT * FROM sittings WHERE id = ?", (sitting_id,)).fetchone()
            result = work(row)
            conn.execute("COMMIT")
        except sqlite3.Error as e:
            _rollback(conn)
            raise DbError("%s: cannot %s sitting %s: %s" % (self.path, what, sitting_id, e))
        except BaseException:
            _rollback(conn)
            raise
        return result

    def batch(self):
        """A context manager: every write inside is one transaction (one commit, under the
        writer lock throughout), for bulk work. An error raised out of it stores nothing
        of the batch."""
        return _Batch(self)

    def _restore(self, facts, text, old_log):
        sid = facts.id
        old = L.replay(old_log.encode("utf-8"))
        if _untimed(old.header) != _untimed(facts.header):
            raise Conflict("sitting %s is already stored with another header" % sid, sid)
        have = [ev for _, ev in old.events]
        new = facts.events
        if new[:len(have)] != have and have[:len(new)] != new:
            raise Conflict("sitting %s is already stored with a log that differs from event %d"
                           % (sid, _first_difference(have, new) + 1), sid)
        if len(new) <= len(have):
            return Stored("already stored", sid, Facts(old))
        conn = self.conn
        first = conn.execute("SELECT source, device, imported_at, started, started_utc "
                             "FROM sittings WHERE id = ?", (sid,)).fetchone()
        conn.execute("DELETE FROM sittings WHERE id = ?", (sid,))
        self._insert(facts, text, first["source"], first["device"], first["imported_at"],
                     _now())
        if first["started"] is not None and facts.header.extra.get("started") is None:
            # A start time the PC gave (a scorer without a clock, heard over the radio)
            # stays when the scorer's own log has none.
            self.set_started(sid, first["started"])
        return Stored("updated", sid, facts, len(new) - len(have))

    def _insert(self, facts, text, source, device, imported_at, updated_at):
        conn = self.conn
        r = facts.report
        h = facts.header
        conn.execute(
            "INSERT INTO sittings (id, variant, options, players, dealer, started, source, "
            "device, imported_at, updated_at, events, hands, over, winner, score, log_hash, "
            "log, games, ended, event, round, table_no, started_utc, ended_utc, damaged) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (facts.id, r["variant"], json.dumps(r["options"]),
             None if h.players is None else json.dumps(list(h.players), ensure_ascii=False),
             h.dealer, h.extra.get("started"), source, device, imported_at, updated_at,
             len(facts.events), len(facts.hands), 1 if r["over"] else 0, r["winner"],
             json.dumps(r["score"]), facts.log_hash, text, facts.games_json(),
             h.extra.get("ended"), h.extra.get("event"), h.extra.get("round"),
             h.extra.get("table"), utc(h.extra.get("started")), utc(h.extra.get("ended")),
             1 if h.extra.get("damaged") else 0))
        conn.executemany("INSERT INTO seats (sitting_id, seat, name, team) VALUES (?, ?, ?, ?)",
                         [(facts.id,) + s for s in facts.seats()])
        for hand in facts.hands:
            cols = hand_row(hand)
            cols["sitting_id"] = facts.id
            names = sorted(cols)
            conn.execute("INSERT INTO hands (%s) VALUES (%s)" % (
                ", ".join(names), ", ".join(":" + n for n in names)), cols)

    def set_started(self, sitting_id, started):
        """Give a stored sitting whose log has no start time one (ISO 8601 with its
        offset): the time the PC first heard of it. A start time it has stays."""
        self.conn.execute("UPDATE sittings SET started = ?, started_utc = ? WHERE id = ? AND "
                          "started IS NULL", (started, utc(started), sitting_id))

    def delete(self, sitting_id):
        """Remove a stored sitting (its hands and seats go with it)."""
        self._change(sitting_id, lambda row: None)

    def rename(self, sitting_id, new_id):
        """Give a stored sitting another id (its log's header id changes with it)."""
        problem = None if new_id.strip() == new_id else "an id has no space at either end"
        if not new_id or len(new_id) > 100 or printable(new_id) != new_id:
            problem = "an id is a line of text of 1 to 100 characters"
        if problem:
            raise DbError("%s: %s" % (printable(new_id), problem))
        if self.conn.execute("SELECT 1 FROM sittings WHERE id = ?", (new_id,)).fetchone():
            raise DbError("%s is taken: there is a sitting of that id in %s" % (new_id,
                                                                              self.path))

        def renamed(row):
            rp = L.replay(row["log"].encode("utf-8"))
            rp.header.extra["id"] = new_id
            facts = Facts(rp)
            self._insert(facts, facts.log, row["source"], row["device"], row["imported_at"],
                         _now())
            # A sitting slotted in an event stays its table's result under its new id.
            self.conn.execute("UPDATE event_results SET sitting_id = ? WHERE sitting_id = ?",
                              (new_id, sitting_id))
            self.conn.execute("UPDATE sittings SET accepted = ? WHERE id = ?",
                              (row["accepted"], new_id))
        self._change(sitting_id, renamed)

    def accept(self, sitting_id):
        """Count a damaged (partial) sitting in standings and stats: the organiser's word
        that its hands stand. Returns False if it was accepted already; DbError when there
        is no such sitting or it is not damaged."""
        def accept(row):
            if row is None:
                raise DbError("no sitting %s in %s (`tally42 sittings` lists them)"
                              % (printable(sitting_id), self.path))
            if not row["damaged"]:
                raise DbError("sitting %s is not damaged: it counts already"
                              % printable(sitting_id))
            if row["accepted"]:
                return False
            self.conn.execute("UPDATE sittings SET accepted = 1 WHERE id = ?", (sitting_id,))
            return True
        return self._transaction("accept", sitting_id, accept)

    def _change(self, sitting_id, then):
        # One transaction: the sitting's row goes, then(row) may store it again.
        def change(row):
            if row is None:
                raise DbError("no sitting %s in %s (`tally42 sittings` lists them)"
                              % (printable(sitting_id), self.path))
            self.conn.execute("DELETE FROM sittings WHERE id = ?", (sitting_id,))
            then(row)
        self._transaction("change", sitting_id, change)

    # -- reading --
    def ids(self):
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM sittings ORDER BY COALESCE(started_utc, imported_at), "
            + self.stored_order)]

    def sittings(self):
        """Every sitting's row (without the log), oldest first."""
        return self.conn.execute(
            "SELECT id, variant, options, players, dealer, started, source, device, "
            "imported_at, updated_at, events, hands, over, winner, score, games, "
            "ended, event, round, table_no, damaged, accepted "
            "FROM sittings ORDER BY COALESCE(started_utc, imported_at), "
            + self.stored_order).fetchall()

    def resolve(self, given):
        """The stored id that `given` names: the id itself or a unique beginning of one."""
        if self.conn.execute("SELECT 1 FROM sittings WHERE id = ?", (given,)).fetchone():
            return given
        like = given.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        found = [r[0] for r in self.conn.execute(
            # LOWER: a beginning in any case, in SQLite (whose LIKE ignores ASCII case) and
            # in PostgreSQL (whose LIKE does not) alike.
            "SELECT id FROM sittings WHERE LOWER(id) LIKE LOWER(?) ESCAPE '\\' ORDER BY id",
            (like,))]
        if len(found) == 1:
            return found[0]
        if not found:
            raise DbError("no sitting %s in %s" % (printable(given), self.path))
        raise DbError("%s could be any of %s: give more of the id" % (
            printable(given), printable(", ".join(found))))

    def log(self, sitting_id):
        row = self.conn.execute("SELECT log FROM sittings WHERE id = ?",
                                (sitting_id,)).fetchone()
        if row is None:
            raise DbError("no sitting %s in %s" % (sitting_id, self.path))
        return row[0]

    def sitting(self, sitting_id):
        return self.conn.execute("SELECT * FROM sittings WHERE id = ?",
                                 (sitting_id,)).fetchone()

    def seats(self, sitting_id):
        return self.conn.execute("SELECT seat, name, team FROM seats WHERE sitting_id = ? "
                                 "ORDER BY seat", (sitting_id,)).fetchall()

    def hands(self, sitting_id):
        return self.conn.execute("SELECT * FROM hands WHERE sitting_id = ? ORDER BY number",
                                 (sitting_id,)).fetchall()


class _Batch:
    def __init__(self, database):
        self.conn = database.conn
        self.path = database.path

    def __enter__(self):
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise DbError("%s: cannot write: %s" % (self.path, e)) from e

    def __exit__(self, kind, value, tb):
        try:
            if kind is None:
                self.conn.execute("COMMIT")
                return False
            _rollback(self.conn)
        except sqlite3.Error as e:
            _rollback(self.conn)
            raise DbError("%s: cannot write: %s" % (self.path, e)) from e
        return False


def _first_difference(a, b):
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    return i


def is_url(path):
    """A PostgreSQL URL (postgresql://... or postgres://...) rather than a file's path."""
    return isinstance(path, str) and path.lower().startswith(("postgresql://", "postgres://"))


def open_db(path=None, create=True, readonly=False):
    """Open (and create or upgrade) the database at path, or at default_path(): a SQLite
    file, or a postgresql:// URL (host_tools/store/dbpg.py; the database must exist on the
    server, its tables are made here).
    readonly: for the commands that only read; the file is opened read-only (on PostgreSQL
    every transaction is read-only) and must be a tally42 database already (an older
    schema is upgraded first, in its own open)."""
    path = path or default_path()
    url = is_url(path)
    where = path
    if url:
        from host_tools.store import dbpg
        where = dbpg.shown(path)
    elif (readonly or not create) and not os.path.exists(path):
        raise DbError("no database at %s (import or sync some sittings first)" % path)
    if readonly:
        conn = _connect(path, readonly=True)
        have = _checked(conn, where, lambda: check_ours(conn, where))
        if have == SCHEMA_VERSION:
            return Database(conn, where)
        conn.close()
        if have == 0:
            raise DbError("%s holds no sittings yet (import or sync some first)" % where)
        open_db(path).close()           # an older schema: upgrade it, then read
        return open_db(path, readonly=True)
    if not url:
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        except OSError as e:
            raise DbError("%s: cannot open the database: %s" % (path, e))
    conn = _connect(path)

    def setup():
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn, path=where)
    _checked(conn, where, setup)
    return Database(conn, where)


def _checked(conn, path, step):
    # step() on a new connection; on failure the connection is closed and a DbError said.
    try:
        return step()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        conn.close()
        raise DbError("%s: cannot use the database (%s)" % (path, e))
    except DbError:
        conn.close()
        raise


def _connect(path, readonly=False):
    if is_url(path):
        from host_tools.store import dbpg
        try:
            return dbpg.connect(path, readonly=readonly)
        except dbpg.ConnectError as e:
            raise DbError(str(e))
    try:
        if readonly:
            from urllib.request import pathname2url
            conn = sqlite3.connect("file:%s?mode=ro" % pathname2url(os.path.abspath(path)),
                                   timeout=10, isolation_level=None, uri=True)
        else:
            conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    except (OSError, sqlite3.Error) as e:
        raise DbError("%s: cannot open the database: %s" % (path, e))
    conn.row_factory = sqlite3.Row
    return conn
