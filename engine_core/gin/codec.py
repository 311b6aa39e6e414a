# The gin pads' events: their kinds, their fields packed into a small int, and each event
# as 1 to 3 bytes (the sitting header is header.py's, for every family). A typical
# Oklahoma hand, the turn-up and a knock with both totals, is 3 bytes.
#
# Event bytes (0xFF is never used: it is erased flash):
#   0x00..0x19  turn-up: (rank - 1) * 2 + spade
#   0x20 + seat * 16 + K, D               knock: knocker's total K (1..10), opponent's D
#   0x40 + seat * 16 + K, D, b0 << 4 | b1 knock with Sequence Gin's bonus cards
#   0x60 + seat * 8 + no contract * 4 + bonus * 2 + (T >> 8), T & 0xFF [, b0 << 4 | b1]
#                                         gin; T the opponent's total (up to 396)
#   0x70                                  draw-out
#   0x74 + (t0 >> 8) * 2 + (t1 >> 8), t0 & 0xFF, t1 & 0xFF
#                                         draw-out with both totals (Skarney Gin)
#   0xFE                                  undo
from engine_core.codes import EV_UNDO, MAX_EVENT_BYTES  # noqa: F401
from engine_core.compat import const

# The gin pads' event kinds (codes.py has the 42 family's); sitting.py packs and reads their
# arguments.
EV_TURNUP = const(8)    # arg: rank 1..13 | spade << 4
EV_GIN = const(9)       # arg: seat | bonus << 1 | no contract meld << 2 | opponent << 3
#                         | b0 << 12 | b1 << 16
EV_KNOCK = const(10)    # arg: seat | bonus << 1 | knocker << 2 | opponent << 9 | b0 << 16
#                         | b1 << 20
EV_DRAWOUT = const(11)  # arg: totals given | t0 << 1 | t1 << 10

_KNOCK = const(0x20)
_KNOCK_BONUS = const(0x40)
_GIN = const(0x60)
_DRAWOUT = const(0x70)
_DRAWOUT_TOTALS = const(0x74)
_UNDO = const(0xFE)



# ---- events, packed (small ints; nothing allocates) ----
def turnup(rank, spade=0):
    """The turn-up card: rank 1 (ace) .. 13 (king), spade 1 if it is a spade."""
    return EV_TURNUP << 24 | rank | (1 if spade else 0) << 4


def gin(seat, opponent, contract=1, b0=-1, b1=0):
    """`seat` went gin; the opponent's total; Skarney Gin: contract 0 when the opponent had
    not laid down the contract meld; Sequence Gin's bonus cards b0, b1 by seat (-1: none)."""
    bonus = 1 if b0 >= 0 else 0
    if b0 < 0:
        b0 = 0
    return (EV_GIN << 24 | seat | bonus << 1 | (0 if contract else 1) << 2 | opponent << 3
            | b0 << 12 | b1 << 16)


def knock(seat, knocker, opponent, b0=-1, b1=0):
    """`seat` knocked with `knocker` unmelded; the opponent was left with `opponent`."""
    bonus = 1 if b0 >= 0 else 0
    if b0 < 0:
        b0 = 0
    return (EV_KNOCK << 24 | seat | bonus << 1 | knocker << 2 | opponent << 9 | b0 << 16
            | b1 << 20)


def drawout(t0=-1, t1=0):
    """The stock ran out; Skarney Gin: each seat's unmelded total."""
    if t0 < 0:
        return EV_DRAWOUT << 24
    return EV_DRAWOUT << 24 | 1 | t0 << 1 | t1 << 10


# Reading an event's fields back (seat, totals, bonus cards).
def seat_of(ev):
    return ev & 1


def has_bonus(ev):
    return ev >> 1 & 1


def gin_opponent(ev):
    return ev >> 3 & 0x1FF


def gin_no_contract(ev):
    return ev >> 2 & 1


def gin_bonus(ev, seat):
    return ev >> (12 + 4 * seat) & 15


def knocker_total(ev):
    return ev >> 2 & 0x7F


def knock_opponent(ev):
    return ev >> 9 & 0x7F


def knock_bonus(ev, seat):
    return ev >> (16 + 4 * seat) & 15


def drawout_total(ev, seat):
    return ev >> (1 + 9 * seat) & 0x1FF


def encode_into(ev, buf, pos):
    """Write event `ev` at buf[pos]; return the position after it, or -1 if it cannot be coded."""
    kind = ev >> 24
    arg = ev & 0xFFFFFF
    if kind == EV_TURNUP:
        rank = arg & 15
        if rank < 1 or rank > 13:
            return -1
        buf[pos] = (rank - 1) * 2 + (arg >> 4 & 1)
        return pos + 1
    if kind == EV_KNOCK:
        seat = arg & 1
        k = arg >> 2 & 0x7F
        if k < 1 or k > 10:
            return -1
        bonus = arg >> 1 & 1
        buf[pos] = (_KNOCK_BONUS if bonus else _KNOCK) + seat * 16 + k
        buf[pos + 1] = arg >> 9 & 0x7F
        if not bonus:
            return pos + 2
        buf[pos + 2] = (arg >> 16 & 15) << 4 | arg >> 20 & 15
        return pos + 3
    if kind == EV_GIN:
        t = arg >> 3 & 0x1FF
        bonus = arg >> 1 & 1
        buf[pos] = _GIN + (arg & 1) * 8 + (arg >> 2 & 1) * 4 + bonus * 2 + (t >> 8)
        buf[pos + 1] = t & 0xFF
        if not bonus:
            return pos + 2
        buf[pos + 2] = (arg >> 12 & 15) << 4 | arg >> 16 & 15
        return pos + 3
    if kind == EV_DRAWOUT:
        if not arg & 1:
            buf[pos] = _DRAWOUT
            return pos + 1
        t0 = arg >> 1 & 0x1FF
        t1 = arg >> 10 & 0x1FF
        buf[pos] = _DRAWOUT_TOTALS + (t0 >> 8) * 2 + (t1 >> 8)
        buf[pos + 1] = t0 & 0xFF
        buf[pos + 2] = t1 & 0xFF
        return pos + 3
    if kind == EV_UNDO:
        buf[pos] = _UNDO
        return pos + 1
    return -1


def length_at(buf, pos):
    """The length of the event coded at buf[pos] (0: not an event)."""
    b = buf[pos]
    if b < 0x1A or b == _DRAWOUT or b == _UNDO:
        return 1
    if _KNOCK < b < _KNOCK_BONUS:
        return 2 if 1 <= b & 15 <= 10 else 0
    if _KNOCK_BONUS < b < _GIN:
        return 3 if 1 <= b & 15 <= 10 else 0
    if _GIN <= b < _DRAWOUT:
        return 3 if b & 2 else 2
    if _DRAWOUT_TOTALS <= b < _DRAWOUT_TOTALS + 4:
        return 3
    return 0


def decode_at(buf, pos):
    """The event coded at buf[pos] (-1: not an event). Use length_at to step on."""
    b = buf[pos]
    if b < 0x1A:
        return EV_TURNUP << 24 | (b >> 1) + 1 | (b & 1) << 4
    if b == _DRAWOUT:
        return EV_DRAWOUT << 24
    if b == _UNDO:
        return EV_UNDO << 24
    if _KNOCK < b < _GIN:
        bonus = 1 if b > _KNOCK_BONUS else 0
        b &= 0x1F
        ev = EV_KNOCK << 24 | b >> 4 | bonus << 1 | (b & 15) << 2 | buf[pos + 1] << 9
        if bonus:
            c = buf[pos + 2]
            ev |= (c >> 4) << 16 | (c & 15) << 20
        return ev
    if _GIN <= b < _DRAWOUT:
        b -= _GIN
        bonus = b >> 1 & 1
        ev = (EV_GIN << 24 | b >> 3 | bonus << 1 | (b >> 2 & 1) << 2
              | ((b & 1) << 8 | buf[pos + 1]) << 3)
        if bonus:
            c = buf[pos + 2]
            ev |= (c >> 4) << 12 | (c & 15) << 16
        return ev
    if _DRAWOUT_TOTALS <= b < _DRAWOUT_TOTALS + 4:
        b -= _DRAWOUT_TOTALS
        t0 = (b >> 1) << 8 | buf[pos + 1]
        t1 = (b & 1) << 8 | buf[pos + 2]
        return EV_DRAWOUT << 24 | 1 | t0 << 1 | t1 << 10
    return -1
