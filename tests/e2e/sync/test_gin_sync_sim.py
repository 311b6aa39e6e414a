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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TALLY = [sys.executable, "-m", "host_tools"]
# Each hand: the turn-up 10 (where the cursor starts), the first player (the dealer's
# opponent: P2, P1, P2 as the deal alternates; ▶ the right one, ◀ the left) knocks with 10
# (one over where the ending starts), the other is left with 95 (the first held arrow 40,
# then eleven held arrows of 5); Skarney: the first player's gin, the contract meld down,
# 95 in the other's hand (50, nine held arrows) (+115).
def _knock(who):
    return ["ok", who, "next", "ok"] + ["long next"] * 12 + ["ok"]


def _skarney(who):
    return [who, "ok", "next"] + ["long next"] * 9 + ["ok"]


KNOCK_HANDS = _knock("next") + _knock("prev") + _knock("next")
SKARNEY_HANDS = _skarney("next") + _skarney("prev") + _skarney("next")
ANOTHER = ["menu", "prev", "ok"]    # MENU ▸ another game: what we play, the cursor on 42
GAMES = (
    # (the presses that start it from what we play, the hands to game over, final score)
    (["next", "ok"], KNOCK_HANDS, [95, 190]),
    (ANOTHER + ["next", "next", "ok"], KNOCK_HANDS, [95, 190]),
    (ANOTHER + ["next", "next", "next", "ok"], SKARNEY_HANDS, [115, 230]),
)


@pytest.fixture
def held_sim(tmp_path):
    script = tmp_path / "gin.txt"
    lines = []
    for setup, hands, _ in GAMES:
        lines += setup + hands          # to game over; the next game from the menu
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
