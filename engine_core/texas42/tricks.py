# Trick rules for 42 and its family: tiles, suits, following suit and who takes a trick.
# Pure and allocation-free (small ints and index loops only): runs unchanged on MicroPython
# and CPython, and may be called on the event path under micropython.heap_lock().
#
# A tile is one small int, high end in the top nibble, low end in the bottom: tile(6, 4)
# and tile(4, 6) are both 0x64. A suit is its pip number, 0..8; DOUBLES (9) also names
# the suit of the doubles, which a led double calls when doubles are trump (DOUBLES) or,
# in nello, a suit of their own (NELLO_SUIT). A contract's trump suit is the contract
# itself when it is 0..9; the other contracts have no trump.
from engine_core.compat import const
from engine_core.codes import DOUBLES, NELLO_LOW, NELLO_SUIT, SEVENS


NO_SUIT = const(-1)  # can_play's suit for a lead: nothing has been led yet

_LAST_PIP_SUIT = const(8)
_TILE_3_7 = const(0x73)
_TILE_2_8 = const(0x82)
_SEVEN = const(7)
_FAR = const(99)  # further from 7 than any tile
# trick_winner ranks each play by a key: 0 for a tile off the led suit, _IN_SUIT + r for
# the led suit and _TRUMP + r for a trump, r in 0.._DOUBLE_TOP.
_IN_SUIT = const(16)
_TRUMP = const(32)
_DOUBLE_TOP = const(15)


def tile(a, b):
    if a < b:
        return b << 4 | a
    return a << 4 | b


def hi(t):
    return t >> 4


def lo(t):
    return t & 15


def is_double(t):
    return t >> 4 == t & 15


def pips(t):
    return (t >> 4) + (t & 15)


def count(t):
    # Count tiles are those whose pips total 5 or 10, worth that many points:
    # 42's 5-0, 4-1, 3-2 and 5-5, 6-4; The Big Game adds 7-3 and 8-2.
    p = (t >> 4) + (t & 15)
    if p == 5 or p == 10:
        return p
    return 0


def is_trump(t, contract):
    # A tile carrying the trump number is a trump and belongs to no other suit.
    if contract <= _LAST_PIP_SUIT:
        return t >> 4 == contract or t & 15 == contract
    if contract == DOUBLES:
        return t >> 4 == t & 15
    return False


def led_suit(t, contract, lead_low=False):
    # The suit a led tile calls: trump if it is one, else its higher end; a double its own
    # suit under DOUBLES and NELLO_SUIT. lead_low is The Big Game's announcement that a led
    # 3-7 or 2-8 that is not trump calls its lower end; for any other tile it is ignored.
    if is_trump(t, contract):
        return contract
    if contract == NELLO_SUIT and t >> 4 == t & 15:
        return DOUBLES
    if lead_low and (t == _TILE_3_7 or t == _TILE_2_8):
        return t & 15
    return t >> 4


def follows(t, suit, contract):
    # True when t belongs to the led suit, so that a hand holding t must follow. A trump
    # belongs only to the trump suit: with twos trump, 4-2 is not a four.
    if is_trump(t, contract):
        return suit == contract
    if suit == DOUBLES:
        return contract == NELLO_SUIT and t >> 4 == t & 15
    if contract == NELLO_SUIT and t >> 4 == t & 15:
        return False
    return t >> 4 == suit or t & 15 == suit


def _distance(t):
    d = (t >> 4) + (t & 15) - _SEVEN
    if d < 0:
        return -d
    return d


def can_play(hand, n, t, suit, contract):
    # Whether a player holding the first n tiles of hand may play t: t must be held, and
    # a player who holds a tile of the led suit must follow it (suit NO_SUIT: a lead, any
    # held tile). In sevens there are no suits: every player, leader included, plays a
    # tile of the hand nearest 7 (both seed sources give this order of play).
    held = False
    able = False
    nearest = _FAR
    for i in range(n):
        x = hand[i]
        if x == t:
            held = True
        if follows(x, suit, contract):
            able = True
        d = _distance(x)
        if d < nearest:
            nearest = d
    if not held:
        return False
    if contract == SEVENS:
        return _distance(t) == nearest
    if suit == NO_SUIT or not able:
        return True
    return follows(t, suit, contract)


def _rank(t, suit, contract):
    h = t >> 4
    low = t & 15
    if is_trump(t, contract):
        if contract == DOUBLES:
            return _TRUMP + h  # doubles trump: 8-8 (6-6) high down to 0-0
        return _TRUMP + _rank_in_suit(h, low, contract, contract)
    if not follows(t, suit, contract):
        return 0
    if suit == DOUBLES:
        return _IN_SUIT + h  # nello, doubles a suit of their own, ranked by pips
    return _IN_SUIT + _rank_in_suit(h, low, suit, contract)


def _rank_in_suit(h, low, suit, contract):
    # The double tops its suit (in nello doubles-low it is the lowest); the rest of the
    # suit ranks by the other end.
    if h == low:
        if contract == NELLO_LOW:
            return 0
        return _DOUBLE_TOP
    if h == suit:
        return low + 1
    return h + 1


def trick_winner(tiles, n, contract, lead_low=False):
    # Index (0..n-1) of the play that takes the trick, tiles[0] being the lead: the
    # highest trump, else the highest tile of the led suit; in sevens the tile nearest 7.
    # Comparison is strict, so a tie (sevens, or the two identical tiles of a two-set
    # game) goes to the earlier play. -1 for an empty trick.
    if n < 1:
        return -1
    best = 0
    if contract == SEVENS:
        nearest = _distance(tiles[0])
        for i in range(1, n):
            d = _distance(tiles[i])
            if d < nearest:
                nearest = d
                best = i
        return best
    suit = led_suit(tiles[0], contract, lead_low)
    top = _rank(tiles[0], suit, contract)
    for i in range(1, n):
        r = _rank(tiles[i], suit, contract)
        if r > top:
            top = r
            best = i
    return best
