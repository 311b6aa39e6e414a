"""Conformance tests for `tally42 replay` on the house rules of fine point 8 and the count
check of fine point 13 (docs/event-log.md; docs/rules.md): `forced_min`, `nello_min`,
`nello_by` (42), Moon's `min_bid`, the gin pads' `knock_scores`, `gin_bonus`,
`undercut_bonus` and `ace_turnup`, and a fully tracked hand that must place its whole
count. Each option is played to the score the rules give, and each refusal is checked as
`LOG:LINE: reason` with exit 2. Same helpers as test_replay_spec.py."""
import json

import pytest

from replayrig import ROOT, B, K, P, R, T, auction, hdr, ok, refused, run_cli


def forced(dealer=0, bid=30, n=4):
    """Everyone passes, the dealer (last) bids."""
    return [P()] * (n - 1) + [B(bid)]


# --------------------------------------------------------------------------- forced_min

def test_forced_min_is_the_forced_dealers_least_bid(tmp_path):
    out = ok(tmp_path, [hdr(forced_min=31), P(), P(), P()])
    assert out["options"]["forced_min"] == 31
    assert out["next"]["seat"] == 0
    assert out["next"]["legal"][0] == 31        # no pass, no 30
    assert "pass" not in out["next"]["legal"] and 30 not in out["next"]["legal"]


def test_forced_min_leaves_the_other_seats_at_min_bid(tmp_path):
    out = ok(tmp_path, [hdr(forced_min=31)])
    assert out["next"]["legal"][:2] == ["pass", 30]
    out = ok(tmp_path, [hdr(forced_min=31), B(30), P(), P()])
    assert "pass" in out["next"]["legal"]        # a bid stands: the dealer is not forced


def test_forced_31_plays_and_scores(tmp_path):
    out = ok(tmp_path, [hdr(forced_min=31), *forced(bid=31), T(6), R(points=31)])
    assert out["hands"][0]["bid"] == 31 and out["hands"][0]["bidder"] == 0
    assert out["hands"][0]["made"] is True and out["score"] == [1, 0]


def test_forced_dealer_under_forced_min_refused(tmp_path):
    proc = refused(tmp_path, [hdr(forced_min=33), P(), P(), P(), B(32)], 5)
    assert "33" in proc.stderr


def test_forced_min_defaults_to_min_bid(tmp_path):
    out = ok(tmp_path, [hdr(min_bid=32), P(), P(), P()])
    assert out["options"]["forced_min"] == 32
    assert out["next"]["legal"][0] == 32


@pytest.mark.parametrize("opts", [{"forced_min": 29}, {"forced_min": 42},
                                  {"min_bid": 32, "forced_min": 31}, {"forced_min": "31"},
                                  {"forced_min": True}])
def test_forced_min_out_of_range_refused(tmp_path, opts):
    proc = refused(tmp_path, [hdr(**opts)], 1)
    assert "forced_min" in proc.stderr


@pytest.mark.parametrize("variant", ["big-game", "moon", "seventy-nine"])
def test_forced_min_only_in_42(tmp_path, variant):
    refused(tmp_path, [hdr(variant, forced_min=42)], 1)


# --------------------------------------------------------------------------- nello_min

def test_nello_min_30_names_nello_on_any_bid(tmp_path):
    out = ok(tmp_path, [hdr(nello=True, nello_min=30), *auction(0, 1, 30)])
    assert "nello" in out["next"]["legal"]
    out = ok(tmp_path, [hdr(nello=True, nello_min=30), *auction(0, 1, 30), T("nello"),
                        R(points=0)])
    assert out["hands"][0]["contract"] == "nello" and out["hands"][0]["made"] is True
    assert out["score"] == [0, 1]               # a bid under 42: one mark


def test_nello_min_30_set_by_a_trick(tmp_path):
    out = ok(tmp_path, [hdr(nello=True, nello_min=30), *auction(0, 1, 35), T("nello"),
                        K(1)])
    assert out["score"] == [0, 0] and out["next"]["phase"] == "play"
    out = ok(tmp_path, [hdr(nello=True, nello_min=30), *auction(0, 1, 35), T("nello"),
                        R(points=7)])
    assert out["hands"][0]["made"] is False and out["score"] == [1, 0]


def test_nello_default_min_refuses_a_point_bid(tmp_path):
    out = ok(tmp_path, [hdr(nello=True), *auction(0, 1, 41)])
    assert "nello" not in out["next"]["legal"]
    refused(tmp_path, [hdr(nello=True), *auction(0, 1, 41), T("nello")], 6)


def test_nello_min_84_only_after_a_two_mark_bid(tmp_path):
    out = ok(tmp_path, [hdr(nello=True, nello_min=84), *auction(0, 1, 42)])
    assert "nello" not in out["next"]["legal"] and "sevens" not in out["next"]["legal"]
    proc = refused(tmp_path, [hdr(nello=True, nello_min=84), *auction(0, 1, 42),
                              T("nello")], 6)
    assert "84" in proc.stderr
    out = ok(tmp_path, [hdr(nello=True, nello_min=84), *auction(0, 1, 84), T("nello"),
                        R(made=True)])
    assert out["hands"][0]["made"] is True and out["score"] == [0, 2]


@pytest.mark.parametrize("opts", [{"nello": True, "nello_min": 29},
                                  {"nello": True, "nello_min": 85},
                                  {"nello": True, "nello_min": "42"},
                                  {"nello_min": 42}, {"nello": False, "nello_min": 30},
                                  {"scoring": "points", "nello_min": 42}])
def test_nello_min_refused(tmp_path, opts):
    proc = refused(tmp_path, [hdr(**opts)], 1)
    assert "nello_min" in proc.stderr


# --------------------------------------------------------------------------- nello_by

def test_nello_by_forced_dealer_names_nello_on_a_forced_bid(tmp_path):
    lines = [hdr(nello=True, nello_by="forced_dealer"), *forced(bid=30)]
    out = ok(tmp_path, lines)
    assert out["options"]["nello_by"] == "forced_dealer"
    assert "nello" in out["next"]["legal"]
    out = ok(tmp_path, lines + [T("nello"), R(made=True)])
    assert out["hands"][0]["bidder"] == 0 and out["hands"][0]["contract"] == "nello"
    assert out["score"] == [1, 0]               # a forced bid under 42 is worth a mark


def test_nello_by_forced_dealer_refuses_any_other_bidder(tmp_path):
    opts = dict(nello=True, nello_by="forced_dealer")
    out = ok(tmp_path, [hdr(**opts), *auction(0, 1, 84)])
    assert "nello" not in out["next"]["legal"]
    refused(tmp_path, [hdr(**opts), *auction(0, 1, 84), T("nello")], 6)
    # The dealer who wins the bidding over another bid was not forced.
    refused(tmp_path, [hdr(**opts), B(30), P(), P(), B(42), T("nello")], 6)


def test_nello_by_forced_dealer_needs_a_forced_bid(tmp_path):
    # Under all_pass redeal nobody is forced: the dealer bidding after three passes may not.
    opts = dict(nello=True, nello_by="forced_dealer", all_pass="redeal")
    refused(tmp_path, [hdr(**opts), *forced(bid=42), T("nello")], 6)


def test_nello_by_any_is_the_default(tmp_path):
    out = ok(tmp_path, [hdr(nello=True), *auction(0, 1, 42), T("nello"), R(made=True)])
    assert out["options"]["nello_by"] == "any" and out["options"]["nello_min"] == 42
    assert out["score"] == [0, 1]


@pytest.mark.parametrize("opts", [{"nello": True, "nello_by": "dealer"},
                                  {"nello": True, "nello_by": True},
                                  {"nello_by": "any"},
                                  {"scoring": "points", "nello_by": "forced_dealer"}])
def test_nello_by_refused(tmp_path, opts):
    proc = refused(tmp_path, [hdr(**opts)], 1)
    assert "nello_by" in proc.stderr


def test_nello_options_left_out_without_nello(tmp_path):
    out = ok(tmp_path, [hdr()])
    assert "nello_min" not in out["options"] and "nello_by" not in out["options"]


# --------------------------------------------------------------------------- Moon's min_bid

def test_moon_min_bid_3(tmp_path):
    out = ok(tmp_path, [hdr("moon", min_bid=3)])
    assert out["options"]["min_bid"] == 3
    assert out["next"]["legal"] == ["pass", 3, 4, 5, 6, 7, 21]
    out = ok(tmp_path, [hdr("moon", min_bid=3), B(3), P(), P(), T(6),
                        R(tricks=[2, 3, 2])])
    assert out["hands"][0]["bid"] == 3 and out["hands"][0]["made"] is True
    assert out["score"] == [2, 3, 2]


def test_moon_min_bid_5_refuses_4(tmp_path):
    refused(tmp_path, [hdr("moon", min_bid=5), B(4)], 2)


def test_moon_forced_dealer_bids_at_least_min_bid(tmp_path):
    out = ok(tmp_path, [hdr("moon", min_bid=3, all_pass="forced"), P(), P()])
    assert out["next"]["legal"][0] == 3
    out = ok(tmp_path, [hdr("moon", min_bid=5, all_pass="forced"), P(), P()])
    assert out["next"]["legal"] == [5, 6, 7, 21]


def test_moon_min_bid_default_4(tmp_path):
    assert ok(tmp_path, [hdr("moon")])["options"]["min_bid"] == 4


@pytest.mark.parametrize("bid", [2, 6, 7])
def test_moon_min_bid_out_of_range_refused(tmp_path, bid):
    proc = refused(tmp_path, [hdr("moon", min_bid=bid)], 1)
    assert "min_bid" in proc.stderr and "3 to 5" in proc.stderr


def test_partnership_moon_has_no_min_bid(tmp_path):
    refused(tmp_path, [hdr("partnership-moon", min_bid=3)], 1)


# --------------------------------------------------------------------------- count check

def test_winners_only_last_trick_refused(tmp_path):
    # Seven tricks with winners only: the 35 count is nowhere, so the last is refused.
    lines = [hdr(scoring="points"), *auction(0, 1, 30), T(5)]
    lines += [K(0), K(2), K(0), K(2), K(1), K(3)]
    proc = refused(tmp_path, lines + [K(1)], 13)
    assert "35" in proc.stderr


def test_last_trick_short_of_the_count_left_refused(tmp_path):
    lines = [hdr(), *auction(0, 1, 30), T(5), K(1, 10), K(1, 10), K(3, 5), K(0, 0),
             K(0, 5), K(1, 0)]
    proc = refused(tmp_path, lines + [K(1, 0)], 13)
    assert "5 count left" in proc.stderr
    out = ok(tmp_path, lines + [K(1, 5)])
    assert out["hands"][0]["points"] == 35 and out["hands"][0]["made"] is True


def test_count_check_scores_the_issue_hand(tmp_path):
    # A 30 bid by seats 0/2 with four tricks: with the count placed, the score adds up.
    lines = [hdr(scoring="points", dealer=3), *auction(3, 0, 30), T(5),
             K(0, 10), K(2, 10), K(0, 5), K(2, 5), K(1, 0), K(3, 0), K(1, 5)]
    out = ok(tmp_path, lines)
    assert out["hands"][0]["points"] == 34 and out["score"] == [34, 8]


def test_big_game_last_trick_places_55(tmp_path):
    lines = [hdr("big-game"), B(42), P(), P(), P(), T(8)] + [K(1, 5)] * 10
    refused(tmp_path, lines + [K(1, 0)], 17)
    out = ok(tmp_path, lines + [K(1, 5)])
    assert out["hands"][0]["points"] == 66


def test_count_check_leaves_a_result_without_tricks(tmp_path):
    out = ok(tmp_path, [hdr(), *auction(0, 1, 30), T(5), K(1), R(points=31)])
    assert out["hands"][0]["made"] is True


# --------------------------------------------------------------------------- the gin pads

def gin_hdr(variant="oklahoma-gin", **options):
    return hdr(variant, players=["Ann", "Bob"], **options)


def up(rank):
    return {"type": "turnup", "rank": rank}


def knock(seat, k, d, **extra):
    return dict({"type": "knock", "seat": seat, "knocker": k, "opponent": d}, **extra)


def gin(seat, d, **extra):
    return dict({"type": "gin", "seat": seat, "opponent": d}, **extra)


@pytest.mark.parametrize("variant", ["oklahoma-gin", "sequence-gin"])
def test_knock_scores_difference(tmp_path, variant):
    out = ok(tmp_path, [gin_hdr(variant, knock_scores="difference"), up("8"),
                        knock(1, 5, 30)])
    assert out["hands"][0]["end"] == "knock" and out["hands"][0]["points"] == 25
    assert out["score"] == [0, 25]


def test_knock_scores_total_is_the_default(tmp_path):
    out = ok(tmp_path, [gin_hdr(), up("8"), knock(1, 5, 30)])
    assert out["options"]["knock_scores"] == "total"
    assert out["hands"][0]["points"] == 30


def test_knock_scores_difference_with_bonus_cards(tmp_path):
    # Sequence Gin's bonus cards adjust both totals first: (30 - 4) - (5 - 1) = 22.
    out = ok(tmp_path, [gin_hdr("sequence-gin", knock_scores="difference", bonus=True),
                        up("8"), knock(1, 5, 30, bonus=[4, 1])])
    assert out["hands"][0]["points"] == 22


def test_gin_bonus_25(tmp_path):
    out = ok(tmp_path, [gin_hdr(gin_bonus=25), up("8"), gin(0, 12)])
    assert out["hands"][0]["points"] == 37


def test_undercut_bonus_25(tmp_path):
    out = ok(tmp_path, [gin_hdr(undercut_bonus=25), up("8"), knock(1, 8, 5)])
    assert out["hands"][0]["end"] == "undercut" and out["hands"][0]["points"] == 28
    assert out["score"] == [28, 0]


def test_hoyles_scoring_together(tmp_path):
    out = ok(tmp_path, [gin_hdr(knock_scores="difference", gin_bonus=25, undercut_bonus=25,
                                ace_turnup="gin"),
                        up("10"), knock(0, 4, 20), up("10"), gin(1, 30),
                        up("7"), knock(0, 7, 6)])
    assert [h["points"] for h in out["hands"]] == [16, 55, 26]
    assert out["score"] == [16, 81]


def test_ace_turnup_gin_refuses_a_knock_on_its_line(tmp_path):
    proc = refused(tmp_path, [gin_hdr(ace_turnup="gin"), up("A"), knock(0, 1, 20)], 3)
    assert "ace" in proc.stderr
    out = ok(tmp_path, [gin_hdr(ace_turnup="gin"), up("A"), gin(0, 20)])
    assert out["hands"][0]["end"] == "gin"


def test_ace_turnup_knock_is_the_default(tmp_path):
    out = ok(tmp_path, [gin_hdr(), up("A"), knock(0, 1, 20)])
    assert out["options"]["ace_turnup"] == "knock" and out["hands"][0]["points"] == 20


@pytest.mark.parametrize("opts", [{"gin_bonus": 19}, {"gin_bonus": 26},
                                  {"undercut_bonus": 19}, {"undercut_bonus": 30},
                                  {"gin_bonus": "25"}, {"knock_scores": "hoyle"},
                                  {"ace_turnup": True}, {"ace_turnup": "none"}])
def test_gin_options_out_of_range_refused(tmp_path, opts):
    proc = refused(tmp_path, [gin_hdr(**opts)], 1)
    assert list(opts)[0] in proc.stderr


@pytest.mark.parametrize("opts", [{"knock_scores": "difference"}, {"gin_bonus": 25},
                                  {"undercut_bonus": 25}, {"ace_turnup": "gin"}])
def test_gin_options_refused_in_skarney_gin(tmp_path, opts):
    proc = refused(tmp_path, [gin_hdr("skarney-gin", **opts)], 1)
    assert "does not apply" in proc.stderr


def test_gin_options_refused_in_42(tmp_path):
    refused(tmp_path, [hdr(knock_scores="difference")], 1)


def test_the_house_rules_example_replays():
    # examples/house-rules.jsonl: a forced 31 with every trick tracked, then nello on a 30.
    proc = run_cli(ROOT / "examples" / "house-rules.jsonl")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [(h["bid"], h["contract"], h["made"]) for h in out["hands"]] == [
        (31, 6, True), (30, "nello", True)]
    assert out["hands"][0]["points"] == 35 and out["score"] == [2, 0]
