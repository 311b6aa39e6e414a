# The scoring in tricks (Moon, Partnership Moon) and its check of the tricks by seat:
# code a sitting scored in marks or points never runs, loaded by Sitting only for these
# (engine_core/sitting.py). Allocates nothing.
from engine_core.compat import const

# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_TEAMS = const(1)
_TRICKS_PER_HAND = const(2)
_SHOOT = const(12)

# sitting.py's refusal codes and state slots used here (tests/test_refusal_codes.py,
# tests/engine/test_scoring.py check that they match).
_OK = const(0)
_E_TRACKED = const(27)
_E_TRICKS_SEATS = const(32)
_E_TRICKS_SUM = const(33)
_GAMES = const(4)
_WON = const(5)
_SCORE = const(7)
_G_SCORE = const(13)
_G_WINNER = const(15)
_VALUE = const(43)
_BIDDER = const(44)
_SEAT_TRICKS = const(51)


def check_tricks(s, packed):
    r = s.row
    total = 0
    i = 0
    while i < 6:
        t = packed >> (4 * i) & 15
        if i >= s.seats and t:
            return _E_TRICKS_SEATS
        if t < s.st[_SEAT_TRICKS + i]:
            return _E_TRACKED
        total += t
        i += 1
    if total != r[_TRICKS_PER_HAND]:
        return _E_TRICKS_SUM
    return _OK


def score_tricks(s, made, points):
    st = s.st
    r = s.row
    bidder = st[_BIDDER]
    v = st[_VALUE]
    target = s.rules.target
    if not r[_TEAMS]:
        # Moon: each seat for its.
        i = 0
        while i < s.seats:
            if i == bidder:
                s._award(i, v if made else -v)
            else:
                s._award(i, st[_SEAT_TRICKS + i])
            i += 1
        if made and v == r[_SHOOT]:
            s._end(bidder)
            return
        if st[_SCORE + bidder] >= target:
            s._end(bidder)
            return
        best = -1
        tie = 0
        i = 0
        while i < s.seats:
            got = st[_SCORE + i]
            if got >= target:
                if best < 0 or got > st[_SCORE + best]:
                    best = i
                    tie = 0
                elif got == st[_SCORE + best]:
                    tie = 1
            i += 1
        if best >= 0 and not tie:
            s._end(best)
        return
    # Partnership Moon: games to the target, a match of match_games.
    bt = s.side_of(bidder)
    ot = 1 - bt
    s._award(bt, points if made else -v)
    s._award(ot, r[_TRICKS_PER_HAND] - points)
    b_in = st[_SCORE + bt] >= target
    o_in = st[_SCORE + ot] >= target
    if not (b_in or o_in):
        return
    w = bt if b_in else ot
    st[_G_SCORE] = st[_SCORE]
    st[_G_SCORE + 1] = st[_SCORE + 1]
    st[_G_WINNER] = w
    st[_GAMES] += 1
    st[_WON + w] += 1
    if st[_WON + w] >= s.rules.match_games // 2 + 1:
        s._end(w)
    else:
        st[_SCORE] = 0
        st[_SCORE + 1] = 0
