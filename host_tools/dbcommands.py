"""The database subcommands of `tally42`: import, export, stats and sittings. PARSERS is
what cli.py registers; main() runs them on their own until then."""
import json
import os
import sys

from host_tools import db as D
from host_tools import export as X
from host_tools import sittinglog as L
from host_tools import stats as T
from host_tools.cli import CommandError


def _open(args, create=True, readonly=False):
    try:
        return D.open_db(args.db, create=create, readonly=readonly)
    except D.DbError as e:
        raise CommandError(str(e))


def _damage_refused(func):
    # A database damaged on disk (or by hand) fails in SQLite, or in what it holds: text
    # that is not UTF-8, JSON columns that are not JSON (TypeError: a number there).
    import functools
    import sqlite3

    @functools.wraps(func)
    def run(args):
        try:
            return func(args)
        except (sqlite3.DatabaseError, UnicodeDecodeError, json.JSONDecodeError,
                TypeError) as e:
            where = args.db or D.default_path()
            if D.is_url(where):
                # A server that went away or refused a read: said as it is.
                from host_tools import dbpg
                raise CommandError("%s: %s" % (dbpg.shown(where), e))
            raise CommandError("%s: the database is damaged (%s)" % (where, e))
    return run


def _add_db(p):
    p.add_argument("--db", metavar="PATH",
                   help="the database: a file, or a postgresql:// URL to share one between "
                        "PCs (default: $TALLY42_DB, else %s)"
                        % D.default_path())


def _write_stdout(text):
    # Logs and CSV are UTF-8 whatever the console's code page.
    sys.stdout.flush()
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        sys.stdout.write(text)
    else:
        buf.write(text.encode("utf-8"))
        buf.flush()


# ---- import ----

def _read_log(path):
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def cmd_import(args):
    refused = 0
    with _open(args) as database:
        for path in args.logs:
            try:
                data = _read_log(path)
            except OSError as e:
                sys.stderr.write("%s: cannot read: %s\n" % (path, e.strerror or e))
                refused += 1
                continue
            try:
                stored = database.store(data, source="import")
            except L.LogError as e:
                where = "%s:%d" % (path, e.line) if e.line else path
                sys.stderr.write("%s: %s\n" % (where, e.message))
                refused += 1
                continue
            except D.DbError as e:
                sys.stderr.write("%s: %s\n" % (path, e))
                refused += 1
                continue
            sys.stdout.write("%s: %s\n" % (path, stored.describe()))
    return 2 if refused else 0


def _import_parser(sub):
    p = sub.add_parser("import", help="check sitting logs with the engine and store them")
    p.add_argument("logs", nargs="+", metavar="LOG", help="sitting log files (- for stdin)")
    _add_db(p)
    p.set_defaults(func=_damage_refused(cmd_import))


# ---- export ----

def _sources(args):
    """(sitting id, log text) for each sitting asked for."""
    if args.from_image:
        try:
            logs = X.image_logs(args.from_image)
        except X.ExportError as e:
            raise CommandError(str(e))
        if args.sitting:
            picked = [(i, t) for i, t in logs if i == args.sitting] or [
                (i, t) for i, t in logs if i.startswith(args.sitting)]
            if len(picked) != 1:
                raise CommandError("%s: %s sitting %s (it has %s)" % (
                    args.from_image, "no" if not picked else "more than one",
                    args.sitting, ", ".join(i for i, _ in logs) or "none"))
            return picked
        return logs
    with _open(args, readonly=True) as database:
        try:
            ids = [database.resolve(args.sitting)] if args.sitting else database.ids()
        except D.DbError as e:
            raise CommandError(str(e))
        return [(i, database.log(i)) for i in ids]


def cmd_export(args):
    if not args.sitting and not args.all:
        raise CommandError("export what? give --sitting ID or --all "
                           "(`tally42 sittings` lists them)")
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
            todo.append((sid, log, L.replay(log.encode("utf-8"))))
        except L.LogError as e:
            sys.stderr.write("%s:%d: %s\n" % (sid, e.line, e.message))
            refused += 1
    if not todo:
        return 2
    out = args.out
    per_file = out is not None and (os.path.isdir(out) or out.endswith(("/", os.sep))
                                    or (args.format == "jsonl" and args.all))
    if per_file:
        _export_files(out, args.format, todo)
    else:
        if args.format == "jsonl":
            text = todo[0][1] if todo else ""
        else:
            text = X.one_stream(args.format, [rp for _, _, rp in todo])
        if out is None:
            _write_stdout(text)
        else:
            _write_file(out, text, args.format)
            sys.stderr.write("%s: %d sitting%s\n" % (out, len(todo), "" if len(todo) == 1
                                                     else "s"))
    return 2 if refused else 0


def _write_file(path, text, fmt):
    # CSV files get a byte order mark so spreadsheets read the names as UTF-8.
    encoding = "utf-8-sig" if fmt == "csv" else "utf-8"
    try:
        with open(path, "w", encoding=encoding, newline="") as f:
            f.write(text)
    except OSError as e:
        raise CommandError("%s: cannot write: %s" % (path, e.strerror or e))


def _export_files(folder, fmt, todo):
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise CommandError("%s: cannot make the folder: %s" % (folder, e.strerror or e))
    taken = set()
    for sid, log, rp in todo:
        name = X.file_name(sid, fmt, taken)
        taken.add(name.lower())
        path = os.path.join(folder, name)
        _write_file(path, X.text_of(fmt, log, rp), fmt)
        sys.stdout.write("%s\n" % path)


def _export_parser(sub):
    p = sub.add_parser("export", help="write stored sittings as logs, CSV or scoresheets")
    p.add_argument("--format", choices=X.FORMATS, default="jsonl",
                   help="jsonl: the sitting log (default); csv: one row a hand; "
                        "text: the printable scoresheet")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--sitting", metavar="ID", help="one sitting (an id or its beginning)")
    which.add_argument("--all", action="store_true", help="every sitting")
    p.add_argument("--out", metavar="FILE|DIR",
                   help="write here (an existing folder, or a name ending in /: one file "
                        "a sitting; jsonl --all needs a folder); default: standard output")
    p.add_argument("--from-image", metavar="FILE",
                   help="export the sittings of a device flash image instead of the database")
    _add_db(p)
    p.set_defaults(func=_damage_refused(cmd_export))


# ---- stats ----

def cmd_stats(args):
    with _open(args, readonly=True) as database:
        players, unnamed = T.collect(database)
    if args.player:
        p = T.find_player(players, args.player)
        if p is None:
            raise CommandError("no sittings with a player named %s (players: %s)" % (
                L.printable(args.player),
                ", ".join(L.printable(n) for n in sorted(players)) or "none"))
        sys.stdout.write(T.player_report(p))
    else:
        sys.stdout.write(T.summary(players, unnamed))
    return 0


def _stats_parser(sub):
    p = sub.add_parser("stats", help="player statistics over the stored sittings")
    p.add_argument("--player", metavar="NAME", help="everything about one player")
    _add_db(p)
    p.set_defaults(func=_damage_refused(cmd_stats))


# ---- sittings ----

def cmd_sittings(args):
    with _open(args, readonly=True) as database:
        rows = database.sittings()
    if args.json:
        for r in rows:
            d = dict(r)
            for key in ("options", "players", "score", "games"):
                d[key] = None if d[key] is None else json.loads(d[key])
            d["over"] = bool(d["over"])
            sys.stdout.write(L.json_line(d))
        return 0
    if not rows:
        sys.stdout.write("No sittings stored yet.\n")
        return 0
    out = []
    for r in rows:
        players = ", ".join(json.loads(r["players"])) if r["players"] else ""
        score = "-".join(str(x) for x in json.loads(r["score"]))
        state = "over" if r["over"] else "in progress"
        source = r["source"] + (" " + r["device"] if r["device"] else "")
        out.append([r["id"], r["variant"], _when(r["started"]), r["hands"], score, state,
                    source, players])       # the table escapes control characters
    sys.stdout.write(T.table(["id", "variant", "started", "hands", "score", "state",
                              "source", "players"], out))
    return 0


def _when(started):
    # An ISO 8601 start as its day and minute, in the time zone it was written in.
    import datetime
    try:
        return datetime.datetime.fromisoformat(started).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return started or ""


def _sittings_parser(sub):
    p = sub.add_parser("sittings", help="list the stored sittings")
    p.add_argument("--json", action="store_true", help="one JSON object a sitting")
    _add_db(p)
    p.set_defaults(func=_damage_refused(cmd_sittings))


# ---- delete, rename ----

def cmd_delete(args):
    with _open(args, create=False) as database:
        for sid in args.ids:
            try:
                database.delete(sid)
            except D.DbError as e:
                raise CommandError(str(e))
            sys.stdout.write("deleted sitting %s\n" % L.printable(sid))
    return 0


def _delete_parser(sub):
    p = sub.add_parser("delete", help="remove stored sittings from the database",
                       description="Remove stored sittings (their whole logs) from the "
                                   "database. Give each id in full, as `tally42 sittings` "
                                   "lists it.")
    p.add_argument("ids", nargs="+", metavar="ID", help="a sitting's id")
    _add_db(p)
    p.set_defaults(func=_damage_refused(cmd_delete))


def cmd_rename(args):
    with _open(args, create=False) as database:
        try:
            database.rename(args.id, args.new_id)
        except D.DbError as e:
            raise CommandError(str(e))
        except L.LogError as e:
            raise CommandError("sitting %s: its stored log is refused now (line %d: %s)"
                               % (L.printable(args.id), e.line, e.message))
    sys.stdout.write("renamed sitting %s to %s\n" % (L.printable(args.id),
                                                      L.printable(args.new_id)))
    return 0


def _rename_parser(sub):
    p = sub.add_parser("rename", help="give a stored sitting another id",
                       description="Give a stored sitting another id (its log's header "
                                   "id changes with it): for a sitting that a sync reports "
                                   "in conflict, rename the stored one and sync again.")
    p.add_argument("id", metavar="ID", help="the sitting's id, in full")
    p.add_argument("new_id", metavar="NEW_ID", help="its new id")
    _add_db(p)
    p.set_defaults(func=_damage_refused(cmd_rename))


PARSERS = [_import_parser, _export_parser, _stats_parser, _sittings_parser, _delete_parser,
           _rename_parser]
