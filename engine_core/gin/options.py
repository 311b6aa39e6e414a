# House options of the gin pads: a log's or a setup screen's options resolved into
# GinRules, with a message for anything wrong (options.resolve hands gin variants here).
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.gin import rules as G
from engine_core.optioncheck import OptionError, whole, choice, flag, show

_ALL = G.APPLIES[1]     # every gin pad option


def resolve(variant, options=None, elsewhere=()):
    """GinRules for a gin variant name and an options dict; OptionError if wrong. An
    option named in `elsewhere` (another family's) does not apply, rather than unknown."""
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
            if key in _ALL or key in elsewhere:
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

