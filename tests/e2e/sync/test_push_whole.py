"""A push of names and settings is checked whole before anything is sent: the names
against the seats of the game pushed and of a sitting open on the scorer; a refused push
changes nothing on the scorer and says what to do. Yes-or-no options take on/off and
true/false alike."""
import os
import subprocess
import sys
import time

import pytest

from clihelp import run
from syncrig import HeldSim
from host_tools.commands import pushcheck as PC
from host_tools.commands.common import CommandError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TALLY = [sys.executable, "-m", "host_tools"]


def test_names_that_do_not_seat_the_game_pushed_are_refused_before_a_scorer_is_asked(
        capsys):
    code, out, err = run(capsys, "sync", "--players", "Ann,Bob,Cy,Di", "--set",
                         "variant=oklahoma-gin", "--port", "/dev/null/none")
    assert code == 2 and out == ""
    assert "oklahoma-gin seats 2 players, not 4: nothing was sent" in err, err
    code, out, err = run(capsys, "sync", "--players", "Ann,Bob", "--set", "variant=moon",
                         "--port", "/dev/null/none")
    assert code == 2 and "moon seats 3 players, not 2" in err, err


def test_the_players_help_names_every_count_a_game_seats(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "sync", "--help")
    out = " ".join(capsys.readouterr().out.split())
    assert "2 for a gin pad" in out and "3 for Moon" in out
    assert "on/off, true/false or yes/no" in out


def test_every_yes_or_no_option_takes_on_off_and_true_false_alike():
    for word, sent in (("on", "true"), ("yes", "true"), ("true", "true"),
                       ("off", "false"), ("no", "false"), ("false", "false")):
        assert PC.settings_pairs(["spade_doubles=%s" % word]) == [("spade_doubles", sent)]
        assert PC.settings_pairs(["nello=%s" % word]) == [("nello", sent)]
    assert PC.settings_pairs(["tracker=on"]) == [("tracker", "on")]
    with pytest.raises(CommandError, match="true or false .on/off and yes/no are taken"):
        PC.settings_pairs(["nello=maybe"])
    assert PC.settings_pairs(["target=250"]) == [("target", "250")]


def test_event_create_takes_on_and_off_too(tmp_path, capsys):
    code, _, err = run(capsys, "event", "create", "E", "--format", "round-robin",
                       "--set", "nello=on", "--team", "A: Ann, Bob", "--team", "B: Cy, Di",
                       "--db", str(tmp_path / "t.db"))
    assert code == 0, err


@pytest.fixture
def open_sitting_sim(tmp_path):
    # A scorer with a 42 sitting started (the setup's OK) and not finished.
    script = tmp_path / "open.txt"
    script.write_text("ok\n")
    flash = tmp_path / "flash.bin"
    sim = HeldSim(script, flash)    # its pipes read as they come (tests/kit/syncrig.py)
    yield sim.port, flash
    sim.stop(20)


def _settings_file(flash):
    path = str(flash) + ".settings"
    return open(path, "rb").read() if os.path.exists(path) else None


def test_a_gin_push_while_a_42_sitting_is_open_changes_nothing(tmp_path, open_sitting_sim):
    port, flash = open_sitting_sim
    db = str(tmp_path / "t.db")
    first = subprocess.run(TALLY + ["sync", "--port", port, "--db", db, "--wait", "30"],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    time.sleep(0.5)
    before = _settings_file(flash)
    out = subprocess.run(TALLY + ["sync", "--port", port, "--db", db, "--wait", "30",
                                  "--players", "Ann,Bob", "--set", "variant=oklahoma-gin"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "settings sent" not in out.stdout and "set on the scorer" not in out.stdout
    assert "a sitting of 42 in progress (4 seats)" in out.stderr, out.stderr
    assert "Finish or end the sitting on the scorer first" in out.stderr
    time.sleep(0.5)
    assert _settings_file(flash) == before
    # Names that fit the sitting on the table go through, with settings for the next.
    ok = subprocess.run(TALLY + ["sync", "--port", port, "--db", db, "--wait", "30",
                                 "--players", "Ann,Bob,Cy,Di", "--set", "nello=on"],
                        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "settings sent to the scorer: nello=true" in ok.stdout
