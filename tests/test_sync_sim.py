"""The whole way: a sitting played through the sim's buttons reaches the database with
`tally42 sync` over the sim's serial port, exports in every format, and replays to the
score played."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

# Run again on the 32-bit MicroPython build by `make test` (TALLY42_MICROPYTHON).
pytestmark = pytest.mark.mp32

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TALLY = [sys.executable, "-m", "host_tools"]


def _script(path):
    # Setup with the defaults (42, marks to 7), then seven hands of one bid of 30 and
    # three passes: the first bidder's team makes it on even hands and is set on odd
    # ones, so team 1 (E and W) takes every mark: 7-0 after seven hands.
    lines = ["ok"]
    for h in range(7):
        lines += ["ok"] * 7 if h % 2 == 0 else ["ok"] * 6 + ["next", "ok"]
    path.write_text("\n".join(lines) + "\n")


def _run(*args):
    return subprocess.run(TALLY + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def _pushed_setup(flash):
    # The scorer's settings file (firmware/settings.py): magic, version, tracker, header
    # length, the next sitting's header (engine_core.codec), CRC-32.
    from engine_core import codec
    data = open(str(flash) + ".settings", "rb").read()
    assert data[:4] == b"T42S"
    n = data[6]
    return codec.decode_header(data[7:7 + n])


@pytest.fixture
def held_sim(tmp_path):
    script = tmp_path / "sitting.txt"
    _script(script)
    proc = subprocess.Popen(TALLY + ["sim", "--script", str(script), "--flash",
                                     str(tmp_path / "flash.bin"), "--hold"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    first = proc.stdout.readline()
    assert first.startswith("serial: /dev/"), first
    yield first.split()[1]
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_a_sitting_played_in_the_sim_syncs_exports_and_replays(tmp_path, held_sim):
    db = str(tmp_path / "t.db")
    first = _run("sync", "--port", held_sim, "--db", db, "--wait", "30")
    assert first.returncode == 0, first.stderr
    assert "stored sitting T42-SIM-1" in first.stdout
    again = _run("sync", "--port", held_sim, "--db", db)
    assert again.returncode == 0, again.stderr
    assert "nothing new" in again.stdout
    log = tmp_path / "s.jsonl"
    out = _run("export", "--db", db, "--sitting", "T42-SIM-1", "--format", "jsonl",
               "--out", str(log))
    assert out.returncode == 0, out.stderr
    report = _run("replay", str(log), "--json")
    assert report.returncode == 0, report.stderr
    r = json.loads(report.stdout)
    assert r["score"] == [0, 7] and r["over"] and r["winner"] == 1
    assert len(r["hands"]) == 7
    csv = _run("export", "--db", db, "--sitting", "T42-SIM-1", "--format", "csv")
    assert csv.returncode == 0 and len(csv.stdout.strip().splitlines()) == 8
    text = _run("export", "--db", db, "--sitting", "T42-SIM-1", "--format", "text")
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
    assert "stored sitting T42-SIM-1" in out.stdout


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
    assert rules.to_dict()["scoring"] == "points" and rules.target == 300
