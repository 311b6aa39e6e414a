"""`tally42 import`: logs are checked by the engine; a refused one stores nothing and
names its line, the others are still stored; storing twice stores nothing twice."""
import io
import json
import sqlite3
import sys

from host_tools.store import db as D
from host_tools.store import schema as SC
from host_tools.store import facts as F
from clihelp import run
from host_tools.log import lines as LN
from host_tools.log import sittinglog as L
from eventlogs import random_log, random_sitting

EXAMPLE = ('{"type": "sitting", "variant": "42", "players": ["Ann", "Bob", "Cy", "Di"]}\n'
           '{"type": "bid", "bid": 30}\n{"type": "bid", "bid": "pass"}\n'
           '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": "pass"}\n'
           '{"type": "trump", "trump": 5}\n{"type": "result", "made": true}\n')




def rows(path, table="sittings"):
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("SELECT COUNT(*) FROM %s" % table).fetchone()[0]
    finally:
        conn.close()


def test_import_stores_and_says_what(tmp_path, capsys):
    db = tmp_path / "t.db"
    good = tmp_path / "good.jsonl"
    good.write_text(EXAMPLE)
    code, out, err = run(capsys, "import", str(good), "--db", str(db))
    assert code == 0 and err == ""
    facts = F.Facts(L.replay(EXAMPLE.encode()))
    assert out == "%s: stored sitting %s (42, 1 hand, in progress)\n" % (good, facts.id)
    assert rows(db) == 1 and rows(db, "hands") == 1 and rows(db, "seats") == 4
    code, out, err = run(capsys, "import", str(good), "--db", str(db))
    assert code == 0
    assert out == "%s: already stored: sitting %s\n" % (good, facts.id)
    assert rows(db) == 1 and rows(db, "hands") == 1 and rows(db, "seats") == 4


def test_a_refused_log_stores_nothing_and_names_its_line(tmp_path, capsys):
    db = tmp_path / "t.db"
    first = tmp_path / "first.jsonl"
    first.write_text(random_log(1, 0, 80))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(EXAMPLE.replace('"bid": "pass"}\n{"type": "bid", "bid": "pass"}',
                                   '"bid": 31}\n{"type": "bid", "bid": 30}', 1))
    last = tmp_path / "last.jsonl"
    last.write_text(random_log(2, 3, 80))
    code, out, err = run(capsys, "import", str(first), str(bad), str(last), "--db", str(db))
    assert code == 2
    assert err == "%s:4: bid 30 does not beat the standing bid 31\n" % bad
    assert out.count("stored sitting") == 2
    assert str(first) in out and str(last) in out and str(bad) not in out
    assert rows(db) == 2


def test_malformed_unreadable_and_empty_logs(tmp_path, capsys):
    db = tmp_path / "t.db"
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"type": "sitting", "variant": "42"}\n{"type": "bid", "bid": 30\n')
    empty = tmp_path / "empty.jsonl"
    empty.write_text("# nothing yet\n")
    code, out, err = run(capsys, "import", str(junk), str(tmp_path / "missing.jsonl"),
                         str(empty), "--db", str(db))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("%s:2: not JSON" % junk)
    assert lines[1] == "tally42: %s: cannot read: No such file or directory" % (tmp_path / "missing.jsonl")
    assert lines[2] == "%s:1: the log is empty: it needs a sitting header" % empty
    assert rows(db) == 0


def test_a_longer_log_updates_and_a_different_one_is_refused(tmp_path, capsys):
    db = tmp_path / "t.db"
    header, events = random_sitting(34, 0, 200, ["Ann", "Bob", "Cy", "Di"], {"id": "T-9"})
    assert len(events) > 60
    short = tmp_path / "short.jsonl"
    short.write_text(LN.dump_log(L.log_lines(header, events[:30])))
    full = tmp_path / "full.jsonl"
    full.write_text(LN.dump_log(L.log_lines(header, events)))
    assert run(capsys, "import", str(short), "--db", str(db))[0] == 0
    code, out, err = run(capsys, "import", str(full), "--db", str(db))
    assert code == 0
    assert out.startswith("%s: updated sitting T-9: %d more events" % (full, len(events) - 30))
    other_header, other = random_sitting(32, 0, 100, None, {"id": "T-9"})
    clash = tmp_path / "clash.jsonl"
    clash.write_text(LN.dump_log(L.log_lines(other_header, other)))
    code, out, err = run(capsys, "import", str(clash), "--db", str(db))
    assert code == 2 and out == ""
    assert err.startswith("%s: sitting T-9 is already stored with" % clash)
    assert rows(db) == 1
    with D.open_db(str(db)) as database:
        assert database.log("T-9") == full.read_text()


def test_import_from_standard_input(tmp_path, capsys, monkeypatch):
    db = tmp_path / "t.db"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.encode())))
    code, out, err = run(capsys, "import", "-", "--db", str(db))
    assert code == 0 and out.startswith("-: stored sitting log-")
    assert rows(db) == 1


def test_a_database_from_a_newer_tally42_is_refused(tmp_path, capsys):
    db = tmp_path / "new.db"
    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA application_id = %d" % SC.APPLICATION_ID)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    good = tmp_path / "good.jsonl"
    good.write_text(EXAMPLE)
    code, out, err = run(capsys, "import", str(good), "--db", str(db))
    assert code == 2 and out == ""
    assert err == ("tally42: %s is from a newer tally42 (schema 99; this one knows up to %d): "
                   "upgrade tally42 to use it\n" % (db, D.SCHEMA_VERSION))


def test_sittings_lists_what_is_stored(tmp_path, capsys):
    db = tmp_path / "t.db"
    code, out, err = run(capsys, "sittings", "--db", str(db))
    assert code == 2 and "no database at" in err
    good = tmp_path / "good.jsonl"
    good.write_text(EXAMPLE.replace('"variant": "42"', '"variant": "42", "id": "=evil()", '
                                    '"started": "2025-03-01T19:00:00"'))
    run(capsys, "import", str(good), "--db", str(db))
    code, out, err = run(capsys, "sittings", "--db", str(db), "--utc")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["id", "variant", "started", "(UTC)", "ended", "(UTC)",
                                "hands", "score", "state", "source", "event", "players"]
    assert lines[2].split() == ["=evil()", "42", "2025-03-01", "19:00", "1",
                                "0-1", "in", "progress", "import", "Ann,", "Bob,", "Cy,", "Di"]
    code, out, err = run(capsys, "sittings", "--json", "--db", str(db))
    d = json.loads(out)
    assert d["id"] == "=evil()" and d["players"] == ["Ann", "Bob", "Cy", "Di"]
    assert d["score"] == [0, 1] and d["over"] is False and d["source"] == "import"
