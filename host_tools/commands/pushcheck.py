"""A push of names and settings to a scorer (`tally42 sync --players ... --set ...`)
checked whole before anything is sent."""
import json

from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from engine_core.gin import rules as G
from host_tools.commands.errors import CommandError
from host_tools.serial import client as Y
from host_tools.tables.assignment import setting_value
from host_tools.serial.sync import open_sitting
from host_tools.log.text import name_problem, repeated_name

# The seats of every game the scorer sets up.
SEATS = dict([(n, V.TABLE[V.index(n)][V.SEATS]) for n in V.NAMES]
             + [(n, G.TABLE[G.index(n)][G.SEATS]) for n in G.NAMES])


def check_push(names, pairs, open_lines):
    """A push of names and settings checked whole before anything is sent: the players
    against the seats of the game pushed (--set variant=...), and, with a sitting open on
    the scorer (open_lines: its log lines, or None), against that sitting, whose players
    they also name. Raises CommandError: nothing has been sent."""
    players = [ns for kind, ns in names if kind == "p"]
    variant = dict(pairs).get("variant")
    if players and variant and len(players[0]) != SEATS[variant]:
        raise CommandError("--players: %s seats %d players, not %d: nothing was sent to the "
                           "scorer" % (variant, SEATS[variant], len(players[0])))
    if not players or not open_lines:
        return
    header = open_lines[0]
    if not isinstance(header, dict):
        header = json.loads(header)
    seats = len(header.get("players") or ()) or SEATS.get(header.get("variant"), 0)
    if seats and seats != len(players[0]):
        raise CommandError(
            "the scorer has a sitting of %s in progress (%d seats), and names pushed name its "
            "players too: %d names do not fit it, so nothing was sent to the scorer. Finish "
            "or end the sitting on the scorer first, then push the names and the game again"
            % (header.get("variant", "42"), seats, len(players[0])))



def open_lines(client):
    # The log lines of the sitting open on the scorer, or None (none, or a firmware that
    # sends only finished sittings).
    try:
        return open_sitting(client)
    except Y.DeviceError:
        return None


# What the scorer shows of a name: player names on the score screen, team names.
_SHOWN = {"players": 12, "teams": 8}


def names(text, what):
    names = [n.strip() for n in text.split(",")]
    for n in names:
        problem = name_problem(n) if n else "an empty name (names are separated by commas)"
        if not problem and len(n) > _SHOWN[what]:
            problem = "name %s is longer than the %d characters the scorer shows" % (
                n, _SHOWN[what])
        if problem:
            raise CommandError("--%s: %s" % (what, problem))
    twice = repeated_name(names)
    if twice is not None:
        raise CommandError("--%s: %s is named twice" % (what, twice))
    if what == "teams" and len(names) != 2:
        raise CommandError("--teams: 2 team names, not %d" % len(names))
    if what == "players" and len(names) not in SEATS.values():
        raise CommandError("--players: 4 names (2 for a gin pad, 3 for Moon, 6 for "
                           "Seventy-Nine and Eighty-Eight), not %d" % len(names))
    return names


_TRACKER = ("1", "0", "true", "false", "on", "off", "yes", "no")

# Every game the scorer sets up: the 42 family and the gin pads.
_VARIANTS = tuple(V.NAMES) + tuple(G.NAMES)


def _applies(variant):
    # The options a game takes.
    g = G.index(variant)
    return G.APPLIES[g] if g >= 0 else O.APPLIES[V.index(variant)]


_NEEDS = {"nello_min": "nello", "nello_by": "nello", "forced_min": "min_bid"}   # checked with


def settings_pairs(pairs):
    """`--set KEY=VALUE` pairs checked whole, as (key, value) in the scorer's spelling;
    CommandError says what is wrong, before anything is sent."""
    # Checked here with the engine's option rules, as the scorer checks them: each key
    # an option of some game (or variant, tracker), each value one that option takes.
    out = []
    options = {}
    variant = None
    for p in pairs or ():
        key, eq, value = p.partition("=")
        key = key.strip()
        if not eq or not key:
            raise CommandError("--set %s: give KEY=VALUE" % p)
        if key == "tracker":
            if value not in _TRACKER:
                raise CommandError("--set tracker=%s: on or off" % value)
        elif key == "variant":
            if value not in _VARIANTS:
                raise CommandError("--set variant=%s: unknown variant (one of %s)"
                                   % (value, ", ".join(_VARIANTS)))
            variant = value
        else:
            options[key] = setting_value(value, key)
            if isinstance(options[key], bool):
                value = "true" if options[key] else "false"     # the scorer's spelling
        out.append((key, value))
    names = [variant] if variant else list(_VARIANTS)
    for key, value in options.items():
        where = [n for n in names if key in _applies(n)]
        if not where:
            if variant:
                raise CommandError("--set %s: option %s does not apply to %s"
                                   % (key, key, variant))
            known = []
            for n in _VARIANTS:
                known += [k for k in _applies(n) if k not in known]
            raise CommandError("--set %s: unknown option (the options: %s, variant, "
                               "tracker)" % (key, ", ".join(known)))
        problem = None
        for name in where:
            given = {k: v for k, v in options.items() if k in (key, _NEEDS.get(key))}
            try:
                O.resolve(name, given)
                problem = None
                break
            except O.OptionError as e:
                problem = problem or str(e)
        if problem:
            if problem.endswith("true or false"):
                problem += " (on/off and yes/no are taken too)"
            raise CommandError("--set %s: %s" % (key, problem))
    if variant and options:
        try:
            O.resolve(variant, options)
        except O.OptionError as e:
            raise CommandError("--set: %s" % e)
    return out
