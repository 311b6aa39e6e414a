# Small-integer codes shared by the engine, the codec, the firmware and the host tools.
from engine_core.compat import const

# Contracts (what the bid winner names). A suit is its pip number, 0..8.
DOUBLES = const(9)      # doubles are trump, 6-6 (8-8) high down to 0-0
FOLLOW_ME = const(10)   # no trump
NELLO_HIGH = const(11)  # nello, doubles top of their suit
NELLO_LOW = const(12)   # nello, doubles lowest of their suit
NELLO_SUIT = const(13)  # nello, doubles a suit of their own
SEVENS = const(14)      # each trick to the tile nearest 7 pips
N_CONTRACTS = const(15)
