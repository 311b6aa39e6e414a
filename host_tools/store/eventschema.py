# The events' tables in the database (host_tools/events/ reads and writes them): plain,
# portable SQL (SQLite and PostgreSQL: no AUTOINCREMENT, no SQLite types), created by the
# store's migrations 4 and 5 (host_tools/store/schema.py).

# An event (migration 4).
# A slot names its sitting without a foreign key: a sitting synced again with more hands
# is stored afresh under the same id, and its slot must survive that.
EVENT_SCHEMA = (
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

# A club night's additions (migration 5): the table each scorer keeps for the night, and
# the players who came in for another from some round on.
NIGHT_SCHEMA = (
    """CREATE TABLE event_scorers (
        event TEXT NOT NULL REFERENCES events(name) ON DELETE CASCADE,
        device TEXT NOT NULL,
        table_no INTEGER NOT NULL,      -- the physical table it stays at, round after round
        PRIMARY KEY (event, device),
        UNIQUE (event, table_no)
    )""",
    """CREATE TABLE event_substitutes (
        event TEXT NOT NULL REFERENCES events(name) ON DELETE CASCADE,
        entrant INTEGER NOT NULL,       -- the team (or a progressive's player) played for
        from_round INTEGER NOT NULL,    -- plays from this round on
        out_name TEXT NOT NULL,
        in_name TEXT NOT NULL,
        PRIMARY KEY (event, entrant, from_round, out_name)
    )""",
)

# A club night's live progress of the sittings being played (migration 5).
LIVE_SCHEMA = (
    """CREATE TABLE event_live (
        event TEXT NOT NULL,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        sitting_id TEXT NOT NULL,
        score_a INTEGER NOT NULL,       -- the table's side A, whatever seats it took
        score_b INTEGER NOT NULL,
        hands INTEGER NOT NULL,         -- hands scored so far
        device TEXT,                    -- the scorer it came from, if known
        updated_at TEXT NOT NULL,
        PRIMARY KEY (event, round, table_no),
        FOREIGN KEY (event, round, table_no) REFERENCES event_tables(event, round, table_no)
            ON DELETE CASCADE
    )""",
)
