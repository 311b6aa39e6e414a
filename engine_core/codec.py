# The 42 family's event codec: every event in 1 to 3 bytes (the sitting header is header.py's).
#
# Event bytes (0xFF is never used: it is erased flash):
#   0x00..0x72  a bid: the bid code itself (0 pass, 1..95 a number, 0x62.. marks, named)
#   0x80..0x8E  a contract: 0x80 + contract code
#   0x90..0xBF  a trick: 0x90 + seat * 8 + count / 5; count / 5 >= 7 is 0x97 + seat * 8
#               followed by a byte count / 5
#   0xC0, 0xC1  a result: set, made
#   0xC2 P      a result of P points; 0xC4 P claims set, 0xC5 P claims made as well
#   0xC3 A B    a result as each seat's tricks, 4 bits a seat (A seats 0-1, B seats 2-3)
#   0xFE        undo
from engine_core.compat import const
from engine_core.codes import (EV_BID, EV_MADE, EV_POINTS, EV_TRICK, EV_TRICKS, EV_TRUMP, EV_UNDO,
                               N_BID_CODES, N_CONTRACTS)


_TRUMP0 = const(0x80)
_TRICK0 = const(0x90)
_TRICK_END = const(0xC0)
_SET = const(0xC0)
_MADE = const(0xC1)
_POINTS = const(0xC2)
_TRICKS = const(0xC3)
_CLAIM_SET = const(0xC4)
_CLAIM_MADE = const(0xC5)
_UNDO = const(0xFE)
_MAX_EVENT_BYTES = const(3)


def encode_into(ev, buf, pos):
    """Write event `ev` at buf[pos]; return the position after it, or -1 if it cannot be coded."""
    kind = ev >> 24
    arg = ev & 0xFFFFFF
    if kind == EV_BID:
        if arg >= N_BID_CODES:
            return -1
        buf[pos] = arg
        return pos + 1
    if kind == EV_TRUMP:
        if arg >= N_CONTRACTS:
            return -1
        buf[pos] = _TRUMP0 + arg
        return pos + 1
    if kind == EV_TRICK:
        seat = arg >> 8
        count = arg & 0xFF
        if seat > 5 or count % 5:
            return -1
        if count < 35:
            buf[pos] = _TRICK0 + seat * 8 + count // 5
            return pos + 1
        buf[pos] = _TRICK0 + seat * 8 + 7
        buf[pos + 1] = count // 5
        return pos + 2
    if kind == EV_MADE:
        buf[pos] = _MADE if arg else _SET
        return pos + 1
    if kind == EV_POINTS:
        claim = arg >> 8
        if claim > 2:
            return -1
        buf[pos] = _POINTS if claim == 0 else _CLAIM_SET + claim - 1
        buf[pos + 1] = arg & 0xFF
        return pos + 2
    if kind == EV_TRICKS:
        if arg > 0xFFFF:
            return -1
        buf[pos] = _TRICKS
        buf[pos + 1] = arg & 0xFF
        buf[pos + 2] = arg >> 8
        return pos + 3
    if kind == EV_UNDO:
        buf[pos] = _UNDO
        return pos + 1
    return -1


def length_at(buf, pos):
    """The length of the event coded at buf[pos] (0: not an event)."""
    b = buf[pos]
    if b < N_BID_CODES or _TRUMP0 <= b < _TRUMP0 + N_CONTRACTS:
        return 1
    if _TRICK0 <= b < _TRICK_END:
        return 2 if (b - _TRICK0) & 7 == 7 else 1
    if b == _SET or b == _MADE or b == _UNDO:
        return 1
    if b == _POINTS or b == _CLAIM_SET or b == _CLAIM_MADE:
        return 2
    if b == _TRICKS:
        return 3
    return 0


def decode_at(buf, pos):
    """The event coded at buf[pos] (-1: not an event). Use length_at to step on."""
    b = buf[pos]
    if b < N_BID_CODES:
        return EV_BID << 24 | b
    if _TRUMP0 <= b < _TRUMP0 + N_CONTRACTS:
        return EV_TRUMP << 24 | (b - _TRUMP0)
    if _TRICK0 <= b < _TRICK_END:
        b -= _TRICK0
        c = b & 7
        if c == 7:
            c = buf[pos + 1]
        return EV_TRICK << 24 | (b >> 3) << 8 | c * 5
    if b == _SET or b == _MADE:
        return EV_MADE << 24 | (b - _SET)
    if b == _POINTS:
        return EV_POINTS << 24 | buf[pos + 1]
    if b == _CLAIM_SET or b == _CLAIM_MADE:
        return EV_POINTS << 24 | (b - _CLAIM_SET + 1) << 8 | buf[pos + 1]
    if b == _TRICKS:
        return EV_TRICKS << 24 | buf[pos + 2] << 8 | buf[pos + 1]
    if b == _UNDO:
        return EV_UNDO << 24
    return -1
