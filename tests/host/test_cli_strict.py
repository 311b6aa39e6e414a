"""Strict input everywhere: duplicate keys, control characters in names (refused coming
in, escaped going out), long lines, the database opened read-only by reading commands,
delete and rename, numbers on the command line, and the command line's own errors."""
import io
import json
import sqlite3
import sys

from clihelp import run
from host_tools.store import db as D
from host_tools.store import schema as SC

HEADER = '{"type": "sitting", "variant": "42", %s"players": ["Ann", "Bob", "Cy", "Di"]}\n'
HAND = ('{"type": "bid", "bid": 30}\n{"type": "bid", "bid": "pass"}\n'
        '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": "pass"}\n'
        '{"type": "trump", "trump": 5}\n{"type": "result", "made": true}\n')


def log(tmp_path, text, name="s.jsonl"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_key_given_twice_is_refused_with_its_line(tmp_path, capsys):
    path = log(tmp_path, HEADER % "" + '{"type": "bid", "bid": 30, "bid": 35}\n')
    code, out, err = run(capsys, "replay", path)
    assert code == 2 and out == ""
    assert err == '%s:2: field "bid" given twice\n' % path
    path = log(tmp_path, '{"type": "sitting", "variant": "42", "variant": "moon"}\n')
    code, out, err = run(capsys, "import", path, "--db", str(tmp_path / "t.db"))
    assert code == 2 and err == '%s:1: field "variant" given twice\n' % path


def test_control_characters_in_names_are_refused_on_import(tmp_path, capsys):
    text = HEADER.replace('"Bob"', '"B\\u001b[2Job"') % "" + HAND
    for command in (["replay"], ["import", "--db", str(tmp_path / "t.db")]):
        code, out, err = run(capsys, command[0], log(tmp_path, text), *command[1:])
        assert code == 2 and "\x1b" not in out + err
        assert 's.jsonl:1: players: name B\\x1b[2Job has a control character' in err
    # A lone surrogate (not Unicode) is refused the same way, not a traceback.
    code, out, err = run(capsys, "replay", log(tmp_path, HEADER.replace('"Bob"', '"\\ud800"')
                                                % ""))
    assert code == 2 and "s.jsonl:1: a string with a lone surrogate" in err


def test_names_stored_before_are_escaped_on_output(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    assert run(capsys, "import", log(tmp_path, HEADER % '"id": "x", ' + HAND),
               "--db", db)[0] == 0
    # As stored by an older tally42, which took any name.
    conn = sqlite3.connect(db)
    conn.execute("UPDATE seats SET name = 'B\x1b[2Job' WHERE seat = 1")
    conn.execute("UPDATE sittings SET players = ?", (json.dumps(
        ["Ann", "B\x1b[2Job", "Cy", "Di"], ensure_ascii=False),))
    conn.commit()
    conn.close()
    for argv in (["sittings"], ["sittings", "--json"], ["stats"], ["stats", "--player", "b"],
                 ["stats", "--player", "B\x1b[2Job"]):
        code, out, err = run(capsys, *argv, "--db", db)
        assert "\x1b" not in out + err, argv
        assert "B\\x1b[2Job" in out or "B\\u001b[2Job" in out or "B\\x1b[2Job" in err, argv


def test_long_lines_are_refused_and_comments_are_not_stored(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    big = "#" + "x" * (10 << 20) + "\n"
    code, out, err = run(capsys, "import", log(tmp_path, big + HEADER % "" + HAND), "--db", db)
    assert code == 2 and err.startswith("%s:1: line of 10485761 bytes" % (tmp_path / "s.jsonl"))
    padded = "# Friday\n\n" + (HEADER % '"id": "p", ').replace(", ", ",    ") + "\n" * 50 + HAND
    assert run(capsys, "import", log(tmp_path, padded), "--db", db)[0] == 0
    with D.open_db(db, readonly=True) as database:
        stored = database.log("p")
    assert "#" not in stored and "\n\n" not in stored and ",    " not in stored
    assert len(stored.splitlines()) == 7


def test_reading_commands_open_the_database_read_only(tmp_path, capsys):
    # An older tally42's database (schema 1, no application id) is ours: upgraded once.
    db = tmp_path / "old.db"
    conn = sqlite3.connect(str(db))
    SC.MIGRATIONS[0](conn)
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    code, out, err = run(capsys, "sittings", "--db", str(db))
    assert code == 0 and out == "No sittings stored yet.\n"
    conn = sqlite3.connect(str(db))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == D.SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == SC.APPLICATION_ID
    conn.close()
    # A read-only open writes nothing, not even to a database of ours.
    with D.open_db(str(db), readonly=True) as database:
        try:
            database.conn.execute("CREATE TABLE x (y)")
            raise AssertionError("wrote through a read-only open")
        except sqlite3.OperationalError as e:
            assert "readonly" in str(e)
    code, out, err = run(capsys, "stats", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no database at" in err and not (tmp_path / "none.db").exists()


def test_delete_and_rename(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    run(capsys, "import", log(tmp_path, HEADER % '"id": "a", ' + HAND, "a.jsonl"),
        log(tmp_path, HEADER % '"id": "b", ' + HAND + HAND, "b.jsonl"), "--db", db)
    assert run(capsys, "rename", "a", "friday-1", "--db", db) == (
        0, "renamed sitting a to friday-1\n", "")
    code, out, err = run(capsys, "export", "--sitting", "friday-1", "--db", db)
    assert code == 0 and json.loads(out.splitlines()[0])["id"] == "friday-1"
    code, out, err = run(capsys, "rename", "b", "friday-1", "--db", db)
    assert code == 2 and err == "tally42: friday-1 is taken: there is a sitting of that id " \
                                "in %s\n" % db
    code, out, err = run(capsys, "rename", "b", "x\x1by", "--db", db)
    assert code == 2 and "1 to 100 characters" in err and "\x1b" not in err
    assert run(capsys, "delete", "b", "--db", db) == (0, "deleted sitting b\n", "")
    code, out, err = run(capsys, "delete", "b", "--db", db)
    assert code == 2 and err.startswith("tally42: no sitting b in ")
    code, out, err = run(capsys, "sittings", "--json", "--db", db)
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["friday-1"]
    with D.open_db(db, readonly=True) as database:
        assert database.conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 1


def test_replay_reads_standard_input(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((HEADER % "" + HAND)
                                                                  .encode())))
    code, out, err = run(capsys, "replay", "-", "--json")
    assert code == 0 and json.loads(out)["score"] == [0, 1]


def test_numbers_on_the_command_line_are_checked(capsys):
    for argv in (["sync", "--timeout", "0"], ["sync", "--timeout", "-1"],
                 ["sync", "--timeout", "nan"], ["sync", "--wait", "0"],
                 ["sync", "--wait", "inf"], ["sync", "--baud", "0"],
                 ["devices", "--timeout", "0"], ["devices", "--baud", "x"]):
        code, out, err = run(capsys, *argv, "--port", "loop://")
        assert code == 2 and out == "", argv
        assert err.startswith("tally42: %s: argument %s: " % (argv[0], argv[1])), err
        assert "must be a number from" in err and "--help" in err


def test_usage_errors_and_version_speak_as_tally42(capsys):
    code, out, err = run(capsys, "export", "--format", "pdf")
    assert code == 2 and err.startswith("tally42: export: argument --format: invalid choice")
    code, out, err = run(capsys)
    assert code == 2 and err.startswith("tally42: the following arguments are required")
    try:
        run(capsys, "--version")
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    assert out.startswith("tally42 ") and out.strip() != "tally42"
    help_text = run(capsys, "stats", "--db", "x", "--player")[2]
    assert "tally42: stats:" in help_text


def test_trick_counts_and_field_names_read_well(tmp_path, capsys):
    text = HEADER % "" + HAND.replace('{"type": "result", "made": true}\n',
                                      '{"type": "trick", "winner": 0, "count": -5}\n')
    code, out, err = run(capsys, "replay", log(tmp_path, text))
    assert code == 2 and "count -5 is not a trick's count" in err
    code, out, err = run(capsys, "replay", log(tmp_path, HEADER % "" + '{"type": "undo", '
                                               '"x": 1}\n'))
    assert code == 2 and 'unknown field "x" in an undo event' in err


def test_a_long_list_of_ids_is_summarised():
    from host_tools.commands.sync import _summary
    ids = ["T42-A-%d" % i for i in range(1, 13)]
    assert _summary(ids) == "T42-A-1, T42-A-2, T42-A-3, T42-A-4 and 8 more"
    assert _summary(ids[:5]) == ", ".join(ids[:5])


def test_the_scoresheet_stays_aligned_past_hand_9(tmp_path, capsys):
    code, out, err = run(capsys, "replay", log(tmp_path, HEADER % "" + HAND * 10))
    assert code == 0, err
    lines = out.splitlines()
    heads = [ln for ln in lines if ln.startswith("Hand")]
    assert heads[0].startswith("Hand  1  dealer") and heads[9].startswith("Hand 10  dealer")
    assert len({ln.index("dealer") for ln in heads}) == 1
    # Each result line starts under the dealer's "d", after "Hand NN  ".
    results = [ln for ln in lines if " bid 30, contract 5" in ln]
    assert len(results) == 10
    assert all(ln.startswith(" " * 9) and ln[9] != " " for ln in results)
