# The 42 family: The Big Game, Moon, Partnership Moon and the two-set games.
from engine_core import errors as E
from engine_core.texas42 import options as O
from engine_core.codes import DOUBLES, FOLLOW_ME
from tablehelp import sitting, bid, bids, trump, trick, made, points, tricks, legal, undo
from engine_core.codes import OVER, PLAY, TRUMP


def _raises(variant, options):
    try:
        O.resolve(variant, options)
    except O.OptionError as e:
        return str(e)
    return None


# ---- The Big Game ----

def test_big_game_bids_42_to_66_no_marks():
    s = sitting("big-game")
    assert legal(s) == ["pass"] + list(range(42, 67))
    assert bid(s, 67) == E.E_BID_RANGE
    assert bid(s, 84) == E.E_BID_RANGE


def test_big_game_round_and_round_auction():
    s = sitting("big-game", dealer=0)
    bids(s, 42, 43, "pass", 44)       # seats 1, 2, 3 (passes for good), 0
    assert s.phase() == 0 and s.seat() == 1
    bids(s, 45)                        # seat 1 again
    assert s.seat() == 2
    bids(s, "pass", 50)                # seat 2 out; seat 0 raises
    assert s.seat() == 1
    bids(s, "pass")                    # every other seat passed after seat 0's bid
    assert s.phase() == TRUMP and s.bidder() == 0 and s.high_value() == 50


def test_big_game_passed_seat_is_skipped_and_forced_dealer():
    s = sitting("big-game", dealer=3)
    bids(s, "pass", "pass", "pass")
    assert s.seat() == 3
    assert bid(s, "pass") == E.E_DEALER_MUST_BID
    bids(s, 42)
    assert s.phase() == TRUMP and s.bidder() == 3


def test_big_game_suits_to_eight_and_points_to_400():
    s = sitting("big-game", dealer=0)
    bids(s, 50, "pass", "pass", "pass")
    assert legal(s) == [0, 1, 2, 3, 4, 5, 6, 7, 8, DOUBLES, FOLLOW_ME]
    assert trump(s, 8) == 0
    assert made(s) == E.E_NEED_POINTS
    assert points(s, 67) == E.E_POINTS_RANGE
    assert points(s, 52) == 0
    assert (s.score(0), s.score(1)) == (14, 52)
    assert s.rules.target == 400


def test_big_game_count_is_55_and_11_tricks():
    s = sitting("big-game", dealer=0)
    bids(s, 42, "pass", "pass", "pass")
    trump(s, 3)
    for i in range(10):
        assert trick(s, 1, 5) == 0
    assert trick(s, 1, 10) == E.E_COUNT_OVER
    assert trick(s, 1, 5) == 0
    assert s.hands() == 1 and s.score(1) == 66


def test_big_game_refuses_marks_and_specials():
    assert "cannot be scored in marks" in _raises("big-game", {"scoring": "marks"})
    assert "does not apply" in _raises("big-game", {"nello": True})


# ---- Moon ----

def test_moon_three_seats_bids_4_to_7_or_21():
    s = sitting("moon", dealer=2)
    assert s.seat() == 0
    assert legal(s) == ["pass", 4, 5, 6, 7, 21]
    bids(s, 5, 7)
    assert legal(s) == ["pass", 21]


def test_moon_all_pass_redeals_by_default():
    s = sitting("moon", dealer=0)
    bids(s, "pass", "pass", "pass")
    assert s.hands() == 1 and s.dealer() == 1


def test_moon_forced_dealer_bids_at_least_4():
    s = sitting("moon", dealer=0, all_pass="forced")
    bids(s, "pass", "pass")
    assert bid(s, "pass") == E.E_DEALER_MUST_BID
    assert bid(s, 3) == E.E_BID_RANGE
    assert bid(s, 4) == 0


def test_moon_scoring_made_set_and_opponents_tricks():
    s = sitting("moon", dealer=0)
    bids(s, 5, "pass", "pass")           # seat 1 bids 5
    trump(s, 6)
    assert made(s) == E.E_NEED_TRICKS
    assert points(s, 5) == E.E_NEED_TRICKS
    assert tricks(s, 1, 5, 0) == E.E_TRICKS_SUM
    assert tricks(s, 1, 5, 1) == 0
    assert [s.score(i) for i in range(3)] == [1, 5, 1]
    bids(s, 6, "pass", "pass")           # dealer 1: seat 2 bids 6
    trump(s, 3)
    tricks(s, 2, 1, 4)
    assert [s.score(i) for i in range(3)] == [3, 6, -5]


def test_moon_shoot_the_moon_wins_outright():
    s = sitting("moon", dealer=0)
    bids(s, "pass", 21, "pass")
    trump(s, 6)
    tricks(s, 0, 0, 7)
    assert s.over() and s.winner() == 2 and s.score(2) == 21


def test_moon_shot_moon_set_loses_21():
    s = sitting("moon", dealer=0)
    bids(s, "pass", 21, "pass")
    trump(s, 6)
    tricks(s, 1, 0, 6)
    assert not s.over() and s.score(2) == -21 and s.score(0) == 1


def test_moon_ties_play_on_and_the_bidder_wins_among_several():
    s = sitting("moon", dealer=0, target=3)
    bids(s, "pass", "pass", 4)          # dealer (seat 0) bids 4
    trump(s, 1)
    tricks(s, 4, 3, 0)                   # seat 0 scores 4, seat 1 3: both reach 3
    assert s.over() and s.winner() == 0
    s = sitting("moon", dealer=0, target=3)
    bids(s, "pass", "pass", 4)
    trump(s, 1)
    tricks(s, 1, 3, 3)                   # bidder set (-4), seats 1 and 2 tie at 3
    assert not s.over()
    bids(s, "pass", "pass", 4)           # dealer 1 bids
    trump(s, 2)
    tricks(s, 0, 4, 3)                   # seat 1: 7, seat 2: 6 -> seat 1 wins
    assert s.over() and s.winner() == 1


def test_moon_tracked_tricks_close_the_hand():
    s = sitting("moon", dealer=0)
    bids(s, 4, "pass", "pass")
    trump(s, 5)
    assert trick(s, 1, 5) == E.E_NO_COUNT
    for w in (1, 1, 1, 1, 0, 2, 2):
        assert trick(s, w) == 0
    assert [s.score(i) for i in range(3)] == [1, 4, 2]
    assert tricks(s, 1, 4, 2) == 0      # a confirming result
    assert tricks(s, 2, 4, 1) == E.E_NO_PLAY


def test_moon_refuses_42_options():
    assert "does not apply" in _raises("moon", {"nello": True})
    assert "does not apply" in _raises("moon", {"scoring": "marks"})
    assert "does not apply" in _raises("moon", {"match_games": 3})


# ---- Partnership Moon ----

def test_partnership_moon_bids_3_to_7_and_scoring():
    s = sitting("partnership-moon", dealer=0)
    assert legal(s) == ["pass", 3, 4, 5, 6, 7]
    bids(s, 4, "pass", "pass", "pass")   # team 1
    trump(s, 2)
    assert made(s) == E.E_NEED_POINTS
    assert points(s, 5) == 0
    assert (s.score(0), s.score(1)) == (2, 5)
    bids(s, 5, "pass", "pass", "pass")   # dealer 1, seat 2 bids: team 0
    trump(s, 2)
    assert tricks(s, 1, 2, 2, 2) == 0   # team 0 took 3 of 5: set, loses 5
    assert (s.score(0), s.score(1)) == (-3, 9)


def test_partnership_moon_games_and_match():
    s = sitting("partnership-moon", dealer=0, target=5, match_games=3)
    bids(s, 7, "pass", "pass", "pass")
    trump(s, 6)
    points(s, 7)
    assert s.games() == 1 and s.games_won(1) == 1
    assert (s.score(0), s.score(1)) == (0, 0)         # a new game starts
    assert not s.over()
    bids(s, "pass", 7, "pass", "pass")                 # dealer 1: seat 3 bids (team 1)
    trump(s, 6)
    points(s, 7)
    assert s.over() and s.winner() == 1 and s.games_won(1) == 2
    assert (s.score(0), s.score(1)) == (0, 7)         # the final game's score stays
    assert undo(s) == 0 and not s.over() and s.games() == 1


# ---- The two-set games ----

def test_seventy_nine_six_seats_teams_alternate():
    s = sitting("seventy-nine", dealer=5)
    assert s.seat() == 0
    assert legal(s) == ["pass"] + list(range(50, 80)) + [158]
    bids(s, 50, "pass", "pass", "pass", "pass", "pass")
    assert s.phase() == TRUMP and s.bidder() == 0
    trump(s, 4)
    assert trick(s, 4, 50) == 0                        # six tiles a trick: up to 50 count
    assert s.side_points(True) == 51                   # seat 4 is seat 0's partner
    assert points(s, 60) == 0
    assert (s.score(0), s.score(1)) == (1, 0)


def test_eighty_two_points_a_trick_and_bids_50_to_80():
    s = sitting("eighty", dealer=0)
    assert legal(s) == ["pass"] + list(range(50, 81)) + [160]
    bids(s, 80, "pass", "pass", "pass")
    trump(s, 6)
    for k in range(9):
        assert trick(s, 1, 5) == 0
    assert trick(s, 0, 15) == 0                        # the tenth trick closes the deal
    assert s.phase() != PLAY
    assert s.last(24) == 9 * 2 + 45                    # LAST_POINTS: set, 63 of 80
    assert (s.score(0), s.score(1)) == (1, 0)


def test_eighty_eight_steps_of_two_and_marks_to_352():
    s = sitting("eighty-eight", dealer=0)
    assert legal(s) == ["pass"] + list(range(60, 90, 2)) + [176]
    assert bid(s, 61) == E.E_BID_RANGE
    bids(s, 88, 176, 264, 352)
    assert legal(s) == ["pass"]
    assert bid(s, 440) == E.E_BID_RANGE


def test_two_set_points_scoring():
    s = sitting("eighty-eight", scoring="points", dealer=0)
    assert s.rules.target == 500
    bids(s, 70, "pass", "pass", "pass", "pass", "pass")
    trump(s, 1)
    assert points(s, 80) == 0
    assert (s.score(0), s.score(1)) == (8, 80)


def test_players_count_by_variant():
    assert sitting("moon").seats == 3
    assert sitting("eighty").seats == 4
    assert sitting("eighty-eight").seats == 6
    assert sitting("moon").phase() != OVER
