"""Events in the database: a club night or a tournament, its roster, its game, its
tables round by round, and the stored sittings slotted in as each table's result.
Schedules come from schedule.py and bracket.py; standings.py reads what this stores."""
import datetime
import json
import sqlite3

from engine_core import options as O
from engine_core import variants as V
from host_tools import bracket as B
from host_tools import schedule as SC
from host_tools import sittinglog as L

FORMATS = ("round-robin", "progressive", "double-elimination")
BEST_OF = (1, 3, 5)
GRAND_FINAL = ("GF", 1, 0)
RESET = ("GF", 2, 0)
MAX_EVENT_NAME = 40
MAX_PLAYER_NAME = 12        # what the scorer shows of a player's name
MAX_TEAM_NAME = 20

# Plain, portable SQL (SQLite and PostgreSQL): no AUTOINCREMENT, no SQLite types.
# A slot names its sitting without a foreign key: a sitting synced again with more hands
# is stored afresh under the same id, and its slot must survive that.
SCHEMA = (
    """CREATE TABLE events (
        name TEXT PRIMARY KEY,
        format TEXT NOT NULL,           -- round-robin, progressive, double-elimination
        variant TEXT NOT NULL,
        options TEXT NOT NULL,          -- JSON: every option of the variant, resolved
        best_of INTEGER NOT NULL,       -- games a match (1, 3 or 5)
        rounds INTEGER NOT NULL,
        seed INTEGER NOT NULL,          -- the progressive's search seed
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE event_entrants (
        event TEXT NOT NULL REFERENCES events(name) ON DELETE CASCADE,
        number INTEGER NOT NULL,        -- 0, 1, ...: roster order (a bracket's seeding)
        name TEXT NOT NULL,             -- a team's name, or a player's (progressive)
        players TEXT NOT NULL,          -- JSON list of the team's players ([name] alone)
        PRIMARY KEY (event, number)
    )""",
    """CREATE TABLE event_tables (
        event TEXT NOT NULL REFERENCES events(name) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        side_a TEXT,                    -- JSON list of entrant numbers; NULL in a bracket
        side_b TEXT,
        match_key TEXT,                 -- a bracket's match (W-1-0, L-2-1, GF-1-0), or NULL
        device TEXT,                    -- the scorer the table was pushed to
        PRIMARY KEY (event, round, table_no)
    )""",
    """CREATE TABLE event_results (
        event TEXT NOT NULL,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        game INTEGER NOT NULL,          -- 1, 2, ...: a best-of-N match's games
        sitting_id TEXT NOT NULL UNIQUE,
        PRIMARY KEY (event, round, table_no, game),
        FOREIGN KEY (event, round, table_no) REFERENCES event_tables(event, round, table_no)
            ON DELETE CASCADE
    )""",
)


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
            L.printable(str(variant)), ", ".join(_team_variants())))
    if not V.TABLE[v][V.TEAMS]:
        raise EventError("%s is every seat for itself: an event plays a partnership game "
                         "(%s)" % (variant, ", ".join(_team_variants())))
    try:
        return O.resolve(variant, options or {})
    except O.OptionError as e:
        raise EventError("options: %s" % e)


def _team_variants():
    return [n for i, n in enumerate(V.NAMES) if V.TABLE[i][V.TEAMS]]


def _check_name(name, what, most):
    problem = L.name_problem(name)
    if not problem and len(name) > most:
        problem = "%s is longer than %d characters" % (L.printable(name), most)
    if problem:
        raise EventError("%s: %s" % (what, problem))


class Event:
    """An event as stored: its game, roster and tables."""

    def __init__(self, row, entrants, tables):
        self.name = row["name"]
        self.format = row["format"]
        self.variant = row["variant"]
        self.options = json.loads(row["options"])
        self.best_of = row["best_of"]
        self.rounds = row["rounds"]
        self.entrants = [e["name"] for e in entrants]
        self.members = [json.loads(e["players"]) for e in entrants]
        self.tables = tables        # [Table], by round and table number
        self._by_place = None
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

    def side_players(self, side):
        """Names of the players on a side (a list of entrant numbers)."""
        return [p for e in side for p in self.members[e]]

    def side_name(self, side):
        if side is None:
            return "?"
        return " & ".join(self.entrants[e] for e in side)

    def seats(self, side_a, side_b):
        return SC.seats_of(self.side_players(side_a), self.side_players(side_b))


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
        raise EventError("unknown format %s (one of %s)" % (L.printable(str(fmt)),
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
                    L.printable(team), variant, size, len(members)))
        tnames = [t for t, _ in entrants]
        dup = sorted({t for t in tnames if tnames.count(t) > 1})
        if dup:
            raise EventError("team %s is on the roster twice" % L.printable(dup[0]))
    if len(entrants) > 256:
        raise EventError("%d on the roster: at most 256" % len(entrants))
    everyone = [p for _, members in entrants for p in members]
    for p in everyone:
        _check_name(p, "player", MAX_PLAYER_NAME)
    dup = sorted({p for p in everyone if everyone.count(p) > 1})
    if dup:
        raise EventError("player %s is on the roster twice" % L.printable(dup[0]))
    rows, nrounds = _plan(fmt, len(entrants), rounds, seed)
    return {"name": name, "format": fmt, "rules": rules, "best_of": best_of,
            "rounds": nrounds, "seed": seed, "entrants": entrants, "rows": rows}


def store(database, plan):
    """Write a prepared event and its tables in one transaction: the Event."""
    name, rules, entrants, rows = plan["name"], plan["rules"], plan["entrants"], plan["rows"]
    conn = database.conn
    with _transaction(database, "make event %s" % L.printable(name)):
        if conn.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
            raise EventError("there is already an event %s (`tally42 event list`)"
                             % L.printable(name))
        conn.execute("INSERT INTO events (name, format, variant, options, best_of, rounds, "
                     "seed, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (name, plan["format"], rules.name, json.dumps(rules.to_dict()),
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


class _transaction:
    # One write transaction, as host_tools.db stores a sitting: BEGIN IMMEDIATE takes
    # SQLite's write lock, or on PostgreSQL the tally42 writer lock (host_tools/dbpg.py).
    # What is read inside is what the write is decided on, whichever PCs write at once:
    # so every check that a write depends on is made inside.
    # Inside a batch (host_tools.db's Database.batch()) it is part of the batch's one.
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
            L.printable(name), "events: " + ", ".join(have) if have else
            "none yet: `tally42 event create` makes one"))
    entrants = conn.execute("SELECT * FROM event_entrants WHERE event = ? ORDER BY number",
                            (name,)).fetchall()
    tables = [Table(r) for r in conn.execute(
        "SELECT * FROM event_tables WHERE event = ? ORDER BY round, table_no", (name,))]
    return Event(row, entrants, tables)


class Game:
    """One sitting slotted at a table, seen from the table's side A."""

    def __init__(self, game, sitting_id, row, flipped):
        self.game = game
        self.sitting = sitting_id
        self.stored = row is not None
        score = json.loads(row["score"]) if row is not None else [0, 0]
        if row is not None and row["games"]:
            score = json.loads(row["games"])["match"]     # Partnership Moon: games won
        self.score = [score[1], score[0]] if flipped else score[:2]
        self.over = bool(row["over"]) if row is not None else False
        winner = row["winner"] if row is not None else None
        self.winner = None if winner is None or not self.over else (winner ^ 1 if flipped
                                                                     else winner)
        self.hands = row["hands"] if row is not None else 0


def _flipped(event, players_json, table_seats):
    # Whether a sitting's side 0 is the table's side B (None: players do not match).
    if players_json is None:
        return False
    players = json.loads(players_json)
    sides = [set(players[0::2]), set(players[1::2])]
    a, b = set(table_seats[0::2]), set(table_seats[1::2])
    if sides == [a, b]:
        return False
    if sides == [b, a]:
        return True
    return None


def match_outcome(event, games):
    """(wins_a, wins_b, winner: 0, 1 or None) of a table's games: best of N when the
    event plays matches, else the one game."""
    wa = sum(1 for g in games if g.winner == 0)
    wb = sum(1 for g in games if g.winner == 1)
    need = event.best_of // 2 + 1
    winner = 0 if wa >= need else 1 if wb >= need else None
    return wa, wb, winner


def event_state(event, database, only=None):
    """The event's live state: {"results": {(round, table): [Game]}, "bracket": None or
    the bracket's state (teams of each match, winners, champion)}, from the sittings
    slotted so far (only: just that (round, table) of an event without a bracket)."""
    res, winners = _read_results(event, database, only)
    out = {"results": res, "bracket": None}
    if event.bracket is not None:
        out["bracket"] = event.bracket.state(winners)
    return out


# A slot whose sitting was deleted (`tally42 delete`) counts for nothing: the inner join
# drops it, and the table takes a result again.
_RESULTS = ("SELECT r.round, r.table_no, r.game, r.sitting_id, s.players, s.score, s.over, "
            "s.winner, s.hands, s.games FROM event_results r JOIN sittings s "
            "ON s.id = r.sitting_id WHERE r.event = ?")


def _read_results(event, database, only=None):
    # Bracket sides depend on results; read the rows once, orient after. only: one
    # (round, table) of a round robin or progressive, when nothing else is needed.
    if only is not None and event.bracket is None:
        rows = database.conn.execute(
            _RESULTS + " AND r.round = ? AND r.table_no = ? ORDER BY r.game",
            (event.name,) + tuple(only)).fetchall()
        t = event.table(*only)
        seats = event.seats(t.side_a, t.side_b)
        return {only: [_game(r, seats, event) for r in rows]}, {}
    rows = database.conn.execute(_RESULTS + " ORDER BY r.round, r.table_no, r.game",
                                 (event.name,)).fetchall()
    by_table = {}
    for r in rows:
        by_table.setdefault((r["round"], r["table_no"]), []).append(r)
    res = {}
    if event.bracket is None:
        for t in event.tables:
            rs = by_table.get((t.round, t.table), ())
            seats = event.seats(t.side_a, t.side_b)
            res[(t.round, t.table)] = [_game(r, seats, event) for r in rs]
        return res, {}
    # A bracket: play order, each match's teams known once the earlier ones are decided.
    winners = {}
    table_of = {t.match: t for t in event.tables}
    for key in event.bracket.order():
        t = table_of.get(key)
        if t is None:
            continue
        st = event.bracket.state(winners)
        a, b = st["teams"][key]
        rs = by_table.get((t.round, t.table), ())
        if a is None or b is None:
            res[(t.round, t.table)] = []
            continue
        games = [_game(r, event.seats([a], [b]), event) for r in rs]
        res[(t.round, t.table)] = games
        w = match_outcome(event, games)[2]
        if w is not None:
            winners[key] = a if w == 0 else b
    return res, winners


def _game(r, seats, event):
    if r["score"] is None:
        return Game(r["game"], r["sitting_id"], None, False)
    return Game(r["game"], r["sitting_id"], r, bool(_flipped(event, r["players"], seats)))


def sides_of(event, table, state):
    """(side_a, side_b) entrant lists of a table (None for a bracket side not yet known)."""
    if table.match is None:
        return table.side_a, table.side_b
    a, b = state["bracket"]["teams"][table.match]
    return (None if a is None else [a], None if b is None else [b])


def table_status(event, table, state):
    """'done', 'playing' (a sitting slotted, not decided), 'ready', 'waiting' (a bracket
    side not known yet) or 'not needed' (the reset when the grand final needs none)."""
    if table.match is not None:
        br = state["bracket"]
        if table.match == RESET and GRAND_FINAL not in br["winner"]:
            return "waiting"
        if not br["needed"].get(table.match, True):
            return "not needed"
        if table.match in br["winner"]:
            return "done"
        if None in br["teams"][table.match]:
            return "waiting"
    games = state["results"].get((table.round, table.table), [])
    if table.match is None and games and games[-1].over:
        return "done"
    return "playing" if games else "ready"


# ---- results in ----

def slot_sitting(database, sitting_id, event, round_no, table_no):
    """Make a stored sitting that table's result (the next game of its match). Returns
    'slotted' or 'already slotted'; EventError when the sitting does not fit the table.
    Checked and written in one write transaction: two PCs slotting at one table at once
    slot one sitting there, and the other is told the table's state."""
    with _transaction(database, "slot sitting %s" % L.printable(sitting_id)):
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
                         % L.printable(sitting_id))
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
    if _flipped(ev, row["players"], seats) is None:
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


def delete(database, name):
    """Remove an event, its tables and its results (the sittings stay stored)."""
    with _transaction(database, "delete event %s" % L.printable(name)):
        load(database, name)
        for table in ("event_results", "event_tables", "event_entrants", "events"):
            database.conn.execute("DELETE FROM %s WHERE %s = ?" % (
                table, "name" if table == "events" else "event"), (name,))


def next_assignment(database, device_id, event=None):
    """The table a scorer should play next, as the sync pushes it: {"event", "round",
    "table", "players": [names by seat], "variant", "options"}, or None when there is
    nothing to play. A table already pushed to this scorer and not decided comes first;
    else the first open table of the event's current round is claimed for it. In one
    write transaction: PCs handing out tables at once never hand out the same one."""
    with _transaction(database, "hand out a table to %s" % L.printable(device_id)):
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


def schedule_rounds(event, state=None):
    """The event's rounds for schedule.text/html_rounds: (number, [(table, side a name,
    side b name, seats)], [sitting out])."""
    out = []
    for r in range(1, event.rounds + 1):
        tables = []
        seated = set()
        for t in event.tables:
            if t.round != r:
                continue
            if t.match is not None:
                a, b = sides_of(event, t, state) if state else (None, None)
                label = event.bracket.label(t.match)
                if t.match == RESET:
                    label += " (if the losers' side wins)"
                if state and table_status(event, t, state) == "not needed":
                    continue
                row = (t.table, "%s: %s" % (label, event.side_name(a)), event.side_name(b),
                       event.seats(a, b) if a and b else None)
                games = state["results"].get((t.round, t.table), []) if state else []
                w = state["bracket"]["winner"].get(t.match) if state else None
                if games or w is not None:
                    wa, wb, _ = match_outcome(event, games)
                    row += ("games %d-%d%s" % (wa, wb, ", %s through" % event.entrants[w]
                                               if w is not None else ""),)
                tables.append(row)
                continue
            seated.update(t.side_a + t.side_b)
            row = (t.table, event.side_name(t.side_a), event.side_name(t.side_b),
                   event.seats(t.side_a, t.side_b))
            games = state["results"].get((t.round, t.table), []) if state else []
            if games:
                g = games[-1]
                row += ("%d-%d%s" % (g.score[0], g.score[1], "" if g.over else
                                     " (playing)"),)
            tables.append(row)
        resting = [] if event.bracket else [event.entrants[e] for e in
                                            range(len(event.entrants)) if e not in seated]
        if tables or resting:
            out.append((r, tables, resting))
    return out
