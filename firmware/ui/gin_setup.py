# The setup screen's part for the gin pads: the games in the game list after the 42
# family's, their house options as rows, and how each row's value shows and changes.
from engine_core.gin import rules as G
from engine_core.texas42.rules import NAMES

_FLAGS = ("spade_doubles", "shutout_doubles", "bonus")


def step_game(r, d):
    """The rules of the game d steps from r's in the list of every game (42's first)."""
    n42 = len(NAMES)
    i = n42 + r.variant if r.family else r.variant
    i = (i + d) % (n42 + len(G.NAMES))
    if i >= n42:
        return G.GinRules(i - n42)
    from engine_core.texas42.rules import Rules
    return Rules(i)


def rows(r):
    return G.APPLIES[r.variant]


def value(r, key):
    if key == "deal":
        return G.DEAL_NAMES[r.deal]
    if key == "knock_scores":
        return G.KNOCK_SCORES_NAMES[r.knock_scores]
    if key == "ace_turnup":
        return "gin only" if r.ace_turnup else "knock 1"
    v = getattr(r, key)
    if key in _FLAGS:
        return "on" if v else "off"
    return str(v)


def change(r, key, d):
    """Move a gin option by d steps (a flag or the deal choice wraps)."""
    if key in _FLAGS or key == "knock_scores" or key == "ace_turnup":
        setattr(r, key, 1 - getattr(r, key))
    elif key == "gin_bonus" or key == "undercut_bonus":     # 20 to 25
        v = getattr(r, key) + d
        setattr(r, key, G.BONUS_LO if v < G.BONUS_LO else (G.BONUS_HI if v > G.BONUS_HI else v))
    elif key == "deal":
        r.deal = (r.deal + d) % len(G.DEAL_NAMES)
    else:
        step = 5 if key == "target" else 25
        hi = 9999 if key == "target" else 1000
        lo = 1 if key == "target" else 0
        v = getattr(r, key) + d * step
        setattr(r, key, lo if v < lo else (hi if v > hi else v))


def summary(r):
    return "%s, game to %d" % (r.name, r.target)
