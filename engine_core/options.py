# House options: resolving a log's or a setup screen's options into Rules, with a
# message for anything wrong. Runs once when a sitting starts (it may allocate).
from engine_core.compat import const

from engine_core.rules import NAMES, Rules, index

# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_POINTS = const(1)
_MIN_BID = const(8)
_TOP_NUMBER = const(9)
_MARK = const(10)
_SCORINGS = const(14)

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


class OptionError(ValueError):
    pass


def _int(key, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError("option %s must be a whole number" % key)
    if value < lo or value > hi:
        raise OptionError("option %s must be from %d to %d, not %d" % (key, lo, hi, value))
    return value


def _choice(key, value, names):
    if isinstance(value, str):
        for i, n in enumerate(names):
            if n == value:
                return i
    raise OptionError("option %s must be one of %s, not %s" % (key, ", ".join(names), _show(value)))


def _bool(key, value):
    if value is True or value is False:
        return 1 if value else 0
    raise OptionError("option %s must be true or false" % key)


def _show(value):
    if isinstance(value, str):
        return '"%s"' % value
    return str(value)


def resolve(variant, options=None):
    """Rules for a variant name and an options dict; OptionError says what is wrong.
    The gin pads' variants resolve to GinRules (gin/options.py)."""
    from engine_core.gin import rules as G
    if isinstance(variant, str) and G.index(variant) >= 0:
        from engine_core.gin import options as ginoptions
        return ginoptions.resolve(variant, options)
    v = index(variant) if isinstance(variant, str) else -1
    if v < 0:
        raise OptionError("unknown variant %s (one of %s)" % (
            _show(variant), ", ".join(NAMES + G.NAMES)))
    options = options or {}
    if not isinstance(options, dict):
        raise OptionError("options must be an object")
    rules = Rules(v)
    row = rules.row
    applies = APPLIES[v]
    for key in options:
        if key not in applies:
            known = key in _FULL or key == "match_games" or key in G.APPLIES[1]
            if known:
                raise OptionError("option %s does not apply to %s" % (key, variant))
            raise OptionError("unknown option %s" % _show(key))
    if "scoring" in options:
        s = _choice("scoring", options["scoring"], SCORING_NAMES)
        if not row[_SCORINGS] >> s & 1:
            raise OptionError("%s cannot be scored in %s" % (variant, SCORING_NAMES[s]))
        rules.scoring = s
        rules._default_target()
    if rules.scoring == _POINTS:
        for key in SPECIAL:
            if key in options:
                raise OptionError("option %s needs scoring marks (special contracts are "
                                  "played for marks)" % key)
    for key in options:
        value = options[key]
        if key == "target":
            rules.target = _int(key, value, 1, 9999)
        elif key == "min_bid":
            top = row[_MARK] if row[_MARK] else row[_TOP_NUMBER]
            lo = 1 if row[_MARK] else row[_MIN_BID]
            rules.min_bid = _int(key, value, lo, top)
        elif key == "all_pass":
            rules.all_pass = _choice(key, value, ALL_PASS_NAMES)
        elif key == "made_scores":
            rules.made_scores = _choice(key, value, MADE_SCORES_NAMES)
        elif key in ("nello", "sevens", "plunge", "splash"):
            setattr(rules, key, _bool(key, value))
        elif key == "nello_doubles":
            if not isinstance(value, list) or not value:
                raise OptionError("option nello_doubles must be a list of high, low, suit")
            mask = 0
            order = []
            for name in value:
                i = _choice(key, name, NELLO_DOUBLES_NAMES)
                if not mask >> i & 1:
                    order.append(i)
                mask |= 1 << i
            rules.nello_doubles = mask
            rules.nello_order = tuple(order)
        elif key == "plunge_marks":
            rules.plunge_marks = _int(key, value, 2, 7)
        elif key == "splash_marks":
            rules.splash_marks = _int(key, value, 2, 7)
        elif key == "match_games":
            rules.match_games = _int(key, value, 1, 99)
    return rules


def to_dict(rules):
    """Rules.to_dict(): every option that applies to the variant, resolved, as the log
    spells it. The special contracts' options are left out under points scoring, where
    a log may not give them."""
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
