# The slots of a 42-family sitting's state, one array("h"): what Sitting (sitting.py) and
# the scoring it builds on (scoring.py) read and write. The last finished deal's slots,
# which Sitting.last() and the screens read, are codes.py's LAST_* (17 to 37) and GAME_*
# (13 to 15); every family's first four are history.py's. tests/engine/test_slots.py
# checks that the three tile the array: no slot shared, none left over.
from engine_core.compat import const
from engine_core.history import DEALER, HANDS, ENDED, WINNER  # noqa: F401 (every family's)

# The sitting first (slots 0-3 every family's: history.py; WINNER is a team, a seat in
# Moon), then (codes.py) the last finished game and deal, then the deal in progress.
GAMES = const(4)        # games finished (Partnership Moon)
WON = const(5)          # 2 slots: games won by each team
SCORE = const(7)        # 6 slots: by team, or by seat in Moon
CONFIRM = const(16)     # 1: the last deal closed at its last trick, a result may confirm it
PHASE = const(38)       # the deal in progress
TURN = const(39)
ACTED = const(40)       # bids and passes made this deal
PASSED = const(41)      # bit mask of seats that passed
HIGH = const(42)        # standing bid code, -1 none
VALUE = const(43)       # standing bid value
BIDDER = const(44)
CONTRACT = const(45)
LEADER = const(46)
TRACKED = const(47)     # tricks tracked
BPTS = const(48)        # points (tricks) the bidding side took in tracked tricks
OPTS = const(49)        # the opponents'
CAUGHT = const(50)      # count caught so far
SEAT_TRICKS = const(51) # 6 slots
CLAIMED = const(57)     # doubles claimed by plunge and splash bids this deal
N_SLOTS = const(58)
