# The 42 family's house options as the log spells them: their names, which apply to each
# variant, and a Rules' options written out that way. Loaded when a sitting is set up or
# written out (options.py, Rules.to_dict), not to score.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.texas42.variants import POINTS

# The house options as the log spells them (options.py checks them).
SCORING_NAMES = ("marks", "points", "tricks")
ALL_PASS_NAMES = ("forced", "redeal")
MADE_SCORES_NAMES = ("points", "bid")
NELLO_DOUBLES_NAMES = ("high", "low", "suit")
NELLO_BY_NAMES = ("any", "forced_dealer")
NELLO_MIN_LO = 30           # nello_min: any bid ...
NELLO_MIN_HI = 84           # ... to a two-mark bid only
MOON_MIN_BID_LO = 3         # Moon's min_bid, as house rules have it
MOON_MIN_BID_HI = 5

# Options that apply to each variant row, in the order reports list them.
_FULL = ("scoring", "target", "min_bid", "all_pass", "forced_min", "made_scores", "nello",
         "nello_doubles", "nello_min", "nello_by", "sevens", "plunge", "plunge_marks",
         "splash", "splash_marks")
_PLAIN = ("scoring", "target", "min_bid", "all_pass", "made_scores")
_MOON = ("target", "all_pass")
APPLIES = (_FULL, _PLAIN, ("target", "min_bid", "all_pass"), _MOON + ("match_games",),
           _PLAIN, _PLAIN, _PLAIN)
OPTIONS = _FULL + ("match_games",)      # every option of the 42 family
# The special contracts and their settings, played for marks only.
SPECIAL = ("nello", "nello_doubles", "nello_min", "nello_by", "sevens", "plunge",
           "plunge_marks", "splash", "splash_marks")
_NELLO_RULES = ("nello_min", "nello_by")     # refused without nello


def to_dict(rules):
    """Rules.to_dict(). The special contracts' options are left out under points
    scoring, where a log may not give them."""
    out = {}
    for key in APPLIES[rules.variant]:
        if rules.scoring == POINTS and key in SPECIAL:
            continue    # refused with points scoring, so not listed either
        if not rules.nello and key in _NELLO_RULES:
            continue    # refused without nello, so not listed either
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
    if key == "nello_by":
        return NELLO_BY_NAMES[rules.nello_by]
    if key in ("nello", "sevens", "plunge", "splash"):
        return bool(getattr(rules, key))
    return getattr(rules, key)
