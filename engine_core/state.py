# The slots of a 42-family sitting's state, one array("h"): what Sitting (sitting.py) and
# the scoring it builds on (scoring.py) read and write. The last finished deal's slots,
# which Sitting.last() reads, are codes.py's LAST_* (17 to 37) and GAME_* (13 to 16).
from engine_core.compat import const

# The sitting first, then (codes.py) the last finished game and deal, then the deal in
# progress.
DEALER = const(0)       # slots 0-3 as every family has them (history.py)
HANDS = const(1)        # deals finished (scored or thrown in)
ENDED = const(2)
WINNER = const(3)       # team (seat in Moon), -1 none
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
