# The variants' table (one row a variant: engine_core/variants.py names its columns), and a
# variant with every house option resolved to small ints. Kept apart from options.py
# (the option names and checks, run once when a sitting is set up) so that the device
# keeps only this part in its heap.
from engine_core.compat import const

# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_FORCED = const(0)
_MARKS = const(0)
_ONE_ROUND = const(0)
_SEATS = const(0)
_POINTS = const(1)
_REDEAL = const(1)
_ROUND_ROBIN = const(1)
_TEAMS = const(1)
_TRICKS = const(2)
_MIN_BID = const(8)
_SCORING = const(13)
_ALL_PASS = const(15)
_TARGET_MARKS = const(18)
_TARGET_POINTS = const(19)

NAMES = ("42", "big-game", "moon", "partnership-moon", "seventy-nine", "eighty", "eighty-eight")

TABLE = (
    # seats teams tricks tpts count total top auction min top mark step shoot scoring
    #   scorings allpass specials packs tmarks tpoints topmarks
    (4, 2, 7, 1, 35, 42, 6, _ONE_ROUND, 30, 41, 42, 1, 0, _MARKS,
     3, _FORCED, 1, 1, 7, 250, 0),   # 42
    (4, 2, 11, 1, 55, 66, 8, _ROUND_ROBIN, 42, 66, 0, 1, 0, _POINTS,
     2, _FORCED, 0, 1, 0, 400, 0),   # big-game
    (3, 0, 7, 1, 0, 7, 6, _ONE_ROUND, 4, 7, 0, 1, 21, _TRICKS,
     4, _REDEAL, 0, 1, 0, 21, 0),    # moon
    (4, 2, 7, 1, 0, 7, 6, _ONE_ROUND, 3, 7, 0, 1, 0, _TRICKS,
     4, _REDEAL, 0, 1, 0, 21, 0),    # partnership-moon
    (6, 2, 9, 1, 70, 79, 6, _ONE_ROUND, 50, 78, 79, 1, 0, _MARKS,
     3, _FORCED, 0, 2, 7, 500, 0),   # seventy-nine
    (4, 2, 10, 2, 60, 80, 6, _ONE_ROUND, 50, 79, 80, 1, 0, _MARKS,
     3, _FORCED, 0, 2, 7, 500, 0),   # eighty
    (6, 2, 9, 2, 70, 88, 6, _ONE_ROUND, 60, 86, 88, 2, 0, _MARKS,
     3, _FORCED, 0, 2, 7, 500, 4),   # eighty-eight
)


# The house options as the log spells them (options.py checks them).
SCORING_NAMES = ("marks", "points", "tricks")
ALL_PASS_NAMES = ("forced", "redeal")
MADE_SCORES_NAMES = ("points", "bid")
NELLO_DOUBLES_NAMES = ("high", "low", "suit")

# Options that apply to each variant row, in the order reports list them.
_FULL = ("scoring", "target", "min_bid", "all_pass", "made_scores", "nello", "nello_doubles",
         "sevens", "plunge", "plunge_marks", "splash", "splash_marks")
_PLAIN = ("scoring", "target", "min_bid", "all_pass", "made_scores")
_MOON = ("target", "all_pass")
APPLIES = (_FULL, _PLAIN, _MOON, _MOON + ("match_games",), _PLAIN, _PLAIN, _PLAIN)
OPTIONS = _FULL + ("match_games",)      # every option of the 42 family
# The special contracts and their settings, played for marks only.
SPECIAL = ("nello", "nello_doubles", "sevens", "plunge", "plunge_marks", "splash", "splash_marks")


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
    return seat % row[_TEAMS] if row[_TEAMS] else seat


def sides(row):
    """How many scores a sitting keeps: one a team, or one a seat."""
    return row[_TEAMS] if row[_TEAMS] else row[_SEATS]


class Rules:
    """A variant with every house option resolved to a small int."""

    family = 0      # the 42 family (gin.rules.GIN: the gin pads)

    def __init__(self, variant=0):
        row = TABLE[variant]
        self.variant = variant
        self.row = row
        self.scoring = row[_SCORING]
        self.target = 0
        self.min_bid = row[_MIN_BID]
        self.all_pass = row[_ALL_PASS]
        self.made_scores = 0      # 0: made bidders score their points, 1: their bid
        self.nello = 0
        self.nello_doubles = 7    # bit mask over high (1), low (2), suit (4)
        self.nello_order = (0, 1, 2)  # the allowed modes in the order the options list them
        self.sevens = 0
        self.plunge = 0
        self.plunge_marks = 4
        self.splash = 0
        self.splash_marks = 3
        self.match_games = 3
        self.default_target()

    def nello_default(self):
        """The nello doubles mode (0 high, 1 low, 2 suit) when a bidder names none:
        high if allowed, otherwise the first allowed."""
        return 0 if self.nello_doubles & 1 else self.nello_order[0]

    def default_target(self):
        row = self.row
        self.target = row[_TARGET_MARKS] if self.scoring == _MARKS else row[_TARGET_POINTS]

    @property
    def name(self):
        return NAMES[self.variant]

    def to_dict(self):
        """Every option that applies to the variant, resolved, as the log spells it."""
        return to_dict(self)


def to_dict(rules):
    """Rules.to_dict(). The special contracts' options are left out under points
    scoring, where a log may not give them."""
    out = {}
    for key in APPLIES[rules.variant]:
        if rules.scoring == _POINTS and key in SPECIAL:
            continue    # refused with points scoring, so not listed either
        out[key] = value(rules, key)
    return out


def value(rules, key):
    """One option of Rules, as the log spells it."""
    if key == "scoring":
        return SCORING_NAMES[rules.scoring]
    if key == "all_pass":
        return ALL_PASS_NAMES[rules.all_pass]
    if key == "made_scores":
        return MADE_SCORES_NAMES[rules.made_scores]
    if key == "nello_doubles":
        return [NELLO_DOUBLES_NAMES[i] for i in rules.nello_order]
    if key in ("nello", "sevens", "plunge", "splash"):
        return bool(getattr(rules, key))
    return getattr(rules, key)
