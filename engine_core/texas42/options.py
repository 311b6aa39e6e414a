# House options, both families' (the 42 family's and the gin pads'): their names as the
# log spells them, a Rules written out that way (to_dict), and resolving a log's or a setup
# screen's options into Rules or GinRules, with a message for anything wrong (resolve).
# Loaded when a sitting is set up or written out, never to score: on the device it is
# unloaded once nothing refers to it (firmware/transient.py).
FOR_A_WHILE = 1
from engine_core.texas42.variants import MARK, MIN_BID, POINTS, SCORINGS, SHOOT, TOP_NUMBER

from engine_core.texas42.rules import NAMES, Rules, index

# -- the names --

# The house options as the log spells them.
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
    """Every option that applies to the rules' variant, resolved, as the log spells it
    (a gin pad's: GinRules.to_dict()). The special contracts' options are left out under
    points scoring, and nello's settings without nello, where a log may not give them."""
    if rules.family:
        return rules.to_dict()
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


# -- the checks of a value --

class OptionError(ValueError):
    pass


def whole(key, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError("option %s must be a whole number" % key)
    if value < lo or value > hi:
        raise OptionError("option %s must be from %d to %d, not %d" % (key, lo, hi, value))
    return value


def choice(key, value, names):
    if isinstance(value, str):
        for i, n in enumerate(names):
            if n == value:
                return i
    raise OptionError("option %s must be one of %s, not %s" % (key, ", ".join(names), show(value)))


def flag(key, value):
    if value is True or value is False:
        return 1 if value else 0
    raise OptionError("option %s must be true or false" % key)


def show(value):
    if isinstance(value, str):
        return '"%s"' % value
    return str(value)


# -- resolving --

def resolve(variant, options=None):
    """Rules for a variant name and an options dict; OptionError says what is wrong.
    The gin pads' variants resolve to GinRules."""
    from engine_core.gin import rules as G
    if isinstance(variant, str) and G.index(variant) >= 0:
        return _resolve_gin(G, variant, options)
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


def _resolve_gin(G, variant, options):
    # GinRules for a gin variant name and an options dict; OptionError if wrong. An
    # option of the 42 family does not apply, rather than unknown.
    v = G.index(variant)
    if v < 0:
        raise OptionError("unknown gin variant %s" % show(variant))
    if options is None:     # none given (a log's "options": null is refused before)
        options = {}
    if not isinstance(options, dict):
        raise OptionError("options must be an object")
    rules = G.GinRules(v)
    applies = G.APPLIES[v]
    for key in options:
        if key not in applies:
            if key in G.APPLIES[1] or key in OPTIONS:
                raise OptionError("option %s does not apply to %s" % (key, variant))
            raise OptionError("unknown option %s" % show(key))
    for key in options:
        value = options[key]
        if key == "target":
            rules.target = whole(key, value, 1, 9999)
        elif key == "game_bonus":
            rules.game_bonus = whole(key, value, 0, 1000)
        elif key == "box_bonus":
            rules.box_bonus = whole(key, value, 0, 1000)
        elif key == "deal":
            rules.deal = choice(key, value, G.DEAL_NAMES)
        elif key == "knock_scores":
            rules.knock_scores = choice(key, value, G.KNOCK_SCORES_NAMES)
        elif key == "ace_turnup":
            rules.ace_turnup = choice(key, value, G.ACE_TURNUP_NAMES)
        elif key == "gin_bonus" or key == "undercut_bonus":
            setattr(rules, key, whole(key, value, G.BONUS_LO, G.BONUS_HI))
        else:
            setattr(rules, key, flag(key, value))
    return rules
