# Small helpers for engine tests (shared by CPython and MicroPython): build a sitting and
# feed it events written the way a player says them.
from engine_core.texas42 import options as O
from engine_core.texas42.sitting import Sitting
from engine_core.codes import (EV_BID, EV_TRUMP, EV_TRICK, EV_MADE, EV_POINTS, EV_TRICKS,
                               EV_UNDO, PASS, MARKS, GAME, PLUNGE, SPLASH, event)

NAMED = {"pass": PASS, "game": GAME, "plunge": PLUNGE, "splash": SPLASH}


def sitting(variant="42", dealer=0, **options):
    return Sitting(O.resolve(variant, options), dealer)


def bid_code(s, b):
    if b in NAMED:
        return NAMED[b]
    mark = s.row[10]
    if mark and b > mark:
        return MARKS + b // mark
    return b


def bid(s, b):
    return s.apply(event(EV_BID, bid_code(s, b)))


def bids(s, *values):
    for b in values:
        err = bid(s, b)
        assert err == 0, (b, s.reason(err, event(EV_BID, bid_code(s, b))))


def trump(s, c):
    return s.apply(event(EV_TRUMP, c))


def trick(s, winner, count=0):
    return s.apply(event(EV_TRICK, winner << 8 | count))


def made(s, ok=True):
    return s.apply(event(EV_MADE, 1 if ok else 0))


def points(s, p, claim=None):
    c = 0 if claim is None else (2 if claim else 1)
    return s.apply(event(EV_POINTS, c << 8 | p))


def tricks(s, *per_seat):
    packed = 0
    for i, t in enumerate(per_seat):
        packed |= t << (4 * i)
    return s.apply(event(EV_TRICKS, packed))


def undo(s):
    return s.apply(event(EV_UNDO))


def legal(s):
    """The legal actions as the log would list them (bids as values, named bids by name)."""
    out = []
    j = s.next_legal(-1)
    while j >= 0:
        code = s.legal_at(j)
        if s.phase() == 0:
            out.append(s.bid_name(code) if code == PASS or code >= GAME else s.bid_value(code))
        else:
            out.append(code)
        j = s.next_legal(j)
    return out


def hand(s, bid_values, contract, result_made=True):
    """A whole marks deal: the bids (seat order from the first bidder), contract, made/set."""
    bids(s, *bid_values)
    assert trump(s, contract) == 0
    assert made(s, result_made) == 0
