"""What the subcommands share: CommandError (printed as `tally42: message`, exit 2), the
--db option and opening the database it names, a damaged database as a refusal, and
reading and writing the user's files and standard output."""
import functools
import json
import sqlite3
import sys

from host_tools.commands.errors import CommandError  # noqa: F401 (the commands' own)
from host_tools.store import db as D


def add_db(p):
    """The --db option of a command that uses the database."""
    p.add_argument("--db", metavar="PATH",
                   help="the database: a file, or a postgresql:// URL to share one between "
                        "PCs (default: $TALLY42_DB, else %s)"
                        % D.default_path())


def open_db(args, create=True, readonly=False):
    """The database of --db (or the default one); its DbError as a CommandError."""
    try:
        return D.open_db(args.db, create=create, readonly=readonly)
    except D.DbError as e:
        raise CommandError(str(e))


def damage_refused(func):
    """A command handler whose damaged database is a refusal, not a traceback."""
    # A database damaged on disk (or by hand) fails in SQLite, or in what it holds: text
    # that is not UTF-8, JSON columns that are not JSON (TypeError: a number there).
    @functools.wraps(func)
    def run(args):
        try:
            return func(args)
        except (sqlite3.DatabaseError, UnicodeDecodeError, json.JSONDecodeError,
                TypeError) as e:
            where = args.db or D.default_path()
            if D.is_url(where):
                # A server that went away or refused a read: said as it is.
                from host_tools.store import dbpg
                raise CommandError("%s: %s" % (dbpg.shown(where), e))
            raise CommandError("%s: the database is damaged (%s)" % (where, e))
    return run


def read_file(path):
    """The bytes of a file the user named; CommandError when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise CommandError("%s: cannot read: %s" % (path, e.strerror or e))


def read_log(path):
    """The bytes of a sitting log (- for standard input); OSError when it cannot be read."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def write_stdout(text):
    """Text on standard output as UTF-8, whatever the console's code page (logs, CSV)."""
    sys.stdout.flush()
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        sys.stdout.write(text)
    else:
        buf.write(text.encode("utf-8"))
        buf.flush()
