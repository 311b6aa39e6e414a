"""The gin pads on the PC: import, sittings, the CSV export's columns and the per-player
gin figures of `tally42 stats`."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TALLY = [sys.executable, "-m", "host_tools"]
LOG = os.path.join(ROOT, "tests", "logs", "spec_gin_sitting.jsonl")


def _run(*args):
    return subprocess.run(TALLY + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def _db(tmp_path):
    db = str(tmp_path / "t.db")
    won = tmp_path / "won.jsonl"
    won.write_text(
        '{"type": "sitting", "variant": "skarney-gin", "players": ["Bob", "Cy"],'
        ' "options": {"target": 50}}\n'
        '{"type": "gin", "seat": 0, "opponent": 40, "contract": false}\n')
    out = _run("import", "--db", db, LOG, str(won))
    assert out.returncode == 0, out.stderr
    return db


def test_import_lists_gin_sittings(tmp_path):
    db = _db(tmp_path)
    out = _run("sittings", "--db", db)
    assert out.returncode == 0
    assert "oklahoma-gin" in out.stdout and "0-47" in out.stdout
    assert "skarney-gin" in out.stdout and "80-0" in out.stdout


def test_csv_export_of_a_gin_sitting(tmp_path):
    db = _db(tmp_path)
    out = _run("export", "--db", db, "--all", "--format", "csv")
    assert out.returncode == 0, out.stderr
    rows = [r.split(",") for r in out.stdout.strip().splitlines()]
    head = rows[0]
    knock = dict(zip(head, [r for r in rows if r[1] == "oklahoma-gin"][0]))
    assert knock["bidder"] == "Bob" and knock["bid"] == "8" and knock["contract"] == "knock"
    assert knock["made"] == "yes" and knock["points"] == "23" and knock["score2"] == "23"
    undercut = dict(zip(head, [r for r in rows if r[1] == "oklahoma-gin"][1]))
    assert undercut["contract"] == "undercut" and undercut["made"] == "no"
    assert undercut["bidder"] == "Ann"


def test_stats_gives_each_players_gin_figures(tmp_path):
    db = _db(tmp_path)
    out = _run("stats", "--db", db)
    assert out.returncode == 0, out.stderr
    assert "Gin pads:" in out.stdout
    lines = {line.split()[0]: line.split() for line in out.stdout.split("Gin pads:")[1]
             .splitlines() if line and line.split()[0] in ("Ann", "Bob", "Cy")}
    # player games won hands hands-won gins knocks undercut undercuts-given points/hand
    assert lines["Bob"] == ["Bob", "2", "1", "4", "3", "1", "1", "0", "1", "31.8"]
    assert lines["Ann"] == ["Ann", "1", "0", "3", "0", "0", "0", "1", "0", "0.0"]
    assert lines["Cy"] == ["Cy", "1", "0", "1", "0", "0", "0", "0", "0", "0.0"]
    one = _run("stats", "--db", db, "--player", "bob")
    assert one.returncode == 0 and "Gin pads:" in one.stdout and "31.8" in one.stdout


def test_an_unnamed_gin_sittings_export_names_its_players_as_the_device_does(tmp_path):
    # The scorer calls the two players of a gin pad P1 and P2 until names are pushed
    # (firmware/scorer.py); the PC's exports and replay say the same, not compass seats.
    log = tmp_path / "unnamed.jsonl"
    log.write_text('{"type": "sitting", "variant": "oklahoma-gin"}\n'
                   '{"type": "turnup", "rank": "8"}\n'
                   '{"type": "knock", "seat": 1, "knocker": 6, "opponent": 23}\n')
    db = str(tmp_path / "t.db")
    out = _run("import", "--db", db, str(log))
    assert out.returncode == 0, out.stderr
    out = _run("export", "--db", db, "--all", "--format", "csv")
    assert out.returncode == 0, out.stderr
    rows = [r.split(",") for r in out.stdout.strip().splitlines()]
    hand = dict(zip(rows[0], rows[1]))
    assert hand["bidder"] == "P2", hand
    replay = _run("replay", str(log))
    assert replay.returncode == 0, replay.stderr
    assert "P2" in replay.stdout and '"N"' not in replay.stdout
