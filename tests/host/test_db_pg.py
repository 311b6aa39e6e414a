"""The sittings database on PostgreSQL (host_tools/store/dbpg.py), against a real server the
tests start (tests/kit/pg.py): what SQLite keeps in PRAGMAs kept in tally42_meta, databases
that are not ours refused, migrations all or nothing, read-only opens, the command line on
a URL giving what it gives on a file, and two processes storing the same sittings at once
storing each exactly once. (tests/host/test_db.py runs its tests on both databases too.)"""
import json
import os
import subprocess
import sys
import time

import pytest

from clihelp import run
from host_tools.log import lines as LN
from host_tools.log import sittinglog as L
from host_tools.store import db as D
from host_tools.store import schema as SC
from host_tools.store import dbpg
from host_tools.store import facts as F
from eventlogs import count, expected_hands, random_log, random_sitting, store_v1

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def raw(url):
    import psycopg
    return psycopg.connect(url, autocommit=True)


def tables(url):
    with raw(url) as conn:
        return {r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")}


# ---- the dialect (no server needed) ----

def test_placeholders_are_translated_outside_strings_and_comments():
    t = dbpg.translate
    assert t("SELECT * FROM s WHERE id = ? AND n > ?") == \
        "SELECT * FROM s WHERE id = %s AND n > %s"
    assert t("INSERT INTO h (a, b_2) VALUES (:a, :b_2)") == \
        "INSERT INTO h (a, b_2) VALUES (%(a)s, %(b_2)s)"
    # In a string, a quoted name or a comment a ? or :x is text; a % is doubled
    # everywhere (psycopg reads %% as %); a :: cast stays a cast.
    assert t("SELECT '?:x', \"a?\" FROM s -- why? :no\nWHERE id LIKE ? ESCAPE '\\'") == \
        "SELECT '?:x', \"a?\" FROM s -- why? :no\nWHERE id LIKE %s ESCAPE '\\'"
    assert t("SELECT 'it''s ?', x % 2, y::text FROM s /* ? */ WHERE z = ?") == \
        "SELECT 'it''s ?', x %% 2, y::text FROM s /* ? */ WHERE z = %s"


def test_a_password_never_shows():
    assert dbpg.shown("postgresql://ann:s3cret@db.club:5433/league") == \
        "postgresql://ann@db.club:5433/league"
    assert "s3cret" not in dbpg.shown("postgres://ann@/league?host=/run/pg&password=s3cret")
    assert dbpg.shown("postgresql:///league") == "postgresql:///league"


def test_rows_by_name_and_by_index():
    cls = type("Row", (dbpg.Row,), {"__slots__": (), "_index": {"id": 0, "n": 1}})
    r = cls(("a", 2))
    assert r["id"] == r[0] == "a" and r["n"] == r[1] == 2
    sid, n = r
    assert (sid, n) == ("a", 2) and dict(r) == {"id": "a", "n": 2}
    with pytest.raises(IndexError):
        r["nope"]


# ---- on the server ----

OUR_TABLES = {"sittings", "seats", "hands", "events", "event_entrants", "event_tables",
              "event_results", "event_scorers", "event_substitutes", "event_live"}


def test_a_new_database_gets_the_schema_and_our_marks(pg_url):
    with D.open_db(pg_url) as database:
        assert SC._schema_state(database.conn) == (SC.APPLICATION_ID, D.SCHEMA_VERSION,
                                                  OUR_TABLES)
    assert tables(pg_url) == OUR_TABLES | {"tally42_meta"}
    with raw(pg_url) as conn:
        meta = dict(conn.execute("SELECT key, value FROM tally42_meta").fetchall())
    assert meta == {"application_id": str(SC.APPLICATION_ID),
                    "schema_version": str(D.SCHEMA_VERSION)}
    with D.open_db(pg_url) as database:     # opening again changes nothing
        assert database.conn.user_version() == D.SCHEMA_VERSION


def test_another_programs_database_is_refused_and_left_alone(pg_url):
    with raw(pg_url) as conn:
        conn.execute("CREATE TABLE customers (name TEXT)")
    for readonly in (False, True):
        with pytest.raises(D.DbError) as e:
            D.open_db(pg_url, readonly=readonly)
        assert "not a tally42 database" in str(e.value) and "another program" in str(e.value)
    assert tables(pg_url) == {"customers"}
    # A tally42_meta with another application's id: not ours either.
    with raw(pg_url) as conn:
        conn.execute("DROP TABLE customers")
        conn.execute("CREATE TABLE tally42_meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO tally42_meta VALUES ('application_id', '7')")
    with pytest.raises(D.DbError):
        D.open_db(pg_url)
    assert tables(pg_url) == {"tally42_meta"}
    with raw(pg_url) as conn:
        conn.execute("UPDATE tally42_meta SET value = 'T422'")
    with pytest.raises(D.DbError) as e:
        D.open_db(pg_url)
    assert "tally42_meta says application_id is 'T422', not a number" in str(e.value)


def test_a_database_from_a_newer_tally42_is_refused(pg_url):
    D.open_db(pg_url).close()
    with raw(pg_url) as conn:
        conn.execute("UPDATE tally42_meta SET value = '%d' WHERE key = 'schema_version'"
                     % (D.SCHEMA_VERSION + 1))
    with pytest.raises(D.DbError) as e:
        D.open_db(pg_url)
    assert "newer tally42" in str(e.value) and "schema %d" % (D.SCHEMA_VERSION + 1) in str(
        e.value)


def test_a_migration_that_fails_changes_nothing(pg_url, monkeypatch):
    def broken(conn):
        conn.execute("CREATE TABLE half (x INTEGER)")
        conn.execute("SELECT no_such_column FROM sittings")

    monkeypatch.setattr(SC, "MIGRATIONS", [SC.MIGRATIONS[0], broken])
    with pytest.raises(D.DbError) as e:
        D.open_db(pg_url)
    assert "no_such_column" in str(e.value)
    # PostgreSQL's DDL is transactional: not even the first migration's tables stay.
    assert tables(pg_url) == set()


def test_a_version_1_database_is_upgraded(pg_url):
    conn = dbpg.connect(pg_url)
    D.migrate(conn, upto=1)
    assert conn.user_version() == 1
    for seed in range(1, 200):
        moon = random_log(seed, 9, 3000)
        if len(F.Facts(L.replay(moon.encode())).games) >= 2:
            break
    moon_facts = store_v1(conn, moon)
    conn.close()
    with D.open_db(pg_url, readonly=True) as database:     # a reader upgrades it first
        assert database.conn.user_version() == D.SCHEMA_VERSION
        rows = database.hands(moon_facts.id)
        assert [r["game"] for r in rows] == [h["game"] for h in moon_facts.hands]
        assert [json.loads(r["score"]) for r in rows] == [h["score"] for h in moon_facts.hands]
        assert json.loads(database.sitting(moon_facts.id)["games"])["games"] == \
            moon_facts.games


def test_a_failure_part_way_stores_nothing(pg_url):
    header, events = random_sitting(21, 0, 300, ["Ann", "Bob", "Cy", "Di"], {"id": "x"})
    full = LN.dump_log(L.log_lines(header, events))
    short = LN.dump_log(L.log_lines(header, events[:12]))
    n_short = len(expected_hands(short))
    with D.open_db(pg_url) as database:
        database.store(short)
        database.conn.execute(
            "CREATE FUNCTION fail() RETURNS trigger AS $$ BEGIN "
            "IF NEW.number = %d THEN RAISE EXCEPTION 'disk on fire'; END IF; "
            "RETURN NEW; END $$ LANGUAGE plpgsql" % (n_short + 2))
        database.conn.execute("CREATE TRIGGER fail AFTER INSERT ON hands "
                              "FOR EACH ROW EXECUTE FUNCTION fail()")
        with pytest.raises(D.DbError) as e:
            database.store(full)
        assert "disk on fire" in str(e.value)
        assert not database.conn.in_transaction
        assert database.log("x") == short
        assert count(database, "hands") == n_short and count(database, "sittings") == 1


def test_reading_commands_cannot_write(pg_url):
    with pytest.raises(D.DbError) as e:
        D.open_db(pg_url, readonly=True)
    assert "holds no sittings yet" in str(e.value)
    assert tables(pg_url) == set()              # a reader made nothing
    with D.open_db(pg_url) as database:
        database.store(random_log(1, 0, 40, None, {"id": "one"}))
    with D.open_db(pg_url, readonly=True) as database:
        assert database.ids() == ["one"]
        with pytest.raises(D.DbError) as e:
            database.store(random_log(2, 0, 40))
        assert "read-only" in str(e.value)
        with pytest.raises(D.DbError):
            database.delete("one")
    with D.open_db(pg_url, readonly=True) as database:
        assert database.ids() == ["one"]


def test_a_reader_reads_one_snapshot_while_another_pc_writes(pg_url):
    from host_tools.store import stats as T
    with D.open_db(pg_url) as writer:
        writer.store(random_log(1, 0, 60, ["Ann", "Bob", "Cy", "Di"], {"id": "one"}))
        with D.open_db(pg_url, readonly=True) as reader:
            before = T.collect(reader)
            writer.store(random_log(2, 0, 60, ["Ann", "Eve", "Cy", "Di"], {"id": "two"}))
            # Stored meanwhile, not yet seen: the figures a command prints add up.
            assert reader.ids() == ["one"]
            assert "Eve" not in T.collect(reader)[0] and T.collect(reader)[0].keys() == \
                before[0].keys()
            reader.conn.execute("COMMIT")           # a reader that stays open: look again
            assert sorted(reader.ids()) == ["one", "two"]
            assert "Eve" in T.collect(reader)[0]


def test_values_come_back_as_sqlite_gives_them(pg_url):
    with D.open_db(pg_url) as database:
        conn = database.conn
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE t (n INTEGER, flag INTEGER, s TEXT)")
        conn.executemany("INSERT INTO t VALUES (?, ?, ?)",
                         [(1, True, "50%"), (2, False, "it's")])
        conn.execute("COMMIT")
        assert conn.execute("SELECT flag FROM t ORDER BY n").fetchall() == [(1,), (0,)]
        total, mean = conn.execute("SELECT SUM(n), AVG(n) FROM t").fetchone()
        assert (total, mean) == (3, 1.5) and type(total) is int and type(mean) is float
        # A % in the SQL is SQL's, not a placeholder.
        assert conn.execute("SELECT n FROM t WHERE s LIKE '5' || ?", ("0%",)).fetchall() == \
            [(1,)]
        conn.execute("BEGIN IMMEDIATE")
        conn.executescript("CREATE TABLE u (x INTEGER); INSERT INTO u VALUES (7); "
                           "INSERT INTO u VALUES (8)")
        conn.execute("COMMIT")
        assert conn.execute("SELECT SUM(x) FROM u").fetchone()[0] == 15
        # SQLite's numbered rows: INTEGER PRIMARY KEY, and the number given back.
        assert conn.execute("INSERT INTO t VALUES (3, 0, 'x')").lastrowid is None
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE serials (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)")
        conn.execute("CREATE TABLE rounds (id INTEGER PRIMARY KEY, n INTEGER)")
        assert conn.execute("INSERT INTO serials (name) VALUES (?)", ("club",)).lastrowid == 1
        assert conn.execute("INSERT INTO rounds (n) VALUES (5)").lastrowid == 1
        assert conn.execute("INSERT INTO serials (name) VALUES ('cup')").lastrowid == 2
        conn.execute("COMMIT")
        assert conn.execute("SELECT id, name FROM serials ORDER BY id").fetchall() == [
            (1, "club"), (2, "cup")]
        row = conn.execute("SELECT n, s FROM t WHERE s = :s", {"s": "it's"}).fetchone()
        assert row["n"] == row[0] == 2 and row["s"] == "it's"


def test_a_schema_of_its_own_keeps_the_options_of_the_url(pg_url):
    # One PostgreSQL database, two tally42 databases: each in its schema (search_path).
    with raw(pg_url) as conn:
        conn.execute("CREATE SCHEMA league")
        conn.execute("CREATE TABLE public.customers (name TEXT)")   # not ours, elsewhere
    url = pg_url + "&options=-csearch_path%3Dleague"
    with D.open_db(url) as database:
        database.store(random_log(1, 0, 40, None, {"id": "one"}))
    with D.open_db(url, readonly=True) as database:    # read-only added to the options
        assert database.ids() == ["one"]
        with pytest.raises(D.DbError) as e:
            database.delete("one")
        assert "read-only" in str(e.value)
    assert tables(pg_url) == {"customers"}
    with raw(pg_url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM league.sittings").fetchone()[0] == 1
    with pytest.raises(D.DbError) as e:                # public holds another program's
        D.open_db(pg_url)
    assert "not a tally42 database" in str(e.value)


def test_a_server_that_is_not_there_is_said_plainly(tmp_path, capsys):
    url = "postgresql://ann:s3cret@/league?host=%s&port=1&connect_timeout=2" % tmp_path
    for argv in (["import", os.devnull], ["sittings"], ["stats"]):
        code, out, err = run(capsys, *argv, "--db", url)
        assert code == 2 and out == ""
        assert err.startswith("tally42: postgresql://ann@/league?host=")
        assert "cannot open the database" in err and "s3cret" not in err
        assert "Traceback" not in err and err.count("\n") == 1
    # A URL libpq cannot read: said the same way.
    code, out, err = run(capsys, "sittings", "--db", "postgresql://ann:s3cret@/x?bogus=1")
    assert code == 2 and err.startswith("tally42: postgresql://ann@/x?bogus=1: cannot open")
    assert "s3cret" not in err


def test_tally42_db_takes_a_url_and_a_broken_database_is_said_plainly(pg_url, tmp_path,
                                                                      capsys, monkeypatch):
    log = tmp_path / "one.jsonl"
    log.write_text(random_log(1, 0, 60, ["Ann", "Bob", "Cy", "Di"], {"id": "one"}))
    monkeypatch.setenv("TALLY42_DB", pg_url)
    code, out, err = run(capsys, "import", str(log))
    assert code == 0 and "stored sitting one" in out
    code, out, err = run(capsys, "sittings")
    assert code == 0 and out.startswith("id ") and "\none " in out
    with raw(pg_url) as conn:
        conn.execute("DROP TABLE seats")        # somebody's hand in the database
    code, out, err = run(capsys, "stats")
    assert code == 2 and out == "" and err.startswith("tally42: %s: " % pg_url)
    assert "seats" in err and err.count("\n") == 1 and "Traceback" not in err


def test_without_psycopg_a_url_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setattr(dbpg, "psycopg", None)
    code, out, err = run(capsys, "sittings", "--db", "postgresql://ann:pw@club/league")
    assert code == 2 and out == ""
    assert err == ('tally42: postgresql://ann@club/league: a PostgreSQL database needs '
                   'psycopg (pip install "psycopg[binary]")\n')


# ---- the command line: a URL gives what a file gives ----

def club_logs(tmp_path, n, setups=(0, 1, 3, 5, 10)):
    """n random sittings among a club's eight players, each its own id and start."""
    pool = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
    paths = []
    for i in range(n):
        players = [pool[(i + k * 3) % 8] for k in range(6)]
        extra = {"id": "club-%03d" % i,
                 "started": "2025-03-%02dT%02d:%02d:00" % (1 + i // 48, 18 + i % 48 // 12,
                                                           i % 12 * 5)}
        path = tmp_path / ("s%03d.jsonl" % i)
        path.write_text(random_log(1000 + i, setups[i % len(setups)], 160, players, extra))
        paths.append(str(path))
    return paths


def listing(capsys, db):
    """What the reading commands say of a database (times of storing left out)."""
    code, out, err = run(capsys, "sittings", "--json", "--db", db)
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    for r in rows:
        del r["imported_at"], r["updated_at"]
    code, stats, err = run(capsys, "stats", "--db", db)
    assert code == 0, err
    code, csv, err = run(capsys, "export", "--all", "--format", "csv", "--db", db)
    assert code == 0, err
    return rows, stats, csv


def test_the_commands_give_the_same_on_a_file_and_on_postgresql(tmp_path, pg_url, capsys):
    logs = club_logs(tmp_path, 24)
    path = str(tmp_path / "t.db")
    for db in (path, pg_url):
        code, out, err = run(capsys, "import", *logs, "--db", db)
        assert code == 0 and out.count("stored sitting") == 24, err
    on_file = listing(capsys, path)
    on_pg = listing(capsys, pg_url)
    assert len(on_file[0]) == 24 and "Ann" in on_file[1]
    assert on_pg == on_file
    for db in (path, pg_url):
        assert run(capsys, "rename", "club-003", "club-three", "--db", db)[0] == 0
        assert run(capsys, "delete", "club-00", "--db", db)[0] == 2     # ambiguous
        assert run(capsys, "delete", "club-001", "--db", db)[0] == 0
    assert listing(capsys, pg_url) == listing(capsys, path)
    assert len(listing(capsys, pg_url)[0]) == 23


# ---- two PCs at once ----

def tally42(*argv):
    return subprocess.Popen([sys.executable, "-m", "host_tools"] + list(argv), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_processes_storing_the_same_sittings_store_each_once(tmp_path, pg_url, capsys):
    logs = club_logs(tmp_path, 200)
    # Both start on a new database: they also race to make its schema.
    started = time.monotonic()
    procs = [tally42("import", *logs, "--db", pg_url) for _ in range(2)]
    results = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    took = time.monotonic() - started
    stored = []
    for out, err, code in results:
        assert code == 0 and err == "", err
        lines = out.splitlines()
        assert len(lines) == 200
        stored += [ln for ln in lines if ": stored sitting " in ln]
        assert all(": stored sitting " in ln or ": already stored: " in ln for ln in lines)
    # Every sitting stored by exactly one of the two, and once in the database.
    ids = sorted(ln.split(": stored sitting ")[1].split(" ")[0] for ln in stored)
    assert ids == ["club-%03d" % i for i in range(200)]
    with D.open_db(pg_url, readonly=True) as database:
        assert count(database, "sittings") == 200
        assert count(database, "seats") == sum(
            len(F.Facts(L.replay(open(p, "rb").read())).seats()) for p in logs)
    # And the standings and listing are what one process alone makes on SQLite.
    path = str(tmp_path / "one.db")
    code, out, err = run(capsys, "import", *logs, "--db", path)
    assert code == 0 and out.count("stored sitting") == 200
    assert listing(capsys, pg_url) == listing(capsys, path)
    assert took < 300


def test_two_pcs_syncing_copies_of_a_scorer_at_once_store_each_sitting_once(tmp_path, pg_url):
    import syncrig as R
    played = None
    rigs = []
    try:
        for k in range(2):      # the same journal (the same sittings, same ids), twice
            image = str(tmp_path / ("flash%d.img" % k))
            played = R.build_image(image, 6, open_events=2)
            cable = R.Cable()
            rigs.append((cable, R.Scorer(image, cable)))
        procs = [tally42("sync", "--port", cable.host_path, "--db", pg_url, "--timeout", "0.3",
                         "--no-clock") for cable, _ in rigs]
        outs = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    finally:
        for cable, scorer in rigs:
            err = scorer.stop()
            cable.close()
            assert "Traceback" not in err, err
    new = 0
    for out, err, code in outs:
        assert code == 0, err
        summary = [ln for ln in out.splitlines() if "already stored" in ln and " new, " in ln]
        assert len(summary) == 1, out
        n, _, rest = summary[0].partition(" new, ")
        stored_here = int(n.split()[-1])
        already = int(rest.split(" updated, ")[1].split()[0])
        assert stored_here + already == 6
        new += stored_here
    assert new == 6
    with D.open_db(pg_url, readonly=True) as database:
        assert sorted(database.ids()) == sorted("T42-SIM001-%d" % i for i in played)
        for sid, (score, events) in played.items():
            row = database.sitting("T42-SIM001-%d" % sid)
            assert json.loads(row["score"]) == score and row["events"] == events
            assert row["source"] == "sync"


STORE_ALL = r"""
import json, os, sys, time
from host_tools.store import db as D
url, logs, go = sys.argv[1:4]
with open(logs) as f:
    texts = json.load(f)
database = D.open_db(url)
print("ready", flush=True)
while not os.path.exists(go) or not os.path.getsize(go):
    time.sleep(0.001)
with open(go) as f:
    t0 = float(f.read())
for i, text in enumerate(texts):     # sitting i at t0 + 30 ms * i: both writers at once
    wait = t0 + 0.03 * i - time.time()
    if wait > 0:
        time.sleep(wait)
    st = database.store(text, source="sync", device="T42-0042")
    print(st.status, st.id, flush=True)
database.close()
"""


def test_two_writers_started_together_store_each_sitting_once(tmp_path, pg_url):
    # The same 200 sittings, each sent by both writers at the same instant: every
    # sitting is raced for. Each is stored by exactly one; the other finds it stored.
    texts = [random_log(500 + i, i % 3, 120, ["Ann", "Bob", "Cy", "Di"],
                        {"id": "race-%03d" % i}) for i in range(200)]
    logs = tmp_path / "logs.json"
    logs.write_text(json.dumps(texts))
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", STORE_ALL, pg_url, str(logs), str(go)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    for p in procs:
        assert p.stdout.readline() == "ready\n"
    (tmp_path / "go.tmp").write_text(repr(time.time() + 0.2))
    os.replace(str(tmp_path / "go.tmp"), str(go))
    by = {}
    for k, p in enumerate(procs):
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and err == "", err
        lines = out.splitlines()
        assert len(lines) == 200
        for line in lines:
            status, sid = line.rsplit(" ", 1)
            by.setdefault(sid, []).append((k, status))
    assert sorted(by) == ["race-%03d" % i for i in range(200)]
    for sid, said in by.items():
        assert sorted(s for _, s in said) == ["already stored", "stored"], (sid, said)
    with D.open_db(pg_url, readonly=True) as database:
        assert count(database, "sittings") == 200
        assert count(database, "hands") == sum(len(expected_hands(t)) for t in texts)
        for i in (0, 99, 199):
            assert database.log("race-%03d" % i) == texts[i]


def test_text_orders_as_in_sqlite_whatever_the_servers_locale(pg_server, tmp_path):
    # A database whose default collation is ICU's English (a-b-B, punctuation first):
    # tally42's text columns still order by code point, as SQLite does.
    name = "icu_%d" % os.getpid()
    pg_server.admin("CREATE DATABASE %s TEMPLATE template0 LOCALE_PROVIDER icu "
                    "ICU_LOCALE 'en-US' LOCALE 'C'" % name)
    url = pg_server.url(name)
    with raw(url) as conn:
        english = [r[0] for r in conn.execute(
            "SELECT x FROM (VALUES ('b-1'), ('B-2'), ('a-3'), ('_x')) v(x) ORDER BY x")]
    assert english != sorted(english)           # the server's own order is not SQLite's
    ids = ["b-1", "B-2", "a-3", "_x", "b-10"]
    path = str(tmp_path / "t.db")
    for db in (path, url):
        with D.open_db(db) as database:
            for i, sid in enumerate(ids):
                started = "2025-05-0%dT20:00:00" % (9 if i < 3 else 9 - i)
                database.store(random_log(i + 1, 0, 30, None, {"id": sid,
                                                              "started": started}))
    with D.open_db(path) as on_file, D.open_db(url) as on_pg:
        # Oldest first; the three that started together in the order stored on SQLite,
        # by id on PostgreSQL (which keeps no order of storing).
        assert on_file.ids() == ["b-10", "_x", "b-1", "B-2", "a-3"]
        assert on_pg.ids() == ["b-10", "_x", "B-2", "a-3", "b-1"]
        by_id = "SELECT id FROM sittings ORDER BY id"
        assert on_pg.conn.execute(by_id).fetchall() == [
            tuple(r) for r in on_file.conn.execute(by_id).fetchall()] == [(i,) for i in
                                                                         sorted(ids)]


def test_a_user_who_may_not_make_tables_is_told_so(pg_server, pg_url, capsys, tmp_path):
    pg_server.admin("DO $$ BEGIN CREATE ROLE desk LOGIN; "
                    "EXCEPTION WHEN duplicate_object THEN NULL; END $$")
    url = pg_url.replace("postgresql://%s@" % "tally42", "postgresql://desk@")
    assert url != pg_url
    log = tmp_path / "one.jsonl"
    log.write_text(random_log(1, 0, 30))
    code, out, err = run(capsys, "import", str(log), "--db", url)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("tally42: postgresql://desk@/") and "permission denied" in err
    assert tables(pg_url) == set()
