# A variant with every house option resolved to small ints, and the option names.
# Kept apart from options.py (the checks, run once when a sitting is set up) so that
# the device keeps only this part in its heap.
from engine_core import variants as V

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
# The special contracts and their settings, played for marks only.
SPECIAL = ("nello", "nello_doubles", "sevens", "plunge", "plunge_marks", "splash", "splash_marks")


class Rules:
    """A variant with every house option resolved to a small int."""

    family = 0      # the 42 family (ginrules.GIN: the gin pads)

    def __init__(self, variant=0):
        row = V.TABLE[variant]
        self.variant = variant
        self.row = row
        self.scoring = row[V.SCORING]
        self.target = 0
        self.min_bid = row[V.MIN_BID]
        self.all_pass = row[V.ALL_PASS]
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
        self._default_target()

    def nello_default(self):
        """The nello doubles mode (0 high, 1 low, 2 suit) when a bidder names none:
        high if allowed, otherwise the first allowed."""
        return 0 if self.nello_doubles & 1 else self.nello_order[0]

    def _default_target(self):
        row = self.row
        self.target = row[V.TARGET_MARKS] if self.scoring == V.MARKS else row[V.TARGET_POINTS]

    @property
    def name(self):
        return V.NAMES[self.variant]

    def to_dict(self):
        """Every option that applies to the variant, resolved, as the log spells it.
        The special contracts' options are left out under points scoring, where a log
        may not give them."""
        out = {}
        for key in APPLIES[self.variant]:
            if self.scoring == V.POINTS and key in SPECIAL:
                continue    # refused with points scoring, so not listed either
            out[key] = self._value(key)
        return out

    def _value(self, key):
        if key == "scoring":
            return SCORING_NAMES[self.scoring]
        if key == "all_pass":
            return ALL_PASS_NAMES[self.all_pass]
        if key == "made_scores":
            return MADE_SCORES_NAMES[self.made_scores]
        if key == "nello_doubles":
            return [NELLO_DOUBLES_NAMES[i] for i in self.nello_order]
        if key in ("nello", "sevens", "plunge", "splash"):
            return bool(getattr(self, key))
        return getattr(self, key)
