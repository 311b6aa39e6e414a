"""The whole way: a sitting played through the sim's buttons reaches the database with
`tally42 sync` over the sim's serial port, exports in every format, and replays to the
score played."""
import json
import os
import re
import subprocess
import sys
import time

import pytest

import syncrig as R
from engine_core.texas42 import options as O

# Run again on the 32-bit MicroPython build by `make test` (TALLY42_MICROPYTHON).
pytestmark = pytest.mark.mp32

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TALLY = [sys.executable, "-m", "host_tools"]


def _script(path):
    # Setup with the defaults (42, marks to 7), then seven hands of one bid of 30 and
    # three passes: the first bidder's team makes it on even hands and is set on odd
    # ones, so team 1 (E and W) takes every mark: 7-0 after seven hands.
    lines = ["ok"]
    for h in range(7):
        hand = ["next", "long ok", "ok"]       # on the score: 30, the rest pass; trump
        lines += hand + (["prev"] if h % 2 == 0 else ["next"])     # < made, or > set
    path.write_text("\n".join(lines) + "\n")


def _run(*args):
    return subprocess.run(TALLY + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def _pushed_setup(flash):
    # The scorer's settings file (firmware/settings.py): magic, version, tracker, header
    # length, the next sitting's header (engine_core.codec), CRC-32.
    from engine_core.header import decode_header
    data = open(str(flash) + ".settings", "rb").read()
    assert data[:4] == b"T42S"
    n = data[6]
    return decode_header(data[7:7 + n])


Sim = R.HeldSim     # tally42 sim --hold, its pipes read (tests/kit/syncrig.py)


@pytest.fixture
def held_sim(tmp_path):
    script = tmp_path / "sitting.txt"
    _script(script)
    sim = Sim(script, tmp_path / "flash.bin")
    yield sim.port
    sim.stop()


def _stored_id(out):
    m = re.search(r"stored sitting (T42-SIM-[0-9A-F]{8}) ", out)
    assert m, out
    return m.group(1)


def test_a_sitting_played_in_the_sim_syncs_exports_and_replays(tmp_path, held_sim):
    db = str(tmp_path / "t.db")
    first = _run("sync", "--port", held_sim, "--db", db, "--wait", "30")
    assert first.returncode == 0, first.stderr
    sid = _stored_id(first.stdout)
    again = _run("sync", "--port", held_sim, "--db", db)
    assert again.returncode == 0, again.stderr
    assert "nothing new" in again.stdout
    log = tmp_path / "s.jsonl"
    out = _run("export", "--db", db, "--sitting", sid, "--format", "jsonl",
               "--out", str(log))
    assert out.returncode == 0, out.stderr
    report = _run("replay", str(log), "--json")
    assert report.returncode == 0, report.stderr
    r = json.loads(report.stdout)
    assert r["score"] == [0, 7] and r["over"] and r["winner"] == 1
    assert len(r["hands"]) == 7
    csv = _run("export", "--db", db, "--sitting", sid, "--format", "csv")
    assert csv.returncode == 0 and len(csv.stdout.strip().splitlines()) == 8
    text = _run("export", "--db", db, "--sitting", sid, "--format", "text")
    assert text.returncode == 0 and "Hand 7" in text.stdout


def test_garbage_on_the_line_leaves_the_scorer_scoring_and_syncing(tmp_path, held_sim):
    import serial
    link = serial.serial_for_url(held_sim, timeout=0.2)
    link.write(b"\x00\xff\x03garbage\r\n#T42 not a request\n" + bytes(range(256)))
    link.flush()
    link.read(4096)     # whatever error frames it answered with
    link.close()
    db = str(tmp_path / "t.db")
    out = _run("sync", "--port", held_sim, "--db", db, "--wait", "30")
    assert out.returncode == 0, out.stderr
    _stored_id(out.stdout)


def test_names_and_house_options_pushed_by_the_pc_set_up_the_next_sitting(tmp_path, held_sim):
    db = str(tmp_path / "t.db")
    out = _run("sync", "--port", held_sim, "--db", db, "--wait", "30",
               "--players", "Ann,Bob,Cy,Di", "--set", "scoring=points", "--set", "target=300")
    assert out.returncode == 0, out.stderr
    # The scorer takes the house options once the session has closed: give it a moment.
    deadline = time.monotonic() + 10
    while True:
        rules, dealer, names = _pushed_setup(tmp_path / "flash.bin")
        if rules.target == 300 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert names == ["Ann", "Bob", "Cy", "Di"]
    assert O.to_dict(rules)["scoring"] == "points" and rules.target == 300


def _keys_of_the_script():
    # The sitting of _script() as keys: Enter is OK, Tab OK held, the right arrow NEXT.
    keys = b"\r"
    for h in range(7):
        keys += b"\x1b[C\t\r" + (b"\x1b[D" if h % 2 == 0 else b"\x1b[C")   # < made, > set
    return keys


def _pushed_names(flash):
    try:
        return _pushed_setup(flash)[2]
    except (OSError, ValueError, IndexError, AssertionError):
        return None     # not written yet, or being written


def _finished(flash):
    # A sitting ended in the sim's flash file, read as the PC reads an image (a copy:
    # the sim may be writing it meanwhile).
    from host_tools.log import image
    try:
        with open(str(flash), "rb") as f:
            whole, _ = image.scan(f.read())
    except (OSError, ValueError):
        return False
    return any(s[5] is not None for s in whole)


def _played_and_synced(tmp_path, name, db, players=None, assign=None):
    # A sim on a new flash file (a scorer with an empty journal): names (and a table
    # assignment) pushed first when given, the sitting of _script() played on the keys,
    # then a sync. The sync's stdout.
    script = tmp_path / "none.txt"
    script.write_text("# buttons come from the keys\n")
    sim = Sim(script, tmp_path / name, keys=True)
    try:
        if assign:
            out = _run("sync", "--port", sim.port, "--db", db, "--assign", assign,
                       "--players", players)
            assert out.returncode == 0, out.stderr
            assert "pushed: %s round " % assign.split(":")[0] in out.stdout
        elif players:
            out = _run("sync", "--port", sim.port, "--db", db, "--players", players)
            assert out.returncode == 0, out.stderr
            assert "players set on the scorer: %s" % players.replace(",", ", ") in out.stdout
        if assign or players:
            # The scorer takes what was pushed once the session has closed (its settings
            # file then holds the names): OK, and the sync screen steps aside for the setup.
            want = players.split(",")
            assert R.wait_for(lambda: _pushed_names(tmp_path / name) == want, 60)
            sim.keys(b"\r")
        sim.keys(_keys_of_the_script())
        # Played when the journal holds the sitting's END (written as the last hand
        # ends the game).
        assert R.wait_for(lambda: _finished(tmp_path / name), 60)
        out = _run("sync", "--port", sim.port, "--db", db, "--wait", "30")
        assert out.returncode == 0, out.stderr
        return out.stdout
    finally:
        sim.stop()


def test_names_pushed_from_the_pc_and_the_date_reach_the_database_and_stats(tmp_path):
    db = str(tmp_path / "t.db")
    out = _played_and_synced(tmp_path, "a.bin", db, "Ann,Bob,Cy,Dé")
    sid = _stored_id(out)
    rows = _run("sittings", "--db", db, "--json")
    assert rows.returncode == 0, rows.stderr
    row = json.loads(rows.stdout)
    assert row["id"] == sid and row["players"] == ["Ann", "Bob", "Cy", "Dé"]
    # Its date: the scorer's clock, set by the first sync, in this PC's time zone.
    import datetime
    started = datetime.datetime.fromisoformat(row["started"])
    now = datetime.datetime.now(datetime.timezone.utc)
    assert datetime.timedelta(0) <= now - started < datetime.timedelta(minutes=2), row
    # Its end: the scorer's END record, written when the last hand ended the game.
    ended = datetime.datetime.fromisoformat(row["ended"])
    assert started <= ended <= now and ended.utcoffset() == started.utcoffset(), row
    log = _run("export", "--db", db, "--sitting", sid)
    assert log.stdout.splitlines()[1] == '#tally42 {"ended": "%s"}' % row["ended"]
    stats = _run("stats", "--db", db, "--player", "Bob")
    assert stats.returncode == 0, stats.stderr
    assert "Bob" in stats.stdout and "1 sitting" in stats.stdout, stats.stdout
    listed = _run("sittings", "--db", db)
    assert started.strftime("%Y-%m-%d") in listed.stdout


def test_a_scorer_with_an_emptied_journal_syncs_beside_its_old_sittings(tmp_path):
    # The same scorer (T42-SIM) re-flashed: its journal numbers sittings from 1 again.
    db = str(tmp_path / "t.db")
    first = _stored_id(_played_and_synced(tmp_path, "a.bin", db))
    out = _played_and_synced(tmp_path, "b.bin", db)
    second = _stored_id(out)
    assert second != first and "conflict" not in out
    ids = _run("sittings", "--db", db, "--json").stdout.splitlines()
    assert sorted(json.loads(line)["id"] for line in ids) == sorted([first, second])
    # Played before any sync set its clock (each sim run stands for a power-on): its
    # times are the PC's clock at the sync, less what the scorer counted since.
    import datetime
    assert "times from this PC's clock: %s (" % second in out
    now = datetime.datetime.now(datetime.timezone.utc)
    for line in ids:
        row = json.loads(line)
        started = datetime.datetime.fromisoformat(row["started"])
        ended = datetime.datetime.fromisoformat(row["ended"])
        assert now - datetime.timedelta(minutes=5) < started <= ended <= now, row


def test_a_table_assignment_pushed_by_the_pc_comes_back_with_the_sitting(tmp_path):
    # An event's table: `sync --assign` pushes event, round, table, the players and the
    # game; the sitting played next carries them, and its sync stores them with its
    # start and end on the scorer's clock.
    import datetime
    db = str(tmp_path / "t.db")
    out = _played_and_synced(tmp_path, "a.bin", db, "Ann,Bob,Cy,Di", "Club night:2:3")
    sid = _stored_id(out)
    row = json.loads(_run("sittings", "--db", db, "--json").stdout)
    assert row["id"] == sid
    assert (row["event"], row["round"], row["table_no"]) == ("Club night", 2, 3)
    assert row["players"] == ["Ann", "Bob", "Cy", "Di"] and row["over"]
    started = datetime.datetime.fromisoformat(row["started"])
    ended = datetime.datetime.fromisoformat(row["ended"])
    now = datetime.datetime.now(datetime.timezone.utc)
    assert now - datetime.timedelta(minutes=2) < started <= ended <= now, row
    listed = _run("sittings", "--db", db).stdout
    assert "Club night R2 T3" in listed
    text = _run("export", "--db", db, "--sitting", sid, "--format", "text").stdout
    assert "Event: Club night, round 2, table 3" in text
