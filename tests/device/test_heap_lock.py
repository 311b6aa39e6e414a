# The event path allocates nothing: random legal sittings of every variant, played and
# undone under micropython.heap_lock() (MicroPython only; any allocation raises MemoryError).
import gc
from array import array

import micropython

from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from engine_core.texas42.sitting import Sitting
from randsit import RandomPlayer, play
from quick import scaled

# Random sittings of each setup: make check's quick run plays fewer (tests/kit/engine/quick.py).
SITTINGS = scaled(20, 6)

SETUPS = (
    ("42", {}),
    ("42", {"scoring": "points"}),
    ("42", {"nello": True, "sevens": True, "plunge": True, "splash": True}),
    ("42", {"all_pass": "redeal", "plunge": True, "splash": True, "nello": True}),
    ("42", {"scoring": "points", "made_scores": "bid"}),
    ("42", {"forced_min": 33, "nello": True, "nello_min": 30, "sevens": True}),
    ("42", {"nello": True, "nello_by": "forced_dealer", "nello_min": 84, "splash": True}),
    ("big-game", {}),
    ("moon", {}),
    ("moon", {"all_pass": "forced"}),
    ("moon", {"all_pass": "forced", "min_bid": 3}),
    ("partnership-moon", {}),
    ("seventy-nine", {}),
    ("eighty", {}),
    ("eighty-eight", {}),
)


def _run(variant, options, sittings, out):
    s = Sitting(O.resolve(variant, options))
    player = RandomPlayer(1)
    total = 0
    finished = 0
    gc.collect()
    micropython.heap_lock()
    try:
        k = 0
        while k < sittings:
            player.x = k * 7919 + 1
            s.restart(k % s.seats)
            total += play(s, player, out, len(out))
            if s.over():
                finished += 1
            # Undo the whole sitting event by event, then legal actions at the start.
            while s.hlen:
                s.undo()
            s.legal_count()
            k += 1
    finally:
        micropython.heap_unlock()
    return total, finished


def test_event_path_allocates_nothing():
    out = array("l", bytes(8 * 3000))
    events = 0
    for variant, options in SETUPS:
        if V.index(variant) < 0:
            continue
        n, finished = _run(variant, options, SITTINGS, out)
        assert finished == SITTINGS, (variant, finished)
        events += n
    assert events > 250 * SITTINGS, events


def test_heap_lock_catches_an_allocation():
    # The check itself works: an allocation under the lock fails.
    micropython.heap_lock()
    try:
        try:
            x = [1, 2, 3]
        except MemoryError:
            x = None
    finally:
        micropython.heap_unlock()
    assert x is None


def test_gin_event_path_allocates_nothing():
    # The gin pads too: random sittings of each game and option set, played and undone.
    from engine_core.games import new_sitting
    from ginrand import SETUPS as GIN_SETUPS, RandomGinPlayer
    out = array("l", bytes(8 * 1000))
    events = 0
    for variant, options in GIN_SETUPS:
        s = new_sitting(O.resolve(variant, options))
        player = RandomGinPlayer(1)
        finished = 0
        gc.collect()
        micropython.heap_lock()
        try:
            k = 0
            while k < 30:
                player.x = k * 7919 + 3
                s.restart(k & 1)
                events += play(s, player, out, len(out))
                if s.over():
                    finished += 1
                s.score(0)
                s.limit()
                s.last(0)
                while s.hlen:
                    s.undo()
                k += 1
        finally:
            micropython.heap_unlock()
        assert finished == 30, (variant, finished)
    assert events > 1000, events
