"""The `tally42` command: one main(), a table of subcommands, errors as `tally42: message`."""
import argparse
import sys

from host_tools.commands import device, event, sittings, sync
from host_tools.commands.common import CommandError


# Every subcommand, in the order `tally42 --help` lists them: its handler, and the
# function that adds its parser under that name (as mpremote's main.py keeps _COMMANDS).
COMMANDS = {
    "replay": (sittings.cmd_replay, sittings.replay_parser),
    "sim": (device.cmd_sim, device.sim_parser),
    "import": (sittings.cmd_import, sittings.import_parser),
    "export": (sittings.cmd_export, sittings.export_parser),
    "stats": (sittings.cmd_stats, sittings.stats_parser),
    "sittings": (sittings.cmd_sittings, sittings.sittings_parser),
    "delete": (sittings.cmd_delete, sittings.delete_parser),
    "rename": (sittings.cmd_rename, sittings.rename_parser),
    "sync": (sync.cmd_sync, sync.sync_parser),
    "devices": (sync.cmd_devices, sync.devices_parser),
    "deploy": (device.cmd_deploy, device.deploy_parser),
    "rescue": (device.cmd_rescue, device.rescue_parser),
    "event": (event.cmd_event, event.event_parser),
    "serve": (event.cmd_serve, event.serve_parser),
}


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
    for name, (handler, add_parser) in COMMANDS.items():
        add_parser(sub, name).set_defaults(func=handler)
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
