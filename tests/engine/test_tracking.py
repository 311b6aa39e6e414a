# Trick tracking: counts, the hand closed at its last trick, results that must agree.
from engine_core import errors as E
from engine_core.codes import NELLO_HIGH
from tablehelp import sitting, bids, trump, trick, made, points
from engine_core.codes import BIDDING, PLAY


def _contract(s, b=30, c=5):
    bids(s, b, "pass", "pass", "pass")     # dealer 0: seat 1 bids, team 1
    assert trump(s, c) == 0


def test_trick_winner_leads_the_next_trick():
    s = sitting()
    _contract(s)
    assert s.seat() == 1
    assert trick(s, 2, 10) == 0
    assert s.seat() == 2
    assert s.phase() == PLAY
    assert s.side_points(False) == 11 and s.side_points(True) == 0


def test_count_must_be_a_multiple_of_five_within_35():
    s = sitting()
    _contract(s)
    assert trick(s, 1, 7) == E.E_COUNT_STEP
    assert trick(s, 1, 30) == 0
    assert trick(s, 1, 10) == E.E_COUNT_OVER
    assert trick(s, 9) == E.E_NO_SEAT


def test_last_trick_scores_the_hand_and_a_result_may_confirm_it():
    s = sitting()
    _contract(s)
    counts = (10, 5, 0, 10, 5, 0, 5)
    for i in range(7):
        assert trick(s, 1 if i < 5 else 0, counts[i]) == 0
    assert s.phase() == BIDDING and s.hands() == 1
    assert (s.score(0), s.score(1)) == (0, 1)
    assert s.last(24) == 5 + 30                  # LAST_POINTS: 5 tricks and 30 count
    assert points(s, 34) == E.E_CONFIRM
    assert made(s, False) == E.E_CONFIRM
    assert points(s, 35) == 0
    assert (s.score(0), s.score(1)) == (0, 1)    # it changed nothing
    assert made(s) == E.E_NO_PLAY               # only once, at once


def test_partial_tracking_bounds_the_result():
    s = sitting()
    _contract(s, 35)
    trick(s, 0, 10)
    trick(s, 2, 5)                               # opponents have 17: bidders can't make 35
    assert made(s) == E.E_TRACKED
    assert points(s, 26) == E.E_TRACKED
    assert points(s, 25) == 0
    assert s.score(0) == 1


def test_made_is_refused_once_tracked_tricks_make_the_bid_certain_the_other_way():
    s = sitting()
    _contract(s, 30)
    trick(s, 1, 10)
    trick(s, 3, 10)
    trick(s, 1, 10)                              # bidders have 33 >= 30
    assert made(s, False) == E.E_TRACKED
    assert made(s) == 0


def test_nello_partner_cannot_win_a_trick():
    s = sitting(nello=True)
    bids(s, 42, "pass", "pass", "pass")          # seat 1 bids nello; seat 3 sits out
    trump(s, NELLO_HIGH)
    assert trick(s, 3) == E.E_NELLO_PARTNER
    assert trick(s, 0) == 0
    assert trick(s, 1) == 0
    assert made(s) == E.E_NELLO_TRICK
    assert made(s, False) == 0
    assert s.score(0) == 1
