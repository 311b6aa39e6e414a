"""`tally42 serve`: an event's page for the room, from the standard library's
http.server. GET / is the page; it polls GET /state.json every few seconds and redraws
the standings, the current round's tables (with the live score of each sitting as
scorers sync) and the bracket, without a reload. The server keeps one read-only
connection (a SQLite file or a PostgreSQL database); each request reads one snapshot and
ends it, so sittings stored meanwhile by `tally42 sync` on any PC show up."""
import http.server
import json
import queue
import sqlite3
import threading
import time

from host_tools.events import event as EV
from host_tools.events import live as LV
from host_tools.events import whereat as WA
from host_tools.events.page import PAGE
from host_tools.events import standings as ST
from host_tools.events import state as ES
from host_tools.store import db as D


def state_json(database, name):
    """What the page shows, as a dict (the body of /state.json)."""
    ev = EV.load(database, name)
    state = ES.event_state(ev, database)
    rows = ST.compute(ev, state)
    open_rounds = [t.round for t in ev.tables
                   if ES.table_status(ev, t, state) in ("ready", "playing")]
    progress = LV.read(database, ev)
    # Each team where it is: tables may run ahead of the round, so the tables shown are
    # each team's current one (host_tools/events/whereat.py), whatever its round.
    at = WA.current_tables(ev, state, progress) if ev.bracket is None else {}
    here = set(at.values())
    current = (min(r for r, _ in here) if here else min(open_rounds) if open_rounds
               else ev.rounds)
    # The earliest round at play whole (its tables decided too), and each table ahead.
    shown = here | {(t.round, t.table) for t in ev.tables if t.round == current}
    tables = []
    seated = {}         # player -> table number, at their team's current table
    for t in ev.tables:
        status = ES.table_status(ev, t, state)
        if ev.bracket is not None:
            if status not in ("ready", "playing"):
                continue
        elif (t.round, t.table) not in shown:
            continue
        a, b = ES.sides_of(ev, t, state)
        games = state["results"].get((t.round, t.table), [])
        live = games[-1] if games else None
        wa, wb, _ = ES.match_outcome(ev, games)
        now = progress.get((t.round, t.table))
        if status == "done" or (live is not None and now is not None and (
                now.sitting != live.sitting or now.hands <= live.hands)):
            now = None      # the stored sitting says more than the scorer's last word
        if a is not None and b is not None and (ev.bracket is not None or not here):
            for p in ev.seats(a, b, t.round):
                seated[p] = t.table
        tables.append({
            "round": t.round, "table": t.table, "status": status,
            "a": ev.side_name(a), "b": ev.side_name(b),
            "label": ev.bracket.label(t.match) if t.match is not None else None,
            "score": now.score if now else live.score if live else None,
            "hands": now.hands if now else live.hands if live else 0,
            # The scorer's last word at a sync, else the hands the radio brought in.
            "live": now.text if now else (LV.playing(live.score, live.hands)
                                          if live and status == "playing" else None),
            "games": [wa, wb] if ev.best_of > 1 else None,
        })
    for e, (r, tno) in sorted(at.items()):
        for p in ev.side_players([e], r):      # its players (substitutes) of that round
            seated[p] = tno
    byes = []
    if ev.bracket is None:
        rounds = {r: resting for r, _, resting in ES.schedule_rounds(ev)}
        # Sitting out: a team with no current table while others play (its bye of
        # the round shown, or its games all done).
        byes = [name for e, name in enumerate(ev.entrants) if e not in at] if at else \
            rounds.get(current, [])
        for e, name in enumerate(ev.entrants):
            if name in byes:
                for p in ev.side_players([e], current):
                    seated.setdefault(p, None)
    find = [{"player": p, "table": seated[p]} for p in sorted(seated, key=str.casefold)]
    out = {"event": ev.name, "format": ev.format, "variant": ev.variant,
           "units": ev.units, "round": current, "rounds": ev.rounds,
           "standings": [r.as_dict() for r in rows], "tables": tables, "byes": byes,
           "find": find, "bracket": None,
           # Results still coming in (over the radio, or tables still at play).
           "provisional": bool(open_rounds)}
    if ev.bracket is not None:
        br = state["bracket"]
        matches = []
        for t in ev.tables:
            if not br["needed"].get(t.match, True) and EV.GRAND_FINAL in br["winner"]:
                continue
            a, b = br["teams"][t.match]
            games = state["results"].get((t.round, t.table), [])
            wa, wb, _ = ES.match_outcome(ev, games)
            w = br["winner"].get(t.match)
            matches.append({
                "label": ev.bracket.label(t.match), "round": t.round,
                "a": None if a is None else ev.entrants[a],
                "b": None if b is None else ev.entrants[b],
                "wins": [wa, wb], "winner": None if w is None else ev.entrants[w]})
        champ = br["champion"]
        out["bracket"] = {"matches": matches,
                          "champion": None if champ is None else ev.entrants[champ]}
    return out


class Reader:
    """The server's reads, done by one thread that owns the read-only connection (a
    sqlite3 connection belongs to the thread that opened it; one PostgreSQL connection
    does one thing at a time). Request threads hand it their work and wait.

    A read that many requests ask for at once (every screen in the room polls the same
    /state.json) is done once: an answer computed after a request arrived is as new as
    that request needs, so the requests queued behind one computation all take its
    answer. A request's reads are one transaction (on PostgreSQL a REPEATABLE READ
    snapshot, host_tools/store/dbpg.py), ended when it is answered: the figures of one
    page add up, and the next request sees what was stored meanwhile. A connection that
    fails (a server restarted, a file replaced) is dropped and opened again.

    A SQLite file is locked for the instant a writer (a sync) commits. The reader does
    not wait for it: it answers with the last answer it has (at most BUSY_STALE seconds
    old), so a room's screens never queue behind a commit; with no such answer it
    tries again, up to BUSY_WAIT seconds.

    A SQLite file also says when it last changed without a read: the file change
    counter in its header (bytes 24-27, advanced by every commit in its rollback journal
    mode, https://www.sqlite.org/fileformat.html). While it stands where it stood when
    the last answer was read, that answer is still the state, and a request takes it at
    once, on its own thread."""

    BUSY_STALE = 5.0
    BUSY_WAIT = 10.0

    def __init__(self, db_path):
        self.db_path = db_path
        self.database = None
        self._jobs = queue.Queue()
        self._answers = {}      # key -> (monotonic time its read began, answer, version)
        self._file = None if D.is_url(db_path) else db_path
        self._thread = None
        self._start = threading.Lock()

    def read(self, work, key=None):
        """work(database) in one read transaction on the reading thread; its result, or
        the DbError or EventError it raised. key: requests with the same key may share
        an answer computed after they arrived."""
        if key is not None:
            have = self._answers.get(key)
            if have is not None and have[2] is not None and have[2] == self.version():
                return have[1]
        job = _Job(work, key)
        with self._start:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, daemon=True)
                self._thread.start()
        self._jobs.put(job)
        job.done.wait()
        if job.error is not None:
            raise job.error
        return job.result

    def _serve(self):
        while True:
            job = self._jobs.get()
            if job is None:
                self._close()
                return
            have = self._answers.get(job.key) if job.key is not None else None
            if have is not None and have[0] >= job.asked:
                job.result = have[1]
            else:
                self._answer(job, have)
            job.done.set()

    def version(self):
        """The SQLite file's change counter, or None (PostgreSQL, or a file not read)."""
        if self._file is None:
            return None
        try:
            with open(self._file, "rb") as f:
                head = f.read(28)
        except OSError:
            return None
        return head[24:28] if len(head) == 28 and head.startswith(b"SQLite format 3") \
            else None

    def _answer(self, job, have):
        deadline = time.monotonic() + self.BUSY_WAIT
        while True:
            began = time.monotonic()
            version = self.version()        # before the read: a commit meanwhile shows
            try:
                job.result = self._read(job.work)
                if job.key is not None:
                    self._answers[job.key] = (began, job.result, version)
                return
            except _Busy as e:
                if have is not None and began - have[0] < self.BUSY_STALE:
                    job.result = have[1]
                    return
                if began > deadline:
                    job.error = D.DbError("%s: cannot read the database: %s" % (
                        self.database.path, e))
                    return
                time.sleep(0.005)
            except Exception as e:      # raised again in the request's own thread
                job.error = e
                return

    def _read(self, work):
        if self.database is None:
            self.database = D.open_db(self.db_path, readonly=True)
            if isinstance(self.database.conn, sqlite3.Connection):
                self.database.conn.execute("PRAGMA busy_timeout = 0")   # see the class
        database = self.database
        conn = database.conn
        try:
            if isinstance(conn, sqlite3.Connection):
                conn.execute("BEGIN")       # PostgreSQL's reader begins by itself
            result = work(database)
            if conn.in_transaction:
                conn.execute("COMMIT")
            return result
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise _Busy(str(e))
            self._close()
            raise D.DbError("%s: cannot read the database: %s" % (database.path, e))
        except sqlite3.Error as e:
            self._close()
            raise D.DbError("%s: cannot read the database: %s" % (database.path, e))
        except BaseException:
            if conn.in_transaction:
                conn.execute("COMMIT")
            raise

    def _close(self):
        if self.database is not None:
            try:
                self.database.close()
            except sqlite3.Error:
                pass        # a connection already broken: nothing to give back
            self.database = None

    def close(self):
        """Stop the reading thread (its connection closed); waits for it."""
        with self._start:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(10)


class _Busy(Exception):
    """The SQLite file is locked by a writer's commit this instant."""


class _Job:
    def __init__(self, work, key):
        self.work = work
        self.key = key
        self.asked = time.monotonic()
        self.done = threading.Event()
        self.result = None
        self.error = None


class Handler(http.server.BaseHTTPRequestHandler):
    reader = None
    event = None
    # The body goes out right after the headers, not held back for their ACK.
    disable_nagle_algorithm = True
    # A connection that says nothing frees its worker after this many seconds.
    timeout = 10
    desk = False
    _head = False

    def do_HEAD(self):
        """As GET, its headers (the body's length too) without the body."""
        self._head = True
        try:
            self.do_GET()
        finally:
            self._head = False

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self._send(200, "text/html; charset=utf-8", PAGE.encode("utf-8"))
        elif path == "/state.json":
            try:
                body = self.reader.read(self._state_body, key="state")
            except (D.DbError, EV.EventError) as e:
                self._send(503, "application/json", json.dumps({"error": str(e)}).encode())
                return
            self._send(200, "application/json; charset=utf-8", body)
        else:
            self._send(404, "text/plain; charset=utf-8", b"not found\n")

    def _state_body(self, database):
        out = state_json(database, self.event)
        if self.desk:       # serve --desk: the desk's panel (host_tools/events/desk.py)
            from host_tools.events import desk as DK
            out["desk"] = DK.desk(database, self.event)
        return json.dumps(out, ensure_ascii=False).encode("utf-8")

    def _send(self, code, kind, body):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not self._head:
            self.wfile.write(body)

    def log_message(self, fmt, *args):
        pass        # a page polled every 2 s would fill the terminal


class Server(http.server.HTTPServer):
    """Requests answered by a pool of WORKERS threads, started once (a thread a request
    costs more than the answer does, when every screen in the room asks at once)."""
    allow_reuse_address = True
    # Connections waiting to be accepted: a room's screens and phones polling at once
    # (socketserver's 5 makes the rest wait a second for the kernel to try again).
    request_queue_size = 128
    WORKERS = 8
    reader = None

    def __init__(self, address, handler):
        super().__init__(address, handler)
        self._requests = queue.Queue()
        self._workers = [threading.Thread(target=self._work, daemon=True)
                         for _ in range(self.WORKERS)]
        for w in self._workers:
            w.start()

    def process_request(self, request, client_address):
        self._requests.put((request, client_address))

    def _work(self):
        while True:
            item = self._requests.get()
            if item is None:
                return
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:       # said on stderr, as socketserver's threads do
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def server_close(self):
        super().server_close()
        for _ in self._workers:
            self._requests.put(None)
        if self.reader is not None:
            self.reader.close()


def make_server(db_path, event, host="0.0.0.0", port=8042, desk=False):
    """An HTTP server for the event (call serve_forever); OSError if it cannot listen.
    db_path: a SQLite file's path or a postgresql:// URL (with its password, if any).
    desk: the page has the desk's panel too."""
    reader = Reader(db_path)
    handler = type("EventHandler", (Handler,), {"reader": reader, "event": event,
                                                "desk": desk})
    server = Server((host, port), handler)
    server.reader = reader
    return server


def shown_host(host):
    """The address to tell people: the machine's LAN address when listening on all."""
    if host not in ("0.0.0.0", ""):
        return host
    import socket
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("10.255.255.255", 1))    # no packet is sent: picks the LAN route
            return s.getsockname()[0]
        finally:
            s.close()
    except OSError:
        return "localhost"
