"""`tally42 event gate|finish|log|publish`: round gating, a night's lock, its audit
trail (host_tools/events/club.py), and its results as a static folder
(host_tools/events/publish.py); registered with the other event subcommands
(host_tools/commands/event.py)."""
import functools

from host_tools.commands.common import CommandError, open_db, write_stdout
from host_tools.events import club as CL
from host_tools.events.event import EventError
from host_tools.store.db import DbError


def _refused(func):
    @functools.wraps(func)
    def run(args):
        try:
            return func(args)
        except (EventError, DbError) as e:
            raise CommandError(str(e))
    return run


@_refused
def cmd_gate(args):
    with open_db(args) as database:
        CL.set_gate(database, args.name, args.state == "on")
    print("%s: round gating %s%s" % (args.name, args.state, (
        " (no table of a round goes out until the round before is all decided)"
        if args.state == "on" else "")))
    return 0


@_refused
def cmd_finish(args):
    with open_db(args) as database:
        at = CL.finish(database, args.name, args.reopen)
    print("%s opened again: results may change" % args.name if args.reopen else
          "%s finished %s: its results are locked" % (args.name, at))
    return 0


@_refused
def cmd_log(args):
    with open_db(args) as database:
        write_stdout(CL.trail_text(database, args.name))
    return 0


@_refused
def cmd_publish(args):
    from host_tools.events import publish as PB
    with open_db(args, readonly=True) as database:
        written = PB.publish(database, args.name, args.folder)
    print("published %s in %s: %s" % (args.name, args.folder, ", ".join(written)))
    return 0


@_refused
def cmd_set(args):
    if args.bye is None and args.tiebreak is None:
        raise CommandError("set: give --bye or --tiebreak")
    with open_db(args) as database:
        apply_settings(database, args.name, args.bye, args.tiebreak)
    return 0


def apply_settings(database, name, bye, tiebreak):
    """--bye and --tiebreak of `event set` and `event create`, each said."""
    if bye is not None:
        CL.set_bye(database, name, bye)
        print("%s: a bye scores %s" % (name, {"nothing": "nothing", "win": "a win",
                                               "average": "the team's average"}[bye]))
    if tiebreak is not None:
        CL.set_tiebreak(database, name, tiebreak)
        print("%s: tie-breaks after matches won: %s" % (
            name, CL.setting(database, name, "tiebreak").replace(",", ", ")))


def settings_options(p):
    p.add_argument("--bye", choices=CL.BYES,
                   help="what a bye (a team sitting out a round) scores once its round "
                        "is in: nothing (default), a win (the game's target to 0), or the "
                        "team's average")
    p.add_argument("--tiebreak", metavar="ORDER",
                   help="the tie-breaks after matches won, in order: a comma list of h2h "
                        "(head to head), diff (difference), for (marks or points for); "
                        "default h2h,diff,for")


@_refused
def cmd_prizes(args):
    from host_tools.events import prizes as PZ
    with open_db(args, readonly=True) as database:
        ev, rows = PZ.prize_rows(database, args.name, args.places)
    text = PZ.html_page(ev, rows) if args.html else PZ.text(ev, rows)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise CommandError("%s: cannot write: %s" % (args.out, e.strerror or e))
        print("wrote %s" % args.out)
    else:
        write_stdout(text)
    return 0


ACTIONS = {"prizes": cmd_prizes, "set": cmd_set, "gate": cmd_gate, "finish": cmd_finish, "log": cmd_log, "publish": cmd_publish}


def _places(text):
    import argparse
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 99:
        raise argparse.ArgumentTypeError("places: a whole number from 1 to 99, not %r"
                                         % text)
    return n


def parsers(acts, add_db):
    p = acts.add_parser("prizes", help="the prize list: the first places with their "
                                       "players (text, or --html to print)")
    p.add_argument("name")
    p.add_argument("--places", type=_places, default=3, help="how many (default 3)")
    p.add_argument("--html", action="store_true", help="a page to print")
    p.add_argument("--out", metavar="FILE", help="write it to FILE")
    add_db(p)
    p = acts.add_parser("set", help="how byes score and the tie-breaks' order")
    p.add_argument("name")
    settings_options(p)
    add_db(p)
    p = acts.add_parser("gate", help="round gating on or off: no table of a round goes "
                                     "out until the round before is all decided")
    p.add_argument("name")
    p.add_argument("state", choices=("on", "off"))
    add_db(p)
    p = acts.add_parser("finish", help="lock the night: no result in, no table out "
                                       "(--reopen unlocks it)")
    p.add_argument("name")
    p.add_argument("--reopen", action="store_true")
    add_db(p)
    p = acts.add_parser("log", help="the audit trail: each correction, who made it, when")
    p.add_argument("name")
    add_db(p)
    p = acts.add_parser("publish", help="a static folder of the results for a club's web "
                                        "site: HTML, CSV and JSON of the rounds, tables, "
                                        "hands and standings")
    p.add_argument("name")
    p.add_argument("folder", metavar="DIR")
    add_db(p)
