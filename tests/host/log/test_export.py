"""`tally42 export`: sitting logs that replay to the same report, CSV one row a hand (and
no formulas for a spreadsheet), the printable scoresheet, and a device flash image."""
import csv
import io
import json
import os
import time
import subprocess
import sys
import types

import pytest

from engine_core import codec
from engine_core.header import encode_header
from firmware.journal import Journal
from clihelp import run
from host_tools import cli
from host_tools.log import sittinglog as L
from host_tools.store import db as D
from host_tools.store import export as X
from host_tools.store import facts as F
from eventlogs import random_log, random_sitting
from randsit import SETUPS

MOON = ('{"type": "sitting", "variant": "moon", "id": "@SUM(A1:A9)", '
        '"players": ["=HYPERLINK(\\"http://x\\")", "+1", "-2"]}\n'
        '{"type": "bid", "bid": 4}\n{"type": "bid", "bid": 5}\n{"type": "bid", "bid": "pass"}\n'
        '{"type": "trump", "trump": 2}\n{"type": "result", "tricks": [1, 1, 5]}\n'
        '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": 4}\n'
        '{"type": "bid", "bid": "pass"}\n'
        '{"type": "trump", "trump": 1}\n{"type": "result", "tricks": [3, 2, 2]}\n')
REDEAL = ('{"type": "sitting", "variant": "42", "id": "r1", "options": {"all_pass": "redeal"}, '
          '"players": ["=Tab", "+CR", "Smith, \\"Jo\\"", "two, lines"], '
          '"started": "2025-06-01T18:00:00"}\n'
          '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": "pass"}\n'
          '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": "pass"}\n'
          '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": 30}\n'
          '{"type": "bid", "bid": "pass"}\n{"type": "bid", "bid": "pass"}\n'
          '{"type": "trump", "trump": "follow-me"}\n{"type": "result", "made": false}\n')




def stored(tmp_path, *texts):
    path = str(tmp_path / "t.db")
    ids = []
    with D.open_db(path) as database:
        for text in texts:
            ids.append(database.store(text).id)
    return path, ids


def replay_json(capsys, path):
    """What `tally42 replay PATH --json` says (it must accept the file)."""
    code = cli.main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def report(text):
    return L.report(L.replay(text.encode("utf-8")))


# ---- jsonl ----

def test_jsonl_of_one_sitting_is_its_log_normalised(tmp_path, capsys):
    text = random_log(3, 3, 120, ["Ann", "Bob", "Cy", "Dé"], {"id": "fri"})
    # Comments and blank lines are not kept (the database holds the sitting, not the file).
    db, _ = stored(tmp_path, "# Friday\n\n" + text.replace("\n", "\n   \n", 3))
    code, out, err = run(capsys, "export", "--sitting", "fri", "--db", db)
    assert code == 0 and err == ""
    assert out == text
    target = tmp_path / "fri.jsonl"
    code, out, err = run(capsys, "export", "--sitting", "fr", "--out", str(target), "--db", db)
    assert code == 0
    assert target.read_bytes() == text.encode("utf-8")
    assert replay_json(capsys, target) == report(text)


def test_jsonl_all_writes_one_replayable_file_a_sitting(tmp_path, capsys):
    texts = [random_log(40 + k, k, 150, None, {"id": "s/%d" % k} if k % 2 else None)
             for k in range(len(SETUPS))]
    db, ids = stored(tmp_path, *texts)
    code, out, err = run(capsys, "export", "--all", "--db", db)
    assert code == 2 and out == ""
    assert "with --all give --out DIR" in err
    folder = tmp_path / "logs"
    # A name that is no folder yet and does not end in /: refused, nothing made.
    code, out, err = run(capsys, "export", "--all", "--out", str(folder), "--db", db)
    assert code == 2 and "give an existing folder" in err and not folder.exists()
    code, out, err = run(capsys, "export", "--all", "--out", str(folder) + "/", "--db", db)
    assert code == 0
    written = out.splitlines()
    assert len(written) == len(texts) == len(os.listdir(folder))
    by_id = dict(zip(ids, texts))
    for path in written:
        text = open(path, encoding="utf-8").read()
        sid = L.replay(text.encode()).header.extra.get("id") or F.Facts(
            L.replay(text.encode())).id
        assert text == by_id[sid]
        assert replay_json(capsys, path) == report(by_id[sid])
    assert os.path.join(str(folder), "s_1.jsonl") in written     # "/" is not a path here


def test_file_names_are_safe_and_distinct():
    taken = set()
    names = []
    for sid in ("../etc/passwd", "a b", "A-B", "a_b", "..", "x" * 300, "COM1:"):
        name = X.file_name(sid, "jsonl", taken)
        taken.add(name.lower())
        names.append(name)
    assert names[0] == "_etc_passwd.jsonl"
    assert names[1] == "a_b.jsonl" and names[3] == "a_b-2.jsonl"
    assert names[4] == "sitting.jsonl" and len(names[5]) == 106
    assert names[6] == "COM1_.jsonl"
    assert all("/" not in n and not n.startswith(".") for n in names)


# ---- csv ----

def parse_csv(text):
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_csv_one_row_a_hand_with_running_scores(tmp_path, capsys):
    texts = [random_log(50 + k, k, 200, ["A%d" % i for i in range(6)], {"id": "c%02d" % k})
             for k in range(len(SETUPS))]
    db, ids = stored(tmp_path, *texts)
    code, out, err = run(capsys, "export", "--all", "--format", "csv", "--db", db)
    assert code == 0
    assert out.startswith(",".join(X.CSV_COLUMNS) + "\r\n")
    rows = parse_csv(out)
    for sid, text in zip(ids, texts):
        rp = L.replay(text.encode())
        r = L.report(rp)
        mine = [row for row in rows if row["sitting"] == sid]
        assert len(mine) == len(r["hands"])
        assert [int(row["hand"]) for row in mine] == list(range(1, len(mine) + 1))
        sides = len(r["score"])
        running = [0] * sides
        for row, hand in zip(mine, r["hands"]):
            assert row["variant"] == r["variant"]
            assert row["dealer"] == "A%d" % hand["dealer"]
            if hand.get("thrown_in"):
                assert row["thrown_in"] == "yes" and row["bidder"] == ""
                continue
            assert row["bidder"] == "A%d" % hand["bidder"]
            assert row["bid"] == str(hand["bid"])
            assert row["contract"] == str(hand["contract"])
            assert row["made"] == ("yes" if hand["made"] else "no")
            for i in range(sides):
                running[i] += hand["award"][i]
                assert row["award%d" % (i + 1)] == str(hand["award"][i])
            if r["variant"] != "partnership-moon":
                assert [int(row["score%d" % (i + 1)]) for i in range(sides)] == running
            if sides == 2:
                assert row["side3"] == row["award3"] == row["score3"] == ""
        if mine and r["variant"] != "partnership-moon":
            assert running == r["score"]


def test_csv_cells_cannot_be_formulas(tmp_path, capsys):
    db, _ = stored(tmp_path, MOON, REDEAL)
    code, out, err = run(capsys, "export", "--all", "--format", "csv", "--db", db)
    assert code == 0
    rows = parse_csv(out)
    moon = [r for r in rows if r["variant"] == "moon"]
    assert [r["sitting"] for r in moon] == ["'@SUM(A1:A9)"] * 2
    assert moon[0]["dealer"] == "'=HYPERLINK(\"http://x\")"
    assert moon[0]["bidder"] == "'-2" and moon[1]["bidder"] == "'=HYPERLINK(\"http://x\")"
    assert (moon[0]["side1"], moon[0]["side2"], moon[0]["side3"]) == (
        "'=HYPERLINK(\"http://x\")", "'+1", "'-2")
    # The tool's own numbers stay numbers, negative ones included.
    assert (moon[1]["award1"], moon[1]["award2"], moon[1]["award3"]) == ("-4", "2", "2")
    assert (moon[1]["score1"], moon[1]["score2"], moon[1]["score3"]) == ("-3", "3", "7")
    redeal = [r for r in rows if r["variant"] == "42"]
    assert redeal[0]["thrown_in"] == "yes" and redeal[0]["dealer"] == "'=Tab"
    assert redeal[0]["started"] == "2025-06-01T18:00:00"
    assert redeal[1]["dealer"] == "'+CR" and redeal[1]["bidder"] == "two, lines"
    assert redeal[1]["side1"] == "'=Tab/Smith, \"Jo\""
    assert redeal[1]["side2"] == "'+CR/two, lines"
    assert redeal[1]["made"] == "no" and redeal[1]["award1"] == "1"
    for row in rows:
        for cell in row.values():
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), row
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), row


def test_neutralise():
    assert [X.neutralise(c) for c in ("=1+1", "+1", "-1", "@A", "\tx", "\rx", "Ann", "", 7,
                                       -3)] == ["'=1+1", "'+1", "'-1", "'@A", "'\tx", "'\rx",
                                                "Ann", "", 7, -3]


def test_csv_file_for_spreadsheets(tmp_path, capsys):
    db, _ = stored(tmp_path, REDEAL)
    target = tmp_path / "hands.csv"
    code, out, err = run(capsys, "export", "--sitting", "r1", "--format", "csv",
                         "--out", str(target), "--db", db)
    assert code == 0
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfsitting,variant,")
    rows = parse_csv(data.decode("utf-8-sig"))
    assert len(rows) == 2 and rows[1]["bidder"] == "two, lines"


# ---- text ----

def test_text_is_the_scoresheet(tmp_path, capsys):
    texts = [random_log(60, 0, 120, ["Ann", "Bob", "Cy", "Di"], {"id": "t1"}), MOON]
    db, ids = stored(tmp_path, *texts)
    code, out, err = run(capsys, "export", "--sitting", "t1", "--format", "text", "--db", db)
    assert code == 0
    assert out == L.scoresheet(L.replay(texts[0].encode()))
    assert "Ann" in out and "Score: Ann/Cy" in out
    code, out, err = run(capsys, "export", "--all", "--format", "text", "--db", db)
    sheets = [L.scoresheet(L.replay(t.encode())) for t in texts]
    assert out == sheets[0] + "\n" + "-" * 72 + "\n\n" + sheets[1]
    folder = tmp_path / "sheets"
    folder.mkdir()
    code, out, err = run(capsys, "export", "--all", "--format", "text", "--out", str(folder),
                         "--db", db)
    assert sorted(os.listdir(folder)) == ["_SUM_A1_A9_.txt", "t1.txt"]
    assert (folder / "t1.txt").read_text() == sheets[0]


# ---- choosing what to export ----

def test_export_needs_a_choice_and_a_known_sitting(tmp_path, capsys):
    db, _ = stored(tmp_path, MOON)
    code, out, err = run(capsys, "export", "--db", db)
    assert code == 2 and err.startswith("tally42: export: one of the arguments --sitting "
                                        "--all is required")
    code, out, err = run(capsys, "export", "--sitting", "zzz", "--db", db)
    assert code == 2 and err == "tally42: no sitting zzz in %s\n" % db
    code, out, err = run(capsys, "export", "--all", "--format", "csv",
                         "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no database at" in err
    assert not (tmp_path / "none.db").exists()


# ---- a device flash image ----

def test_from_image_needs_the_image_module(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "host_tools.log.image", None)
    code, out, err = run(capsys, "export", "--all", "--from-image", str(tmp_path / "f.bin"),
                         "--format", "csv")
    assert code == 2 and out == ""
    assert err == "tally42: --from-image needs host_tools.log.image\n"


def _fake_image(monkeypatch, sittings):
    fake = types.ModuleType("host_tools.log.image")
    fake.read_image_report = lambda path: (
        [(sid, L.log_lines(h, ev)) for sid, h, ev in sittings], [])
    monkeypatch.setitem(sys.modules, "host_tools.log.image", fake)


def test_from_image_exports_the_device_sittings(tmp_path, capsys, monkeypatch):
    h1, e1 = random_sitting(70, 0, 150, ["Ann", "Bob", "Cy", "Di"])
    h2, e2 = random_sitting(71, 6, 150, ["Ann", "Bob", "Cy"])
    _fake_image(monkeypatch, [(1, h1, e1), (2, h2, e2)])
    folder = tmp_path / "dev"
    code, out, err = run(capsys, "export", "--all", "--from-image", "flash.bin",
                         "--out", str(folder) + "/")
    assert code == 0, err
    assert out.splitlines() == [str(folder / "1.jsonl"), str(folder / "2.jsonl")]
    one = replay_json(capsys, folder / "1.jsonl")
    expected = L.report(L.Replay(h1, None, [(0, ev) for ev in e1]))
    expected["id"] = "1"
    assert one == expected
    assert open(folder / "1.jsonl").readline().startswith(
        '{"type": "sitting", "variant": "42", "id": "1", ')
    code, out, err = run(capsys, "export", "--sitting", "2", "--from-image", "flash.bin",
                         "--format", "csv")
    assert code == 0
    assert {r["sitting"] for r in parse_csv(out)} == {"2"}
    code, out, err = run(capsys, "export", "--sitting", "9", "--from-image", "flash.bin")
    assert code == 2 and "no sitting 9 (it has 1, 2)" in err


def test_from_image_reads_a_real_flash_image(tmp_path, capsys):
    image = pytest.importorskip("host_tools.log.image")
    header, events = random_sitting(72, 0, 120, ["Ann", "Bob", "Cy", "Di"])
    flash = image.RamFlash(b"\xff" * (8 * image.BLOCK_SIZE))
    journal = Journal(flash)
    journal.mount()
    journal.begin_sitting(encode_header(header.rules, header.dealer, header.players))
    buf = bytearray(8)
    for ev in events:
        n = codec.encode_into(ev, buf, 0)
        journal.append(bytes(buf[:n]))
    journal.finish()
    path = tmp_path / "flash.bin"
    path.write_bytes(bytes(flash.mem))
    code, out, err = run(capsys, "export", "--all", "--from-image", str(path),
                         "--out", str(tmp_path / "out") + "/")
    assert code == 0, err
    [written] = out.splitlines()
    got = replay_json(capsys, written)
    want = L.report(L.Replay(header, None, [(0, ev) for ev in events]))
    del got["id"]
    assert got == want
    # Run from another folder, as a user would: the journal code still loads (the
    # firmware is a package of the install).
    other = tmp_path / "elsewhere"
    other.mkdir()
    done = subprocess.run([sys.executable, "-m", "host_tools", "export", "--all",
                           "--from-image", str(path), "--out", str(other / "out") + "/"],
                          cwd=str(other), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert len(os.listdir(str(other / "out"))) == 1


# ---- the end time and the event: the #tally42 line, through every format ----

CLUB = REDEAL.replace('"id": "r1"', '"id": "club-1"').replace(
    '"started": "2025-06-01T18:00:00"}\n',
    '"started": "2025-06-01T18:00:00-05:00"}\n'
    '#tally42 {"ended": "2025-06-01T19:25:30-05:00", "event": "Club night", '
    '"round": 2, "table": 3}\n', 1)


def test_end_and_event_travel_through_export_and_import(tmp_path, capsys):
    assert CLUB != REDEAL
    db, ids = stored(tmp_path, CLUB)
    # jsonl: the log keeps the #tally42 line, replay (the spec) ignores it, import
    # reads it back into another database.
    code, out, err = run(capsys, "export", "--sitting", "club", "--db", db)
    assert code == 0 and out.splitlines()[1].startswith("#tally42 {")
    path = tmp_path / "club.jsonl"
    path.write_text(out)
    assert replay_json(capsys, path)["id"] == "club-1"
    other = str(tmp_path / "other.db")
    code, _, err = run(capsys, "import", str(path), "--db", other)
    assert code == 0, err
    with D.open_db(other) as database:
        row = database.sitting("club-1")
        assert (row["ended"], row["event"], row["round"], row["table_no"]) == (
            "2025-06-01T19:25:30-05:00", "Club night", 2, 3)
    # csv: columns for each.
    code, out, err = run(capsys, "export", "--all", "--format", "csv", "--db", db)
    rows = parse_csv(out)
    assert rows and all(r["ended"] == "2025-06-01T19:25:30-05:00" and
                        r["event"] == "Club night" and r["round"] == "2" and
                        r["table"] == "3" for r in rows)
    # text: the scoresheet says it.
    code, out, err = run(capsys, "export", "--sitting", "club", "--format", "text",
                         "--db", db)
    assert "Event: Club night, round 2, table 3" in out
    # Its times in the PC's zone, named (as `sittings` shows them), or UTC with --utc.
    code, out, err = run(capsys, "export", "--sitting", "club", "--format", "text",
                         "--utc", "--db", db)
    assert "Ended: 2025-06-02 00:25 UTC" in out, out
    import time
    old = os.environ.get("TZ")
    os.environ["TZ"] = "Europe/Berlin"
    time.tzset()
    try:
        code, out, err = run(capsys, "export", "--sitting", "club", "--format", "text",
                             "--db", db)
    finally:
        if old is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = old
        time.tzset()
    assert "Ended: 2025-06-02 02:25 CEST" in out, out


def test_sittings_and_stats_show_the_end_and_the_event(tmp_path, capsys, monkeypatch):
    db, ids = stored(tmp_path, CLUB, REDEAL)
    # (the times in the PC's zone, -05:00 as the log's in June)
    monkeypatch.setenv("TZ", "America/Chicago")
    time.tzset()
    try:
        code, out, err = run(capsys, "sittings", "--db", db)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert code == 0
    line = [x for x in out.splitlines() if x.startswith("club-1")][0]
    assert "2025-06-01 18:00" in line and "19:25" in line and "Club night R2 T3" in line
    r1 = [x for x in out.splitlines() if x.startswith("r1 ")][0]
    assert "Club night" not in r1 and "19:25" not in r1
    code, out, err = run(capsys, "sittings", "--json", "--db", db)
    got = {d["id"]: d for d in map(json.loads, out.splitlines())}
    assert got["club-1"]["ended"] == "2025-06-01T19:25:30-05:00"
    assert got["club-1"]["table_no"] == 3 and got["r1"]["ended"] is None
    code, out, err = run(capsys, "stats", "--player", "+CR", "--db", db)
    assert code == 0, err
    # 18:00 to 19:25:30 is 85 minutes; the other sitting has no end.
    assert "Time at the table: 1 h 25 min (1 sitting with a start and an end)" in out
    assert "Event Club night: round 2 table 3" in out


def test_from_image_keeps_the_end_time_and_the_table(tmp_path, capsys):
    # A journal whose sitting carries a table assignment and an END record: the export
    # of the image has both on its #tally42 line, and the events stay the events.
    image = pytest.importorskip("host_tools.log.image")
    header, events = random_sitting(73, 0, 120, ["Ann", "Bob", "Cy", "Di"])
    flash = image.RamFlash(b"\xff" * (8 * image.BLOCK_SIZE))
    journal = Journal(flash)
    journal.mount()
    journal.begin_sitting(encode_header(header.rules, header.dealer, header.players,
                                              7, 100000, 60, ("Cup", 4, 12)))
    buf = bytearray(8)
    for ev in events:
        n = codec.encode_into(ev, buf, 0)
        journal.append(bytes(buf[:n]))
    assert journal.end(103600, 60)
    journal.finish()
    path = tmp_path / "flash.bin"
    path.write_bytes(bytes(flash.mem))
    # (the sitting's random id, 7, the end of the id sync stores it by)
    code, out, err = run(capsys, "export", "--sitting", "00000007", "--from-image", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert json.loads(lines[1][len("#tally42 "):]) == {
        "ended": "2024-01-02T05:46:40+01:00", "event": "Cup", "round": 4, "table": 12}
    got = L.replay(out.encode())
    assert [ev for _, ev in got.events] == events
    assert got.header.extra["started"] == "2024-01-02T04:46:40+01:00"


def test_replay_and_import_agree_on_the_tally42_line(tmp_path, capsys):
    # The #tally42 line is tally42's own (a reader of the spec alone skips it as a
    # comment): a good one shows on the scoresheet; what import refuses in it, replay
    # refuses too, naming the same line.
    path = tmp_path / "bad.jsonl"
    path.write_text(CLUB.replace('"round": 2', '"round": 0'))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == "" and err.startswith("%s:2: " % path), err
    code, _, err2 = run(capsys, "import", str(path), "--db", str(tmp_path / "t.db"))
    assert code == 2 and err2 == err
    good = tmp_path / "good.jsonl"
    good.write_text(CLUB)
    code, out, err = run(capsys, "replay", str(good))
    assert code == 0 and "Event: Club night, round 2, table 3" in out
    second = tmp_path / "second.jsonl"
    second.write_text(CLUB + "#tally42 {\"venue\": 1}\n")
    code, _, err = run(capsys, "replay", str(second))
    assert code == 2 and "second.jsonl:13: a second #tally42 line" in err
    code, _, err = run(capsys, "import", str(second), "--db", str(tmp_path / "t.db"))
    assert code == 2 and "second.jsonl:13: a second #tally42 line" in err


def test_an_end_before_the_start_is_refused_by_replay_and_import_alike(tmp_path, capsys):
    path = tmp_path / "early.jsonl"
    path.write_text(CLUB.replace('"ended": "2025-06-01T19:25:30-05:00"',
                                 '"ended": "2025-06-01T17:25:30-05:00"'))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == "" and "is before started" in err, err
    assert err.startswith("%s:2: " % path)
    code, _, err2 = run(capsys, "import", str(path), "--db", str(tmp_path / "t.db"))
    assert code == 2 and err2 == err
    with D.open_db(str(tmp_path / "t.db")) as database:
        assert database.sitting("club-1") is None

