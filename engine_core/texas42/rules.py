# A variant of the 42 family with every house option resolved to small ints (Rules). The
# options as the log spells them, and checking them, are options.py's (loaded when a
# sitting is set up or written out, not to score: options.to_dict(rules) writes one out).
from engine_core.texas42.variants import (NAMES, TABLE, index, team_of, sides,  # noqa: F401
                                   MARKS, SCORING, MIN_BID, ALL_PASS, TARGET_MARKS,
                                   TARGET_POINTS)


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
        self.forced_min = row[MIN_BID]    # the least a forced dealer bids (42: min_bid..41)
        self.made_scores = 0      # 0: made bidders score their points, 1: their bid
        self.nello = 0
        self.nello_doubles = 7    # bit mask over high (1), low (2), suit (4)
        self.nello_order = (0, 1, 2)  # the allowed modes in the order the options list them
        self.nello_min = 42       # the least bid that may name nello (30..84)
        self.nello_by = 0         # 0: any bid winner; 1: only a dealer forced to bid
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
