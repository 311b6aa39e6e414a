"""What the PC sets on a scorer, as given on the command line (`tally42 sync --players
--teams --set --assign`), checked with the engine's option rules as the scorer checks them:
names, settings, a table assignment. SetupError says what is wrong."""
from engine_core.gin import rules as G
from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from host_tools.log.text import name_problem, repeated_name
from host_tools.tables.assignment import check_assignment, setting_value


class SetupError(ValueError):
    """A setting the scorer would refuse: the message says which and why."""


# What the scorer shows of a name: player names on the score screen, team names.
SHOWN = {"players": 12, "teams": 8}


def check_names(text, what):
    names = [n.strip() for n in text.split(",")]
    for n in names:
        problem = name_problem(n) if n else "an empty name (names are separated by commas)"
        if not problem and len(n) > SHOWN[what]:
            problem = "name %s is longer than the %d characters the scorer shows" % (
                n, SHOWN[what])
        if problem:
            raise SetupError("--%s: %s" % (what, problem))
    twice = repeated_name(names)
    if twice is not None:
        raise SetupError("--%s: %s is named twice" % (what, twice))
    if what == "teams" and len(names) != 2:
        raise SetupError("--teams: 2 team names, not %d" % len(names))
    if what == "players" and len(names) not in (2, 3, 4, 6):
        raise SetupError("--players: 4 names (2 for a gin pad, 3 for Moon, 6 for "
                           "Seventy-Nine and Eighty-Eight), not %d" % len(names))
    return names


TRACKER = ("1", "0", "true", "false", "on", "off", "yes", "no")


# Every game the scorer sets up: the 42 family and the gin pads.
VARIANTS = tuple(V.NAMES) + tuple(G.NAMES)


def applies(variant):
    # The options a game takes.
    g = G.index(variant)
    return G.APPLIES[g] if g >= 0 else O.APPLIES[V.index(variant)]


def check_settings(pairs):
    # Checked here with the engine's option rules, as the scorer checks them: each key
    # an option of some game (or variant, tracker), each value one that option takes.
    out = []
    options = {}
    variant = None
    for p in pairs or ():
        key, eq, value = p.partition("=")
        key = key.strip()
        if not eq or not key:
            raise SetupError("--set %s: give KEY=VALUE" % p)
        if key == "tracker":
            if value not in TRACKER:
                raise SetupError("--set tracker=%s: on or off" % value)
        elif key == "variant":
            if value not in VARIANTS:
                raise SetupError("--set variant=%s: unknown variant (one of %s)"
                                   % (value, ", ".join(VARIANTS)))
            variant = value
        else:
            options[key] = setting_value(value, key)
        out.append((key, value))
    names = [variant] if variant else list(VARIANTS)
    for key, value in options.items():
        where = [n for n in names if key in applies(n)]
        if not where:
            if variant:
                raise SetupError("--set %s: option %s does not apply to %s"
                                   % (key, key, variant))
            known = []
            for n in VARIANTS:
                known += [k for k in applies(n) if k not in known]
            raise SetupError("--set %s: unknown option (the options: %s, variant, "
                               "tracker)" % (key, ", ".join(known)))
        problem = None
        for name in where:
            try:
                O.resolve(name, {key: value})
                problem = None
                break
            except O.OptionError as e:
                problem = problem or str(e)
        if problem:
            raise SetupError("--set %s: %s" % (key, problem))
    if variant and options:
        try:
            O.resolve(variant, options)
        except O.OptionError as e:
            raise SetupError("--set: %s" % e)
    return out


def check_table(text, players, pairs):
    # --assign EVENT:ROUND:TABLE, with --players and --set for the game: the assignment
    # dict of host_tools.tables.assignment.check_assignment, checked before anything is sent.
    event, _, rest = text.rpartition(":")
    event, _, rnd = event.rpartition(":")
    if not event:
        raise SetupError("--assign %s: give EVENT:ROUND:TABLE (Club night:2:3)" % text)
    a = {"event": event.strip(), "round": whole(rnd), "table": whole(rest)}
    if players:
        a["players"] = players
    options = {}
    for key, value in pairs:
        if key == "variant":
            a["variant"] = value
        elif key == "tracker":
            raise SetupError("--assign: tracker is the scorer's own switch, not the "
                               "game's: push it without --assign")
        else:
            options[key] = setting_value(value, key)
    a["options"] = options
    try:
        return check_assignment(a)
    except ValueError as e:
        raise SetupError("--assign %s: %s" % (text, e))


def whole(text):
    try:
        return int(text.strip())
    except ValueError:
        return text


def sides(players):
    # Players by seat as the table's sides: "Ann+Cy v Bob+Di" (seats 1 and 3 partner 2
    # and 4; six seats: three a side).
    return "%s v %s" % ("+".join(players[0::2]), "+".join(players[1::2]))
