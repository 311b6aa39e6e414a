# A variant of the 42 family with every house option resolved to small ints (Rules), and
# the options as the log spells them. Checking a log's options is options.py's (run once
# when a sitting is set up).
from engine_core.variants import (NAMES, TABLE, index, team_of, sides,  # noqa: F401
                                   MARKS, POINTS, SCORING, MIN_BID, ALL_PASS, TARGET_MARKS,
                                   TARGET_POINTS)

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


class Rules:
    """A variant with every house option resolved to a small int."""

    family = 0      # the 42 family (gin.rules.GIN: the gin pads)

    def __init__(self, variant=0):
        row = TABLE[variant]
        self.variant = variant
        self.row = row
        self.scoring = row[SCORING]
        self.target = 0
        self.min_bid = row[MIN_BID]
        self.all_pass = row[ALL_PASS]
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
        self.target = row[TARGET_MARKS] if self.scoring == MARKS else row[TARGET_POINTS]

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
        if rules.scoring == POINTS and key in SPECIAL:
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
