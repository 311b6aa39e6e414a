"""The `tally42` command: one main(), a table of subcommands, errors as `tally42: message`."""
import argparse
import json
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
    data = _read(args.log)
    try:
        rp = L.replay(data)
    except L.LogError as e:
        sys.stderr.write("%s:%d: %s\n" % (args.log, e.line, e.message))
        return 2
    if args.json:
        sys.stdout.write(json.dumps(L.report(rp), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(L.scoresheet(rp))
    return 0


def _replay_parser(sub):
    p = sub.add_parser("replay", help="check and score a sitting log (JSON Lines)")
    p.add_argument("log", help="the sitting log file")
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


def build_parser():
    parser = argparse.ArgumentParser(
        prog="tally42", description="Tally 42: the PC side of the table-side 42 scorekeeper.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for add in PARSERS + _extra_parsers():
        add(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
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
