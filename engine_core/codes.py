# Small-integer codes shared by the engine, the codec, the firmware and the host tools:
# this module is their one home, imported wherever they are used.
from engine_core.compat import const

# Contracts (what the bid winner names). A suit is its pip number, 0..8.
DOUBLES = const(9)      # doubles are trump, 6-6 (8-8) high down to 0-0
FOLLOW_ME = const(10)   # no trump
NELLO_HIGH = const(11)  # nello, doubles top of their suit
NELLO_LOW = const(12)   # nello, doubles lowest of their suit
NELLO_SUIT = const(13)  # nello, doubles a suit of their own
SEVENS = const(14)      # each trick to the tile nearest 7 pips
N_CONTRACTS = const(15)

# Events are small ints: kind << 24 | argument. The codec packs them into 1-3 bytes.
EV_BID = const(1)      # arg: bid code (below)
EV_TRUMP = const(2)    # arg: contract code (above)
EV_TRICK = const(3)    # arg: winner seat << 8 | count caught in the trick
EV_MADE = const(4)     # arg: 1 made, 0 set
EV_POINTS = const(5)   # arg: points (or team tricks) | claim << 8 (claim: 0 none, 1 set, 2 made)
EV_TRICKS = const(6)   # arg: each seat's tricks, 4 bits a seat, seat 0 lowest
EV_UNDO = const(7)      # every family
# Kinds 8 to 11 are the gin pads' (gin/codec.py), so that no event means two things.

# Bid codes: 0 pass; 1..95 a bid of that many points (or tricks); MARKS + k a bid of k
# marks (k >= 2, so 84 is MARKS + 2 in 42); then the named bids.
PASS = const(0)
MAX_NUMBER = const(0x5F)
MARKS = const(0x60)
MAX_MARKS = const(15)
GAME = const(0x70)
PLUNGE = const(0x71)
SPLASH = const(0x72)
N_BID_CODES = const(0x73)

# The longest coded event, in bytes (engine_core/codec.py, gin/codec.py).
MAX_EVENT_BYTES = const(3)

# The phases of a deal (Sitting.phase()).
BIDDING = const(0)
TRUMP = const(1)
PLAY = const(2)
OVER = const(3)


def event(kind, arg=0):
    return kind << 24 | arg


def kind_of(ev):
    return ev >> 24


def arg_of(ev):
    return ev & 0xFFFFFF
