# The 42 bid ladder and the auction (docs/rules.md section 1).
from engine_core import errors as E
from engine_core.codes import DOUBLES, FOLLOW_ME, NELLO_HIGH, NELLO_LOW, SEVENS
from tablehelp import sitting, bid, bids, trump, legal
from engine_core.codes import BIDDING, PLAY, TRUMP


def test_first_bidder_sits_left_of_the_dealer():
    s = sitting(dealer=2)
    assert s.seat() == 3
    assert s.phase() == BIDDING


def test_opening_legal_bids_run_from_min_bid_to_two_marks():
    s = sitting()
    assert legal(s) == ["pass"] + list(range(30, 43)) + [84]


def test_min_bid_option():
    s = sitting(min_bid=31)
    assert legal(s)[1] == 31
    assert bid(s, 30) == E.E_BID_RANGE


def test_bid_must_beat_the_standing_bid():
    s = sitting()
    bids(s, 35)
    assert bid(s, 35) == E.E_BID_LOW
    assert bid(s, 34) == E.E_BID_LOW
    assert bid(s, 36) == 0


def test_opening_jump_to_84_is_legal_126_is_not():
    s = sitting()
    assert bid(s, 126) == E.E_OPENING
    assert bid(s, 84) == 0


def test_after_a_mark_bid_only_one_more_mark():
    s = sitting()
    bids(s, 42)
    assert legal(s) == ["pass", 84]
    bids(s, 84)
    assert legal(s) == ["pass", 126]
    assert bid(s, 168) == E.E_MARK_STEP
    bids(s, 126)
    assert legal(s) == ["pass", 168]


def test_a_point_bid_can_be_followed_by_42_or_84():
    s = sitting()
    bids(s, 41)
    assert legal(s) == ["pass", 42, 84]


def test_forced_dealer_may_not_pass():
    s = sitting(dealer=0)
    bids(s, "pass", "pass", "pass")
    assert s.seat() == 0
    assert bid(s, "pass") == E.E_DEALER_MUST_BID
    assert legal(s)[0] == 30
    bids(s, 30)
    assert s.phase() == TRUMP and s.bidder() == 0


def test_redeal_throws_the_deal_in_and_moves_the_dealer():
    s = sitting(dealer=3, all_pass="redeal")
    bids(s, "pass", "pass", "pass", "pass")
    assert s.hands() == 1
    assert s.dealer() == 0
    assert s.seat() == 1
    assert s.score(0) == 0 and s.score(1) == 0


def test_each_seat_bids_once_and_the_dealer_ends_the_auction():
    s = sitting(dealer=1)
    bids(s, 30, "pass", 31, 32)
    assert s.phase() == TRUMP
    assert s.bidder() == 1
    assert s.high_value() == 32


def test_game_only_after_168_in_points_scoring():
    s = sitting(scoring="points")
    assert bid(s, "game") == E.E_GAME_STEP
    bids(s, 84, 126, 168)
    assert legal(s) == ["pass", "game"]
    assert bid(s, 210) == E.E_GAME_NEXT
    bids(s, "game")
    assert s.phase() == TRUMP and s.bid_name(s.high_bid()) == "game"


def test_game_refused_in_marks_scoring():
    s = sitting()
    bids(s, 84, 126, 168)
    assert bid(s, "game") == E.E_GAME_POINTS
    assert legal(s) == ["pass", 210]


def test_plunge_is_worth_four_marks_and_may_open_above_two():
    s = sitting(plunge=True)
    assert legal(s)[-1] == "plunge"
    bids(s, "plunge")
    assert s.high_value() == 168
    assert legal(s) == ["pass", 210]


def test_plunge_over_a_high_mark_bid_is_one_mark_more():
    s = sitting(plunge=True)
    bids(s, 84, 126, 168)
    assert legal(s) == ["pass", 210, "plunge"]
    bids(s, "plunge")
    assert s.high_value() == 210


def test_splash_three_marks_and_partner_names_trump():
    s = sitting(splash=True, dealer=0)
    bids(s, "splash", "pass", "pass", "pass")
    assert s.high_value() == 126
    assert s.phase() == TRUMP
    assert s.seat() == 3            # seat 1's partner
    assert trump(s, NELLO_HIGH) == E.E_NOT_ALLOWED
    assert trump(s, 4) == 0
    assert s.phase() == PLAY and s.seat() == 3


def test_plunge_refused_when_not_allowed():
    s = sitting()
    assert bid(s, "plunge") == E.E_NOT_ALLOWED


def test_contracts_suits_doubles_follow_me():
    s = sitting()
    bids(s, 30, "pass", "pass", "pass")
    assert legal(s) == [0, 1, 2, 3, 4, 5, 6, DOUBLES, FOLLOW_ME]
    assert trump(s, 7) == E.E_SUIT
    assert trump(s, FOLLOW_ME) == 0


def test_nello_needs_the_option_and_a_mark():
    s = sitting(nello=True, nello_doubles=["low"])
    bids(s, 41, "pass", "pass", "pass")
    assert trump(s, NELLO_LOW) == E.E_NELLO_MIN
    s = sitting(nello=True, nello_doubles=["low"])
    bids(s, 42, "pass", "pass", "pass")
    assert trump(s, NELLO_HIGH) == E.E_NELLO_DOUBLES
    assert trump(s, NELLO_LOW) == 0


def test_sevens_needs_its_option():
    s = sitting()
    bids(s, 42, "pass", "pass", "pass")
    assert trump(s, SEVENS) == E.E_NOT_ALLOWED
    s = sitting(sevens=True)
    bids(s, 42, "pass", "pass", "pass")
    assert trump(s, SEVENS) == 0


def test_refused_bid_changes_nothing():
    s = sitting()
    bids(s, 35)
    before = bytes(s.st)
    assert bid(s, 33) == E.E_BID_LOW
    assert bytes(s.st) == before
    assert s.hlen == 1


def test_events_after_the_contract_bidding_is_closed():
    s = sitting()
    bids(s, 30, "pass", "pass", "pass")
    assert bid(s, 31) == E.E_NOT_BIDDING


def test_a_second_plunge_is_refused_the_set_has_seven_doubles():
    s = sitting(plunge=True, splash=True)
    bids(s, "plunge")
    assert bid(s, "plunge") == E.E_DOUBLES
    assert "splash" in legal(s)
    bids(s, "splash")
    assert s.high_value() == 210
    assert "splash" not in legal(s)
