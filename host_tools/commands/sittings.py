"""The sitting subcommands of `tally42`: replay (check and score a log), and the
database's: import, export, stats, sittings, delete and rename."""
import json
import os
import sys

from host_tools.commands.common import (CommandError, add_db, damage_refused, open_db,
                                        read_file, read_log, write_stdout)
from host_tools.log import sittinglog as L
from host_tools.log.lines import LogError
from host_tools.log.text import json_line, message, printable
from host_tools.store import db as D
from host_tools.store import export as X
from host_tools.store import stats as T


# ---- replay ----

def cmd_replay(args):
    data = sys.stdin.buffer.read() if args.log == "-" else read_file(args.log)
    try:
        # Every check import makes: the #tally42 line is tally42's own (a reader of the
        # spec alone skips it as a comment), and what import would refuse in it, replay
        # refuses too (an end before the start).
        rp = L.replay(data)
    except LogError as e:
        sys.stderr.write(message("%s:%d: %s\n" % (args.log, e.line, e.message)))
        return 2
    if args.json:
        sys.stdout.write(json_line(L.report(rp)))
    else:
        sys.stdout.write(L.scoresheet(rp))
    return 0


def replay_parser(sub, name):
    p = sub.add_parser(
        name, help="check and score a sitting log (JSON Lines)",
        description="Check a sitting log (JSON Lines, docs/event-log.md) against the rules "
                    "and score it: a scoresheet, or the JSON report with --json. A log "
                    "that breaks a rule: exit 2 and LOG:LINE: reason on stderr.")
    p.add_argument("log", help="the sitting log file (- for standard input)")
    p.add_argument("--json", action="store_true", help="print the JSON report")
    return p


# ---- import ----

@damage_refused
def cmd_import(args):
    if (args.event, args.round, args.table) != (None, None, None):
        # (the event commands' module, loaded by an import to an event's table only)
        from host_tools.commands import event as EC
        return EC.cmd_import_to_table(args)
    refused = 0
    paths = _log_paths(args.logs)
    with open_db(args) as database:
        for path in paths:
            try:
                data = read_log(path)
            except OSError as e:
                sys.stderr.write("tally42: %s: cannot read: %s\n" % (path, e.strerror or e))
                refused += 1
                continue
            try:
                stored = database.store(data, source="import")
            except LogError as e:
                where = "%s:%d" % (path, e.line) if e.line else path
                sys.stderr.write(message("%s: %s\n" % (where, e.message)))
                refused += 1
                continue
            except D.DbError as e:
                sys.stderr.write("%s: %s\n" % (path, e))
                refused += 1
                continue
            sys.stdout.write("%s: %s\n" % (path, stored.describe()))
    return 2 if refused else 0


def _log_paths(given):
    # A folder stands for the sitting logs in it (what `export --all --out DIR` wrote).
    out = []
    for path in given:
        if path != "-" and os.path.isdir(path):
            logs = sorted(os.path.join(path, n) for n in os.listdir(path)
                          if n.endswith(".jsonl"))
            if not logs:
                raise CommandError("%s: a folder with no sitting logs (*.jsonl) in it" % path)
            out += logs
        else:
            out.append(path)
    return out


def import_parser(sub, name):
    p = sub.add_parser(
        name, help="check sitting logs with the engine and store them",
        description="Check each sitting log (JSON Lines, docs/event-log.md) with the "
                    "engine and store it in the database; a folder stands for the logs "
                    "(*.jsonl) in it, so a backup made with `export --all --out DIR` "
                    "comes back in one command. A log that is refused is named on stderr "
                    "and the others are stored; the exit status is then 2.")
    p.add_argument("logs", nargs="+", metavar="LOG",
                   help="sitting log files or folders of them (- for stdin)")
    from host_tools.commands import event as EC
    EC.import_options(p)
    add_db(p)
    return p


# ---- export ----

def _sources(args):
    """(sitting id, log text) for each sitting asked for. The damaged sittings of an
    image are named on stderr, and args.damaged says how many there were."""
    from host_tools.events import slots as SL      # loaded by the commands that use it
    args.damaged = 0
    args.slots = {}
    if args.device and not args.from_image:
        raise CommandError("--device names the scorer of an image: give --from-image too")
    if args.from_image:
        try:
            logs, damaged = X.image_logs(args.from_image, args.device)
        except X.ExportError as e:
            raise CommandError(str(e))
        if damaged and not args.sitting:
            args.damaged = len(damaged)
            sys.stderr.write("tally42: %s: %s damaged (a record fails its check): not "
                             "exported\n" % (args.from_image, _numbers(damaged)))
        if args.sitting:
            # The image's id, or its start, or the database's id of it (sync's, which
            # ends with the image's id when no --device was given).
            picked = [(i, t) for i, t in logs if i == args.sitting] or [
                (i, t) for i, t in logs if i.startswith(args.sitting)
                or args.sitting.endswith("-" + i)]
            if len(picked) != 1:
                raise CommandError("%s: %s sitting %s (it has %s)" % (
                    args.from_image, "no" if not picked else "more than one",
                    args.sitting, ", ".join(i for i, _ in logs) or "none"))
            return picked
        return logs
    with open_db(args, readonly=True) as database:
        try:
            ids = [database.resolve(args.sitting)] if args.sitting else database.ids()
        except D.DbError as e:
            raise CommandError(str(e))
        # A sitting slotted into an event (`event result`, sync --event): its event,
        # round and table, as `sittings` shows them.
        args.slots = SL.slots(database)
        return [(i, database.log(i)) for i in ids]


@damage_refused
def cmd_export(args):
    if args.format == "jsonl" and args.all and args.out is None:
        raise CommandError("a sitting log holds one sitting: with --all give --out DIR "
                           "(one .jsonl file a sitting)")
    sources = _sources(args)
    if not sources:
        raise CommandError("no sittings to export")
    todo = []
    refused = 0
    for sid, log in sources:
        try:
            rp = L.replay(log.encode("utf-8"))
            slot = args.slots.get(sid)
            if slot is not None:
                rp.header.extra.update(event=slot[0], round=slot[1], table=slot[2])
            todo.append((sid, log, rp))
        except LogError as e:
            sys.stderr.write("%s:%d: %s\n" % (sid, e.line, e.message))
            refused += 1
    if not todo:
        return 2
    out = args.out
    folder = out is not None and (os.path.isdir(out) or out.endswith(("/", os.sep)))
    if out is not None and not folder and args.format == "jsonl" and args.all:
        raise CommandError("--out %s: jsonl --all writes one file a sitting into a folder: "
                           "give an existing folder, or a new one's name ending in /" % out)
    per_file = folder
    if per_file:
        _export_files(out, args.format, todo, args.utc)
    else:
        if args.format == "jsonl":
            text = todo[0][1] if todo else ""
        else:
            text = X.one_stream(args.format, [rp for _, _, rp in todo], args.utc)
        if out is None:
            write_stdout(text)
        else:
            _write_file(out, text, args.format)
            sys.stderr.write("%s: %d sitting%s\n" % (out, len(todo), "" if len(todo) == 1
                                                     else "s"))
    return 2 if refused or args.damaged else 0


def _numbers(sids):
    return ("sitting %d" % sids[0] if len(sids) == 1 else
            "sittings " + ", ".join("%d" % s for s in sids))


def _write_file(path, text, fmt):
    # CSV files get a byte order mark so spreadsheets read the names as UTF-8.
    encoding = "utf-8-sig" if fmt == "csv" else "utf-8"
    try:
        with open(path, "w", encoding=encoding, newline="") as f:
            f.write(text)
    except OSError as e:
        raise CommandError("%s: cannot write: %s" % (path, e.strerror or e))


def _export_files(folder, fmt, todo, utc=False):
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise CommandError("%s: cannot make the folder: %s" % (folder, e.strerror or e))
    taken = set()
    for sid, log, rp in todo:
        name = X.file_name(sid, fmt, taken)
        taken.add(name.lower())
        path = os.path.join(folder, name)
        _write_file(path, X.text_of(fmt, log, rp, utc), fmt)
        sys.stdout.write("%s\n" % path)


def export_parser(sub, name):
    p = sub.add_parser(
        name, help="write stored sittings as logs, CSV or scoresheets",
        description="Write stored sittings (or a device flash image's, --from-image) as "
                    "sitting logs, CSV one row a hand (cells that a spreadsheet would take "
                    "for a formula start with ') or printable scoresheets: to standard "
                    "output, a file, or a folder with one file a sitting. Damaged "
                    "sittings of an image are named on stderr, the exit status then 2.")
    p.add_argument("--format", choices=X.FORMATS, default="jsonl",
                   help="jsonl: the sitting log (default); csv: one row a hand; "
                        "text: the printable scoresheet")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--sitting", metavar="ID", help="one sitting (an id or its beginning)")
    which.add_argument("--all", action="store_true", help="every sitting")
    p.add_argument("--out", metavar="FILE|DIR",
                   help="write here (an existing folder, or a name ending in /: one file "
                        "a sitting; jsonl --all needs a folder); default: standard output")
    p.add_argument("--from-image", metavar="FILE",
                   help="export the sittings of a device flash image instead of the database")
    p.add_argument("--device", metavar="ID",
                   help="with --from-image: the scorer's id (T42-..., as `tally42 devices` "
                        "and sync name it): the sittings get the ids sync stores them by "
                        "(default: their random id alone, the end of those ids)")
    p.add_argument("--utc", action="store_true",
                   help="text: the scoresheets' start and end times in UTC (default: in "
                        "this PC's time zone, named)")
    add_db(p)
    return p


# ---- stats ----

@damage_refused
def cmd_stats(args):
    with open_db(args, readonly=True) as database:
        players, unnamed = T.collect(database)
    if args.player:
        p = T.find_player(players, args.player)
        if p is None:
            raise CommandError("no sittings with a player named %s (players: %s)" % (
                printable(args.player),
                ", ".join(printable(n) for n in sorted(players)) or "none"))
        sys.stdout.write(T.player_report(p))
    else:
        sys.stdout.write(T.summary(players, unnamed))
    return 0


def stats_parser(sub, name):
    p = sub.add_parser(
        name, help="player statistics over the stored sittings",
        description="Statistics of each player over the stored sittings, from the "
                    "hands the engine replays; with --player, everything about one player.")
    p.add_argument("--player", metavar="NAME", help="everything about one player")
    add_db(p)
    return p


# ---- sittings ----

@damage_refused
def cmd_sittings(args):
    from host_tools.events import slots as SL      # loaded by the commands that use it
    with open_db(args, readonly=True) as database:
        rows = database.sittings()
        slotted = SL.slots(database)
    if args.json:
        for r in rows:
            d = dict(r)
            for key in ("options", "players", "score", "games"):
                d[key] = None if d[key] is None else json.loads(d[key])
            d["over"] = bool(d["over"])
            d["damaged"] = bool(d["damaged"])      # partial: its hands before the damage
            d["accepted"] = bool(d["accepted"])    # counted in stats and standings
            slot = slotted.get(r["id"])
            d["slot"] = None if slot is None else {"event": slot[0], "round": slot[1],
                                                   "table": slot[2]}
            sys.stdout.write(json_line(d))
        return 0
    if not rows:
        sys.stdout.write("No sittings stored yet.\n")
        return 0
    out = []
    zones = set()
    for r in rows:
        players = ", ".join(json.loads(r["players"])) if r["players"] else ""
        score = "-".join(str(x) for x in json.loads(r["score"]))
        state = "over" if r["over"] else "in progress"
        if r["damaged"]:
            # Read from a damaged journal up to the damage: not counted until accepted.
            state = "damaged, accepted" if r["accepted"] else "damaged (`accept` counts it)"
        source = r["source"] + (" " + r["device"] if r["device"] else "")
        started, ended = _when(r["started"], args.utc), _when(r["ended"], args.utc)
        zones.update(z for _, z in (started, ended) if z)
        out.append([r["id"], r["variant"], started, _ended(started, ended), r["hands"],
                    score, state, source, _event(r, slotted.get(r["id"])), players])  # the table escapes controls
    # The times are the PC's local zone (--utc: UTC), named once in the heading when every
    # time is in one (a summer and a winter sitting: each names its own).
    one = len(zones) == 1
    for row in out:
        for i in (2, 3):
            text, zone = row[i]
            row[i] = text if one or not zone else "%s %s" % (text, zone)
    zone = " (%s)" % zones.pop() if one else ""
    sys.stdout.write(T.table(["id", "variant", "started" + zone, "ended" + zone, "hands",
                              "score", "state", "source", "event", "players"], out))
    return 0


def _ended(started, ended):
    # The end as its minute, or only its time of day when it is the start's day.
    if ended[0][:10] == started[0][:10] and len(ended[0]) == 16 and ended[1] == started[1]:
        return ended[0][11:], ended[1]
    return ended


def _event(r, slot):
    # "Club night R2 T3": the event, round and table the sitting is the result of; one
    # that only its log names (played there, not slotted) says so.
    if slot is not None:
        return "%s R%d T%d" % slot
    if not r["event"] and r["round"] is None and r["table_no"] is None:
        return ""
    parts = [r["event"] or ""]
    if r["round"] is not None:
        parts.append("R%d" % r["round"])
    if r["table_no"] is not None:
        parts.append("T%d" % r["table_no"])
    return " ".join(p for p in parts if p) + " (not slotted)"


def _when(text, utc=False):
    from host_tools.log.times import zoned
    return zoned(text, utc)


def sittings_parser(sub, name):
    p = sub.add_parser(
        name, help="list the stored sittings",
        description="List the sittings stored in the database, one a line (--json: one "
                    "JSON object a sitting), by the time they started.")
    p.add_argument("--json", action="store_true", help="one JSON object a sitting")
    p.add_argument("--utc", action="store_true",
                   help="times in UTC (default: the PC's local time zone, named in the "
                        "heading; --json keeps each time as it was written)")
    add_db(p)
    return p


# ---- delete, rename ----

@damage_refused
def cmd_delete(args):
    from host_tools.events import slots as SL      # loaded by the commands that use it
    with open_db(args, create=False) as database:
        for sid in args.ids:
            slot = SL.slot_of(database, sid)
            try:
                database.delete(sid)
            except D.DbError as e:
                raise CommandError(str(e))
            sys.stdout.write("deleted sitting %s\n" % printable(sid))
            if slot is not None:
                # Its table is open again: the night must not stall on it unsaid.
                sys.stdout.write("%s round %d table %d has no result now: it takes one "
                                 "again (`tally42 event slot`, `event result`, or its "
                                 "scorer's next sync)\n" % slot)
    return 0


def delete_parser(sub, name):
    p = sub.add_parser(name, help="remove stored sittings from the database",
                       description="Remove stored sittings (their whole logs) from the "
                                   "database. Give each id in full, as `tally42 sittings` "
                                   "lists it.")
    p.add_argument("ids", nargs="+", metavar="ID", help="a sitting's id")
    add_db(p)
    return p


@damage_refused
def cmd_rename(args):
    from host_tools.events import slots as SL      # loaded by the commands that use it
    with open_db(args, create=False) as database:
        try:
            database.rename(args.id, args.new_id)
        except D.DbError as e:
            raise CommandError(str(e))
        except LogError as e:
            raise CommandError("sitting %s: its stored log is refused now (line %d: %s)"
                               % (printable(args.id), e.line, e.message))
        slot = SL.slot_of(database, args.new_id)
    sys.stdout.write("renamed sitting %s to %s\n" % (printable(args.id),
                                                      printable(args.new_id)))
    if slot is not None:
        sys.stdout.write("it is still the result of %s round %d table %d\n" % slot)
    return 0


def rename_parser(sub, name):
    p = sub.add_parser(name, help="give a stored sitting another id",
                       description="Give a stored sitting another id (its log's header "
                                   "id changes with it): for a sitting that a sync reports "
                                   "in conflict, rename the stored one and sync again.")
    p.add_argument("id", metavar="ID", help="the sitting's id, in full")
    p.add_argument("new_id", metavar="NEW_ID", help="its new id")
    add_db(p)
    return p



@damage_refused
def cmd_accept(args):
    with open_db(args, create=False) as database:
        try:
            sid = database.resolve(args.id)
            changed = database.accept(sid)
        except D.DbError as e:
            raise CommandError(str(e))
    sys.stdout.write("sitting %s %s: its hands count in stats and standings\n" % (
        printable(sid), "accepted" if changed else "was accepted already"))
    return 0


def accept_parser(sub, name):
    p = sub.add_parser(name, help="count a damaged sitting in stats and standings",
                       description="A sitting read from a scorer whose journal was damaged "
                                   "inside it is stored with its hands before the damage "
                                   "only, marked damaged (`tally42 sittings` shows it), and "
                                   "counts in no stats or standings. Accept it when those "
                                   "hands stand (then `event result` can slot it).")
    p.add_argument("id", metavar="ID", help="the sitting's id (or a unique beginning of it)")
    add_db(p)
    return p
