# House options: resolving a log's or a setup screen's options into Rules, with a
# message for anything wrong. Runs once when a sitting starts (it may allocate).
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.texas42.variants import MARK, MIN_BID, POINTS, SCORINGS, SHOOT, TOP_NUMBER

from engine_core.texas42.rules import NAMES, Rules, index
from engine_core.texas42.optionnames import (SCORING_NAMES, ALL_PASS_NAMES,  # noqa: F401
                                     MADE_SCORES_NAMES, NELLO_DOUBLES_NAMES, NELLO_BY_NAMES,
                                     NELLO_MIN_LO, NELLO_MIN_HI, MOON_MIN_BID_LO,
                                     MOON_MIN_BID_HI, APPLIES, OPTIONS, SPECIAL, to_dict,
                                     value)
from engine_core.optioncheck import OptionError, whole, choice, flag, show


def resolve(variant, options=None):
    """Rules for a variant name and an options dict; OptionError says what is wrong.
    The gin pads' variants resolve to GinRules (gin/options.py)."""
    from engine_core.gin import rules as G
    if isinstance(variant, str) and G.index(variant) >= 0:
        from engine_core.gin import options as ginoptions
        return ginoptions.resolve(variant, options, OPTIONS)
    v = index(variant) if isinstance(variant, str) else -1
    if v < 0:
        raise OptionError("unknown variant %s (one of %s)" % (
            show(variant), ", ".join(NAMES + G.NAMES)))
    if options is None:     # none given (a log's "options": null is refused before)
        options = {}
    if not isinstance(options, dict):
        raise OptionError("options must be an object")
    rules = Rules(v)
    row = rules.row
    applies = APPLIES[v]
    for key in options:
        if key not in applies:
            known = key in OPTIONS or key in G.APPLIES[1]
            if known:
                raise OptionError("option %s does not apply to %s" % (key, variant))
            raise OptionError("unknown option %s" % show(key))
    if "scoring" in options:
        s = choice("scoring", options["scoring"], SCORING_NAMES)
        if not row[SCORINGS] >> s & 1:
            raise OptionError("%s cannot be scored in %s" % (variant, SCORING_NAMES[s]))
        rules.scoring = s
        rules.default_target()
    if rules.scoring == POINTS:
        for key in SPECIAL:
            if key in options:
                raise OptionError("option %s needs scoring marks (special contracts are "
                                  "played for marks)" % key)
    for key in options:
        given = options[key]
        if key == "target":
            rules.target = whole(key, given, 1, 9999)
        elif key == "min_bid":
            lo, top = min_bid_range(rules)
            rules.min_bid = whole(key, given, lo, top)
        elif key == "all_pass":
            rules.all_pass = choice(key, given, ALL_PASS_NAMES)
        elif key == "made_scores":
            rules.made_scores = choice(key, given, MADE_SCORES_NAMES)
        elif key in ("nello", "sevens", "plunge", "splash"):
            setattr(rules, key, flag(key, given))
        elif key == "nello_doubles":
            if not isinstance(given, list) or not given:
                raise OptionError("option nello_doubles must be a list of high, low, suit")
            mask = 0
            order = []
            for name in given:
                i = choice(key, name, NELLO_DOUBLES_NAMES)
                if not mask >> i & 1:
                    order.append(i)
                mask |= 1 << i
            rules.nello_doubles = mask
            rules.nello_order = tuple(order)
        elif key == "plunge_marks":
            rules.plunge_marks = whole(key, given, 2, 7)
        elif key == "splash_marks":
            rules.splash_marks = whole(key, given, 2, 7)
        elif key == "match_games":
            rules.match_games = whole(key, given, 1, 99)
        elif key == "nello_min":
            rules.nello_min = whole(key, given, NELLO_MIN_LO, NELLO_MIN_HI)
        elif key == "nello_by":
            rules.nello_by = choice(key, given, NELLO_BY_NAMES)
    _forced_min(rules, options)
    for key in ("nello_min", "nello_by"):
        if key in options and not rules.nello:
            raise OptionError("option %s needs nello" % key)
    return rules


def min_bid_range(rules):
    """(lowest, highest) min_bid of the rules' variant (Moon's: 3 to 5)."""
    row = rules.row
    if row[SHOOT]:
        return MOON_MIN_BID_LO, MOON_MIN_BID_HI
    if row[MARK]:
        return 1, row[MARK]
    return row[MIN_BID], row[TOP_NUMBER]


def _forced_min(rules, options):
    # The forced dealer's least bid: min_bid unless given, then from min_bid to 41.
    rules.forced_min = rules.min_bid
    if "forced_min" in options:
        hi = rules.row[MARK] - 1     # 41: a forced bid of a mark is a bid like any
        lo = rules.min_bid
        rules.forced_min = whole("forced_min", options["forced_min"], lo, hi if hi > lo else lo)
