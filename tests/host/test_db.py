"""The sittings database: round trips of random legal sittings, idempotence, updates of a
longer log, one transaction a sitting, and schema migrations."""
import json
import os
import sqlite3
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host_tools.log import lines as LN
from host_tools.log import sittinglog as L
from host_tools.store import db as D
from host_tools.store import schema as SC
from host_tools.store import facts as F

from eventlogs import count, expected_hands, random_log, random_sitting, store_v1
from randsit import SETUPS


def empty_pg(url):
    """Empty a PostgreSQL test database: as new."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")


@pytest.fixture
def new_db(db_url):
    """A function giving a new, empty database each call: SQLite in memory, or the
    PostgreSQL database of db_url emptied."""
    def new():
        if D.is_url(db_url):
            empty_pg(db_url)
            return D.open_db(db_url)
        return D.open_db(":memory:")
    return new


# Names and ids as the log takes them: text without control characters.
NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp")),
                min_size=1, max_size=10).filter(lambda t: t.strip() == t and t)


@st.composite
def logs(draw):
    setup = draw(st.integers(0, len(SETUPS) - 1))
    seed = draw(st.integers(1, 2 ** 31 - 1))
    limit = draw(st.integers(0, 250))
    players = draw(st.none() | st.lists(NAMES, min_size=6, max_size=6,
                                        unique_by=lambda t: t.strip().lower()))
    extra = {}
    if draw(st.booleans()):
        extra["id"] = draw(NAMES)
    if draw(st.booleans()):
        extra["started"] = "2025-%02d-%02dT20:15:00" % (draw(st.integers(1, 12)),
                                                       draw(st.integers(1, 28)))
    text = random_log(seed, setup, limit, players, extra)
    return text


@settings(max_examples=80, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])     # new_db() is per example
@given(logs(), st.booleans())
def test_a_stored_sitting_comes_back_normalised(new_db, text, comment):
    with new_db() as database:
        given = text
        if comment:
            # Comments, blank lines and spacing are the file's, not the sitting's.
            lines = text.split("\n")
            lines.insert(1, "# a comment\n  \n")
            given = "\n".join(lines).replace('"type": "bid"', '"type":"bid"')
        stored = database.store(given)
        assert stored.status == "stored"
        back = database.log(stored.id)
        assert back == text
        rp = L.replay(text.encode("utf-8"))
        assert L.report(L.replay(back.encode("utf-8"))) == L.report(rp)
        # The indexed facts say what the log says.
        row = database.sitting(stored.id)
        report = L.report(rp)
        assert row["variant"] == report["variant"]
        assert json.loads(row["options"]) == report["options"]
        assert json.loads(row["score"]) == report["score"]
        assert bool(row["over"]) == report["over"]
        assert row["winner"] == report["winner"]
        assert row["started"] == rp.header.extra.get("started")
        assert row["events"] == len(rp.events)
        names = [r["name"] for r in database.seats(stored.id)]
        assert names == (list(rp.header.players) if rp.header.players else
                         [None] * rp.sitting.seats)
        hands = [F.hand_dict(h) for h in database.hands(stored.id)]
        assert hands == expected_hands(text)
        assert row["hands"] == len(hands)
        # Storing it again stores nothing.
        again = database.store(text)
        assert again.status == "already stored" and again.id == stored.id
        assert count(database, "sittings") == 1
        assert count(database, "hands") == len(hands)


def test_the_hand_that_ends_a_sitting_is_stored(db_url):
    text = ('{"type": "sitting", "variant": "42", "id": "short", "options": {"target": 1}}\n'
            '{"type": "bid", "bid": 30}\n{"type": "bid", "bid": "pass"}\n'
            '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": "pass"}\n'
            '{"type": "trump", "trump": 4}\n{"type": "result", "made": true}\n')
    with D.open_db(db_url) as database:
        database.store(text)
        hands = [F.hand_dict(h) for h in database.hands("short")]
        row = database.sitting("short")
    assert hands == [{"dealer": 0, "bidder": 1, "bid": 30, "contract": 4, "made": True,
                      "points": None, "award": [0, 1]}]
    assert row["over"] == 1 and row["winner"] == 1 and row["hands"] == 1


def test_partnership_moon_games_are_indexed(new_db):
    for seed in range(1, 200):
        text = random_log(seed, 8, 2000)
        facts = F.Facts(L.replay(text.encode()))
        if len(facts.games) >= 2:
            break
    else:
        pytest.fail("no random Partnership Moon sitting of two games")
    with new_db() as database:
        stored = database.store(text)
        rows = database.hands(stored.id)
        games = json.loads(database.sitting(stored.id)["games"])
    report = L.report(L.replay(text.encode()))
    assert games == {"games": report["games"], "match": report["match"]}
    # Each hand's game, and the running score starting again with each game.
    assert [r["game"] for r in rows] == [h["game"] for h in facts.hands]
    assert rows[-1]["game"] == len(facts.games) + (0 if report["over"] else 1)
    first_of_second = [r for r in rows if r["game"] == 2][0]
    assert json.loads(first_of_second["score"]) == json.loads(first_of_second["award"])
    last_of_first = [r for r in rows if r["game"] == 1][-1]
    assert json.loads(last_of_first["score"]) == report["games"][0]["score"]


def test_the_same_sitting_retyped_is_the_same_sitting(new_db):
    text = random_log(7, 0, 60)
    retyped = text.replace(", ", ",").replace('"variant": "42"', '"variant": "42" ')
    retyped = "# typed again\n" + retyped.replace("\n", "\n\n")
    assert retyped != text
    with new_db() as database:
        first = database.store(text)
        second = database.store(retyped)
        assert first.id.startswith("log-")
        assert second.status == "already stored" and second.id == first.id
        assert database.log(first.id) == text
        assert count(database, "sittings") == 1


def test_a_longer_log_updates_the_sitting_it_continues(new_db):
    header, events = random_sitting(12, 0, 200, ["Ann", "Bob", "Cy", "Di"], {"id": "dev-7"})
    assert len(events) > 40
    short = LN.dump_log(L.log_lines(header, events[:20]))
    full = LN.dump_log(L.log_lines(header, events))
    with new_db() as database:
        first = database.store(short, source="sync", device="T42-0001")
        assert first.status == "stored"
        imported = database.sitting("dev-7")["imported_at"]
        hands_before = count(database, "hands")
        later = database.store(full, source="sync", device="T42-0001")
        assert later.status == "updated" and later.added == len(events) - 20
        assert count(database, "sittings") == 1
        assert count(database, "seats") == 4
        assert count(database, "hands") == len(expected_hands(full)) > hands_before
        row = database.sitting("dev-7")
        assert row["log"] == full and row["events"] == len(events)
        assert row["imported_at"] == imported and row["device"] == "T42-0001"
        assert row["source"] == "sync"
        # The shorter log again (an old copy): nothing changes.
        old = database.store(short)
        assert old.status == "already stored"
        assert database.log("dev-7") == full
        assert count(database, "hands") == len(expected_hands(full))


def test_a_different_log_under_a_stored_id_is_refused(new_db):
    header, events = random_sitting(12, 0, 80, None, {"id": "same"})
    other_header, other = random_sitting(13, 0, 80, None, {"id": "same"})
    assert events[:5] != other[:5]
    text = LN.dump_log(L.log_lines(header, events))
    with new_db() as database:
        database.store(text)
        with pytest.raises(D.Conflict) as e:
            database.store(LN.dump_log(L.log_lines(other_header, other)))
        assert "same" in str(e.value)
        renamed = LN.Header(header.rules, header.dealer, ["A", "B", "C", "D"], {"id": "same"})
        with pytest.raises(D.Conflict):
            database.store(LN.dump_log(L.log_lines(renamed, events)))
        assert database.log("same") == text
        assert count(database, "sittings") == 1


def test_a_batch_is_one_transaction(new_db):
    texts = [random_log(40 + i, 0, 60, None, {"id": "b%d" % i}) for i in range(3)]
    other_header, other = random_sitting(13, 0, 80, None, {"id": "b0"})
    with new_db() as database:
        with pytest.raises(D.Conflict):
            with database.batch():
                assert [database.store(t).status for t in texts] == ["stored"] * 3
                database.store(LN.dump_log(L.log_lines(other_header, other)))
        assert count(database, "sittings") == 0 and count(database, "hands") == 0
        with database.batch():
            for t in texts:
                database.store(t)
        assert sorted(database.ids()) == ["b0", "b1", "b2"]
        assert not database.conn.in_transaction


def test_a_failure_part_way_stores_nothing(tmp_path):
    header, events = random_sitting(21, 0, 300, ["Ann", "Bob", "Cy", "Di"], {"id": "x"})
    full = LN.dump_log(L.log_lines(header, events))
    short = LN.dump_log(L.log_lines(header, events[:12]))
    n_short = len(expected_hands(short))
    assert len(expected_hands(full)) > n_short + 2
    path = str(tmp_path / "t.db")
    with D.open_db(path) as database:
        # The database refuses the hand after the short log's last: the sitting row and
        # the hands before it are already written in the transaction by then.
        database.conn.execute(
            "CREATE TRIGGER fail AFTER INSERT ON hands WHEN NEW.number = %d "
            "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END" % (n_short + 2))
        database.store(short)
        with pytest.raises(D.DbError) as e:
            database.store(full)
        assert "disk on fire" in str(e.value)
        assert not database.conn.in_transaction
    with D.open_db(path) as database:
        assert database.log("x") == short
        assert count(database, "hands") == n_short
        assert count(database, "sittings") == 1
        database.conn.execute("DELETE FROM sittings")
        with pytest.raises(D.DbError):
            database.store(full)
        assert count(database, "sittings") == 0
        assert count(database, "hands") == 0
        assert count(database, "seats") == 0


def test_a_refused_log_stores_nothing(new_db):
    text = random_log(5, 0, 40) + '{"type": "bid", "bid": 7}\n'
    with new_db() as database:
        with pytest.raises(LN.LogError) as e:
            database.store(text)
        assert e.value.line == text.count("\n")
        assert count(database, "sittings") == 0 and count(database, "hands") == 0


def test_an_empty_database_gets_the_current_schema(tmp_path):
    path = str(tmp_path / "sub" / "dir" / "t.db")
    with D.open_db(path) as database:
        conn = database.conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == D.SCHEMA_VERSION == 7
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"sittings", "seats", "hands", "events", "event_tables"} <= tables
        cols = [r[1] for r in conn.execute("PRAGMA table_info(hands)")]
        assert "game" in cols and "award" in cols
    with D.open_db(path) as database:     # opening again changes nothing
        assert database.conn.execute("PRAGMA user_version").fetchone()[0] == D.SCHEMA_VERSION


def test_a_version_1_database_is_upgraded(tmp_path):
    path = str(tmp_path / "old.db")
    conn = sqlite3.connect(path, isolation_level=None)
    D.migrate(conn, upto=1)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    moon = None
    for seed in range(1, 200):
        text = random_log(seed, 9, 3000)
        if len(F.Facts(L.replay(text.encode())).games) >= 2:
            moon = text
            break
    plain = random_log(3, 0, 100)
    moon_facts = store_v1(conn, moon)
    plain_facts = store_v1(conn, plain)
    conn.close()
    with D.open_db(path) as database:
        assert database.conn.execute("PRAGMA user_version").fetchone()[0] == D.SCHEMA_VERSION
        rows = database.hands(moon_facts.id)
        assert [r["game"] for r in rows] == [h["game"] for h in moon_facts.hands]
        assert max(r["game"] for r in rows) >= 2
        assert [json.loads(r["score"]) for r in rows] == [h["score"] for h in moon_facts.hands]
        assert json.loads(database.sitting(moon_facts.id)["games"])["games"] == moon_facts.games
        assert database.sitting(plain_facts.id)["games"] is None
        assert {r["game"] for r in database.hands(plain_facts.id)} == {1}
        assert database.log(moon_facts.id) == moon
        # And it takes new sittings.
        assert database.store(random_log(4, 3, 50)).status == "stored"


def test_a_migration_that_fails_changes_nothing(tmp_path, monkeypatch):
    path = str(tmp_path / "t.db")

    def broken(conn):
        conn.execute("CREATE TABLE half (x)")
        raise sqlite3.OperationalError("migration 2 went wrong")

    monkeypatch.setattr(SC, "MIGRATIONS", [SC.MIGRATIONS[0], broken])
    with pytest.raises(D.DbError):
        D.open_db(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    conn.close()


def test_a_database_from_a_newer_tally42_is_refused(tmp_path):
    path = str(tmp_path / "new.db")
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE future (x)")
    conn.execute("PRAGMA application_id = %d" % SC.APPLICATION_ID)
    conn.execute("PRAGMA user_version = %d" % (D.SCHEMA_VERSION + 1))
    conn.commit()
    conn.close()
    with pytest.raises(D.DbError) as e:
        D.open_db(path)
    assert "newer tally42" in str(e.value) and "schema %d" % (D.SCHEMA_VERSION + 1) in str(e.value)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == D.SCHEMA_VERSION + 1
    conn.close()


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"shopping list: dominoes, chalk, coffee\n" * 100)
    with pytest.raises(D.DbError) as e:
        D.open_db(str(path))
    assert "notes.db" in str(e.value) and "not a database" in str(e.value)


def test_a_missing_database_is_not_created_for_reading(tmp_path):
    path = tmp_path / "none.db"
    with pytest.raises(D.DbError) as e:
        D.open_db(str(path), create=False)
    assert "no database" in str(e.value)
    assert not path.exists()


def test_ids_resolve_by_their_beginning(new_db):
    with new_db() as database:
        database.store(random_log(1, 0, 20, None, {"id": "table-12"}))
        database.store(random_log(2, 0, 20, None, {"id": "table-20"}))
        database.store(random_log(3, 0, 20, None, {"id": "t_x"}))
        assert database.resolve("table-12") == "table-12"
        assert database.resolve("table-2") == "table-20"
        with pytest.raises(D.DbError) as e:
            database.resolve("table-")
        assert "table-12" in str(e.value) and "table-20" in str(e.value)
        # _ and % are letters here, not LIKE wildcards.
        assert database.resolve("t_") == "t_x"
        assert database.resolve("TABLE-2") == "table-20"       # in any case, on both
        with pytest.raises(D.DbError):
            database.resolve("t%")
        with pytest.raises(D.DbError) as e:
            database.resolve("nope")
        assert "no sitting nope" in str(e.value)


def test_default_path_per_platform(monkeypatch):
    monkeypatch.delenv("TALLY42_DB", raising=False)
    monkeypatch.setenv("HOME", "/home/ann")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert D.default_path() == os.path.join("/data", "tally42", "tally42.db")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert D.default_path() == os.path.join("/home/ann", ".local", "share", "tally42",
                                            "tally42.db")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert D.default_path() == os.path.join("/home/ann", "Library", "Application Support",
                                            "tally42", "tally42.db")
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", "/roaming")
    assert D.default_path() == os.path.join("/roaming", "tally42", "tally42.db")
    monkeypatch.setenv("TALLY42_DB", "/tmp/elsewhere.db")
    assert D.default_path() == "/tmp/elsewhere.db"


# ---- when a sitting ended and where in an event it was played (the #tally42 line) ----

META = {"ended": "2026-03-07T22:41:05-06:00", "event": "Club night", "round": 2,
        "table": 3}


def test_end_time_and_event_are_stored_in_columns_and_kept_in_the_log(new_db):
    extra = dict(META, id="T42-A1B2C3-0000002A", started="2026-03-07T20:15:00-06:00")
    text = random_log(11, 0, 200, players=["Ann", "Bob", "Cy", "Di"], extra=extra)
    assert text.splitlines()[1] == "#tally42 " + json.dumps(META)
    with new_db() as database:
        st = database.store(text)
        row = database.sitting(st.id)
        assert (row["ended"], row["event"], row["round"], row["table_no"]) == (
            META["ended"], "Club night", 2, 3)
        listed = [dict(r) for r in database.sittings()]
        assert listed[0]["ended"] == META["ended"] and listed[0]["table_no"] == 3
        # The stored log keeps the line; stored again in another database, the same row.
        stored = database.log(st.id)
        assert stored == text
        row = dict(row)
    with new_db() as other:
        other.store(stored)
        again = other.sitting(st.id)
        assert [again[k] for k in ("ended", "event", "round", "table_no", "started")] == [
            row[k] for k in ("ended", "event", "round", "table_no", "started")]


def test_a_log_without_the_line_has_no_end_or_event(new_db):
    text = random_log(12, 0, 100)
    assert "#tally42" not in text
    with new_db() as database:
        row = database.sitting(database.store(text).id)
        assert [row[k] for k in ("ended", "event", "round", "table_no")] == [None] * 4


@pytest.mark.parametrize("line, why", [
    ('#tally42 {"ended": 5}', "ended must be a line of text"),
    ('#tally42 {"round": 0}', "round must be a whole number from 1 to 255"),
    ('#tally42 {"table": 256}', "table must be a whole number from 1 to 255"),
    ('#tally42 {"table": true}', "table must be a whole number"),
    ('#tally42 {"event": "a\\u001bb"}', "control character"),
    ('#tally42 {"venue": "hall"}', "unknown #tally42 field \"venue\""),
    ('#tally42 {"round": 1, "round": 2}', "given twice"),
    ('#tally42 [1]', "a JSON object"),
    ('#tally42 nope', "a JSON object"),
])
def test_a_bad_tally42_line_is_refused_with_its_line(line, why, new_db):
    lines = random_log(13, 0, 30).splitlines()
    text = "\n".join(lines[:2] + [line] + lines[2:]) + "\n"
    with new_db() as database:
        with pytest.raises(LN.LogError) as e:
            database.store(text)
        assert e.value.line == 3 and why in e.value.message
        assert count(database, "sittings") == 0


def test_a_second_tally42_line_is_refused():
    text = random_log(14, 0, 30, extra={"round": 1})
    lines = text.splitlines()
    text = "\n".join(lines + ['#tally42 {"round": 2}']) + "\n"
    with pytest.raises(LN.LogError) as e:
        L.replay(text.encode())
    assert e.value.line == len(lines) + 1 and "second #tally42" in e.value.message


def test_other_comment_lines_stay_ignored():
    text = random_log(15, 0, 30)
    lines = text.splitlines()
    text = "\n".join(lines[:1] + ["#tally42x whatever", "# tally42 {bad"] + lines[1:]) + "\n"
    assert L.replay(text.encode()).header.extra == {}


def test_a_version_2_database_gets_the_end_and_event_columns(tmp_path):
    path = str(tmp_path / "v2.db")
    conn = sqlite3.connect(path, isolation_level=None)
    D.migrate(conn, upto=2)
    conn.close()
    with D.open_db(path) as database:
        assert database.conn.execute("PRAGMA user_version").fetchone()[0] == D.SCHEMA_VERSION
        cols = [r[1] for r in database.conn.execute("PRAGMA table_info(sittings)")]
        assert {"ended", "event", "round", "table_no"} <= set(cols)
        text = random_log(16, 0, 50, extra=META)
        row = database.sitting(database.store(text).id)
        assert row["round"] == 2 and row["event"] == "Club night"
