# The games of the 42 family as tables of numbers: one row a variant, no subclass a game.
# The names of the columns and codes, for the PC and the tests; the table itself is in
# rules.py, whose private copies of these names cost the device no heap.
from engine_core.compat import const
from engine_core.rules import NAMES, TABLE, index, sides, team_of  # noqa: F401 (for the PC)

# Scoring units.
MARKS = const(0)    # a mark a hand won (42)
POINTS = const(1)   # points taken, to 250 or 400
TRICKS = const(2)   # Moon: each seat (team) scores its tricks

# Auction styles.
ONE_ROUND = const(0)      # each seat bids once, the dealer last
ROUND_ROBIN = const(1)    # a seat bids again until it passes; a pass is final

# All-pass rules.
FORCED = const(0)   # the dealer must bid
REDEAL = const(1)   # the deal is thrown in

# Columns of a variant row.
SEATS = const(0)        # 3, 4 or 6
TEAMS = const(1)        # 2 partnerships (seats alternate), or 0: each seat for itself
TRICKS_PER_HAND = const(2)
TRICK_POINTS = const(3)  # points a trick is worth
COUNT = const(4)        # count points out in a hand
TOTAL = const(5)        # points (tricks in Moon) out in a hand
TOP_SUIT = const(6)     # 6 for double-six sets, 8 for double-eight
AUCTION = const(7)
MIN_BID = const(8)      # lowest bid (default of the min_bid option where it applies)
TOP_NUMBER = const(9)   # highest number bid below the mark ladder (or the top bid)
MARK = const(10)        # points in a mark (the first mark bid), 0: no mark bids
STEP = const(11)        # bids go up by this many points
SHOOT = const(12)       # Moon's shoot-the-moon bid (21), 0: none
SCORING = const(13)     # default scoring
SCORINGS = const(14)    # scorings allowed, a bit mask over MARKS/POINTS/TRICKS
ALL_PASS = const(15)    # default all-pass rule
SPECIALS = const(16)    # 1: nello, sevens, plunge and splash may be played
PACKS = const(17)       # double-six sets used (2 in the two-set games)
TARGET_MARKS = const(18)
TARGET_POINTS = const(19)
TOP_MARKS = const(20)   # the highest mark bid, 0: no limit but the auction's length
N_COLUMNS = const(21)
