"""Table assignments pushed to a scorer (host_tools.tables.assignment): checked before anything is
sent, pushed as T, N and S requests once the sittings are stored, and refused cleanly
by a scorer whose firmware does not know them."""
import pytest

from clihelp import run
from host_tools.tables import assignment as YA
from host_tools.serial import client as YC
from host_tools.serial import sync as Y

GOOD = {"event": "Club night", "round": 2, "table": 3,
        "players": ["Ann", "Bob", "Cy", "Di"], "variant": "42",
        "options": {"scoring": "points", "target": 250}}


def test_a_good_assignment_is_normalised_with_every_option():
    a = YA.check_assignment(GOOD)
    assert (a["event"], a["round"], a["table"], a["players"]) == (
        "Club night", 2, 3, ["Ann", "Bob", "Cy", "Di"])
    assert a["options"]["target"] == 250 and a["options"]["min_bid"] == 30
    pairs = YA.game_settings(a)
    assert pairs[0] == ("variant", "42") and ("scoring", "points") in pairs
    assert len(pairs) == 1 + len(a["options"])
    # Without players or a game: 42 with its defaults.
    plain = YA.check_assignment({"event": "Cup", "round": 1, "table": 9})
    assert plain["variant"] == "42" and "players" not in plain
    assert plain["options"]["target"] == 7


@pytest.mark.parametrize("change, why", [
    ({"round": 0}, "round must be a whole number from 1 to 255"),
    ({"table": 256}, "table must be a whole number from 1 to 255"),
    ({"table": True}, "table must be a whole number"),
    ({"round": "2"}, "round must be a whole number"),
    ({"event": ""}, "event: an empty name"),
    ({"event": "a\x1bb"}, "control character"),
    ({"event": "é" * 17}, "longer than the 32 bytes"),
    ({"players": ["Ann", "Bob", "Cy"]}, "players: 4 names by seat for 42"),
    ({"players": ["Ann", "Bob", "Cy", "Annabelle-Jane"]}, "longer than the 12 characters"),
    ({"variant": "poker"}, "unknown variant"),
    ({"options": {"target": -1}}, "42:"),
    ({"options": {"bogus": 1}}, "42:"),
    ({"venue": "hall"}, "unknown field 'venue'"),
])
def test_a_bad_assignment_is_refused_with_a_message(change, why):
    a = dict(GOOD)
    a.update(change)
    with pytest.raises(ValueError) as e:
        YA.check_assignment(a)
    assert why in str(e.value)


class _FakeInfo:
    device_id = "T42-OLD"
    firmware = "0.9.0"
    minor = 1
    free = 4096


class _FakeClient(YC.Client):
    # A client whose requests go to a list: the scorer answers each as `answer` says.
    def __init__(self, answer, minor=1):
        self.info = _FakeInfo()
        self.info.minor = minor
        self.sent = []
        self.answer = answer

    def request(self, cmd, args=b""):
        self.sent.append((cmd, args))
        return self.answer(cmd, args)


def test_the_push_is_t_then_names_then_every_setting():
    c = _FakeClient(lambda cmd, args: ("k", 1, b""))
    report = Y.assign(c, lambda device: dict(GOOD) if device == "T42-OLD" else None,
                      Y.Report(c.info))
    assert report.assign_refused is None and report.assigned["table"] == 3
    cmds = [cmd for cmd, _ in c.sent]
    assert cmds[0] == "T" and c.sent[0][1] == b"2 3 Club%20night"
    assert cmds[1] == "N" and c.sent[1][1] == b"p Ann Bob Cy Di"
    assert set(cmds[2:]) == {"S"} and all(len(a) < 200 for _, a in c.sent)
    sent = b" ".join(a for cmd, a in c.sent if cmd == "S")
    assert b"variant=42" in sent and b"target=250" in sent and b"scoring=points" in sent
    # No assignment for this scorer: nothing is sent.
    c.sent = []
    assert Y.assign(c, lambda device: None, Y.Report(c.info)).assigned is None
    assert c.sent == []


def test_an_old_scorer_fails_cleanly_and_nothing_changes():
    def unknown(cmd, args):
        raise YC.DeviceError(YC.E_UNKNOWN, ord(cmd), "unknown command", "the table assignment")
    c = _FakeClient(unknown)
    report = Y.assign(c, lambda device: GOOD, Y.Report(c.info))
    assert report.assigned is None
    assert "takes no table assignments: update its firmware" in report.assign_refused
    assert [cmd for cmd, _ in c.sent] == ["T"]      # no names, no settings after it
    # A scorer whose hello says protocol 1.0 is not even asked.
    c = _FakeClient(unknown, minor=0)
    report = Y.assign(c, lambda device: GOOD, Y.Report(c.info))
    assert "takes no table assignments" in report.assign_refused and c.sent == []
    # A bad assignment from the callback: nothing sent, said why.
    c = _FakeClient(lambda cmd, args: ("k", 1, b""))
    report = Y.assign(c, lambda device: dict(GOOD, round=0), Y.Report(c.info))
    assert "round must be" in report.assign_refused and c.sent == []


@pytest.mark.parametrize("argv, why", [
    (["--assign", "Club night:2"], "give EVENT:ROUND:TABLE"),
    (["--assign", "Club night:x:3"], "round must be a whole number"),
    (["--assign", "Club night:2:0"], "table must be a whole number from 1 to 255"),
    (["--assign", "Cup:1:1", "--players", "Ann,Bob,Cy"], "4 names by seat"),
    (["--assign", "Cup:1:1", "--set", "variant=moon", "--players", "A,B,C,D"],
     "3 names by seat for moon"),
    (["--assign", "Cup:1:1", "--set", "tracker=on"], "tracker is the scorer's own"),
    (["--assign", ":1:1"], "give EVENT:ROUND:TABLE"),
    (["--assign", " :1:1"], "an empty name"),
])
def test_bad_assign_flags_are_refused_before_anything_is_sent(argv, why, tmp_path, capsys):
    db = tmp_path / "t.db"
    code, out, err = run(capsys, "sync", "--port", str(tmp_path / "no-such-port"),
                         "--db", str(db), *argv)
    assert code == 2 and why in err and err.startswith("tally42: "), err
    assert "Traceback" not in err and not db.exists()
