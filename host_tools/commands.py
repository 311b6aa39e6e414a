"""Subcommands of `tally42` for the device: `sim` (the firmware on the sim board).
PARSERS is picked up by host_tools.cli."""
from host_tools.cli import CommandError


def cmd_sim(args):
    if args.qemu:
        from host_tools import qemu
        try:
            return qemu.run_sim(script=args.script, flash=args.flash, hold=args.hold,
                                screens=args.screens, text=args.text)
        except qemu.QemuError as e:
            raise CommandError(str(e))
    from host_tools import sim
    try:
        return sim.run(script=args.script, screens=args.screens, flash=args.flash,
                       hold=args.hold, panel=args.panel, text=args.text,
                       chip_id=args.chip_id)
    except sim.SimError as e:
        raise CommandError(str(e))


def _sim_parser(sub):
    p = sub.add_parser(
        "sim", help="run the device firmware on the sim board (keys as buttons)",
        description="Run the scorer's firmware on the MicroPython unix port with an ESP32's "
                    "heap: arrows prev/next, Enter ok, Backspace back, m menu, q quit.")
    p.add_argument("--script", metavar="FILE",
                   help="press the buttons listed in FILE (prev, next, ok, back, menu; "
                        "'long ' before one; # comments), then exit")
    p.add_argument("--screens", metavar="DIR", help="save every display refresh as a PNG")
    p.add_argument("--flash", metavar="FILE",
                   help="the flash image (default: tally42/sim-flash.bin in the user's "
                        "data directory)")
    p.add_argument("--hold", action="store_true",
                   help="after the script, keep running on the keyboard")
    p.add_argument("--panel", metavar="WxH", help="panel size (default 296x128)")
    p.add_argument("--text", action="store_true",
                   help="print the last screen in the terminal on exit")
    p.add_argument("--chip-id", metavar="HEX",
                   help="the sim's chip id, 6 hex digits: the scorer's device id is then "
                        "T42-HEX (default T42-SIM); tells several sims apart")
    p.add_argument("--qemu", action="store_true",
                   help="on the bare-metal MicroPython instead (make qemu; docs/qemu.md)")
    p.set_defaults(func=cmd_sim)


PARSERS = [_sim_parser]
