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


ACTIONS = {"gate": cmd_gate, "finish": cmd_finish, "log": cmd_log, "publish": cmd_publish}


def parsers(acts, add_db):
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
