"""The serial subcommands of `tally42`: sync (the scorer's finished sittings into the
database, the PC's clock, names and settings onto the scorer) and devices."""
import argparse
import math
import sys
import time

from host_tools.commands import pushcheck as PC
from host_tools.commands.common import CommandError, add_db
from host_tools.log.text import printable
from host_tools.events import event as EV
from host_tools.events import inplay as IP
from host_tools.events import slots as SL
from host_tools.serial import client as Y
from host_tools.tables.assignment import not_playing
from host_tools.serial.clock import describe as describe_clock
from host_tools.serial.sync import Refused, Report, sync
from host_tools.serial.transport import BAUDRATE, LinkError, SerialLink, candidate_ports
from host_tools.store import db as D
from host_tools.tables import setup as ST

PROBE_TIMEOUT = 1.0
FIRST_ANSWER = 3.0          # seconds a scorer has to answer the first hello
_BAUD_HELP = "line speed (default %d; boards with native USB ignore it)" % BAUDRATE


def _open_link(url, baud):
    try:
        return SerialLink(url, baud)
    except LinkError as e:
        raise CommandError(str(e))


def _probe(url, baud, timeout=PROBE_TIMEOUT):
    """The hello of the scorer on url (its session closed again), or an error message."""
    try:
        with SerialLink(url, baud) as link:
            client = Y.Client(link, timeout=timeout, wait=timeout)
            info = client.hello()
            client.bye()
            return info, None
    except (LinkError, Y.SyncError) as e:
        return None, str(e)


def _find_port(baud):
    ports = candidate_ports()
    if not ports:
        raise CommandError("no scorer found: no ESP32 USB serial port is connected "
                           "(plug the scorer in, or give --port)")
    found = []
    for device, _ in ports:
        info, _ = _probe(device, baud)
        if info is not None:
            found.append(device)
    if not found:
        raise CommandError("no scorer answered on %s (asleep? press a button on the scorer "
                           "to wake it, then try again)" % ", ".join(d for d, _ in ports))
    if len(found) > 1:
        raise CommandError("several scorers are connected (%s): choose one with --port"
                           % ", ".join(found))
    return found[0]


def _kb(n):
    return "%d KB" % (n // 1024) if n >= 10240 else "%d bytes" % n


class _Progress:
    # One line on stderr, redrawn, when it is a terminal and the transfer is long.
    def __init__(self, stream):
        self.stream = stream
        self.tty = stream.isatty()
        self.shown = False
        self.t0 = time.monotonic()

    def __call__(self, done, total):
        if not self.tty or total < 4096:
            return
        rate = done / max(1e-3, time.monotonic() - self.t0)
        self.stream.write("\rfetching: %s of %s (%d%%, %.1f KB/s)  " % (
            _kb(done), _kb(total), 100 * done // max(1, total), rate / 1024))
        self.stream.flush()
        self.shown = True

    def notice(self, text):
        self.end()
        self.stream.write("tally42: %s\n" % text)
        self.stream.flush()

    def end(self):
        if self.shown:
            self.stream.write("\n")
            self.shown = False


# The names pushed (--players, --teams), checked (host_tools/commands/pushcheck.py).
_names = PC.names


def _setup(check, *args):
    # The PC's settings for the scorer checked (host_tools/tables/setup.py).
    try:
        return check(*args)
    except ST.SetupError as e:
        raise CommandError(str(e))


def _number(kind, lo, hi, what):
    """An argparse type: a number from lo to hi (finite), with a message saying so."""

    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            v = None
        if v is None or (kind is float and not math.isfinite(v)) or not lo <= v <= hi:
            raise argparse.ArgumentTypeError("%s must be a number from %s to %s, not %s"
                                             % (what, lo, hi, text))
        return v
    return parse


_TIMEOUT = _number(float, 0.1, 60, "seconds")
_WAIT = _number(float, 1, 3600, "seconds")
_BAUD = _number(int, 300, 4000000, "the line speed")


def _db_store(database, slotter=None):

    def store(lines, device_id):
        try:
            st = database.store_lines(lines, source="sync", device=device_id)
        except D.Conflict as e:
            raise Refused("%s: not stored, the scorer keeps it (`tally42 rename %s NEW_ID` "
                            "the stored one, then sync again)" % (e, e.sitting_id))
        except D.DbError as e:
            raise Y.SyncError(str(e))
        if slotter is not None:
            slotter(st.id)      # stored first: a refusal to slot leaves it stored
        return st.status, st.id, st.describe()
    return store


def _open_event(db, name):
    # --event NAME: the database must hold that event, checked before the port opens.
    try:
        database = D.open_db(db, create=False)
    except D.DbError as e:
        raise CommandError("--event %s: %s" % (name, e))
    try:
        EV.load(database, name)
    except (EV.EventError, D.DbError) as e:
        database.close()
        raise CommandError("--event: %s" % e)
    return database


def cmd_sync(args):
    if args.event is not None and args.assign is not None:
        raise CommandError("--event and --assign: give one (--event hands out the event's "
                           "next table, --assign pushes one by hand)")
    if args.event is not None and (args.players or any(
            not p.startswith("tracker=") for p in args.set or ())):
        raise CommandError("--event: the event gives the scorer its players and game "
                           "(leave out --players and --set, but for --set tracker=...)")
    names = [("p", _names(args.players, "players"))] if args.players else []
    if args.teams:
        names.append(("t", _names(args.teams, "teams")))
    pairs = PC.settings_pairs(args.set)
    assignment = None
    if args.assign is not None:
        # The players and the game go with the assignment, once the sittings are stored.
        assignment = _setup(ST.check_table, args.assign, names[0][1] if args.players else None, pairs)
        names = [n for n in names if n[0] != "p"]
        pairs = []
    PC.check_push(names, pairs, None)
    database = _open_event(args.db, args.event) if args.event is not None else None
    try:
        url = args.port if args.port and args.port != "auto" else _find_port(args.baud)
        link = _open_link(url, args.baud)
    except CommandError:
        if database is not None:
            database.close()
        raise
    if database is None:
        try:
            database = D.open_db(args.db)
        except D.DbError as e:
            link.close()
            raise CommandError(str(e))
    radio_key = None
    if args.event is not None:
        # The event's radio key: the scorer sends each hand live to a base station,
        # under a key of its own made from it (pushed once the scorer is named).
        from host_tools.events.radio import event_key
        radio_key = event_key(database, args.event)
    slotter = SL.Slotter(database, args.event)
    progress = _Progress(sys.stderr)
    report = None
    refusals = []       # what the scorer would not take: said at the end, exit 2
    assignment_for = None
    if assignment is not None:
        assignment_for = lambda device_id: assignment      # noqa: E731
    elif args.event is not None:
        assignment_for = SL.next_table(database, args.event, refusals, slotter.nothing)
    try:
        client = Y.Client(link, timeout=args.timeout, wait=args.wait, notice=progress.notice)
        info = client.hello(patience=min(args.wait, FIRST_ANSWER))
        print(info.describe())
        if args.event is not None:
            refusal, left = IP.other_event(database, args.event, info.device_id, args.switch,
                                           lambda: IP.game_in_play(IP.open_lines(client)))
            if refusal:
                client.bye()
                raise CommandError(refusal)
            for home in left:
                print("switched: scorer %s left its table in %s" % (info.device_id, home))
        if radio_key is not None:
            from host_tools.events.radio import scorer_key
            pairs = pairs + [("radio", scorer_key(radio_key, info.device_id).hex())]
        if not args.no_clock:
            _optional(client.set_clock, "clock", refusals)
        if any(kind == "p" for kind, _ in names):
            try:
                PC.check_push(names, pairs, PC.open_lines(client))
            except CommandError:
                client.bye()
                raise
        taken = True
        for kind, ns in names:
            what = "players" if kind == "p" else "teams"
            if _optional(lambda: client.push_names(kind, ns), what, refusals):
                print("%s set on the scorer: %s" % (what, ", ".join(ns)))
            else:
                taken = False
        if pairs and not taken:
            refusals.append("settings not sent: the names were refused, and a push is taken "
                            "whole or not at all")
        elif pairs and _optional(lambda: client.push_settings(pairs), "settings", refusals):
            print("settings sent to the scorer: %s" % ", ".join(
                "radio key" if p[0] == "radio" else "%s=%s" % p for p in pairs))
        report = Report(client.first_info or info)
        playing, game = IP.open_game(client, database, assignment_for is not None)
        if game is not None and assignment_for is not None:
            # Never a game in play changed: its table and players stay till it ends.
            assignment_for = not_playing(game, slotter.nothing, IP.held_back)
        clash = IP.conflict(database, game, info.device_id) if game else None
        if clash:
            sys.stderr.write("tally42: %s\n" % clash)      # at once, not at the end
            refusals.append(clash)
            refusals.extend(IP.note_conflict(database, game["event"], info.device_id, clash))
        sync(client, _db_store(database, slotter), progress, report, assignment_for)
        progress.end()
        client.bye()
    except Y.SyncError as e:
        progress.end()
        if report is not None and (report.stored or report.updated):
            _print_stored(report)
            print("(stored so far: the next sync goes on from there)")
        raise CommandError(str(e))
    finally:
        link.close()
        database.close()
    _print_report(report, database.path)
    for line in slotter.slotted + slotter.notes:
        print(line)
    a = report.assigned
    if a:
        print("pushed: %s round %d table %d: %s%s" % (
            a["event"], a["round"], a["table"],
            ST.sides(a["players"]) if a.get("players") else "the players on the scorer",
            "" if a["variant"] == "42" else " (%s)" % a["variant"]))
    for line in slotter.nothing:
        print(line)
    if playing is not None:
        print("live: %s round %d table %d: %s" % (playing[0], playing[1], playing[2],
                                                   playing[3].text))
    refusals += slotter.refused
    if report.assign_refused:
        refusals.append(report.assign_refused)
    for number, sid, hands in report.partial:
        refusals.append("the scorer's journal holds sitting %d damaged (a record fails its "
                        "check, a flash fault): its %d hand%s before the damage stored as "
                        "%s, marked damaged; it counts in no stats or standings until "
                        "`tally42 accept %s`" % (number, hands, "" if hands == 1 else "s",
                                                 printable(sid), printable(sid)))
    if report.damaged:
        refusals.append("the scorer's journal holds %s damaged (a record fails its check, "
                        "a flash fault): not stored, and no longer kept on the scorer" % (
                            "sitting %d" % report.damaged[0] if len(report.damaged) == 1
                            else "sittings " + ", ".join("%d" % s for s in report.damaged)))
    for why in refusals + [why for _, why in report.refused]:
        sys.stderr.write("tally42: %s\n" % why)
    return 2 if refusals or report.refused else 0


def _optional(step, what, refusals):
    # A scorer without a clock says so, one may refuse names or settings: no reason to
    # stop syncing. True when the scorer took them.
    try:
        step()
        return True
    except Y.DeviceError as e:
        if e.code == Y.E_REFUSED:
            refusals.append(str(e))
        elif e.code == Y.E_UNSUPPORTED:
            print("(the scorer has no %s to set)" % what)
        else:
            raise
    return False


def _print_stored(r):
    for sid, what in r.stored + r.updated:
        print(what)


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _summary(ids, most=5):
    # A few ids, then how many more.
    if len(ids) <= most:
        return ", ".join(ids)
    return "%s and %d more" % (", ".join(ids[:most - 1]), len(ids) - most + 1)


def _print_report(r, path):
    if not r.listed and not r.damaged:
        print("nothing new on the scorer: every finished sitting is on the PC already")
    _print_stored(r)
    if r.already:
        print("already on the PC: %s (the scorer now knows)"
              % _summary([s for s, _ in r.already]))
    if r.listed:
        refused = ", %d not stored" % len(r.refused) if r.refused else ""
        print("%d new, %d updated, %d already stored%s, into %s" % (
            len(r.stored), len(r.updated), len(r.already), refused, path))
    if r.placed:
        print("times from this PC's clock: %s (the scorer's clock was not set, or had "
              "drifted)" % _summary(r.placed))
    if r.lost:
        print("times not known: %s (stamped before the scorer was last switched off or "
              "lost power; stored without them)" % _summary(r.lost))
    print("scorer journal free: %s" % _kb(r.free))


def cmd_devices(args):
    ports = [(args.port, "given")] if args.port else candidate_ports()
    if not ports:
        print("no ESP32 USB serial port is connected")
        return 0
    found = 0
    for device, description in ports:
        info, error = _probe(device, args.baud, args.timeout)
        if info is None and args.port:
            # The port asked for: a failure, said where failures go.
            sys.stderr.write("tally42: %s: no scorer (%s)\n" % (device, error))
        elif info is None:
            print("%s  %s: no scorer (%s)" % (device, description, error))
        else:
            print("%s  %s  firmware %s  protocol %d.%d  %s to sync  free %s  %s" % (
                device, info.device_id, info.firmware, info.version, info.minor,
                _plural(info.unsynced, "sitting"), _kb(info.free), describe_clock(info)))
            found += 1
    if args.port and not found:
        return 2        # the port asked for has no scorer
    return 0


def sync_parser(sub, name):
    p = sub.add_parser(
        name, help="store the scorer's finished sittings in the database",
        description="Copy the scorer's finished sittings into the database (checked by the "
                    "engine, stored whole), then mark them synced on the scorer; set its "
                    "clock, so that new sittings carry their date; and send it player or "
                    "team names and house options for the sittings set up next. A "
                    "sitting played at an event's table (it carries the event, round and "
                    "table) is slotted in as that table's result; with --event the scorer "
                    "is then given its next table. A sitting the PC cannot store is named "
                    "and stays on the scorer, one it cannot slot is named and stays "
                    "stored; the exit status is then 2.")
    p.add_argument("--port", default="auto",
                   help="serial port or pyserial URL of the scorer (default: auto, the one "
                        "ESP32 USB serial port a scorer answers on)")
    add_db(p)
    p.add_argument("--players", metavar="A,B,C,D",
                   help="player names for the sittings set up next (2 for a gin pad, 3 for "
                        "Moon, 6 for Seventy-Nine and Eighty-Eight, else 4: as many as the "
                        "game pushed with --set variant=... seats; at most 12 characters "
                        "each)")
    p.add_argument("--teams", metavar="A,B", help="team names to show on the scorer")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="a house option for the sittings set up next (variant=moon, "
                         "scoring=points, target=250, forced_min=31, nello=true, nello_min=30, "
                         "nello_by=forced_dealer, ...; the gin pads: variant=oklahoma-gin, "
                         "sequence-gin or skarney-gin, target=150, knock_scores=difference, "
                         "gin_bonus=25, undercut_bonus, ace_turnup=gin, spade_doubles, "
                         "game_bonus, box_bonus, shutout_doubles, deal, bonus; tracker=on); "
                         "a yes-or-no option takes on/off, true/false or yes/no alike; "
                         "repeatable")
    p.add_argument("--assign", metavar="EVENT:ROUND:TABLE",
                   help="the scorer's next table assignment in an event (shown on it as "
                        "Table 3 · Round 2, carried by the next sitting), pushed once its "
                        "sittings are stored; --players and --set then give its players "
                        "and game (default 42 with the standard options)")
    p.add_argument("--switch", action="store_true",
                   help="with --event: move a scorer that keeps a table of another event "
                        "to this one (its table there is freed; never in the middle of a "
                        "game)")
    p.add_argument("--event", metavar="NAME",
                   help="the event this desk runs (`tally42 event create`): once the "
                        "scorer's sittings are stored and slotted, push it its next table "
                        "of the event (the one already handed to it and not decided, else "
                        "the first free table of the current round), with the players by "
                        "seat and the event's game; not with --assign, --players or --set "
                        "(but --set tracker=...)")
    p.add_argument("--no-clock", action="store_true", help="leave the scorer's clock alone")
    p.add_argument("--baud", type=_BAUD, default=BAUDRATE, help=_BAUD_HELP)
    p.add_argument("--timeout", type=_TIMEOUT, default=1.0, metavar="S",
                   help="seconds to wait for a reply before asking again (default 1)")
    p.add_argument("--wait", type=_WAIT, default=30.0, metavar="S",
                   help="seconds to wait for a silent or unplugged scorer (default 30)")
    return p


def devices_parser(sub, name):
    p = sub.add_parser(name, help="list connected scorers with their id and version",
                       description="Ask each ESP32 USB serial port (or --port) for a "
                                   "scorer. Exit status 2 when --port has none.")
    p.add_argument("--port", help="ask only this port (a device or pyserial URL)")
    p.add_argument("--baud", type=_BAUD, default=BAUDRATE, help=_BAUD_HELP)
    p.add_argument("--timeout", type=_TIMEOUT, default=PROBE_TIMEOUT, metavar="S",
                   help="seconds to wait for each port's answer (default 1)")
    return p

