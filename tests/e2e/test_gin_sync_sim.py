"""The gin pads the whole way: a sitting of each game played through the sim's buttons to
game over, synced with `tally42 sync` over the sim's serial port, exported, and the
exported log replays to the score played; the gin figures appear in `tally42 stats`."""
import json
import os
import re
import subprocess
import sys

import pytest

import syncrig as R

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TALLY = [sys.executable, "-m", "host_tools"]
# Each hand: the turn-up 10 (where the cursor starts), the first player knocks with 10
# (one over where the ending starts), the other is left with 95 (25 and seven held
# arrows); Skarney: the first player's gin, 95 in the other's hand (50, four held arrows
# and five), taken by OK: the contract meld down (+115).
KNOCK_HAND = ["ok", "next", "ok"] + ["long next"] * 7 + ["ok"]
SKARNEY_HAND = ["ok"] + ["long next"] * 4 + ["next"] * 5 + ["ok"]
GAMES = (
    # (the setup presses from the start row, the hands to game over, final score)
    (["next", "ok", "prev", "prev", "prev", "ok", "prev", "ok"], KNOCK_HAND * 3, [95, 190]),
    (["next", "ok", "next", "ok", "prev", "ok"], KNOCK_HAND * 3, [95, 190]),
    (["next", "ok", "next", "ok", "prev", "ok"], SKARNEY_HAND * 3, [115, 230]),
)


@pytest.fixture
def held_sim(tmp_path):
    script = tmp_path / "gin.txt"
    lines = []
    for setup, hands, _ in GAMES:
        lines += setup + hands + ["long ok"]    # game over: OK held, a new sitting
    script.write_text("\n".join(lines) + "\n")
    sim = R.HeldSim(script, tmp_path / "flash.bin")     # its pipes read as they come
    yield sim.port
    assert "Traceback" not in sim.stop()


def _run(*args):
    return subprocess.run(TALLY + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_each_gin_game_played_in_the_sim_syncs_exports_and_replays(tmp_path, held_sim):
    db = str(tmp_path / "t.db")
    out = _run("sync", "--port", held_sim, "--db", db, "--wait", "30")
    assert out.returncode == 0, out.stderr
    names = ("oklahoma-gin", "sequence-gin", "skarney-gin")
    # Synced sittings are named by the scorer and each sitting's random id.
    stored = re.findall(r"stored sitting (T42-SIM-[0-9A-F]{8}) \(([a-z-]+),", out.stdout)
    assert [game for _, game in stored] == list(names), out.stdout
    for (sid, game), (_, _, score) in zip(stored, GAMES):
        log = tmp_path / ("%s.jsonl" % sid)
        ex = _run("export", "--db", db, "--sitting", sid, "--out", str(log))
        assert ex.returncode == 0, ex.stderr
        rep = _run("replay", str(log), "--json")
        assert rep.returncode == 0, rep.stderr
        r = json.loads(rep.stdout)
        assert r["variant"] == game and r["over"] and r["winner"] == 1
        assert sorted(r["score"]) == score and len(r["hands"]) == 3
        text = _run("export", "--db", db, "--sitting", sid, "--format", "text")
        assert text.returncode == 0 and "Winner: P2" in text.stdout
        csv = _run("export", "--db", db, "--sitting", sid, "--format", "csv")
        assert csv.returncode == 0 and len(csv.stdout.strip().splitlines()) == 4
