# The gin pads (Oklahoma, Sequence and Skarney Gin) as rows of numbers, and a variant with
# every house option resolved to small ints. The checks of the options are in
# texas42/options.py, both families' (run once when a sitting is set up).
from engine_core.compat import const

GIN = const(1)          # the family (the 42 family is 0)

# Columns of a variant row. SEATS and TEAMS are columns 0 and 1 in every family's table.
SEATS = const(0)
TEAMS = const(1)        # 0: each seat for itself
TURNUP = const(2)       # 1: each hand starts with a turn-up card, the knock limit
KNOCK = const(3)        # 1: a hand may end in a knock
CARDS_MAX = const(4)    # the most a total may be (an opponent's 10 cards; the whole deck)
TARGET = const(5)       # the default game target
GIN_BONUS = const(6)    # added to a gin (Skarney Gin: doubled without the contract meld)
UNDERCUT_BONUS = const(7)

NAMES = ("oklahoma-gin", "sequence-gin", "skarney-gin")
OKLAHOMA = const(0)
SEQUENCE = const(1)
SKARNEY = const(2)

TABLE = (
    # seats teams turnup knock cards target gin undercut
    (2, 0, 1, 1, 100, 100, 20, 20),     # oklahoma-gin
    (2, 0, 1, 1, 100, 100, 20, 20),     # sequence-gin
    (2, 0, 0, 0, 396, 200, 20, 0),      # skarney-gin
)

# Who deals the next hand.
ALTERNATE = const(0)
WINNER = const(1)
LOSER = const(2)
DEAL_NAMES = ("alternate", "winner", "loser")

# How a knock that stands scores: the opponent's total (the seed's), or the difference.
TOTAL = const(0)
DIFFERENCE = const(1)
KNOCK_SCORES_NAMES = ("total", "difference")
# What an ace turn-up allows: a knock of 1 (the seed's), or only gin (Hoyle's).
ACE_TURNUP_NAMES = ("knock", "gin")
BONUS_LO = const(20)    # gin_bonus, undercut_bonus: 20 (the seed's) to 25 (Hoyle's)
BONUS_HI = const(25)

_OKLAHOMA = ("target", "spade_doubles", "game_bonus", "box_bonus", "shutout_doubles", "deal",
             "knock_scores", "gin_bonus", "undercut_bonus", "ace_turnup")
_SKARNEY = ("target", "game_bonus", "box_bonus", "shutout_doubles", "deal")
APPLIES = (_OKLAHOMA, _OKLAHOMA + ("bonus",), _SKARNEY)
_FLAGS = ("spade_doubles", "shutout_doubles", "bonus")

# Rank codes of a turn-up card: 1 (ace) to 13 (king); its knock limit is min(rank, 10).
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def index(name):
    """The row number of a gin variant name, or -1."""
    return NAMES.index(name) if name in NAMES else -1


class GinRules:
    """A gin variant with every house option resolved to a small int."""

    family = GIN

    def __init__(self, variant=0):
        row = TABLE[variant]
        self.variant = variant
        self.row = row
        self.target = row[TARGET]
        self.spade_doubles = 0
        self.game_bonus = 0
        self.box_bonus = 0
        self.shutout_doubles = 0
        self.deal = ALTERNATE
        self.bonus = 0
        self.knock_scores = TOTAL
        self.gin_bonus = row[GIN_BONUS]
        self.undercut_bonus = row[UNDERCUT_BONUS]
        self.ace_turnup = 0     # 1: an ace turn-up allows only gin

    @property
    def name(self):
        return NAMES[self.variant]

    def to_dict(self):
        """Every option that applies to the variant, resolved, as the log spells it."""
        out = {}
        for key in APPLIES[self.variant]:
            if key == "deal":
                out[key] = DEAL_NAMES[self.deal]
            elif key == "knock_scores":
                out[key] = KNOCK_SCORES_NAMES[self.knock_scores]
            elif key == "ace_turnup":
                out[key] = ACE_TURNUP_NAMES[self.ace_turnup]
            elif key in _FLAGS:
                out[key] = bool(getattr(self, key))
            else:
                out[key] = getattr(self, key)
        return out

