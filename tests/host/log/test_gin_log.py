"""`tally42 replay` on gin pad logs (docs/event-log.md, "The gin pads", fine points
17-20): the report, the refusals as LOG:LINE: reason with exit 2, the scoresheet, the
device's bytes to log lines, and CPython and MicroPython agreeing on random gin logs."""
import json
import os
import subprocess
import sys
from array import array

import pytest

from engine_core.header import encode_header
from engine_core.texas42 import options as O
from engine_core.games import new_sitting
from host_tools.log import device as DV
from host_tools.log import lines as LN
from host_tools.log import sittinglog as L

from ginrand import SETUPS, RandomGinPlayer  # noqa: E402
from randsit import play  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
SPEC = os.path.join(ROOT, "tests", "logs", "spec_gin_sitting.jsonl")


def log(*lines):
    return "".join(json.dumps(x) + "\n" for x in lines).encode()


def head(variant="oklahoma-gin", **options):
    h = {"type": "sitting", "variant": variant, "players": ["Ann", "Bob"]}
    if options:
        h["options"] = options
    return h


def up(rank, spade=None):
    e = {"type": "turnup", "rank": rank}
    if spade is not None:
        e["spade"] = spade
    return e


def knock(seat, k, d, **extra):
    return dict({"type": "knock", "seat": seat, "knocker": k, "opponent": d}, **extra)


def gin(seat, d, **extra):
    return dict({"type": "gin", "seat": seat, "opponent": d}, **extra)


def report(*lines):
    return L.report(L.replay(log(*lines)))


def refusal(*lines):
    with pytest.raises(LN.LogError) as e:
        L.replay(log(*lines))
    return e.value.line, e.value.message


def run_cli(path, *args):
    return subprocess.run([sys.executable, "-m", "host_tools", "replay", str(path)] + list(args),
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_the_spec_example_report():
    p = run_cli(SPEC, "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["hands"] == [
        {"dealer": 0, "turnup": 8, "end": "knock", "seat": 1, "winner": 1, "points": 23,
         "award": [0, 23]},
        {"dealer": 1, "turnup": 10, "end": "undercut", "seat": 0, "winner": 1, "points": 24,
         "award": [0, 24]},
        {"dealer": 0, "turnup": 10, "end": "drawout", "winner": None, "points": 0,
         "award": [0, 0]}]
    assert r["score"] == [0, 47] and r["over"] is False and r["winner"] is None
    assert r["next"] == {"phase": "turnup", "dealer": 1, "seat": None}
    assert r["options"] == {"target": 100, "knock_scores": "total", "gin_bonus": 20,
                            "undercut_bonus": 20, "ace_turnup": "knock",
                            "spade_doubles": False, "game_bonus": 0,
                            "box_bonus": 0, "shutout_doubles": False, "deal": "alternate"}
    assert r["players"] == ["Ann", "Bob"]


def test_a_refused_gin_log_names_its_line_and_exits_2(tmp_path):
    p = tmp_path / "g.jsonl"
    p.write_bytes(log(head(), up("8"), knock(1, 9, 23)))
    out = run_cli(p, "--json")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "%s:3: knock with 9 is over the limit: the turn-up 8 allows 8 at most\n" % p


def test_refusals_of_section_6_each_with_its_line():
    cases = [
        ((head(), gin(0, 10)), 2, "turn-up card first"),
        ((head(), {"type": "drawout"}), 2, "turn-up card first"),
        ((head(), up("8"), up("9")), 3, "already keyed in"),
        ((head(), up("8"), knock(0, 0, 10)), 3, "is a gin"),
        ((head(), up("8"), knock(0, 3, 101)), 3, "more than the cards allow (at most 100,"),
        ((head(), up("8"), gin(0, 1000)), 3, "more than the cards allow (at most 100,"),
        ((head(), up("8"), knock(0, -3, 10)), 3, "cannot be negative"),
        ((head(), up("8"), knock(0, 3.5, 10)), 3, "whole number"),
        ((head(), up("8"), gin(0, 10, bonus=[1, 0])), 3, "bonus"),
        ((head("sequence-gin"), up("8"), gin(0, 10, bonus=[1, 0])), 3, "bonus option"),
        ((head("sequence-gin", bonus=True), up("8"), gin(0, 10, bonus=[11, 0])), 3,
         "at most 10 bonus cards"),
        ((head(), up("8"), gin(0, 10, contract=False)), 3, "Skarney"),
        ((head(), up("8"), {"type": "drawout", "totals": [3, 4]}), 3, "no totals"),
        ((head("skarney-gin"), up("8")), 2, "no turn-up"),
        ((head("skarney-gin"), knock(0, 3, 10)), 2, "no knocking"),
        ((head("skarney-gin"), {"type": "drawout"}), 2, "both seats"),
        ((head("skarney-gin"), gin(0, 397, contract=True)), 2, "at most 396,"),
        ((head("skarney-gin"), gin(0, 40)), 2, "needs contract: true or false"),
        ((head(), up(8)), 2, "rank must be"),
        ((head(), up("8"), knock(2, 3, 10)), 3, "seat must be 0 or 1"),
        ((head(), up("8"), {"type": "bid", "bid": 30}), 3, "unknown event type"),
        ((head(), up("8"), knock(0, 3, 10, count=1)), 3, "unknown field"),
        ((head(target=30), up("K"), gin(0, 20), up("K")), 4, "the game is over"),
        ((head(), {"type": "undo"}), 2, "nothing to undo"),
    ]
    for lines, line, words in cases:
        got = refusal(*lines)
        assert got[0] == line and words in got[1], (lines, got)


def test_header_checks():
    assert refusal(dict(head(), players=["A", "B", "C"]))[1] == (
        "players must be a list of 2 names for oklahoma-gin")
    assert "dealer" in refusal(dict(head(), dealer=2))[1]
    assert "does not apply" in refusal(head(nello=True))[1]
    assert "does not apply" in refusal(head("skarney-gin", spade_doubles=True))[1]


def test_fine_point_17_a_knock_that_is_undercut_is_scored_as_one():
    r = report(head(), up("5"), knock(0, 4, 4))
    assert r["hands"][0]["end"] == "undercut" and r["hands"][0]["seat"] == 0
    assert r["hands"][0]["winner"] == 1 and r["score"] == [0, 20]


def test_fine_point_18_winner_and_loser_deal_keep_the_dealer_after_a_drawout():
    for deal in ("winner", "loser"):
        r = report(head(deal=deal), up("5"), {"type": "drawout"})
        assert r["next"]["dealer"] == 0
    r = report(head(), up("5"), {"type": "drawout"})
    assert r["next"]["dealer"] == 1


def test_fine_points_19_and_20_spade_doubling_then_bonuses_then_shutout():
    r = report(head(target=40, spade_doubles=True, game_bonus=100, box_bonus=25,
                    shutout_doubles=True), up("7", True), knock(1, 2, 22))
    assert r["hands"][0]["points"] == 44
    assert r["over"] and r["winner"] == 1 and r["score"] == [0, 2 * (44 + 100 + 25)]
    assert r["next"] == {"phase": "over", "dealer": None, "seat": None}


def test_skarney_report_has_no_turnup_and_undo_reopens_a_finished_game():
    r = report(head("skarney-gin"), gin(1, 100, contract=False), {"type": "drawout",
                                                                   "totals": [10, 60]},
               gin(0, 120, contract=True), {"type": "undo"})
    assert [h.get("turnup") for h in r["hands"]] == [None, None]
    assert r["hands"][0]["points"] == 140 and r["hands"][1]["winner"] == 0
    assert r["score"] == [50, 140] and r["next"]["phase"] == "hand"


def test_event_lines_come_back_the_same():
    lines = [head("sequence-gin", bonus=True), up("10", True), knock(1, 6, 23, bonus=[2, 1]),
             up("A"), gin(0, 40, bonus=[0, 3]), up("Q"), {"type": "drawout"},
             {"type": "undo"}]
    rp = L.replay(log(*lines))
    again = L.log_lines(rp.header, [ev for _, ev in rp.events])
    assert again[1:] == lines[1:]
    sk = L.replay(log(head("skarney-gin"), gin(0, 150, contract=False),
                      {"type": "drawout", "totals": [396, 0]}))
    assert L.log_lines(sk.header, [ev for _, ev in sk.events])[1:] == [
        gin(0, 150, contract=False), {"type": "drawout", "totals": [396, 0]}]


def test_the_scoresheet_is_a_gin_pad():
    text = L.scoresheet(L.replay(log(head(box_bonus=25, target=30), up("8"), knock(1, 6, 23),
                                     up("K", True), gin(1, 10))))
    assert "oklahoma-gin, game to 30" in text
    assert "Bob knocks 6 v 23" in text and "Bob gin, 10 left" in text
    assert "10 spade" in text
    lines = text.splitlines()
    final = [x for x in lines if x.startswith("Final")][0]
    assert final.split()[-2:] == ["0", str(53 + 50)]
    assert "Winner: Bob" in text


def test_device_bytes_become_the_same_log():
    rp = L.replay(open(SPEC, "rb").read())
    s = rp.sitting
    header = encode_header(rp.rules, rp.header.dealer, rp.header.players)
    lines = DV.from_device(header, bytes(s.hist[:s.hlen]))
    assert L.report(L.replay(LN.dump_log(lines).encode())) == L.report(rp)


def _random_gin_log(k):
    variant, options = SETUPS[k % len(SETUPS)]
    rules = O.resolve(variant, options)
    s = new_sitting(rules, k % 2)
    out = array("l", bytes(8 * 500))
    n = play(s, RandomGinPlayer(300 + k), out, 500)
    lines = L.log_lines(LN.Header(rules, k % 2, ["Ann", "Bob"], {}), list(out[:n]))
    if k % 3 == 2:
        lines.insert(2 + n // 2, {"type": "knock", "seat": 0, "knocker": 0, "opponent": 3})
    return LN.dump_log(lines).encode()


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="run `make setup` first")
def test_cpython_and_micropython_agree_on_random_gin_logs(tmp_path):
    paths = []
    expected = []
    for k in range(18):
        data = _random_gin_log(k)
        p = tmp_path / ("g%02d.jsonl" % k)
        p.write_bytes(data)
        paths.append(str(p))
        try:
            expected.append(L.report(L.replay(data)))
        except LN.LogError as e:
            expected.append({"error": [e.line, e.message]})
    proc = subprocess.run([MICROPYTHON, "tests/kit/probes/mp_replay.py"] + paths, cwd=ROOT,
                          env=dict(os.environ, MICROPYPATH=".frozen:."),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    assert got == expected
    assert any("error" in e for e in expected) and any(e.get("over") for e in expected)


def test_the_scoresheet_shows_bonus_cards_options_and_skarney_hands():
    text = L.scoresheet(L.replay(log(head("sequence-gin", bonus=True, spade_doubles=True),
                                     up("J", True), knock(0, 7, 30, bonus=[0, 3]))))
    assert "Options: spade_doubles, bonus" in text
    assert "10 spade Ann knocks 7 v 30, bonus 0-3" in text and " 54 " in text
    sk = L.scoresheet(L.replay(log(head("skarney-gin", box_bonus=25),
                                   gin(1, 120, contract=False),
                                   {"type": "drawout", "totals": [12, 40]})))
    assert "Turn-up" not in sk and "Bob gin, 120 in hand, no contract" in sk
    assert "draw-out 12-40" in sk and "Next: how the hand ended, dealer Ann" in sk
