# A variant with every house option resolved to small ints. Kept apart from options.py
# (the option names and checks, run once when a sitting is set up) so that the device
# keeps only this part in its heap.
from engine_core import variants as V

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
        """Every option that applies to the variant, resolved, as the log spells it
        (engine_core/options.py, loaded for it)."""
        from engine_core import options
        return options.to_dict(self)
