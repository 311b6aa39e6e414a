"""Events in the database: a club night or a tournament, its roster, its game and its
tables round by round, checked, made and loaded. Schedules come from schedule.py and
bracket.py; results go in through slots.py, state.py reads them, standings.py ranks."""
import datetime
import json
import sqlite3

from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from host_tools.events import bracket as B
from host_tools.events import schedule as SC
from host_tools.log.text import name_problem, printable

FORMATS = ("round-robin", "progressive", "double-elimination")
BEST_OF = (1, 3, 5)
GRAND_FINAL = ("GF", 1, 0)
RESET = ("GF", 2, 0)
MAX_EVENT_NAME = 40
MAX_PLAYER_NAME = 12        # what the scorer shows of a player's name
MAX_TEAM_NAME = 20
# The events' tables: host_tools/store/eventschema.py (the store's migrations make them).


class EventError(Exception):
    """An event the tool cannot make or use: a message the organiser can act on."""


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _key_text(key):
    return "%s-%d-%d" % key


def _key_of(text):
    kind, r, i = text.split("-")
    return (kind, int(r), int(i))


# ---- checking what an organiser gives ----

def event_rules(variant, options):
    """The engine's rules for an event's game; EventError unless it is a partnership game
    of the 42 family with options the engine takes."""
    v = V.index(variant) if isinstance(variant, str) else -1
    if v < 0:
        raise EventError("unknown game %s (an event plays one of %s)" % (
            printable(str(variant)), ", ".join(team_variants())))
    if not V.TABLE[v][V.TEAMS]:
        raise EventError("%s is every seat for itself: an event plays a partnership game "
                         "(%s)" % (variant, ", ".join(team_variants())))
    try:
        return O.resolve(variant, options or {})
    except O.OptionError as e:
        raise EventError("options: %s" % e)


def team_variants():
    return [n for i, n in enumerate(V.NAMES) if V.TABLE[i][V.TEAMS]]


def _check_name(name, what, most):
    problem = name_problem(name)
    if not problem and len(name) > most:
        problem = "%s is longer than %d characters" % (printable(name), most)
    if problem:
        raise EventError("%s: %s" % (what, problem))


class Event:
    """An event as stored: its game, roster and tables."""

    def __init__(self, row, entrants, tables, substitutes=()):
        self.name = row["name"]
        self.format = row["format"]
        self.variant = row["variant"]
        self.options = json.loads(row["options"])
        self.best_of = row["best_of"]
        self.rounds = row["rounds"]
        self.entrants = [e["name"] for e in entrants]
        self.members = [json.loads(e["players"]) for e in entrants]
        self.tables = tables        # [Table], by round and table number
        # [(entrant, from round, player out, player in)], by round: who came in for whom
        self.substitutes = sorted(substitutes, key=lambda s: s[1])
        self._by_place = None
        self.club = {}              # the club's settings (host_tools/events/club.py)
        self.rules = O.resolve(self.variant, self.options)
        self.units = ("games" if self.variant == "partnership-moon"
                      else O.SCORING_NAMES[self.rules.scoring])
        self.bracket = B.Bracket(len(self.entrants)) if self.format == FORMATS[2] else None

    @property
    def teams(self):
        return self.format != "progressive"

    def table(self, round_no, table_no):
        if self._by_place is None:
            self._by_place = {(t.round, t.table): t for t in self.tables}
        t = self._by_place.get((round_no, table_no))
        if t is not None:
            return t
        raise EventError("%s has no table %d in round %d" % (self.name, table_no, round_no))

    def side_players(self, side, round_no=None):
        """Names of the players on a side (a list of entrant numbers) in a round: a
        substitute in place of the player they came in for, from their round on (round
        None: the roster as made)."""
        return [self.player_at(e, p, round_no) for e in side for p in self.members[e]]

    def player_at(self, entrant, player, round_no):
        """Who plays for `player` of an entrant in a round."""
        if round_no is not None:
            for e, first, out, came in self.substitutes:
                if e == entrant and out == player and first <= round_no:
                    player = came
        return player

    def side_name(self, side):
        if side is None:
            return "?"
        return " & ".join(self.entrants[e] for e in side)

    def seats(self, side_a, side_b, round_no=None):
        return SC.seats_of(self.side_players(side_a, round_no),
                           self.side_players(side_b, round_no))


class Table:
    def __init__(self, row):
        self.round = row["round"]
        self.table = row["table_no"]
        self.side_a = None if row["side_a"] is None else json.loads(row["side_a"])
        self.side_b = None if row["side_b"] is None else json.loads(row["side_b"])
        self.match = None if row["match_key"] is None else _key_of(row["match_key"])
        self.device = row["device"]


# ---- making an event ----

def _plan(fmt, n, rounds, seed):
    # (round, table, side_a, side_b, match key) rows, and the number of rounds.
    rows = []
    if fmt == "round-robin":
        for r, (tables, _) in enumerate(SC.round_robin_tables(n)):
            for t, (a, b) in enumerate(tables):
                rows.append((r + 1, t + 1, [a], [b], None))
        return rows, len(SC.round_robin(n))
    if fmt == "progressive":
        for r, (tables, _) in enumerate(SC.progressive(n, rounds, seed=seed)):
            for t, (a, b) in enumerate(tables):
                rows.append((r + 1, t + 1, list(a), list(b), None))
        return rows, rounds
    br = B.Bracket(n)
    waves = sorted({br.wave(m) for m in br.played()})
    count = {}
    for m in br.played():
        r = waves.index(br.wave(m)) + 1
        count[r] = count.get(r, 0) + 1
        rows.append((r, count[r], None, None, m))
    return rows, len(waves)


def create(database, name, fmt, variant, options=None, teams=None, players=None,
           rounds=None, best_of=1, seed=42):
    """Make an event and its tables. teams: [(team name, [player names])] for the team
    formats; players: [names] for a progressive. EventError when anything is wrong
    (nothing is stored then)."""
    return store(database, prepare(name, fmt, variant, options, teams, players, rounds,
                                   best_of, seed))


def prepare(name, fmt, variant, options=None, teams=None, players=None, rounds=None,
            best_of=1, seed=42):
    """Check an event and seat it, without a database: what store() writes.
    EventError when anything is wrong."""
    _check_name(name, "event name", MAX_EVENT_NAME)
    if fmt not in FORMATS:
        raise EventError("unknown format %s (one of %s)" % (printable(str(fmt)),
                                                            ", ".join(FORMATS)))
    rules = event_rules(variant, options)
    seats = rules.row[V.SEATS]
    size = seats // 2
    if best_of not in BEST_OF:
        raise EventError("best of %s: a match is best of 1, 3 or 5" % best_of)
    if best_of != 1 and fmt != "double-elimination":
        raise EventError("best of %d: only a double-elimination bracket plays matches of "
                         "several games" % best_of)
    if fmt == "progressive":
        if teams:
            raise EventError("a progressive is for individuals: give players, not teams")
        if seats != 4:
            raise EventError("a progressive rotates partners four to a table: %s seats %d"
                             % (variant, seats))
        players = list(players or ())
        if len(players) < 4:
            raise EventError("a progressive needs at least 4 players, not %d" % len(players))
        entrants = [(p, [p]) for p in players]
        if rounds is None:
            rounds = min(len(players) - 1, 7)
        if not 1 <= rounds <= 50:
            raise EventError("rounds: from 1 to 50, not %s" % rounds)
    else:
        if players:
            raise EventError("a %s is for teams: give teams, not players" % fmt)
        if rounds is not None:
            raise EventError("rounds: a %s sets its own rounds" % fmt)
        entrants = list(teams or ())
        if len(entrants) < 2:
            raise EventError("a %s needs at least 2 teams, not %d" % (fmt, len(entrants)))
        for team, members in entrants:
            _check_name(team, "team name", MAX_TEAM_NAME)
            if len(members) != size:
                raise EventError("team %s: %s plays %d a side, not %d" % (
                    printable(team), variant, size, len(members)))
        tnames = [t.casefold() for t, _ in entrants]
        dup = sorted({t for t, _ in entrants if tnames.count(t.casefold()) > 1})
        if dup:
            raise EventError("team %s is on the roster twice" % printable(dup[0]))
    if len(entrants) > 256:
        raise EventError("%d on the roster: at most 256" % len(entrants))
    everyone = [p for _, members in entrants for p in members]
    for p in everyone:
        _check_name(p, "player", MAX_PLAYER_NAME)
    # "bob" and "Bob" are one player typed twice, not two players.
    folded = [p.casefold() for p in everyone]
    dup = sorted({p for p in everyone if folded.count(p.casefold()) > 1})
    if dup:
        raise EventError("player %s is on the roster twice%s" % (printable(dup[0]), "" if
                         everyone.count(dup[0]) > 1 else " (names are told apart without "
                         "regard to capitals)"))
    rows, nrounds = _plan(fmt, len(entrants), rounds, seed)
    return {"name": name, "format": fmt, "rules": rules, "best_of": best_of,
            "rounds": nrounds, "seed": seed, "entrants": entrants, "rows": rows}


def store(database, plan):
    """Write a prepared event and its tables in one transaction: the Event."""
    name, rules, entrants, rows = plan["name"], plan["rules"], plan["entrants"], plan["rows"]
    conn = database.conn
    with Transaction(database, "make event %s" % printable(name)):
        if conn.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
            raise EventError("there is already an event %s (`tally42 event list`)"
                             % printable(name))
        conn.execute("INSERT INTO events (name, format, variant, options, best_of, rounds, "
                     "seed, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (name, plan["format"], rules.name, json.dumps(O.to_dict(rules)),
                      plan["best_of"], plan["rounds"], plan["seed"], _now()))
        conn.executemany("INSERT INTO event_entrants (event, number, name, players) "
                         "VALUES (?, ?, ?, ?)",
                         [(name, i, e, json.dumps(m, ensure_ascii=False))
                          for i, (e, m) in enumerate(entrants)])
        conn.executemany("INSERT INTO event_tables (event, round, table_no, side_a, side_b, "
                         "match_key) VALUES (?, ?, ?, ?, ?, ?)",
                         [(name, r, t, None if a is None else json.dumps(a),
                           None if b is None else json.dumps(b),
                           None if m is None else _key_text(m)) for r, t, a, b, m in rows])
    return load(database, name)


class Transaction:
    """One write transaction of an event, as host_tools.store.db stores a sitting: BEGIN
    IMMEDIATE takes SQLite's write lock, or on PostgreSQL the tally42 writer lock
    (host_tools/store/dbpg.py). What is read inside is what the write is decided on,
    whichever PCs write at once: so every check that a write depends on is made inside.
    Inside a batch (Database.batch()) it is part of the batch's one."""
    def __init__(self, database, what):
        self.conn = database.conn
        self.path = database.path
        self.what = what
        self.joined = False

    def __enter__(self):
        self.joined = self.conn.in_transaction
        if self.joined:
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise EventError("%s: cannot %s: %s" % (self.path, self.what, e)) from e

    def __exit__(self, kind, value, tb):
        if self.joined:         # the batch commits, or rolls back on the error
            if kind is not None and issubclass(kind, sqlite3.Error):
                raise EventError("%s: cannot %s: %s" % (self.path, self.what, value)) \
                    from value
            return False
        try:
            if kind is None:
                self.conn.execute("COMMIT")
                return False
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        except sqlite3.Error as e:
            if kind is None and self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise EventError("%s: cannot %s: %s" % (self.path, self.what, e)) from e
        if kind is not None and issubclass(kind, sqlite3.Error):
            raise EventError("%s: cannot %s: %s" % (self.path, self.what, value)) from value
        return False


# ---- reading ----

def names(database):
    return [r[0] for r in database.conn.execute(
        "SELECT name FROM events ORDER BY created_at, name")]


def load(database, name):
    conn = database.conn
    row = conn.execute("SELECT * FROM events WHERE name = ?", (name,)).fetchone()
    if row is None:
        have = names(database)
        raise EventError("no event %s (%s)" % (
            printable(name), "events: " + ", ".join(have) if have else
            "none yet: `tally42 event create` makes one"))
    entrants = conn.execute("SELECT * FROM event_entrants WHERE event = ? ORDER BY number",
                            (name,)).fetchall()
    tables = [Table(r) for r in conn.execute(
        "SELECT * FROM event_tables WHERE event = ? ORDER BY round, table_no", (name,))]
    subs = [(r["entrant"], r["from_round"], r["out_name"], r["in_name"]) for r in conn.execute(
        "SELECT * FROM event_substitutes WHERE event = ?", (name,))]
    ev = Event(row, entrants, tables, subs)
    # What the club set (host_tools/events/club.py): byes, tie-breaks, gating, its end.
    if has_table(conn, "event_settings"):
        ev.club = {r[0]: r[1] for r in conn.execute(
            "SELECT key, value FROM event_settings WHERE event = ?", (name,))}
    return ev


def has_table(conn, table):
    """Whether the database has `table` (one of those made when first written)."""
    if isinstance(conn, sqlite3.Connection):
        return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                            (table,)).fetchone() is not None
    return table in conn.table_names()


def delete(database, name):
    """Remove an event, its tables and its results (the sittings stay stored)."""
    with Transaction(database, "delete event %s" % printable(name)):
        load(database, name)
        # (event_settings, event_log and event_desk are made when first written)
        made = [t for t in ("event_settings", "event_log", "event_desk")
                if has_table(database.conn, t)]
        for table in made + ["event_live", "event_results", "event_scorers",
                             "event_substitutes", "event_tables", "event_entrants", "events"]:
            database.conn.execute("DELETE FROM %s WHERE %s = ?" % (
                table, "name" if table == "events" else "event"), (name,))


