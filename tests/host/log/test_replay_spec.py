"""Conformance tests for `tally42 replay`, written from the contract only.

Sources: docs of the sitting log and replay report (`docs/event-log.md`, its
"Fine points" numbered 1..16) and `docs/rules.md` sections 1 to 4. Every expectation below
is derived from those texts, not from the implementation. Each test runs the CLI on a
small log written to tmp_path:

    python -m host_tools replay LOG --json      (cwd = repository root)

in this process (its main(), stdout and stderr captured); a few run it as a process, for
the entry point and its exit codes.

Accepted logs: exit 0, one JSON object on stdout.
Refused logs: exit 2, nothing on stdout, stderr exactly one line `LOG:LINE: reason`.
"""

import json
import subprocess
import sys

import pytest

from replayrig import (B, K, LOGS, OPENING_42, P, POINT_BIDS, R, ROOT, T, TRUMPS_42, U,
                       assert_refused_at, auction, hand, hdr, header, ok, refused,
                       run_cli, run_process, write_log)


# --------------------------------------------------------------------------- helpers


# =========================================================================== 42 bidding

def test_opening_state_and_legal_bids(tmp_path):
    out = ok(tmp_path, [header()])
    assert out["variant"] == "42"
    assert out["hands"] == []
    assert out["score"] == [0, 0]
    assert out["over"] is False
    assert out["winner"] is None
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 1, "legal": OPENING_42}


def test_min_bid_option_sets_the_ladder_start(tmp_path):
    out = ok(tmp_path, [header(min_bid=34)])
    assert out["options"]["min_bid"] == 34
    assert out["next"]["legal"] == ["pass", 34, 35, 36, 37, 38, 39, 40, 41, 42, 84]


def test_bid_below_min_bid_refused(tmp_path):
    refused(tmp_path, [header(min_bid=34), B(33)], 2)


def test_bid_below_default_min_refused(tmp_path):
    refused(tmp_path, [header(), B(29)], 2)


def test_legal_after_point_bid(tmp_path):
    out = ok(tmp_path, [header(), B(35)])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 2,
                           "legal": ["pass", 36, 37, 38, 39, 40, 41, 42, 84]}


def test_opening_jump_from_30_to_84_is_legal(tmp_path):
    out = ok(tmp_path, [header(), B(30), B(84)])
    # once 84 stands, only one mark more (126) may follow
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 3,
                           "legal": ["pass", 126]}


def test_opening_126_refused(tmp_path):
    refused(tmp_path, [header(), B(126)], 2)


def test_opening_126_refused_after_point_bid(tmp_path):
    refused(tmp_path, [header(), B(30), P(), B(126)], 4)


def test_after_one_mark_only_one_mark_more(tmp_path):
    out = ok(tmp_path, [header(), B(42)])
    assert out["next"]["legal"] == ["pass", 84]


def test_mark_jump_past_one_mark_refused(tmp_path):
    refused(tmp_path, [header(), B(42), B(126)], 3)


def test_point_bid_after_mark_bid_refused(tmp_path):
    refused(tmp_path, [header(), B(42), P(), B(41)], 4)


def test_mark_ladder_42_84_126_168(tmp_path):
    out = ok(tmp_path, [header(), B(42), B(84), B(126)])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 0,
                           "legal": ["pass", 168]}
    out = ok(tmp_path, [header(), B(42), B(84), B(126), B(168), T(2), R(made=True)])
    assert out["hands"] == [hand(0, 0, 168, 2, True, None, [4, 0])]
    assert out["score"] == [4, 0]


@pytest.mark.parametrize("second", [35, 34, 30])
def test_bid_not_beating_standing_bid_refused(tmp_path, second):
    refused(tmp_path, [header(), B(35), B(second)], 3)


def test_bid_with_correct_seat_accepted(tmp_path):
    out = ok(tmp_path, [header(), B(30, seat=1), B("pass", seat=2)])
    assert out["next"]["seat"] == 3


@pytest.mark.parametrize("seat", [0, 2, 3])
def test_bid_out_of_turn_seat_refused(tmp_path, seat):
    refused(tmp_path, [header(), B(30, seat=seat)], 2)


def test_out_of_turn_later_in_auction_refused(tmp_path):
    refused(tmp_path, [header(), P(), B(31, seat=1)], 3)


def test_forced_dealer_may_not_pass(tmp_path):
    out = ok(tmp_path, [header(), P(), P(), P()])
    assert out["options"]["all_pass"] == "forced"
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 0,
                           "legal": POINT_BIDS + [42, 84]}
    refused(tmp_path, [header(), P(), P(), P(), P()], 5)


def test_forced_dealer_must_bid_at_least_min_bid(tmp_path):
    out = ok(tmp_path, [header(min_bid=32), P(), P(), P()])
    assert out["next"]["legal"] == [32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 84]
    refused(tmp_path, [header(min_bid=32), P(), P(), P(), B(31)], 5)
    out = ok(tmp_path, [header(min_bid=32), P(), P(), P(), B(32)])
    assert out["next"]["phase"] == "trump"
    assert out["next"]["seat"] == 0


def test_dealer_may_pass_when_a_bid_stands(tmp_path):
    out = ok(tmp_path, [header(), B(30), P(), P()])
    assert out["next"]["seat"] == 0
    assert out["next"]["legal"][0] == "pass"
    out = ok(tmp_path, [header(), B(30), P(), P(), P()])
    assert out["next"] == {"phase": "trump", "dealer": 0, "seat": 1,
                           "legal": out["next"]["legal"]}


def test_all_pass_redeal_throws_in(tmp_path):
    out = ok(tmp_path, [header(all_pass="redeal"), P(), P(), P()])
    assert out["next"]["seat"] == 0
    assert out["next"]["legal"] == OPENING_42  # the dealer may pass under redeal
    out = ok(tmp_path, [header(all_pass="redeal"), P(), P(), P(), P()])
    assert out["hands"] == [{"dealer": 0, "thrown_in": True}]
    assert out["score"] == [0, 0]
    assert out["next"] == {"phase": "bidding", "dealer": 1, "seat": 2, "legal": OPENING_42}


def test_thrown_in_deal_then_next_deal_is_played(tmp_path):
    log = [header(all_pass="redeal"), P(), P(), P(), P()]
    log += auction(1, 3, 31) + [T(1), R(points=35)]
    out = ok(tmp_path, log)
    assert out["hands"] == [{"dealer": 0, "thrown_in": True},
                            hand(1, 3, 31, 1, True, 35, [0, 1])]
    assert out["next"] == {"phase": "bidding", "dealer": 2, "seat": 3, "legal": OPENING_42}


def test_dealer_rotation_from_header_dealer(tmp_path):
    out = ok(tmp_path, [hdr(dealer=2)])
    assert out["next"] == {"phase": "bidding", "dealer": 2, "seat": 3, "legal": OPENING_42}
    log = [hdr(dealer=2, all_pass="redeal")]
    log += auction(2, 3, 30) + [T(0), R(made=True)]          # dealer 2, bidder 3
    log += [P(), P(), P(), P()]                               # dealer 3, thrown in
    log += auction(0, 2, 33) + [T(6), R(made=False)]          # dealer 0, bidder 2
    out = ok(tmp_path, log)
    assert [h["dealer"] for h in out["hands"]] == [2, 3, 0]
    assert out["hands"][0] == hand(2, 3, 30, 0, True, None, [0, 1])
    assert out["hands"][1] == {"dealer": 3, "thrown_in": True}
    assert out["hands"][2] == hand(0, 2, 33, 6, False, None, [0, 1])
    assert out["score"] == [0, 2]
    assert out["next"] == {"phase": "bidding", "dealer": 1, "seat": 2, "legal": OPENING_42}


@pytest.mark.parametrize("bad", ["double", "30", 30.5, None, True])
def test_bid_value_unknown_refused(tmp_path, bad):
    refused(tmp_path, [header(), B(bad)], 2)


# =========================================================================== contracts

def test_trump_phase_legal_names(tmp_path):
    out = ok(tmp_path, [header(), B(30), P(), P(), P()])
    nxt = out["next"]
    assert nxt["phase"] == "trump"
    assert nxt["dealer"] == 0
    assert nxt["seat"] == 1
    assert sorted(map(str, nxt["legal"])) == sorted(map(str, TRUMPS_42))
    assert len(nxt["legal"]) == len(TRUMPS_42)


@pytest.mark.parametrize("trump", [0, 3, 6, "doubles", "follow-me"])
def test_contract_in_hand_entry(tmp_path, trump):
    out = ok(tmp_path, [header(), B(30), P(), P(), P(), T(trump), R(points=30)])
    assert out["hands"] == [hand(0, 1, 30, trump, True, 30, [0, 1])]


def test_trump_event_with_seat_field_refused(tmp_path):
    refused(tmp_path, [header(), B(30), P(), P(), P(),
                       {"type": "trump", "trump": 5, "seat": 1}], 6)


def test_play_phase_after_trump(tmp_path):
    out = ok(tmp_path, [header(), B(30), P(), P(), P(), T(5)])
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 1}
    assert out["hands"] == []


@pytest.mark.parametrize("word", ["sixes", "blanks", "fives", "no-trump"])
def test_suit_words_refused(tmp_path, word):
    refused(tmp_path, [header(), B(30), P(), P(), P(), T(word)], 6)


@pytest.mark.parametrize("pip", [7, 8, -1])
def test_suit_out_of_range_in_42_refused(tmp_path, pip):
    refused(tmp_path, [header(), B(30), P(), P(), P(), T(pip)], 6)


def test_trump_during_bidding_refused(tmp_path):
    refused(tmp_path, [header(), B(30), T(5)], 3)


def test_nello_refused_without_option(tmp_path):
    refused(tmp_path, [header(), B(42), P(), P(), P(), T("nello", doubles="high")], 6)


def test_sevens_refused_without_option(tmp_path):
    refused(tmp_path, [header(), B(42), P(), P(), P(), T("sevens")], 6)


def test_nello_needs_a_mark_bid(tmp_path):
    out = ok(tmp_path, [header(nello=True), B(41), P(), P(), P()])
    assert "nello" not in out["next"]["legal"]
    refused(tmp_path, [header(nello=True), B(41), P(), P(), P(),
                       T("nello", doubles="high")], 6)


def test_sevens_needs_a_mark_bid(tmp_path):
    out = ok(tmp_path, [header(sevens=True), B(30), P(), P(), P()])
    assert "sevens" not in out["next"]["legal"]
    refused(tmp_path, [header(sevens=True), B(30), P(), P(), P(), T("sevens")], 6)


def test_trump_legal_lists_nello_and_sevens_for_mark_bid(tmp_path):
    out = ok(tmp_path, [header(nello=True, sevens=True), B(42), P(), P(), P()])
    assert sorted(map(str, out["next"]["legal"])) == sorted(
        map(str, TRUMPS_42 + ["nello", "sevens"]))


def test_nello_made_and_set(tmp_path):
    base = [header(nello=True), B(42), P(), P(), P(), T("nello", doubles="high")]
    out = ok(tmp_path, base + [R(points=0)])
    assert out["hands"] == [hand(0, 1, 42, "nello", True, 0, [0, 1])]
    out = ok(tmp_path, base + [R(points=1)])
    assert out["hands"] == [hand(0, 1, 42, "nello", False, 1, [1, 0])]
    out = ok(tmp_path, base + [R(made=False)])
    assert out["hands"] == [hand(0, 1, 42, "nello", False, None, [1, 0])]


def test_nello_84_marks(tmp_path):
    log = [header(nello=True), B(42), B(84), P(), P(), T("nello", doubles="low"),
           R(made=True)]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 2, 84, "nello", True, None, [2, 0])]


@pytest.mark.parametrize("mode", ["high", "low", "suit"])
def test_nello_doubles_modes_default_all_allowed(tmp_path, mode):
    log = [header(nello=True), B(42), P(), P(), P(), T("nello", doubles=mode), R(made=True)]
    out = ok(tmp_path, log)
    assert out["options"]["nello_doubles"] == ["high", "low", "suit"]
    assert out["hands"][0]["contract"] == "nello"


def test_nello_doubles_mode_not_allowed_refused(tmp_path):
    opts = dict(nello=True, nello_doubles=["high", "low"])
    ok(tmp_path, [header(**opts), B(42), P(), P(), P(), T("nello", doubles="low")])
    refused(tmp_path, [header(**opts), B(42), P(), P(), P(), T("nello", doubles="suit")], 6)


def test_nello_unknown_doubles_mode_refused(tmp_path):
    refused(tmp_path, [header(nello=True), B(42), P(), P(), P(),
                       T("nello", doubles="middle")], 6)


@pytest.mark.parametrize("allowed", [["low"], ["suit", "low"], ["high"], ["low", "high"]])
def test_nello_without_doubles_takes_the_default(tmp_path, allowed):
    # Fine point 11: no `doubles` means `high` if allowed, else the first allowed entry:
    # so it is always accepted, whatever `nello_doubles` allows.
    opts = dict(nello=True, nello_doubles=allowed)
    out = ok(tmp_path, [header(**opts), B(42), P(), P(), P(), T("nello"), R(made=True)])
    assert out["options"]["nello_doubles"] == allowed
    assert out["hands"] == [hand(0, 1, 42, "nello", True, None, [0, 1])]


def test_nello_high_refused_when_not_allowed(tmp_path):
    opts = dict(nello=True, nello_doubles=["low"])
    refused(tmp_path, [header(**opts), B(42), P(), P(), P(), T("nello", doubles="high")], 6)


def test_sevens_contract(tmp_path):
    log = [header(sevens=True), B(84), P(), P(), P(), T("sevens"), R(made=True)]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 84, "sevens", True, None, [0, 2])]


# ----------------------------------------------------------------- plunge and splash

def test_plunge_opening_value_partner_names_trump(tmp_path):
    base = [header(plunge=True), B("plunge"), P(), P(), P()]
    out = ok(tmp_path, base)
    nxt = out["next"]
    assert nxt["phase"] == "trump"
    assert nxt["dealer"] == 0
    assert nxt["seat"] == 3                      # bidder 1's partner names trump
    assert sorted(map(str, nxt["legal"])) == sorted(map(str, TRUMPS_42))
    out = ok(tmp_path, base + [T(4)])
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 3}   # partner leads
    out = ok(tmp_path, base + [T(4), R(made=True)])
    assert out["hands"] == [{"dealer": 0, "bidder": 1, "bid": 168, "trump": 4,
                             "contract": "plunge", "made": True, "points": None,
                             "award": [0, 4]}]
    assert out["score"] == [0, 4]


def test_plunge_partner_leads_then_trick_winner(tmp_path):
    base = [header(plunge=True), P(), P(), B("plunge"), P(), T(2)]
    out = ok(tmp_path, base)
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 1}   # bidder 3's partner
    out = ok(tmp_path, base + [K(3, 10)])
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 3}
    refused(tmp_path, base + [K(3, 10), K(0)] + [R(made=True)], 9)


def test_plunge_only_with_plunge_after_84(tmp_path):
    out = ok(tmp_path, [header(plunge=True), B(84)])
    assert out["next"]["legal"] == ["pass", 126, "plunge"]


def test_plunge_needs_every_trick(tmp_path):
    base = [header(plunge=True), B("plunge"), P(), P(), P(), T("follow-me")]
    out = ok(tmp_path, base + [R(points=41)])
    assert out["hands"] == [{"dealer": 0, "bidder": 1, "bid": 168, "trump": "follow-me",
                             "contract": "plunge", "made": False, "points": 41,
                             "award": [4, 0]}]


def test_plunge_marks_option(tmp_path):
    log = [header(plunge=True, plunge_marks=5), P(), B("plunge"), P(), P(), T("doubles"),
           R(made=True)]
    out = ok(tmp_path, log)
    assert out["options"]["plunge_marks"] == 5
    assert out["hands"] == [{"dealer": 0, "bidder": 2, "bid": 210, "trump": "doubles",
                             "contract": "plunge", "made": True, "points": None,
                             "award": [5, 0]}]


def test_plunge_one_mark_more_than_an_as_high_standing_bid(tmp_path):
    base = [header(plunge=True), B(84), B(126), B(168)]
    out = ok(tmp_path, base)
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 0,
                           "legal": ["pass", 210, "plunge"]}
    out = ok(tmp_path, base + [B("plunge")])
    assert out["next"]["phase"] == "trump"
    assert out["next"]["seat"] == 2               # dealer 0's partner
    out = ok(tmp_path, base + [B("plunge"), T(0), R(made=True)])
    assert out["hands"] == [{"dealer": 0, "bidder": 0, "bid": 210, "trump": 0,
                             "contract": "plunge", "made": True, "points": None,
                             "award": [5, 0]}]


def test_named_bids_sort_after_equal_numbers(tmp_path):
    out = ok(tmp_path, [header(plunge=True, splash=True)])
    assert out["next"]["legal"] == OPENING_42 + ["splash", "plunge"]
    out = ok(tmp_path, [header(plunge=True, splash=True), B(84)])
    assert out["next"]["legal"] == ["pass", 126, "splash", "plunge"]


def test_splash_partner_names_trump(tmp_path):
    base = [header(splash=True), P(), B("splash"), P(), P()]
    out = ok(tmp_path, base)
    assert out["next"]["phase"] == "trump"
    assert out["next"]["seat"] == 0
    out = ok(tmp_path, base + [T("doubles"), R(made=False)])
    assert out["hands"] == [{"dealer": 0, "bidder": 2, "bid": 126, "trump": "doubles",
                             "contract": "splash", "made": False, "points": None,
                             "award": [0, 3]}]


def test_splash_after_standing_84_is_126(tmp_path):
    out = ok(tmp_path, [header(splash=True), B(84)])
    assert out["next"]["legal"] == ["pass", 126, "splash"]
    out = ok(tmp_path, [header(splash=True), B(84), B("splash"), P(), P(), T(3),
                        R(made=True)])
    assert out["hands"][0]["bid"] == 126
    assert out["hands"][0]["award"] == [3, 0]


def test_splash_one_mark_more_than_standing_126(tmp_path):
    log = [header(splash=True), B(42), B(84), B(126), B("splash"), T(1), R(made=True)]
    out = ok(tmp_path, log)
    assert out["hands"] == [{"dealer": 0, "bidder": 0, "bid": 168, "trump": 1,
                             "contract": "splash", "made": True, "points": None,
                             "award": [4, 0]}]


def test_plunge_bid_without_option_refused(tmp_path):
    refused(tmp_path, [header(), B("plunge")], 2)


def test_splash_bid_without_option_refused(tmp_path):
    refused(tmp_path, [header(plunge=True), B("splash")], 2)


@pytest.mark.parametrize("contract", ["nello", "sevens"])
def test_partner_after_plunge_may_not_name_special(tmp_path, contract):
    opts = dict(plunge=True, nello=True, sevens=True)
    out = ok(tmp_path, [header(**opts), B("plunge"), P(), P(), P()])
    assert contract not in out["next"]["legal"]
    refused(tmp_path, [header(**opts), B("plunge"), P(), P(), P(), T(contract)], 6)


@pytest.mark.parametrize("opt", ["nello", "sevens", "plunge", "splash"])
def test_special_options_refused_with_points_scoring(tmp_path, opt):
    refused(tmp_path, [header(scoring="points", **{opt: True})], 1)


# =========================================================================== marks scoring

def test_marks_made_and_set_awards(tmp_path):
    log = [header()]
    log += auction(0, 1, 30) + [T(5), R(points=31)]       # made: 1 mark to team 1
    log += auction(1, 2, 84) + [T(6), R(made=False)]      # set: 2 marks to team 1
    log += auction(2, 0, 42) + [T(2), R(points=41)]       # 42 needs every point: set
    out = ok(tmp_path, log)
    assert out["hands"] == [
        hand(0, 1, 30, 5, True, 31, [0, 1]),
        hand(1, 2, 84, 6, False, None, [0, 2]),
        hand(2, 0, 42, 2, False, 41, [0, 1]),
    ]
    assert out["score"] == [0, 4]
    assert out["over"] is False
    assert out["winner"] is None
    assert out["next"] == {"phase": "bidding", "dealer": 3, "seat": 0, "legal": OPENING_42}


def test_marks_point_bid_short_is_set(tmp_path):
    out = ok(tmp_path, [header()] + auction(0, 3, 35) + [T(4), R(points=34)])
    assert out["hands"] == [hand(0, 3, 35, 4, False, 34, [1, 0])]


def test_marks_made_42_with_every_point(tmp_path):
    out = ok(tmp_path, [header()] + auction(0, 3, 42) + [T(4), R(points=42)])
    assert out["hands"] == [hand(0, 3, 42, 4, True, 42, [0, 1])]


def test_84_is_two_marks_first_to_target_wins(tmp_path):
    log = [header()]
    log += auction(0, 1, 84) + [T(6), R(made=True)]
    log += auction(1, 3, 84) + [T(6), R(made=True)]
    log += auction(2, 3, 84) + [T(6), R(made=True)]
    out = ok(tmp_path, log)
    assert out["score"] == [0, 6]
    assert out["over"] is False
    assert out["winner"] is None
    log += auction(3, 1, 84) + [T(6), R(made=True)]
    out = ok(tmp_path, log)
    assert out["score"] == [0, 8]
    assert out["over"] is True
    assert out["winner"] == 1
    assert out["next"] == {"phase": "over", "dealer": None, "seat": None}
    # fine point 4: `hands` lists finished deals, the one that ended the sitting included
    assert [h["award"] for h in out["hands"]] == [[0, 2]] * 4


def test_hands_lists_the_deal_that_ends_the_sitting(tmp_path):
    # fine point 4: "`hands` lists finished deals (scored or thrown in)"
    out = ok(tmp_path, [header(target=1)] + auction(0, 1, 30) + [T(5), R(made=True)])
    assert out["over"] is True
    assert out["hands"] == [hand(0, 1, 30, 5, True, None, [0, 1])]


def test_target_option_marks(tmp_path):
    log = [header(target=2)] + auction(0, 0, 84) + [T(1), R(made=True)]
    out = ok(tmp_path, log)
    assert out["options"]["target"] == 2
    assert out["over"] is True
    assert out["winner"] == 0
    assert out["score"] == [2, 0]


OVER_LOG = [header(target=1)] + auction(0, 1, 30) + [T(5), R(made=True)]   # lines 1..7


@pytest.mark.parametrize("event", [P(), B(30), K(1), R(made=True), T(5)])
def test_events_after_over_refused(tmp_path, event):
    out = ok(tmp_path, OVER_LOG)
    assert out["over"] is True and out["winner"] == 1
    refused(tmp_path, OVER_LOG + [event], 8)


def test_undo_after_over_reopens_last_hand(tmp_path):
    out = ok(tmp_path, OVER_LOG + [U()])
    assert out["over"] is False
    assert out["winner"] is None
    assert out["hands"] == []
    assert out["score"] == [0, 0]
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 1}
    out = ok(tmp_path, OVER_LOG + [U(), R(made=False)])
    assert out["over"] is True
    assert out["winner"] == 0
    assert out["score"] == [1, 0]
    assert out["hands"] == [hand(0, 1, 30, 5, False, None, [1, 0])]


def test_game_bid_refused_in_marks(tmp_path):
    out = ok(tmp_path, [header(), B(84), B(126), B(168)])
    assert out["next"]["legal"] == ["pass", 210]
    refused(tmp_path, [header(), B(84), B(126), B(168), B("game")], 5)


def test_marks_result_points_out_of_range_refused(tmp_path):
    refused(tmp_path, [header()] + auction(0, 1, 30) + [T(5), R(points=43)], 7)


# =========================================================================== points scoring

def test_points_made_scores_points_default(tmp_path):
    out = ok(tmp_path, [header(scoring="points")] + auction(0, 1, 30) + [T(5), R(points=31)])
    assert out["options"]["scoring"] == "points"
    assert out["options"]["target"] == 250
    assert out["options"]["made_scores"] == "points"
    assert out["hands"] == [hand(0, 1, 30, 5, True, 31, [11, 31])]
    assert out["score"] == [11, 31]


def test_points_made_scores_bid(tmp_path):
    log = [header(scoring="points", made_scores="bid")] + auction(0, 1, 30) + [T(5),
                                                                              R(points=31)]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 30, 5, True, 31, [11, 30])]


def test_points_set_opponents_score_bid_plus_their_points(tmp_path):
    out = ok(tmp_path, [header(scoring="points")] + auction(0, 1, 30) + [T(5), R(points=25)])
    assert out["hands"] == [hand(0, 1, 30, 5, False, 25, [47, 0])]


def test_points_bid_above_42_scores_the_bid(tmp_path):
    log = [header(scoring="points")] + auction(0, 1, 84) + [T(5), R(points=42)]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 84, 5, True, 42, [0, 84])]
    log = [header(scoring="points")] + auction(0, 2, 84) + [T(5), R(points=41)]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 2, 84, 5, False, 41, [0, 85])]


def test_points_42_bid_made_and_set(tmp_path):
    out = ok(tmp_path, [header(scoring="points")] + auction(0, 0, 42) + [T(3), R(points=42)])
    assert out["hands"] == [hand(0, 0, 42, 3, True, 42, [42, 0])]
    out = ok(tmp_path, [header(scoring="points")] + auction(0, 0, 42) + [T(3), R(points=40)])
    assert out["hands"] == [hand(0, 0, 42, 3, False, 40, [0, 44])]


def test_points_scoring_needs_points(tmp_path):
    refused(tmp_path, [header(scoring="points")] + auction(0, 1, 30) + [T(5), R(made=True)], 7)


@pytest.mark.parametrize("pts", [43, -1])
def test_points_out_of_range_refused(tmp_path, pts):
    refused(tmp_path, [header(scoring="points")] + auction(0, 1, 30) + [T(5), R(points=pts)], 7)


def test_game_bid_after_168_in_points(tmp_path):
    out = ok(tmp_path, [header(scoring="points"), B(84), B(126), B(168)])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 0,
                           "legal": ["pass", "game"]}


def test_210_refused_after_168_in_points(tmp_path):
    refused(tmp_path, [header(scoring="points"), B(84), B(126), B(168), B(210)], 5)


@pytest.mark.parametrize("before", [[], [B(84)], [B(84), B(126)]])
def test_game_bid_before_168_refused(tmp_path, before):
    log = [header(scoring="points")] + before + [B("game")]
    refused(tmp_path, log, len(log))


def test_game_made_wins_at_once(tmp_path):
    log = [header(scoring="points")]
    log += auction(0, 1, 30) + [T(5), R(points=0)]                 # set: team 0 gets 72
    log += [B(84), B(126), B(168), B("game"), T(6), R(points=42)]  # dealer 1 bids game
    out = ok(tmp_path, log)
    assert out["score"] == [72, 42]
    assert out["over"] is True
    assert out["winner"] == 1
    assert out["next"] == {"phase": "over", "dealer": None, "seat": None}
    assert out["hands"] == [hand(0, 1, 30, 5, False, 0, [72, 0]),
                            hand(1, 1, "game", 6, True, 42, [0, 42])]


def test_game_set_loses_at_once(tmp_path):
    log = [header(scoring="points")]
    log += auction(0, 1, 30) + [T(5), R(points=42)]                # team 1 takes 42
    log += [B(84), B(126), B(168), B("game"), T(6), R(points=41)]  # team 1 bids game, set
    out = ok(tmp_path, log)
    assert out["score"] == [1, 42]
    assert out["over"] is True
    assert out["winner"] == 0
    refused(tmp_path, log + [B(30)], len(log) + 1)
    assert out["hands"] == [hand(0, 1, 30, 5, True, 42, [0, 42]),
                            hand(1, 1, "game", 6, False, 41, [1, 0])]


def test_points_both_reach_target_hand_winner_wins(tmp_path):
    log = [header(scoring="points", target=100)]
    log += auction(0, 1, 30) + [T(0), R(points=10)]    # set: [62, 0]
    log += auction(1, 2, 30) + [T(1), R(points=30)]    # made: [30, 12]
    log += auction(2, 0, 30) + [T(2), R(points=12)]    # set: [0, 60]
    out = ok(tmp_path, log)
    assert out["score"] == [92, 72]
    assert out["over"] is False
    log += auction(3, 1, 30) + [T(3), R(points=30)]    # made: [12, 30]
    out = ok(tmp_path, log)
    assert out["score"] == [104, 102]
    assert out["over"] is True
    assert out["winner"] == 1          # the bidders made the hand, though behind
    assert [h["award"] for h in out["hands"]] == [[62, 0], [30, 12], [0, 60], [12, 30]]


def test_points_first_to_target(tmp_path):
    log = [header(scoring="points", target=60)]
    log += auction(0, 1, 30) + [T(0), R(points=42)]    # [0, 42]
    log += auction(1, 3, 30) + [T(0), R(points=30)]    # [12, 30] -> [12, 72]
    out = ok(tmp_path, log)
    assert out["score"] == [12, 72]
    assert out["over"] is True
    assert out["winner"] == 1


# =========================================================================== trick tracking

FULL_TRICKS = [K(1, 10), K(1, 10), K(3, 5), K(0, 5), K(1, 0), K(2, 5), K(1)]
# team 1 (seats 1, 3): 5 tricks + 25 count = 30; team 0: 2 tricks + 10 count = 12


@pytest.mark.parametrize("count", [7, 1, 12, 33])
def test_trick_count_must_be_multiple_of_5(tmp_path, count):
    refused(tmp_path, [header()] + auction(0, 1, 30) + [T(5), K(1, count)], 7)


def test_trick_count_running_total_within_35(tmp_path):
    base = [header()] + auction(0, 1, 30) + [T(5), K(1, 10), K(0, 10), K(2, 10)]
    ok(tmp_path, base + [K(2, 5)])
    refused(tmp_path, base + [K(2, 10)], 10)


def test_trick_count_defaults_to_zero(tmp_path):
    base = [header()] + auction(0, 1, 30) + [T(5), K(1), K(0, 10), K(2, 10), K(2, 10)]
    ok(tmp_path, base + [K(3, 5)])


def test_next_seat_in_play_is_last_trick_winner(tmp_path):
    base = [header()] + auction(0, 1, 30) + [T(5)]
    out = ok(tmp_path, base + [K(0, 5)])
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 0}
    out = ok(tmp_path, base + [K(0, 5), K(2)])
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 2}


def test_full_tracking_scores_hand_at_last_trick(tmp_path):
    base = [header()] + auction(0, 1, 30) + [T(5)] + FULL_TRICKS
    out = ok(tmp_path, base)
    assert out["hands"] == [hand(0, 1, 30, 5, True, 30, [0, 1])]
    assert out["score"] == [0, 1]
    assert out["next"] == {"phase": "bidding", "dealer": 1, "seat": 2, "legal": OPENING_42}


@pytest.mark.parametrize("result", [R(points=30), R(made=True)])
def test_agreeing_result_after_last_trick_changes_nothing(tmp_path, result):
    base = [header()] + auction(0, 1, 30) + [T(5)] + FULL_TRICKS
    expect = ok(tmp_path, base, name="a.jsonl")
    out = ok(tmp_path, base + [result], name="b.jsonl")
    assert out == expect


@pytest.mark.parametrize("result", [R(points=31), R(points=29), R(made=False)])
def test_disagreeing_result_after_last_trick_refused(tmp_path, result):
    base = [header()] + auction(0, 1, 30) + [T(5)] + FULL_TRICKS
    refused(tmp_path, base + [result], len(base) + 1)


def test_full_tracking_points_scoring(tmp_path):
    base = [header(scoring="points")] + auction(0, 1, 30) + [T(5)] + FULL_TRICKS
    out = ok(tmp_path, base)
    assert out["hands"] == [hand(0, 1, 30, 5, True, 30, [12, 30])]


def test_full_tracking_set_hand(tmp_path):
    tricks = [K(0, 10), K(0, 10), K(2, 5), K(1, 5), K(0), K(3, 5), K(2)]
    # team 1: 2 tricks + 10 = 12 ; team 0: 5 tricks + 25 = 30
    out = ok(tmp_path, [header()] + auction(0, 1, 30) + [T(5)] + tricks)
    assert out["hands"] == [hand(0, 1, 30, 5, False, 12, [1, 0])]


def test_trick_after_last_trick_starts_nothing(tmp_path):
    base = [header()] + auction(0, 1, 30) + [T(5)] + FULL_TRICKS
    refused(tmp_path, base + [K(1)], len(base) + 1)


PARTIAL = [K(1, 10), K(0, 10), K(3, 5)]
# bidders (team 1) have at least 2 + 15 = 17; opponents at least 1 + 10 = 11 -> at most 31


@pytest.mark.parametrize("pts", [17, 24, 31])
def test_partial_tracking_agreeing_result_accepted(tmp_path, pts):
    out = ok(tmp_path, [header()] + auction(0, 1, 30) + [T(5)] + PARTIAL + [R(points=pts)])
    assert out["hands"] == [hand(0, 1, 30, 5, pts >= 30, pts, [0, 1] if pts >= 30 else [1, 0])]


@pytest.mark.parametrize("pts", [16, 0, 32, 42])
def test_partial_tracking_contradicting_result_refused(tmp_path, pts):
    log = [header()] + auction(0, 1, 30) + [T(5)] + PARTIAL + [R(points=pts)]
    refused(tmp_path, log, len(log))


def test_partial_tracking_made_42_after_lost_trick_refused(tmp_path):
    log = [header()] + auction(0, 1, 42) + [T(5), K(1, 5), K(0)] + [R(made=True)]
    refused(tmp_path, log, len(log))
    out = ok(tmp_path, log[:-1] + [R(made=False)])
    assert out["hands"] == [hand(0, 1, 42, 5, False, None, [1, 0])]


def test_nello_partner_cannot_win_a_trick(tmp_path):
    base = [header(nello=True), B(42), P(), P(), P(), T("nello", doubles="high")]
    refused(tmp_path, base + [K(3)], 7)
    ok(tmp_path, base + [K(0), K(2)])


def test_nello_trick_taken_contradicts_made(tmp_path):
    base = [header(nello=True), B(42), P(), P(), P(), T("nello", doubles="suit"), K(0), K(1)]
    refused(tmp_path, base + [R(made=True)], 9)
    refused(tmp_path, base + [R(points=0)], 9)
    out = ok(tmp_path, base + [R(made=False)])
    assert out["hands"][0]["award"] == [1, 0]


def test_trick_winner_out_of_range_refused(tmp_path):
    refused(tmp_path, [header()] + auction(0, 1, 30) + [T(5), K(4)], 7)


def test_big_game_count_within_55(tmp_path):
    base = [header("big-game"), B(42), P(), P(), P(), T(8)]
    base += [K(1, 10), K(1, 10), K(1, 10), K(1, 10), K(1, 10)]      # 50
    ok(tmp_path, base + [K(1, 5)])                                  # 55
    refused(tmp_path, base + [K(1, 10)], len(base) + 1)             # 60


# =========================================================================== undo

def test_undo_with_nothing_to_undo_refused(tmp_path):
    refused(tmp_path, [header(), U()], 2)


def test_undo_takes_back_successive_events_then_refuses(tmp_path):
    out = ok(tmp_path, [header(), B(30), B(31), U()])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 2,
                           "legal": ["pass"] + list(range(31, 42)) + [42, 84]}
    out = ok(tmp_path, [header(), B(30), B(31), U(), U()])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 1, "legal": OPENING_42}
    refused(tmp_path, [header(), B(30), B(31), U(), U(), U()], 6)


def test_undo_then_new_event(tmp_path):
    out = ok(tmp_path, [header(), B(30), U(), B(35)])
    assert out["next"]["seat"] == 2
    assert out["next"]["legal"][:2] == ["pass", 36]


def test_undo_across_hand_boundary(tmp_path):
    log = [header()] + auction(0, 1, 30) + [T(5), R(points=31), B(33)]
    out = ok(tmp_path, log + [U()])
    assert out["hands"] == [hand(0, 1, 30, 5, True, 31, [0, 1])]
    assert out["next"] == {"phase": "bidding", "dealer": 1, "seat": 2, "legal": OPENING_42}
    out = ok(tmp_path, log + [U(), U()])
    assert out["hands"] == []
    assert out["score"] == [0, 0]
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 1}
    out = ok(tmp_path, log + [U(), U(), R(points=20)])
    assert out["hands"] == [hand(0, 1, 30, 5, False, 20, [1, 0])]
    assert out["score"] == [1, 0]


def test_undo_reopens_a_thrown_in_deal(tmp_path):
    out = ok(tmp_path, [header(all_pass="redeal"), P(), P(), P(), P(), U()])
    assert out["hands"] == []
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 0, "legal": OPENING_42}


def test_undo_of_trump_returns_to_trump_phase(tmp_path):
    out = ok(tmp_path, [header(), B(30), P(), P(), P(), T(5), U()])
    assert out["next"]["phase"] == "trump"
    assert out["next"]["seat"] == 1
    out = ok(tmp_path, [header(), B(30), P(), P(), P(), T(5), U(), T("doubles"),
                        R(made=True)])
    assert out["hands"] == [hand(0, 1, 30, "doubles", True, None, [0, 1])]


def test_undo_after_game_bid_over_points(tmp_path):
    log = [header(scoring="points"), B(84), B(126), B(168), B("game"), T(6), R(points=42)]
    out = ok(tmp_path, log)
    assert out["over"] is True and out["winner"] == 0
    out = ok(tmp_path, log + [U()])
    assert out["over"] is False
    assert out["winner"] is None
    assert out["score"] == [0, 0]
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 0}


def test_undo_of_last_tracked_trick(tmp_path):
    base = [header()] + auction(0, 1, 30) + [T(5)] + FULL_TRICKS
    out = ok(tmp_path, base + [U()])
    assert out["hands"] == []
    assert out["score"] == [0, 0]
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 2}   # winner of trick 6


# =========================================================================== Moon

def moon(**options):
    return hdr("moon", players=["Ann", "Bob", "Cy"], **options)


def test_moon_opening(tmp_path):
    out = ok(tmp_path, [moon()])
    assert out["variant"] == "moon"
    assert out["score"] == [0, 0, 0]
    assert out["options"]["all_pass"] == "redeal"
    assert out["options"]["target"] == 21
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 1,
                           "legal": ["pass", 4, 5, 6, 7, 21]}


def test_moon_legal_after_bid(tmp_path):
    out = ok(tmp_path, [moon(), B(5)])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 2,
                           "legal": ["pass", 6, 7, 21]}


@pytest.mark.parametrize("bid", [3, 8, 20, 22, 42])
def test_moon_bid_out_of_range_refused(tmp_path, bid):
    refused(tmp_path, [moon(), B(bid)], 2)


def test_moon_bid_not_beating_refused(tmp_path):
    refused(tmp_path, [moon(), B(5), B(5)], 3)


def test_moon_made_and_set(tmp_path):
    log = [moon(), B(5), P(), P(), T(6), R(tricks=[2, 5, 0])]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 5, 6, True, 5, [2, 5, 0])]
    assert out["score"] == [2, 5, 0]
    assert out["next"] == {"phase": "bidding", "dealer": 1, "seat": 2,
                           "legal": ["pass", 4, 5, 6, 7, 21]}
    log = [moon(), B(5), P(), P(), T(6), R(tricks=[3, 4, 0])]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 5, 6, False, 4, [3, -5, 0])]
    assert out["score"] == [3, -5, 0]
    assert out["over"] is False


def test_moon_negative_totals_accumulate(tmp_path):
    log = [moon(), B(5), P(), P(), T(6), R(tricks=[3, 4, 0])]        # dealer 0: [3,-5,0]
    log += [P(), P(), B(6), T(2), R(tricks=[4, 1, 2])]               # dealer 1, bidder 1
    out = ok(tmp_path, log)
    assert out["hands"][1] == hand(1, 1, 6, 2, False, 1, [4, -6, 2])
    assert out["score"] == [7, -11, 2]


def test_moon_results_need_tricks(tmp_path):
    base = [moon(), B(5), P(), P(), T(6)]
    refused(tmp_path, base + [R(made=True)], 6)
    refused(tmp_path, base + [R(points=5)], 6)


def test_moon_tricks_must_total_seven(tmp_path):
    refused(tmp_path, [moon(), B(5), P(), P(), T(6), R(tricks=[2, 5, 1])], 6)


def test_moon_shoot_the_moon_wins_outright(tmp_path):
    log = [moon(target=50), B(21), P(), P(), T(6), R(tricks=[0, 7, 0])]
    out = ok(tmp_path, log)
    assert out["score"] == [0, 21, 0]
    assert out["over"] is True
    assert out["winner"] == 1
    assert out["next"] == {"phase": "over", "dealer": None, "seat": None}
    assert out["hands"] == [hand(0, 1, 21, 6, True, 7, [0, 21, 0])]


def test_moon_shoot_the_moon_set_loses_21(tmp_path):
    log = [moon(), B(21), P(), P(), T(6), R(tricks=[1, 6, 0])]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 21, 6, False, 6, [1, -21, 0])]
    assert out["score"] == [1, -21, 0]
    assert out["over"] is False
    assert out["winner"] is None


MOON_T5 = [moon(target=5), B(4), P(), P(), T(6), R(tricks=[1, 4, 2])]   # [1, 4, 2]


def test_moon_exact_tie_plays_on(tmp_path):
    log = MOON_T5 + [B(5), P(), P(), T(3), R(tricks=[4, 1, 2])]      # bidder 2 set
    out = ok(tmp_path, log)
    assert out["score"] == [5, 5, -3]
    assert out["over"] is False
    assert out["winner"] is None
    assert out["next"] == {"phase": "bidding", "dealer": 2, "seat": 0,
                           "legal": ["pass", 4, 5, 6, 7, 21]}


def test_moon_several_reach_higher_wins(tmp_path):
    log = MOON_T5 + [B(5), P(), P(), T(3), R(tricks=[4, 2, 1])]
    out = ok(tmp_path, log)
    assert out["score"] == [5, 6, -3]
    assert out["over"] is True
    assert out["winner"] == 1
    assert len(out["hands"]) == 2


def test_moon_bidder_among_those_reaching_wins(tmp_path):
    log = MOON_T5 + [B(4), P(), P(), T(3), R(tricks=[0, 3, 4])]
    out = ok(tmp_path, log)
    assert out["score"] == [1, 7, 6]
    assert out["over"] is True
    assert out["winner"] == 2
    assert [h["award"] for h in out["hands"]] == [[1, 4, 2], [0, 3, 4]]


def test_moon_all_pass_redeal_default(tmp_path):
    out = ok(tmp_path, [moon(), P(), P(), P()])
    assert out["hands"] == [{"dealer": 0, "thrown_in": True}]
    assert out["next"] == {"phase": "bidding", "dealer": 1, "seat": 2,
                           "legal": ["pass", 4, 5, 6, 7, 21]}


def test_moon_forced_dealer(tmp_path):
    out = ok(tmp_path, [moon(all_pass="forced"), P(), P()])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 0,
                           "legal": [4, 5, 6, 7, 21]}
    refused(tmp_path, [moon(all_pass="forced"), P(), P(), P()], 4)


def test_moon_partial_tracking_result_must_agree(tmp_path):
    base = [moon(), B(4), P(), P(), T(6), K(0), K(0), K(0)]
    refused(tmp_path, base + [R(tricks=[2, 5, 0])], 9)
    out = ok(tmp_path, base + [R(tricks=[3, 4, 0])])
    assert out["hands"] == [hand(0, 1, 4, 6, True, 4, [3, 4, 0])]


def test_moon_header_dealer(tmp_path):
    out = ok(tmp_path, [hdr("moon", dealer=2)])
    assert out["next"] == {"phase": "bidding", "dealer": 2, "seat": 0,
                           "legal": ["pass", 4, 5, 6, 7, 21]}
    out = ok(tmp_path, [hdr("moon", dealer=2), P(), B(6), P(), T(1), R(tricks=[1, 6, 0])])
    assert out["hands"] == [hand(2, 1, 6, 1, True, 6, [1, 6, 0])]
    assert out["next"]["dealer"] == 0
    assert out["next"]["seat"] == 1


def test_moon_bid_out_of_turn_refused(tmp_path):
    refused(tmp_path, [moon(), B(4, seat=2)], 2)


def test_moon_undo_after_shot_moon(tmp_path):
    log = [moon(), B(21), P(), P(), T(6), R(tricks=[0, 7, 0])]
    out = ok(tmp_path, log + [U()])
    assert out["over"] is False
    assert out["winner"] is None
    assert out["score"] == [0, 0, 0]
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 1}


def test_moon_trick_count_must_be_zero(tmp_path):
    base = [moon(), B(4), P(), P(), T(6)]
    ok(tmp_path, base + [K(1, 0)])
    refused(tmp_path, base + [K(1, 5)], 6)


def test_moon_full_tracking(tmp_path):
    log = [moon(), B(4), P(), P(), T(6)] + [K(1), K(1), K(1), K(1), K(0), K(2), K(2)]
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 4, 6, True, 4, [1, 4, 2])]
    assert out["next"]["phase"] == "bidding"
    assert out["next"]["dealer"] == 1


@pytest.mark.parametrize("opt", [{"nello": True}, {"plunge": True}, {"scoring": "marks"},
                                 {"match_games": 3}])
def test_moon_inapplicable_options_refused(tmp_path, opt):
    refused(tmp_path, [moon(**opt)], 1)


# =========================================================================== Partnership Moon

def pm(**options):
    return hdr("partnership-moon", **options)


def test_pm_opening(tmp_path):
    out = ok(tmp_path, [pm()])
    assert out["options"]["match_games"] == 3
    assert out["options"]["all_pass"] == "redeal"
    assert out["score"] == [0, 0]
    assert out["games"] == []
    assert out["match"] == [0, 0]
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 1,
                           "legal": ["pass", 3, 4, 5, 6, 7]}


@pytest.mark.parametrize("bid", [2, 8, 21])
def test_pm_bid_out_of_range_refused(tmp_path, bid):
    refused(tmp_path, [pm(), B(bid)], 2)


def test_pm_made_and_set_with_points(tmp_path):
    out = ok(tmp_path, [pm()] + auction(0, 1, 4) + [T(6), R(points=5)])
    assert out["hands"] == [hand(0, 1, 4, 6, True, 5, [2, 5])]
    assert out["score"] == [2, 5]
    out = ok(tmp_path, [pm()] + auction(0, 1, 4) + [T(6), R(points=3)])
    assert out["hands"] == [hand(0, 1, 4, 6, False, 3, [4, -4])]
    assert out["score"] == [4, -4]


def test_pm_four_seat_tricks_list(tmp_path):
    out = ok(tmp_path, [pm()] + auction(0, 1, 4) + [T(6), R(tricks=[1, 2, 1, 3])])
    assert out["hands"] == [hand(0, 1, 4, 6, True, 5, [2, 5])]


def test_pm_made_alone_refused(tmp_path):
    refused(tmp_path, [pm()] + auction(0, 1, 4) + [T(6), R(made=True)], 7)


def test_pm_points_out_of_range_refused(tmp_path):
    refused(tmp_path, [pm()] + auction(0, 1, 4) + [T(6), R(points=8)], 7)


def test_pm_all_pass_redeal_default(tmp_path):
    out = ok(tmp_path, [pm(), P(), P(), P(), P()])
    assert out["hands"] == [{"dealer": 0, "thrown_in": True}]
    assert out["next"]["dealer"] == 1
    assert out["next"]["seat"] == 2


def test_pm_trick_count_must_be_zero(tmp_path):
    refused(tmp_path, [pm()] + auction(0, 1, 4) + [T(6), K(1, 5)], 7)


def pm_hand(dealer, bidder, bid, points, trump=6):
    return auction(dealer, bidder, bid) + [T(trump), R(points=points)]


def test_pm_both_reach_target_bidding_team_wins(tmp_path):
    log = [pm()]
    log += pm_hand(0, 1, 3, 7)      # [0, 7]
    log += pm_hand(1, 2, 3, 7)      # [7, 0]
    log += pm_hand(2, 3, 3, 0)      # set: [7, -3]
    log += pm_hand(3, 0, 3, 0)      # set: [-3, 7]
    log += pm_hand(0, 1, 3, 7)      # [0, 7]
    log += pm_hand(1, 2, 3, 7)      # [7, 0]
    out = ok(tmp_path, log)
    assert [h["award"] for h in out["hands"]] == [[0, 7], [7, 0], [7, -3], [-3, 7],
                                                 [0, 7], [7, 0]]
    assert out["score"] == [18, 18]
    assert out["games"] == []
    log += pm_hand(2, 3, 3, 3)      # team 1 makes 3: [4, 3] -> [22, 21]
    out = ok(tmp_path, log)
    assert out["games"] == [{"score": [22, 21], "winner": 1}]
    assert out["match"] == [0, 1]
    assert out["score"] == [0, 0]
    assert out["over"] is False
    assert out["winner"] is None
    assert out["next"]["phase"] == "bidding"


def test_pm_match_best_of_three(tmp_path):
    log = [pm()]
    log += pm_hand(0, 1, 7, 7) + pm_hand(1, 3, 7, 7) + pm_hand(2, 3, 7, 7)   # game 1
    out = ok(tmp_path, log)
    assert out["games"] == [{"score": [0, 21], "winner": 1}]
    assert out["match"] == [0, 1]
    assert out["score"] == [0, 0]
    assert out["over"] is False
    assert out["next"] == {"phase": "bidding", "dealer": 3, "seat": 0,
                           "legal": ["pass", 3, 4, 5, 6, 7]}
    log += pm_hand(3, 1, 7, 7) + pm_hand(0, 1, 7, 7)
    out = ok(tmp_path, log)
    assert out["score"] == [0, 14]
    log += pm_hand(1, 3, 7, 7)                                                # game 2
    out = ok(tmp_path, log)
    assert out["games"] == [{"score": [0, 21], "winner": 1},
                            {"score": [0, 21], "winner": 1}]
    assert out["match"] == [0, 2]
    assert out["score"] == [0, 21]
    assert out["over"] is True
    assert out["winner"] == 1
    assert out["next"] == {"phase": "over", "dealer": None, "seat": None}
    refused(tmp_path, log + [P()], len(log) + 1)
    assert len(out["hands"]) == 6


def test_pm_match_games_option(tmp_path):
    log = [pm(match_games=1)]
    log += pm_hand(0, 1, 7, 7) + pm_hand(1, 3, 7, 7) + pm_hand(2, 3, 7, 7)
    out = ok(tmp_path, log)
    assert out["options"]["match_games"] == 1
    assert out["games"] == [{"score": [0, 21], "winner": 1}]
    assert out["match"] == [0, 1]
    assert out["over"] is True
    assert out["winner"] == 1
    assert out["score"] == [0, 21]
    assert len(out["hands"]) == 3


def test_pm_three_games_needed_at_one_all(tmp_path):
    log = [pm()]
    log += pm_hand(0, 1, 7, 7) + pm_hand(1, 3, 7, 7) + pm_hand(2, 3, 7, 7)   # team 1
    log += pm_hand(3, 0, 7, 7) + pm_hand(0, 2, 7, 7) + pm_hand(1, 2, 7, 7)   # team 0
    out = ok(tmp_path, log)
    assert out["match"] == [1, 1]
    assert out["over"] is False
    assert [g["winner"] for g in out["games"]] == [1, 0]


def test_pm_full_tracking(tmp_path):
    tricks = [K(1), K(3), K(1), K(0), K(2), K(1), K(3)]     # team 1: 5 tricks, team 0: 2
    out = ok(tmp_path, [pm()] + auction(0, 1, 4) + [T(6)] + tricks)
    assert out["hands"] == [hand(0, 1, 4, 6, True, 5, [2, 5])]
    assert out["next"]["phase"] == "bidding"
    assert out["next"]["dealer"] == 1


def test_pm_partial_tracking_result_must_agree(tmp_path):
    base = [pm()] + auction(0, 1, 4) + [T(6), K(0), K(2), K(0)]   # team 0 has 3 tricks
    refused(tmp_path, base + [R(points=5)], len(base) + 1)
    refused(tmp_path, base + [R(tricks=[1, 2, 1, 3])], len(base) + 1)
    out = ok(tmp_path, base + [R(points=4)])
    assert out["hands"] == [hand(0, 1, 4, 6, True, 4, [3, 4])]


def test_pm_undo_across_game_boundary(tmp_path):
    log = [pm()] + pm_hand(0, 1, 7, 7) + pm_hand(1, 3, 7, 7) + pm_hand(2, 3, 7, 7)
    out = ok(tmp_path, log + [U()])
    assert out["games"] == []
    assert out["match"] == [0, 0]
    assert out["score"] == [0, 14]
    assert out["next"] == {"phase": "play", "dealer": 2, "seat": 3}


def test_pm_undo_after_match_over(tmp_path):
    log = [pm(match_games=1)] + pm_hand(0, 1, 7, 7) + pm_hand(1, 3, 7, 7)
    log += pm_hand(2, 3, 7, 7)
    out = ok(tmp_path, log + [U()])
    assert out["over"] is False
    assert out["winner"] is None
    assert out["games"] == []
    assert out["match"] == [0, 0]
    assert out["score"] == [0, 14]
    assert out["next"] == {"phase": "play", "dealer": 2, "seat": 3}
    out = ok(tmp_path, log + [U(), R(points=3)])            # now set: [4, -7]
    assert out["score"] == [4, 7]
    assert out["over"] is False


@pytest.mark.parametrize("opt", [{"nello": True}, {"scoring": "points"}, {"made_scores": "bid"}])
def test_pm_inapplicable_options_refused(tmp_path, opt):
    refused(tmp_path, [pm(**opt)], 1)


# =========================================================================== Big Game

def test_big_game_ladder_and_round_auction(tmp_path):
    out = ok(tmp_path, [header("big-game")])
    assert out["options"]["target"] == 400
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 1,
                           "legal": ["pass"] + list(range(42, 67))}
    out = ok(tmp_path, [header("big-game"), B(42), B(43), P(), P()])
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 1,
                           "legal": ["pass"] + list(range(44, 67))}
    log = [header("big-game"), B(42), B(43), P(), P(), B(44), P()]
    out = ok(tmp_path, log)
    assert out["next"]["phase"] == "trump"
    assert out["next"]["seat"] == 1
    out = ok(tmp_path, log + [T(8), R(points=50)])
    assert out["hands"] == [hand(0, 1, 44, 8, True, 50, [16, 50])]


@pytest.mark.parametrize("bid", [84, 67, "game", 41])
def test_big_game_bids_refused(tmp_path, bid):
    refused(tmp_path, [header("big-game"), B(bid)], 2)


@pytest.mark.parametrize("opt", [{"scoring": "marks"}, {"nello": True}, {"plunge": True},
                                 {"splash": True}, {"sevens": True}, {"match_games": 3}])
def test_big_game_inapplicable_options_refused(tmp_path, opt):
    refused(tmp_path, [header("big-game", **opt)], 1)


def test_big_game_full_tracking_eleven_tricks(tmp_path):
    tricks = [K(1, 10)] * 5 + [K(1, 5)] + [K(0)] * 5
    # bidder team 1: 6 tricks + 55 count = 61 ; team 0: 5 tricks
    log = [header("big-game"), B(42), P(), P(), P(), T(8)] + tricks
    out = ok(tmp_path, log[:-1])
    assert out["hands"] == []
    assert out["next"] == {"phase": "play", "dealer": 0, "seat": 0}
    out = ok(tmp_path, log)
    assert out["hands"] == [hand(0, 1, 42, 8, True, 61, [5, 61])]
    assert out["next"]["phase"] == "bidding"
    assert out["next"]["dealer"] == 1


def test_big_game_points_out_of_range_refused(tmp_path):
    ok(tmp_path, [header("big-game"), B(42), P(), P(), P(), T(8), R(points=66)])
    refused(tmp_path, [header("big-game"), B(42), P(), P(), P(), T(8), R(points=67)], 7)


def test_big_game_suit_9_refused(tmp_path):
    refused(tmp_path, [header("big-game"), B(42), P(), P(), P(), T(9)], 6)


# =========================================================================== options

def test_resolved_options_42_defaults(tmp_path):
    out = ok(tmp_path, [header()])
    assert out["options"] == {
        "scoring": "marks", "target": 7, "min_bid": 30, "all_pass": "forced",
        "forced_min": 30, "made_scores": "points", "nello": False, "nello_doubles": ["high", "low", "suit"],
        "sevens": False, "plunge": False, "plunge_marks": 4, "splash": False,
        "splash_marks": 3,
    }


def test_resolved_options_42_given_values(tmp_path):
    opts = {"target": 5, "min_bid": 31, "all_pass": "redeal", "nello": True,
            "nello_doubles": ["low"], "sevens": True, "plunge": True, "plunge_marks": 5,
            "splash": True, "splash_marks": 2}
    out = ok(tmp_path, [header(**opts)])
    expect = dict(opts, scoring="marks", made_scores="points", forced_min=31, nello_min=42,
                  nello_by="any")
    assert out["options"] == expect


def test_resolved_options_42_points(tmp_path):
    out = ok(tmp_path, [header(scoring="points", made_scores="bid")])
    assert out["options"]["scoring"] == "points"
    assert out["options"]["target"] == 250
    assert out["options"]["made_scores"] == "bid"
    assert out["options"]["min_bid"] == 30
    assert out["options"]["all_pass"] == "forced"


def test_resolved_options_moon_exclude_42_only(tmp_path):
    out = ok(tmp_path, [moon()])
    for name in ("nello", "nello_doubles", "sevens", "plunge", "plunge_marks", "splash",
                 "splash_marks", "match_games", "made_scores", "scoring"):
        assert name not in out["options"], name


def test_resolved_options_pm(tmp_path):
    out = ok(tmp_path, [pm(match_games=5)])
    assert out["options"]["match_games"] == 5
    assert out["options"]["all_pass"] == "redeal"
    for name in ("nello", "sevens", "plunge", "splash", "made_scores"):
        assert name not in out["options"], name


def test_resolved_options_big_game_no_specials(tmp_path):
    out = ok(tmp_path, [header("big-game")])
    for name in ("nello", "nello_doubles", "sevens", "plunge", "plunge_marks", "splash",
                 "splash_marks", "match_games"):
        assert name not in out["options"], name


@pytest.mark.parametrize("opt", [{"colour": "red"}, {"Target": 7}, {"min-bid": 30}])
def test_unknown_option_refused(tmp_path, opt):
    refused(tmp_path, [header(**opt)], 1)


def test_match_games_refused_in_42(tmp_path):
    refused(tmp_path, [header(match_games=3)], 1)


@pytest.mark.parametrize("opt", [{"scoring": "chips"}, {"scoring": "tricks"},
                                 {"all_pass": "shuffle"},
                                 {"made_scores": "marks"}, {"nello_doubles": ["high", "mid"]}])
def test_unknown_option_value_refused(tmp_path, opt):
    refused(tmp_path, [header(**opt)], 1)


# =========================================================================== malformed input

def test_not_json_refused(tmp_path):
    refused(tmp_path, [header(), B(30), '{"type": "bid", "bid": ', P()], 3)


@pytest.mark.parametrize("line", ['[1, 2]', '"bid"', '42', 'null'])
def test_not_an_object_refused(tmp_path, line):
    refused(tmp_path, [header(), line], 2)


def test_unknown_type_refused(tmp_path):
    refused(tmp_path, [header(), {"type": "deal"}], 2)


def test_missing_type_refused(tmp_path):
    refused(tmp_path, [header(), {"bid": 30}], 2)


@pytest.mark.parametrize("event", [
    {"type": "bid", "bid": 30, "colour": "red"},
    {"type": "undo", "n": 2},
    {"type": "trick", "winner": 1, "tiles": [[6, 6]]},
])
def test_unknown_event_field_refused(tmp_path, event):
    refused(tmp_path, [header(), event], 2)


def test_unknown_field_in_result_refused(tmp_path):
    refused(tmp_path, [header()] + auction(0, 1, 30) + [T(5), R(points=31, bonus=1)], 7)


def test_unknown_header_field_refused(tmp_path):
    h = header()
    h["colour"] = "red"
    refused(tmp_path, [h], 1)


@pytest.mark.parametrize("variant", ["texas", "42s", "Moon", 42])
def test_unknown_variant_refused(tmp_path, variant):
    refused(tmp_path, [{"type": "sitting", "variant": variant}], 1)


def test_first_line_not_header_refused(tmp_path):
    refused(tmp_path, [B(30), header()], 1)


def test_log_named_as_given_on_the_command_line(tmp_path):
    import os
    path = write_log(tmp_path, [header(), B(35), P(), P(), P(), T(5), B(31)])
    rel = os.path.relpath(str(path), str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "host_tools", "replay", rel, "--json"],
                          cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    assert_refused_at(rel, proc, 7)


def test_refusal_without_json_flag_same_contract(tmp_path):
    path = write_log(tmp_path, [header(), B(35), B(31)])
    proc = subprocess.run([sys.executable, "-m", "host_tools", "replay", str(path)],
                          cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    assert_refused_at(path, proc, 3)


def test_missing_file_exit_2(tmp_path):
    path = tmp_path / "no-such-log.jsonl"
    proc = run_cli(path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() != ""


def test_blank_and_comment_lines_ignored_and_counted(tmp_path):
    lines = [header(), "", "# a comment", B(30), "", "#another", P(), P(), P(), T(5),
             "# before the result", R(points=35)]
    out = ok(tmp_path, lines)
    assert out["hands"] == [hand(0, 1, 30, 5, True, 35, [0, 1])]
    bad = [header(), "", "# comment", B(30), "", "# x", B(29)]
    refused(tmp_path, bad, 7)


def test_header_fields_copied_to_top_level(tmp_path):
    h = hdr(players=["Ann", "Bob", "Cy", "Di"])
    h["id"] = "sit-2024-07-04"
    h["started"] = "2024-07-04T19:30:00-05:00"
    out = ok(tmp_path, [h])
    assert out["id"] == "sit-2024-07-04"
    assert out["started"] == "2024-07-04T19:30:00-05:00"
    assert out["players"] == ["Ann", "Bob", "Cy", "Di"]


def test_header_fields_copied_moon(tmp_path):
    h = moon()
    h["id"] = "m1"
    out = ok(tmp_path, [h])
    assert out["id"] == "m1"
    assert out["players"] == ["Ann", "Bob", "Cy"]


# =========================================================================== sample logs

def test_sample_marks_sitting(tmp_path):
    path = LOGS / "spec_marks_sitting.jsonl"
    proc = run_process(path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["id"] == "spec-sample-1"
    assert out["hands"] == [
        hand(0, 1, 30, 5, True, 31, [0, 1]),
        {"dealer": 1, "thrown_in": True},
        hand(2, 3, 84, "doubles", False, None, [2, 0]),
        hand(3, 0, 42, "follow-me", True, 42, [1, 0]),
    ]
    assert out["score"] == [3, 1]
    assert out["over"] is False
    assert out["next"] == {"phase": "bidding", "dealer": 0, "seat": 1, "legal": OPENING_42}


def test_sample_refused_log_names_first_bad_line(tmp_path):
    path = LOGS / "spec_refused_bid.jsonl"
    proc = run_cli(path)
    assert_refused_at(path, proc, 7)
