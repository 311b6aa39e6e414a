"""Table assignments pushed to a scorer (an event's next game for it), checked as the
scorer and the engine would take them, and the settings that carry a game: each value
written as the scorer reads a pushed setting, and read back from the command line."""
from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from host_tools.log.text import name_problem, printable, repeated_name

ASSIGN_MINOR = 1        # the protocol's minor version that has the T request
ASSIGN_KEYS = ("event", "round", "table", "players", "variant", "options")
MAX_EVENT_BYTES = 32    # what a scorer's sitting header keeps of the event's name
MAX_SHOWN_NAME = 12     # characters of a player's name the scorer shows


def check_assignment(a):
    """A table assignment {"event": str, "round": int, "table": int, "players": [names by
    seat] (optional), "variant": str (optional, default 42), "options": {...} (optional)}
    checked as the scorer and the engine would take it; returned normalised. ValueError
    with a message when something in it cannot be pushed (nothing is sent then)."""
    if not isinstance(a, dict):
        raise ValueError("a table assignment is a dict of %s" % ", ".join(ASSIGN_KEYS))
    for key in a:
        if key not in ASSIGN_KEYS:
            raise ValueError("unknown field %r in a table assignment (the fields: %s)"
                             % (key, ", ".join(ASSIGN_KEYS)))
    event = a.get("event")
    if not isinstance(event, str):
        raise ValueError("the assignment's event must be a name")
    problem = name_problem(event)
    if not problem and len(event.encode("utf-8")) > MAX_EVENT_BYTES:
        problem = "event name %s is longer than the %d bytes of UTF-8 a scorer keeps" % (
            printable(event), MAX_EVENT_BYTES)
    if problem:
        raise ValueError("event: %s" % problem)
    for key in ("round", "table"):
        v = a.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 255:
            raise ValueError("the assignment's %s must be a whole number from 1 to 255, not %s"
                             % (key, printable(repr(v))))
    variant = a.get("variant", "42")
    if not isinstance(variant, str) or V.index(variant) < 0:
        raise ValueError("unknown variant %s (one of %s)" % (printable(repr(variant)),
                                                             ", ".join(V.NAMES)))
    options = a.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError("the assignment's options must be a dict")
    try:
        rules = O.resolve(variant, options)
    except O.OptionError as e:
        raise ValueError("%s: %s" % (variant, e))
    out = {"event": event, "round": a["round"], "table": a["table"], "variant": variant,
           "options": O.to_dict(rules)}
    players = a.get("players")
    if players is not None:
        seats = rules.row[V.SEATS]
        if (not isinstance(players, (list, tuple)) or len(players) != seats
                or not all(isinstance(p, str) for p in players)):
            raise ValueError("players: %d names by seat for %s" % (seats, variant))
        for p in players:
            problem = name_problem(p)
            if not problem and len(p) > MAX_SHOWN_NAME:
                problem = "name %s is longer than the %d characters the scorer shows" % (
                    printable(p), MAX_SHOWN_NAME)
            if problem:
                raise ValueError("players: %s" % problem)
        if repeated_name(players) is not None:
            raise ValueError("players: %s is named twice" % printable(repeated_name(players)))
        out["players"] = list(players)
    return out


def _setting_text(v):
    # A value written so that the scorer reads it back (firmware/sync/session.py _value).
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def game_settings(a):
    """The settings pushed for a (checked) assignment's game: the variant, then every
    option resolved."""
    return [("variant", a["variant"])] + [(k, _setting_text(v))
                                          for k, v in sorted(a["options"].items())]


_YES = ("true", "on", "yes")
_NO = ("false", "off", "no")


def setting_value(text, key=None):
    """A pushed setting's value as the scorer reads it (firmware/sync/session.py _value): a number,
    true/false, a list of names (comma-separated), or a word; nello_doubles is a list. A
    yes-or-no option is spelled on/off, true/false or yes/no alike, every option (the
    scorer is sent true or false)."""
    if key == "nello_doubles":
        return text.split(",")
    if text in _YES or text in _NO:
        return text in _YES
    try:
        return int(text)
    except ValueError:
        pass
    return text.split(",") if "," in text else text


def not_playing(game, said, why):
    """The assignment_for of a sync that finds a game in play on the scorer (`game`, the
    open sitting, not over): nothing is pushed, whatever table it would be (a push
    changes the names and table the game in play shows); why(game) is appended to
    `said`. The table is not even claimed: it goes when the game has ended."""
    def next_table(device_id):
        said.append(why(game))
        return None
    return next_table
