# House options of the gin pads: a log's or a setup screen's options resolved into
# GinRules, with a message for anything wrong (options.resolve hands gin variants here).
from engine_core.gin import rules as G

_ALL = ("target", "spade_doubles", "game_bonus", "box_bonus", "shutout_doubles", "deal",
        "bonus")


def resolve(variant, options=None):
    """GinRules for a gin variant name and an options dict; OptionError if wrong."""
    # options.py's checks, as loaded now (the device unloads and reloads it).
    from engine_core.options import OptionError, _int, _choice, _bool, _show
    v = G.index(variant)
    if v < 0:
        raise OptionError("unknown gin variant %s" % _show(variant))
    options = options or {}
    if not isinstance(options, dict):
        raise OptionError("options must be an object")
    rules = G.GinRules(v)
    applies = G.APPLIES[v]
    for key in options:
        if key not in applies:
            if key in _ALL or key in _FORTY_TWO:
                raise OptionError("option %s does not apply to %s" % (key, variant))
            raise OptionError("unknown option %s" % _show(key))
    for key in options:
        value = options[key]
        if key == "target":
            rules.target = _int(key, value, 1, 9999)
        elif key == "game_bonus":
            rules.game_bonus = _int(key, value, 0, 1000)
        elif key == "box_bonus":
            rules.box_bonus = _int(key, value, 0, 1000)
        elif key == "deal":
            rules.deal = _choice(key, value, G.DEAL_NAMES)
        else:
            setattr(rules, key, _bool(key, value))
    return rules


# The 42 family's options: named in a gin header they do not apply (not unknown).
_FORTY_TWO = ("scoring", "min_bid", "all_pass", "made_scores", "nello", "nello_doubles",
              "sevens", "plunge", "plunge_marks", "splash", "splash_marks", "match_games")
