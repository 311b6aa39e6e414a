"""The database's schema: an ordered list of migrations (user_version, or PostgreSQL's
tally42_meta, says how many have run), and the check that a database is ours."""
import sqlite3

from host_tools.log import sittinglog as L
from host_tools.log.times import utc
from host_tools.store.errors import DbError
from host_tools.store.facts import PARTNERSHIP_MOON, Facts, hand_row


# ---- schema: an ordered list of migrations; user_version is how many have run ----

def _m1_tables(conn):
    conn.execute("""CREATE TABLE sittings (
        id TEXT PRIMARY KEY,        -- the header id, else 'log-' + hash of the canonical log
        variant TEXT NOT NULL,
        options TEXT NOT NULL,      -- JSON: every option of the variant, resolved
        players TEXT,               -- JSON list of names by seat, NULL when the log has none
        dealer INTEGER NOT NULL,    -- the first dealer's seat
        started TEXT,               -- the header's started, as given
        source TEXT NOT NULL CHECK (source IN ('import', 'sync')),
        device TEXT,                -- the scorer's device id, for a synced sitting
        imported_at TEXT NOT NULL,  -- UTC, ISO 8601: first stored
        updated_at TEXT NOT NULL,   -- UTC, ISO 8601: last stored (a longer log)
        events INTEGER NOT NULL,    -- event lines, undo included
        hands INTEGER NOT NULL,     -- finished deals, thrown-in ones included
        over INTEGER NOT NULL,      -- 0 or 1
        winner INTEGER,             -- the winning side (team, or seat in Moon)
        score TEXT NOT NULL,        -- JSON list by side, as the replay report gives it
        log_hash TEXT NOT NULL,     -- SHA-256 of the canonical log (header + events)
        log TEXT NOT NULL           -- the sitting log (JSON Lines), exactly as stored
    )""")
    conn.execute("""CREATE TABLE seats (
        sitting_id TEXT NOT NULL REFERENCES sittings(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT,                  -- NULL when the log names no players
        team INTEGER NOT NULL,      -- the side the seat scores for
        PRIMARY KEY (sitting_id, seat)
    )""")
    conn.execute("CREATE INDEX seats_by_name ON seats(name)")
    conn.execute("""CREATE TABLE hands (
        sitting_id TEXT NOT NULL REFERENCES sittings(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,    -- 1, 2, ... in deal order, thrown-in deals included
        dealer INTEGER NOT NULL,
        thrown_in INTEGER NOT NULL, -- 1: all passed and the deal was thrown in
        bidder INTEGER,             -- the rest are NULL for a thrown-in deal
        bid INTEGER,                -- the winning bid's value (plunge/splash: marks value)
        bid_name TEXT,              -- 'game', 'plunge', 'splash', or NULL for a number
        contract TEXT,              -- a suit's pip number ('0'..'8'), 'doubles',
                                    -- 'follow-me', 'nello', 'sevens', 'plunge', 'splash'
        trump TEXT,                 -- what the partner named after plunge or splash
        made INTEGER,               -- 0 or 1
        points INTEGER,             -- what the bidding side took, NULL if not given
        award TEXT,                 -- JSON list by side: what each side scored
        score TEXT NOT NULL,        -- JSON list by side: running score after the hand
        PRIMARY KEY (sitting_id, number)
    )""")
    conn.execute("CREATE INDEX hands_by_contract ON hands(contract)")
    conn.execute("CREATE INDEX sittings_by_started ON sittings(started)")


_V2_HAND_COLUMNS = ("sitting_id", "number", "game", "dealer", "thrown_in", "bidder", "bid",
                    "bid_name", "contract", "trump", "made", "points", "award", "score")


def _m2_games(conn):
    # Partnership Moon plays a match of games: each hand's game, each sitting's games.
    # Its hands are rewritten from the stored log (the log is the truth; the facts follow).
    conn.execute("ALTER TABLE hands ADD COLUMN game INTEGER NOT NULL DEFAULT 1")
    conn.execute("ALTER TABLE sittings ADD COLUMN games TEXT")   # JSON, Partnership Moon
    rows = conn.execute("SELECT id, log FROM sittings WHERE variant = ?",
                        (PARTNERSHIP_MOON,)).fetchall()
    for sid, log in rows:
        facts = Facts(L.replay(log.encode("utf-8")))
        conn.execute("DELETE FROM hands WHERE sitting_id = ?", (sid,))
        for h in facts.hands:
            cols = hand_row(h)
            cols["sitting_id"] = sid
            conn.execute("INSERT INTO hands (%s) VALUES (%s)" % (
                ", ".join(_V2_HAND_COLUMNS), ", ".join("?" * len(_V2_HAND_COLUMNS))),
                [cols[c] for c in _V2_HAND_COLUMNS])
        conn.execute("UPDATE sittings SET games = ?, hands = ? WHERE id = ?",
                     (facts.games_json(), len(facts.hands), sid))


def _m3_ended_and_event(conn):
    # When a sitting ended (the scorer's END record), and its place in an event (pushed
    # to the scorer as its table assignment): the log's `#tally42` line, here as columns.
    conn.execute("ALTER TABLE sittings ADD COLUMN ended TEXT")      # ISO 8601, as given
    conn.execute("ALTER TABLE sittings ADD COLUMN event TEXT")      # the event's name
    conn.execute("ALTER TABLE sittings ADD COLUMN round INTEGER")
    conn.execute("ALTER TABLE sittings ADD COLUMN table_no INTEGER")
    conn.execute("CREATE INDEX sittings_by_event ON sittings(event, round, table_no)")


def _m4_events(conn):
    # Club nights and tournaments (host_tools/store/eventschema.py): plain SQL that PostgreSQL
    # runs too.
    from host_tools.store import eventschema as ES
    for statement in ES.EVENT_SCHEMA:
        conn.execute(statement)


def _m5_club_nights(conn):
    # What a club night adds to an event: each scorer's table for the night, substitutes,
    # and the live progress of the sittings being played (host_tools/events/).
    from host_tools.store import eventschema as ES
    for statement in ES.NIGHT_SCHEMA + ES.LIVE_SCHEMA:
        conn.execute(statement)


def _m6_instants(conn):
    # started and ended as instants (UTC, sortable text), beside the times as given with
    # their offsets: oldest first is by when sittings started. A time stored before
    # times were checked ("yesterday") has none.
    conn.execute("ALTER TABLE sittings ADD COLUMN started_utc TEXT")
    conn.execute("ALTER TABLE sittings ADD COLUMN ended_utc TEXT")
    for sid, started, ended in conn.execute(
            "SELECT id, started, ended FROM sittings").fetchall():
        conn.execute("UPDATE sittings SET started_utc = ?, ended_utc = ? WHERE id = ?",
                     (utc(started), utc(ended), sid))
    conn.execute("CREATE INDEX sittings_by_instant ON sittings(started_utc)")


def _m7_damaged(conn):
    # A partial sitting, read from a scorer's damaged journal up to the damage (the log's
    # `#tally42` damaged): counted in no standings until the organiser accepts it.
    conn.execute("ALTER TABLE sittings ADD COLUMN damaged INTEGER NOT NULL DEFAULT 0")
    conn.execute("ALTER TABLE sittings ADD COLUMN accepted INTEGER NOT NULL DEFAULT 0")


MIGRATIONS = [_m1_tables, _m2_games, _m3_ended_and_event, _m4_events, _m5_club_nights,
              _m6_instants, _m7_damaged]
SCHEMA_VERSION = len(MIGRATIONS)


# SQLite's application id of a tally42 database ("T422"): a file with another one, or
# with tables but neither this id nor our schema, is somebody else's and left alone.
APPLICATION_ID = 0x54343232


def _schema_state(conn):
    # (application id, schema version, table names): SQLite's PRAGMAs, or what the
    # PostgreSQL connection keeps in its tally42_meta table (host_tools/store/dbpg.py).
    if isinstance(conn, sqlite3.Connection):
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        have = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        return app, have, tables
    return conn.application_id(), conn.user_version(), conn.table_names()


def _set_version(conn, n):
    if isinstance(conn, sqlite3.Connection):
        conn.execute("PRAGMA user_version = %d" % n)
    else:
        conn.set_user_version(n)


def _set_application_id(conn):
    if isinstance(conn, sqlite3.Connection):
        conn.execute("PRAGMA application_id = %d" % APPLICATION_ID)
    else:
        conn.set_application_id(APPLICATION_ID)


def check_ours(conn, path="the database"):
    """The schema version of a tally42 database (0: an empty file, ours to fill); DbError
    when the file is another program's or from a newer tally42."""
    app, have, tables = _schema_state(conn)
    # Databases made before the application id have our schema and a version.
    ours = app == APPLICATION_ID or (app == 0 and (
        not tables if have == 0 else "sittings" in tables))
    if not ours:
        if isinstance(conn, sqlite3.Connection):
            raise DbError("%s is not a tally42 database (another program's SQLite file): "
                          "give another --db" % path)
        raise DbError("%s is not a tally42 database (it holds another program's tables): "
                      "give another --db" % path)
    if have > SCHEMA_VERSION:
        raise DbError("%s is from a newer tally42 (schema %d; this one knows up to %d): "
                      "upgrade tally42 to use it" % (path, have, SCHEMA_VERSION))
    return have


def migrate(conn, upto=SCHEMA_VERSION, path="the database"):
    """Bring a connection's schema up to version `upto`, all in one transaction (on
    PostgreSQL under the writer lock: two PCs opening a new database at once migrate it
    once)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        have = check_ours(conn, path)
        for n in range(have, upto):
            MIGRATIONS[n](conn)
            _set_version(conn, n + 1)
        if _schema_state(conn)[0] != APPLICATION_ID:
            _set_application_id(conn)
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise


def rollback(conn):
    if conn.in_transaction:
        conn.execute("ROLLBACK")
