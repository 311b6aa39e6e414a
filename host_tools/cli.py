"""The `tally42` command: one main(), a table of subcommands, errors as `tally42: message`."""
import argparse
import sys


class CommandError(Exception):
    """A failure the user can act on: printed as `tally42: message`, exit 2."""


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise CommandError("%s: cannot read: %s" % (path, e.strerror or e))


def cmd_replay(args):
    from host_tools import sittinglog as L
    data = sys.stdin.buffer.read() if args.log == "-" else _read(args.log)
    try:
        rp = L.replay(data)
    except L.LogError as e:
        sys.stderr.write("%s:%d: %s\n" % (args.log, e.line, e.message))
        return 2
    if args.json:
        sys.stdout.write(L.json_line(L.report(rp)))
    else:
        sys.stdout.write(L.scoresheet(rp))
    return 0


def _replay_parser(sub):
    p = sub.add_parser(
        "replay", help="check and score a sitting log (JSON Lines)",
        description="Check a sitting log (JSON Lines, docs/event-log.md) against the rules "
                    "and score it: a scoresheet, or the JSON report with --json. A log "
                    "that breaks a rule: exit 2 and LOG:LINE: reason on stderr.")
    p.add_argument("log", help="the sitting log file (- for standard input)")
    p.add_argument("--json", action="store_true", help="print the JSON report")
    p.set_defaults(func=cmd_replay)


# Each subcommand registers its parser here; later ones come from their own modules.
PARSERS = [_replay_parser]


# Modules that add subcommands, each with a PARSERS list like the one above.
COMMAND_MODULES = ("host_tools.commands", "host_tools.dbcommands", "host_tools.synccommands",
                   "host_tools.deploy")


def _extra_parsers():
    import importlib
    out = []
    for name in COMMAND_MODULES:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue
        out.extend(mod.PARSERS)
    return out


EPILOG = """exit status: 0 done; 2 refused (a bad log, a bad argument, a sitting not stored,
no scorer found: the reason is on stderr, as `tally42: ...`); 130 interrupted.
The database is tally42.db in the user's data folder unless TALLY42_DB or --db names
another: a file, or a postgresql:// URL for one database shared by several PCs. `tally42 COMMAND --help` tells more of each command."""


def version():
    try:
        from importlib.metadata import PackageNotFoundError, version as dist_version
        return dist_version("tally42")
    except (ImportError, PackageNotFoundError):
        return "unknown"


class UsageError(Exception):
    """A command line argparse refuses: printed as `tally42: ...`, exit 2."""

    def __init__(self, prog, message):
        command = prog.partition(" ")[2]
        super().__init__("%s%s (see `%s --help`)" % (command + ": " if command else "",
                                                     message, prog))


class Parser(argparse.ArgumentParser):
    # argparse's errors exit at once with their own prefix; here they are tally42's.
    def error(self, message):
        raise UsageError(self.prog, message)


def build_parser():
    parser = Parser(
        prog="tally42", description="Tally 42: the PC side of the table-side 42 scorekeeper.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="tally42 %s" % version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for add in PARSERS + _extra_parsers():
        add(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        sys.stderr.write("tally42: %s\n" % e)
        return 2
    try:
        return args.func(args) or 0
    except CommandError as e:
        sys.stderr.write("tally42: %s\n" % e)
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("tally42: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
