# Marks and points scoring, the end of the sitting, and the special contracts' verdicts.
from engine_core import errors as E
from engine_core.codes import DOUBLES, FOLLOW_ME, NELLO_HIGH, SEVENS
from tablehelp import sitting, bid, bids, trump, made, points, hand, undo
from engine_core.codes import OVER


def test_made_point_bid_wins_one_mark():
    s = sitting(dealer=0)
    hand(s, (30, "pass", "pass", "pass"), 5)
    assert (s.score(0), s.score(1)) == (0, 1)
    assert s.dealer() == 1


def test_set_gives_the_marks_to_the_opponents():
    s = sitting(dealer=0)
    hand(s, ("pass", 84, "pass", "pass"), DOUBLES, False)
    assert (s.score(0), s.score(1)) == (0, 2)      # seat 2 (team 0) bid 84 and was set


def test_first_to_seven_marks_wins_and_then_nothing_is_taken():
    s = sitting(dealer=0)
    # The dealer bids each time, so the bidding team alternates: team 0 makes 84 (2 marks),
    # team 1 is set at 30 (1 mark to team 0), and so on.
    for k in range(4):
        hand(s, ("pass", "pass", "pass", 84 if k % 2 == 0 else 30), 6, k % 2 == 0)
        assert not s.over()
    assert (s.score(0), s.score(1)) == (6, 0)
    hand(s, ("pass", "pass", "pass", 84), 6)
    assert s.phase() == OVER
    assert s.over() and s.winner() == 0
    assert (s.score(0), s.score(1)) == (8, 0)
    assert bid(s, 30) == E.E_OVER
    assert s.seat() == -1


def test_target_option():
    s = sitting(target=1)
    hand(s, (30, "pass", "pass", "pass"), 1)
    assert s.over() and s.winner() == 1


def test_made_42_needs_every_point():
    s = sitting()
    bids(s, 42, "pass", "pass", "pass")
    trump(s, 6)
    assert points(s, 41, True) == E.E_SHORT_ALL
    assert points(s, 41) == 0
    assert s.last(23) == 0          # LAST_MADE: 41 of a 42 bid is set
    assert (s.score(0), s.score(1)) == (1, 0)


def test_points_scoring_made_scores_points_taken_and_opponents_theirs():
    s = sitting(scoring="points")
    bids(s, 30, "pass", "pass", "pass")
    trump(s, 2)
    assert made(s) == E.E_NEED_POINTS
    assert points(s, 33) == 0
    assert (s.score(0), s.score(1)) == (9, 33)


def test_points_scoring_made_scores_bid_option():
    s = sitting(scoring="points", made_scores="bid")
    bids(s, 30, "pass", "pass", "pass")
    trump(s, 2)
    points(s, 33)
    assert (s.score(0), s.score(1)) == (9, 30)


def test_points_scoring_set_gives_bid_plus_points_to_opponents():
    s = sitting(scoring="points")
    bids(s, 35, "pass", "pass", "pass")
    trump(s, 2)
    points(s, 30)
    assert (s.score(0), s.score(1)) == (35 + 12, 0)


def test_points_scoring_84_made_scores_the_bid():
    s = sitting(scoring="points")
    bids(s, 84, "pass", "pass", "pass")
    trump(s, 2)
    points(s, 42)
    assert (s.score(0), s.score(1)) == (0, 84)


def test_points_scoring_game_bid_decides_the_sitting():
    s = sitting(scoring="points")
    bids(s, 84, 126, 168, "game")
    trump(s, 6)
    points(s, 40)                   # set: the opponents add theirs and win
    assert s.over() and s.winner() == 1
    assert (s.score(0), s.score(1)) == (0, 2)
    undo(s)
    points(s, 42)
    assert s.over() and s.winner() == 0 and s.score(0) == 42


def test_both_reach_the_target_the_hand_winner_wins():
    s = sitting(scoring="points", target=30, dealer=0)
    bids(s, 30, "pass", "pass", "pass")        # seat 1 (team 1) bids 30
    trump(s, 3)
    points(s, 10)                               # set: team 0 gets 30 + 32
    assert s.over() and s.winner() == 0
    s = sitting(scoring="points", target=10, dealer=0)
    bids(s, 30, "pass", "pass", "pass")
    trump(s, 3)
    points(s, 31)                               # made: 31 to team 1, 11 to team 0
    assert (s.score(0), s.score(1)) == (11, 31)
    assert s.winner() == 1


def test_nello_made_with_no_trick_set_with_one():
    s = sitting(nello=True)
    bids(s, 42, "pass", "pass", "pass")
    assert trump(s, NELLO_HIGH) == 0
    assert points(s, 0) == 0
    assert s.score(1) == 1
    s = sitting(nello=True)
    bids(s, 42, "pass", "pass", "pass")
    trump(s, NELLO_HIGH)
    assert points(s, 1, True) == E.E_NELLO_TRICK
    assert points(s, 1) == 0
    assert s.score(0) == 1


def test_sevens_must_take_every_trick():
    s = sitting(sevens=True)
    bids(s, 84, "pass", "pass", "pass")
    trump(s, SEVENS)
    points(s, 41)
    assert (s.score(0), s.score(1)) == (2, 0)


def test_plunge_made_wins_four_marks():
    s = sitting(plunge=True)
    bids(s, "plunge", "pass", "pass", "pass")
    assert s.seat() == 3
    trump(s, FOLLOW_ME)
    made(s)
    assert (s.score(0), s.score(1)) == (0, 4)


def test_result_before_the_contract_is_refused():
    s = sitting()
    bids(s, 30, "pass", "pass", "pass")
    assert made(s) == E.E_NAME_CONTRACT
    s2 = sitting()
    assert made(s2) == E.E_NO_PLAY


def test_points_out_of_range():
    s = sitting()
    bids(s, 30, "pass", "pass", "pass")
    trump(s, 1)
    assert points(s, 43) == E.E_POINTS_RANGE
