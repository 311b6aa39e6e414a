# The slots of a 42-family sitting's state, one array("h"), in one table in slot order:
# what Sitting (sitting.py) and the scoring it builds on (scoring.py) read and write,
# Sitting.last()'s LAST_* and GAME_* that the screens and the log read, and the deal in
# progress. Slots 0-3 begin every family's state and are history.py's (its readers use
# them); the rest are the 42 family's alone. tests/engine/test_slots.py checks that the
# table tiles the array: no slot shared, none left over, N_SLOTS the end.
from engine_core.compat import const
from engine_core.history import DEALER, HANDS, ENDED, WINNER  # noqa: F401 (slots 0-3)

# The sitting (slots 0-3: the dealer, deals finished, ended, the winner: a team, a seat
# in Moon)
GAMES = const(4)        # games finished (Partnership Moon)
WON = const(5)          # 2 slots: games won by each team
SCORE = const(7)        # 6 slots: by team, or by seat in Moon
# The last finished game (Sitting.last())
GAME_SCORE = const(13)  # 2 slots: its final score
GAME_WINNER = const(15)
CONFIRM = const(16)     # 1: the last deal closed at its last trick, a result may confirm it
# The last finished deal (Sitting.last())
LAST_DEALER = const(17)
LAST_THROWN = const(18)
LAST_BIDDER = const(19)
LAST_BID = const(20)        # bid code
LAST_VALUE = const(21)      # bid value in points (marks * mark for mark bids)
LAST_CONTRACT = const(22)
LAST_MADE = const(23)
LAST_POINTS = const(24)     # -1: not known (only made/set was given)
LAST_AWARD = const(25)      # 6 slots
LAST_TRICKS = const(31)     # 6 slots: each seat's tricks, when known
LAST_KNOWN = const(37)      # 1 when the LAST_TRICKS are known
# The deal in progress
PHASE = const(38)
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
