"""What the PC refuses and guards: options of the wrong type, a Skarney Gin gin without
its contract, times that are not ISO 8601 or out of order (and the order of sittings by
instant), repeated and invisible names, formula cells in every CSV, the gin pads' names
and options for a scorer, and import of a folder."""
import json

import pytest

from clihelp import run
from engine_core.texas42 import options as O
from host_tools.commands import pushcheck as PC
from host_tools.commands import sync as S
from host_tools.commands.common import CommandError
from host_tools.log import sittinglog as L
from host_tools.log.lines import LogError
from host_tools.log.text import csv_cell
from host_tools.store import db as D
from eventlogs import random_log

HEAD = {"type": "sitting", "variant": "42", "players": ["Ann", "Bob", "Cy", "Di"]}


def _log(head, *lines, meta=None):
    out = json.dumps(head) + "\n"
    if meta is not None:
        out += "#tally42 " + json.dumps(meta) + "\n"
    return (out + "".join(json.dumps(x) + "\n" for x in lines)).encode()


def _refusal(data):
    with pytest.raises(LogError) as e:
        L.replay(data)
    return e.value.message


@pytest.mark.parametrize("options", [[], 0, False, "", None, 7])
def test_options_of_the_wrong_type_are_refused_even_empty(options):
    for variant in ("42", "oklahoma-gin"):
        msg = _refusal(_log(dict(HEAD, variant=variant, options=options,
                                 players=HEAD["players"][:2] if "gin" in variant
                                 else HEAD["players"])))
        assert "options must be an object" in msg
        if options is not None:
            with pytest.raises(O.OptionError):
                O.resolve(variant, options)
    assert O.resolve("42", None).name == "42" and O.resolve("42", {}).name == "42"


def test_a_skarney_gin_without_its_contract_is_refused():
    head = {"type": "sitting", "variant": "skarney-gin", "players": ["Ann", "Bob"]}
    msg = _refusal(_log(head, {"type": "gin", "seat": 0, "opponent": 40}))
    assert "needs contract: true or false" in msg
    a = L.report(L.replay(_log(head, {"type": "gin", "seat": 0, "opponent": 40,
                                      "contract": True})))["hands"][0]["points"]
    b = L.report(L.replay(_log(head, {"type": "gin", "seat": 0, "opponent": 40,
                                      "contract": False})))["hands"][0]["points"]
    assert a != b       # the field decides the score: it cannot be left out


@pytest.mark.parametrize("when", ["yesterday", "2026-13-45T99:99:99", "2026-02-30",
                                  "2026-01-01T10:00:00+25:00", "20260101", "2026-01-01T10"])
def test_a_started_or_ended_that_is_no_iso_8601_time_is_refused(when):
    assert "started" in _refusal(_log(dict(HEAD, started=when)))
    assert "ended" in _refusal(_log(HEAD, meta={"ended": when}))


def test_an_end_before_the_start_is_refused_and_times_order_by_instant(tmp_path, capsys):
    assert "before started" in _refusal(_log(
        dict(HEAD, started="2026-03-07T20:00:00-06:00"),
        meta={"ended": "2026-03-08T01:59:00Z"}))    # 19:59 in Texas: a minute before
    L.replay(_log(dict(HEAD, started="2026-03-07T20:00:00-06:00"),
                  meta={"ended": "2026-03-08T02:01:00Z"}))
    # Stamped 22:42-06:00 (04:42Z the next day) it is after 04:29Z, though its text is
    # smaller: oldest first goes by the instant.
    db = str(tmp_path / "t.db")
    late = random_log(5, 0, 80, ["Ann", "Bob", "Cy", "Di"],
                      {"id": "late", "started": "2026-03-07T22:42:00-06:00"})
    early = random_log(6, 0, 80, ["Ann", "Bob", "Cy", "Di"],
                       {"id": "early", "started": "2026-03-08T04:29:00Z"})
    for i, text in enumerate((late, early)):
        (tmp_path / ("%d.jsonl" % i)).write_text(text)
    code, out, err = run(capsys, "import", str(tmp_path / "0.jsonl"),
                         str(tmp_path / "1.jsonl"), "--db", db)
    assert code == 0, err
    with D.open_db(db) as d:
        assert d.ids() == ["early", "late"]


def test_a_database_of_schema_4_gets_instants_and_a_stray_time_is_none(tmp_path):
    import sqlite3
    path = str(tmp_path / "old.db")
    conn = sqlite3.connect(path, isolation_level=None)
    D.migrate(conn, upto=4)
    for sid, started in (("a", "2026-03-07T22:42:00-06:00"), ("b", "2026-03-08T04:29:00Z"),
                         ("c", "yesterday")):
        conn.execute("INSERT INTO sittings (id, variant, options, dealer, started, source, "
                     "imported_at, updated_at, events, hands, over, score, log_hash, log) "
                     "VALUES (?, '42', '{}', 0, ?, 'import', '2026-01-01T00:00:00+00:00', "
                     "'2026-01-01T00:00:00+00:00', 0, 0, 0, '[0, 0]', '', '')",
                     (sid, started))
    conn.close()
    with D.open_db(path) as d:
        rows = dict(d.conn.execute("SELECT id, started_utc FROM sittings").fetchall())
        assert rows == {"a": "2026-03-08T04:42:00+00:00", "b": "2026-03-08T04:29:00+00:00",
                        "c": None}
        assert d.ids() == ["c", "b", "a"]   # no instant: when it was stored (earlier)


@pytest.mark.parametrize("name", ["An\u200bn", "\u202eAnn", "Ann\u2066", "\ufeffAnn",
                                  "A\u061cnn"])
def test_zero_width_and_bidi_characters_in_names_are_refused(name):
    players = [name, "Bob", "Cy", "Di"]
    assert "invisible or direction-changing" in _refusal(_log(dict(HEAD, players=players)))
    with pytest.raises(CommandError):
        S._names(",".join(players), "players")


def test_a_repeated_name_is_refused_in_a_log_and_in_sync():
    assert "named twice" in _refusal(_log(dict(HEAD, players=["Ann", "Ann", "Cy", "Di"])))
    assert "named twice" in _refusal(_log(dict(HEAD, players=["Ann", "Bob", "ann ", "Di"])))
    with pytest.raises(CommandError) as e:
        S._names("Ann,Ann,Cy,Di", "players")
    assert "named twice" in str(e.value)


def test_the_gin_pads_names_and_options_go_to_a_scorer():
    assert S._names("Ann,Bob", "players") == ["Ann", "Bob"]
    pairs = PC.settings_pairs(["variant=skarney-gin", "target=300", "box_bonus=25"])
    assert pairs == [("variant", "skarney-gin"), ("target", "300"), ("box_bonus", "25")]
    assert PC.settings_pairs(["spade_doubles=true"]) == [("spade_doubles", "true")]
    with pytest.raises(CommandError):
        PC.settings_pairs(["variant=oklahoma-gin", "nello=true"])
    with pytest.raises(CommandError):
        PC.settings_pairs(["variant=sequence-gin", "deal=nobody"])


def test_the_house_rules_go_to_a_scorer_checked_with_the_options_they_need():
    pairs = ["forced_min=31", "nello=true", "nello_min=30", "nello_by=forced_dealer"]
    assert PC.settings_pairs(pairs) == [tuple(p.split("=")) for p in pairs]
    gin = ["variant=oklahoma-gin", "knock_scores=difference", "gin_bonus=25",
           "undercut_bonus=25", "ace_turnup=gin"]
    assert PC.settings_pairs(gin) == [tuple(p.split("=")) for p in gin]
    assert PC.settings_pairs(["variant=moon", "min_bid=3"]) == [("variant", "moon"), ("min_bid", "3")]
    for bad, why in ((["nello_min=30"], "nello_min needs nello"),
                     (["nello=true", "nello_min=85"], "from 30 to 84"),
                     (["nello=true", "nello_by=dealer"], "one of any, forced_dealer"),
                     (["min_bid=32", "forced_min=31"], "from 32 to 41"),
                     (["forced_min=42"], "from 30 to 41"),
                     (["variant=skarney-gin", "knock_scores=difference"], "does not apply"),
                     (["gin_bonus=30"], "from 20 to 25"),
                     (["variant=moon", "min_bid=6"], "from 3 to 5"),
                     (["variant=partnership-moon", "min_bid=3"], "does not apply")):
        with pytest.raises(CommandError) as e:
            PC.settings_pairs(bad)
        assert why in str(e.value), (bad, str(e.value))


def test_every_csv_cell_that_a_spreadsheet_would_run_is_guarded():
    for cell in ("=T1", "+1", "-A1", "@SUM(A1)", "\tx", "\rx"):
        assert csv_cell(cell) == "'" + cell
    assert csv_cell("Ann") == "Ann" and csv_cell(-3) == -3


def test_the_events_standings_csv_is_guarded(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    code, out, err = run(capsys, "event", "create", "Tue", "--format", "round-robin",
                         "--team", "=T1: a, b", "--team", "B: c, d", "--db", db)
    assert code == 0, err
    code, out, err = run(capsys, "event", "standings", "Tue", "--format", "csv", "--db", db)
    assert code == 0, err
    assert "'=T1" in out and "\n=T1" not in out and ",=T1" not in out


def test_a_backup_folder_comes_back_with_one_import(tmp_path, capsys):
    db = str(tmp_path / "a.db")
    for i in range(3):
        (tmp_path / ("%d.jsonl" % i)).write_text(random_log(20 + i, 0, 60))
    code, out, err = run(capsys, "import", *[str(tmp_path / ("%d.jsonl" % i))
                                             for i in range(3)], "--db", db)
    assert code == 0, err
    code, out, err = run(capsys, "export", "--all", "--out", str(tmp_path / "backup") + "/",
                         "--db", db)
    assert code == 0, err
    other = str(tmp_path / "b.db")
    code, out, err = run(capsys, "import", str(tmp_path / "backup"), "--db", other)
    assert code == 0, err
    with D.open_db(db) as a, D.open_db(other) as b:
        assert sorted(a.ids()) == sorted(b.ids()) and len(a.ids()) == 3
    (tmp_path / "empty").mkdir()
    code, out, err = run(capsys, "import", str(tmp_path / "empty"), "--db", other)
    assert code == 2 and "no sitting logs" in err


def test_small_things_of_the_command_line(tmp_path, capsys):
    code, out, err = run(capsys, "import", str(tmp_path / "missing.jsonl"), "--db",
                         str(tmp_path / "t.db"))
    assert code == 2 and err.startswith("tally42: ")
    code, out, err = run(capsys, "devices", "--port", "/dev/null")
    assert code == 2 and out == "" and err.startswith("tally42: /dev/null: no scorer")
    for cmd in (["import"], ["export"], ["stats"], ["sittings"], ["deploy"],
                ["event", "list"], ["event", "standings"], ["event", "next"]):
        with pytest.raises(SystemExit):
            run(capsys, *(cmd + ["--help"]))
        out = capsys.readouterr().out
        usage, _, rest = out.partition("\n\n")
        assert rest.strip() and not rest.lstrip().startswith(("positional", "options")), cmd
    with pytest.raises(SystemExit):
        run(capsys, "export", "--help")
    assert "(--sitting ID | --all)" in capsys.readouterr().out
