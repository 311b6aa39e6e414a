# The games of the 42 family as a table of numbers: one row a variant, no subclass a game;
# the names of its columns and codes.
from engine_core.compat import const

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

NAMES = ("42", "big-game", "moon", "partnership-moon", "seventy-nine", "eighty", "eighty-eight")

TABLE = (
    # seats teams tricks tpts count total top auction min top mark step shoot scoring
    #   scorings allpass specials packs tmarks tpoints topmarks
    (4, 2, 7, 1, 35, 42, 6, ONE_ROUND, 30, 41, 42, 1, 0, MARKS,
     3, FORCED, 1, 1, 7, 250, 0),   # 42
    (4, 2, 11, 1, 55, 66, 8, ROUND_ROBIN, 42, 66, 0, 1, 0, POINTS,
     2, FORCED, 0, 1, 0, 400, 0),   # big-game
    (3, 0, 7, 1, 0, 7, 6, ONE_ROUND, 4, 7, 0, 1, 21, TRICKS,
     4, REDEAL, 0, 1, 0, 21, 0),    # moon
    (4, 2, 7, 1, 0, 7, 6, ONE_ROUND, 3, 7, 0, 1, 0, TRICKS,
     4, REDEAL, 0, 1, 0, 21, 0),    # partnership-moon
    (6, 2, 9, 1, 70, 79, 6, ONE_ROUND, 50, 78, 79, 1, 0, MARKS,
     3, FORCED, 0, 2, 7, 500, 0),   # seventy-nine
    (4, 2, 10, 2, 60, 80, 6, ONE_ROUND, 50, 79, 80, 1, 0, MARKS,
     3, FORCED, 0, 2, 7, 500, 0),   # eighty
    (6, 2, 9, 2, 70, 88, 6, ONE_ROUND, 60, 86, 88, 2, 0, MARKS,
     3, FORCED, 0, 2, 7, 500, 4),   # eighty-eight
)


def index(name):
    """The row number of a variant name, or -1."""
    i = 0
    while i < len(NAMES):
        if NAMES[i] == name:
            return i
        i += 1
    return -1


def team_of(row, seat):
    """The team a seat plays for (the seat itself when each plays alone)."""
    return seat % row[TEAMS] if row[TEAMS] else seat


def sides(row):
    """How many scores a sitting keeps: one a team, or one a seat."""
    return row[TEAMS] if row[TEAMS] else row[SEATS]
