"""The `tally42` command: one main(), a table of subcommands, errors as `tally42: message`."""
import argparse
import importlib
import os
import sys

from host_tools.commands.errors import CommandError
from host_tools.log.text import message


# Every subcommand, in the order `tally42 --help` lists them: the module of host_tools.commands
# that holds it, its handler there, and the function that adds its parser under that name
# (as mpremote's main.py keeps _COMMANDS). A command imports its own module only: its start
# loads what it uses, not every other command's (the sim's, the club night's server).
COMMANDS = {
    "replay": ("sittings", "cmd_replay", "replay_parser"),
    "sim": ("device", "cmd_sim", "sim_parser"),
    "import": ("sittings", "cmd_import", "import_parser"),
    "export": ("sittings", "cmd_export", "export_parser"),
    "stats": ("sittings", "cmd_stats", "stats_parser"),
    "sittings": ("sittings", "cmd_sittings", "sittings_parser"),
    "delete": ("sittings", "cmd_delete", "delete_parser"),
    "rename": ("sittings", "cmd_rename", "rename_parser"),
    "accept": ("sittings", "cmd_accept", "accept_parser"),
    "sync": ("sync", "cmd_sync", "sync_parser"),
    "devices": ("sync", "cmd_devices", "devices_parser"),
    "deploy": ("device", "cmd_deploy", "deploy_parser"),
    "rescue": ("device", "cmd_rescue", "rescue_parser"),
    "event": ("event", "cmd_event", "event_parser"),
    "serve": ("event", "cmd_serve", "serve_parser"),
}


def command(name):
    """(handler, parser adder) of the subcommand `name`, its module imported."""
    module, handler, add_parser = COMMANDS[name]
    m = importlib.import_module("host_tools.commands." + module)
    return getattr(m, handler), getattr(m, add_parser)


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


def build_parser(names=None):
    """The parser of `tally42` with the subcommands `names` (default: all)."""
    parser = Parser(
        prog="tally42", description="Tally 42: the PC side of the table-side 42 scorekeeper.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="tally42 %s" % version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS if names is None else names:
        handler, add_parser = command(name)
        add_parser(sub, name).set_defaults(func=handler)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    # A command line that names its command builds that command's parser only; anything
    # else (--help, --version, no command, an unknown one) builds them all, to list them.
    if argv[:1] == ["--version"]:
        parser = build_parser(())
    else:
        parser = build_parser(argv[:1] if argv[:1] and argv[0] in COMMANDS else None)
    try:
        try:
            args = parser.parse_args(argv)
        except UsageError as e:
            return _refused(e)
        try:
            return args.func(args) or 0
        except CommandError as e:
            return _refused(e)
        except KeyboardInterrupt:
            sys.stderr.write("tally42: interrupted\n")
            return 130
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped reading (`tally42 sittings | head -1`): it has what it wanted.
        # Quiet, exit 0; what is left unwritten goes nowhere (Python flushes at exit).
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass        # a stdout with no file behind it (a test's capture)
        return 0


def _refused(e):
    # Every message escapes what would act on the terminal or reorder the line (a name
    # holding a bidirectional override, echoed in a refusal).
    sys.stderr.write("tally42: %s\n" % message(str(e)))
    return 2


if __name__ == "__main__":
    sys.exit(main())
