"""The serial subcommands of `tally42`: sync (the scorer's finished sittings into the
database, the PC's clock, names and settings onto the scorer) and devices."""
import argparse
import json
import math
import sys
import time

from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from engine_core.gin import rules as G
from host_tools.commands.common import CommandError, add_db
from host_tools.events import event as EV
from host_tools.events import slots as SL
from host_tools.serial import client as Y
from host_tools.tables.assignment import check_assignment, not_playing, setting_value
from host_tools.events import live as LV
from host_tools.serial.sync import Refused, Report, open_sitting, sync
from host_tools.serial.transport import BAUDRATE, LinkError, SerialLink, candidate_ports
from host_tools.log.text import name_problem, repeated_name
from host_tools.store import db as D

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


# What the scorer shows of a name: player names on the score screen, team names.
_SHOWN = {"players": 12, "teams": 8}


def _names(text, what):
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
    if what == "players" and len(names) not in (2, 3, 4, 6):
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


def _settings(pairs):
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
            try:
                O.resolve(name, {key: value})
                problem = None
                break
            except O.OptionError as e:
                problem = problem or str(e)
        if problem:
            raise CommandError("--set %s: %s" % (key, problem))
    if variant and options:
        try:
            O.resolve(variant, options)
        except O.OptionError as e:
            raise CommandError("--set: %s" % e)
    return out


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


def _next_table(database, event, refusals, said):
    # sync --event: the scorer's next table, claimed for it once its sittings are stored
    # and slotted (a table just decided can open the next round).

    def assignment_for(device_id):
        try:
            a = SL.next_assignment(database, device_id, event)
        except (EV.EventError, D.DbError) as e:
            refusals.append("no table pushed: %s" % e)
            return None
        if a is None:
            home = SL.scorer_table(database, event, device_id)
            said.append("nothing to push: %s has no open table for scorer %s (%s)" % (
                event, device_id, "its table %d is decided in every round" % home
                if home is not None else "every table of the round has its scorer; "
                "`tally42 event release` frees one"))
        return a
    return assignment_for


def _assignment(text, players, pairs):
    # --assign EVENT:ROUND:TABLE, with --players and --set for the game: the assignment
    # dict of host_tools.tables.assignment.check_assignment, checked before anything is sent.
    event, _, rest = text.rpartition(":")
    event, _, rnd = event.rpartition(":")
    if not event:
        raise CommandError("--assign %s: give EVENT:ROUND:TABLE (Club night:2:3)" % text)
    a = {"event": event.strip(), "round": _whole(rnd), "table": _whole(rest)}
    if players:
        a["players"] = players
    options = {}
    for key, value in pairs:
        if key == "variant":
            a["variant"] = value
        elif key == "tracker":
            raise CommandError("--assign: tracker is the scorer's own switch, not the "
                               "game's: push it without --assign")
        else:
            options[key] = setting_value(value, key)
    a["options"] = options
    try:
        return check_assignment(a)
    except ValueError as e:
        raise CommandError("--assign %s: %s" % (text, e))


def _whole(text):
    try:
        return int(text.strip())
    except ValueError:
        return text


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


def _pairs(players):
    # Players by seat as the table's sides: "Ann+Cy v Bob+Di" (seats 1 and 3 partner 2
    # and 4; six seats: three a side).
    return "%s v %s" % ("+".join(players[0::2]), "+".join(players[1::2]))


class _Slotter:
    """Each synced sitting that carries an event, round and table is slotted into that
    event once stored (host_tools.events.slots.slot_sitting): what was slotted, and what was
    refused (the sitting stays stored, the sync goes on)."""

    def __init__(self, database, only=None):
        self.database = database
        self.only = only        # sync --event: the event this desk runs
        self.slotted = []       # lines for stdout
        self.notes = []
        self.refused = []       # messages for stderr; the exit status is then 2
        self.nothing = []       # sync --event: why no table was pushed
        self._events = {}

    def __call__(self, sitting_id):
        conn = self.database.conn
        row = conn.execute("SELECT event, round, table_no, score, over FROM sittings "
                           "WHERE id = ?", (sitting_id,)).fetchone()
        if row is None or row["event"] is None:
            return
        name, rnd, table = row["event"], row["round"], row["table_no"]
        where = "%s round %s table %s" % (name, rnd, table)
        if self.only is not None and name != self.only:
            self.refused.append("sitting %s was played at %s, not in %s: not slotted (it "
                                "stays stored; `tally42 event slot` puts it in by hand)"
                                % (sitting_id, where, self.only))
            return
        try:
            ev = self._events.get(name)
            if ev is None:
                if conn.execute("SELECT 1 FROM events WHERE name = ?",
                                (name,)).fetchone() is None:
                    self.notes.append("sitting %s was played as %s: no event %s in the "
                                      "database, so it is not slotted" % (
                                          sitting_id, where, name))
                    return
                ev = self._events[name] = EV.load(self.database, name)
            done = SL.slot_sitting(self.database, sitting_id, ev, rnd, table)
        except (EV.EventError, D.DbError) as e:
            why = str(e)
            if why.startswith(where + " "):
                why = "the table" + why[len(where):]
            self.refused.append("sitting %s not slotted into %s: %s (it stays stored; "
                                "`tally42 event slot` puts it right by hand)"
                                % (sitting_id, where, why))
            return
        if done == "slotted":
            score = json.loads(row["score"])
            self.slotted.append("slotted: sitting %s as the result of %s (%s%s)" % (
                sitting_id, where, "-".join(str(s) for s in score),
                "" if row["over"] else ", still playing"))


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
    pairs = _settings(args.set)
    assignment = None
    if args.assign is not None:
        # The players and the game go with the assignment, once the sittings are stored.
        assignment = _assignment(args.assign, names[0][1] if args.players else None, pairs)
        names = [n for n in names if n[0] != "p"]
        pairs = []
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
    if args.event is not None:
        # The event's radio key: the scorer sends each hand live to a base station.
        from host_tools.events.radio import event_key
        pairs = pairs + [("radio", event_key(database, args.event).hex())]
    slotter = _Slotter(database, args.event)
    progress = _Progress(sys.stderr)
    report = None
    refusals = []       # what the scorer would not take: said at the end, exit 2
    assignment_for = None
    if assignment is not None:
        assignment_for = lambda device_id: assignment      # noqa: E731
    elif args.event is not None:
        assignment_for = _next_table(database, args.event, refusals, slotter.nothing)
    try:
        client = Y.Client(link, timeout=args.timeout, wait=args.wait, notice=progress.notice)
        info = client.hello(patience=min(args.wait, FIRST_ANSWER))
        print(info.describe())
        if not args.no_clock:
            _optional(client.set_clock, "clock", refusals)
        for kind, ns in names:
            what = "players" if kind == "p" else "teams"
            if _optional(lambda: client.push_names(kind, ns), what, refusals):
                print("%s set on the scorer: %s" % (what, ", ".join(ns)))
        if pairs and _optional(lambda: client.push_settings(pairs), "settings", refusals):
            print("settings sent to the scorer: %s" % ", ".join(
                "radio key" if p[0] == "radio" else "%s=%s" % p for p in pairs))
        report = Report(info)
        playing = _progress(client, database)
        if playing is not None and args.event is not None:
            assignment_for = not_playing(assignment_for, playing)
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
            _pairs(a["players"]) if a.get("players") else "the players on the scorer",
            "" if a["variant"] == "42" else " (%s)" % a["variant"]))
    for line in slotter.nothing:
        print(line)
    if playing is not None:
        print("live: %s round %d table %d: %s" % (playing[0], playing[1], playing[2],
                                                   playing[3].text))
    refusals += slotter.refused
    if report.assign_refused:
        refusals.append(report.assign_refused)
    if report.damaged:
        refusals.append("the scorer's journal holds %s damaged (a record fails its check, "
                        "a flash fault): not stored, and no longer kept on the scorer" % (
                            "sitting %d" % report.damaged[0] if len(report.damaged) == 1
                            else "sittings " + ", ".join("%d" % s for s in report.damaged)))
    for why in refusals + [why for _, why in report.refused]:
        sys.stderr.write("tally42: %s\n" % why)
    return 2 if refusals or report.refused else 0


def _progress(client, database):
    # The scorer's open sitting, when it is at an event's table: its progress for the
    # page (never a result). A firmware that sends only finished sittings sends none.
    # Asked only where there are events: a sync of a database without any costs no
    # more than it did.
    if not EV.names(database):
        return None
    try:
        lines = open_sitting(client)
    except Y.DeviceError:
        return None
    if lines is None:
        return None
    try:
        return LV.record_log(database, lines, client.info.device_id)
    except (EV.EventError, D.DbError):
        return None


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
            print("%s  %s  firmware %s  protocol %d.%d  %s to sync  free %s" % (
                device, info.device_id, info.firmware, info.version, info.minor,
                _plural(info.unsynced, "sitting"), _kb(info.free)))
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
                   help="player names for the sittings set up next (3, 4 or 6; at most 12 "
                        "characters each)")
    p.add_argument("--teams", metavar="A,B", help="team names to show on the scorer")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="a house option for the sittings set up next (variant=moon, "
                        "scoring=points, target=250, nello=true, ...; the gin pads: "
                        "variant=oklahoma-gin, sequence-gin or skarney-gin, target=150, "
                        "spade_doubles, game_bonus, box_bonus, shutout_doubles, deal, "
                        "bonus; tracker=on); repeatable")
    p.add_argument("--assign", metavar="EVENT:ROUND:TABLE",
                   help="the scorer's next table assignment in an event (shown on it as "
                        "Table 3 · Round 2, carried by the next sitting), pushed once its "
                        "sittings are stored; --players and --set then give its players "
                        "and game (default 42 with the standard options)")
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

