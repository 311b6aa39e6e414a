# Undo is exact: undoing the last event gives the state of never having applied it.
from array import array

from engine_core import errors as E
from engine_core.texas42.sitting import Sitting
from engine_core.texas42 import options as O
from quick import scaled
from randsit import RandomPlayer, play
from tablehelp import sitting, bids, trump, made, undo, hand

SETUPS = (("42", {}), ("42", {"scoring": "points", "all_pass": "redeal"}),
          ("42", {"nello": True, "plunge": True, "splash": True, "sevens": True}),
          ("big-game", {}), ("moon", {}), ("partnership-moon", {}))


def test_nothing_to_undo_is_refused():
    s = sitting()
    assert undo(s) == E.E_UNDO


def test_undo_across_a_hand_boundary_and_after_the_sitting_is_over():
    s = sitting(target=1)
    hand(s, (30, "pass", "pass", "pass"), 4)
    assert s.over()
    assert undo(s) == 0
    assert not s.over() and s.hands() == 0 and s.score(1) == 0
    assert s.contract() == 4
    assert made(s, False) == 0
    assert s.over() and s.winner() == 0


def test_undo_equals_replay_without_the_last_event_on_random_sittings():
    out = array("l", bytes(8 * 3000))
    # Each set-up four times; once each in a quick run (tests/kit/engine/quick.py).
    for k in range(scaled(len(SETUPS) * 4, len(SETUPS))):
        variant, options = SETUPS[k % len(SETUPS)]
        rules = O.resolve(variant, options)
        s = Sitting(rules, k % 3)
        n = play(s, RandomPlayer(k + 11, undo_rate=0), out, 300)
        assert n > 0
        # Walk back: each undo must equal a fresh replay of one event fewer.
        while n:
            n -= 1
            assert s.last_event() == out[n]     # what undo takes back, as applied
            assert undo(s) == 0
            fresh = Sitting(rules, k % 3)
            i = 0
            while i < n:
                assert fresh.apply(out[i]) == 0
                i += 1
            assert bytes(fresh.st) == bytes(s.st), (variant, n)
        assert s.last_event() == -1 and undo(s) == E.E_UNDO


def test_undo_is_an_event_and_repeats_back():
    s = sitting()
    bids(s, 30, 31)
    assert undo(s) == 0 and undo(s) == 0
    assert s.high_bid() == -1 and s.seat() == 1
    bids(s, "pass", 35)
    trump(s, 2)
    assert s.bidder() == 2


def test_long_sittings_compact_the_history_and_keep_going():
    s = Sitting(O.resolve("42", {"target": 999}), 0, history=64)
    n = 0
    while n < 40:
        hand(s, (30, "pass", "pass", "pass"), n % 7)
        n += 1
    assert s.hands() == 40
    assert s.score(0) + s.score(1) == 40
    assert s.hlen <= 64
    # The last deals can still be undone; the oldest cannot.
    assert undo(s) == 0 and s.hands() == 39
