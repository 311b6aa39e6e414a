"""The device subcommands of `tally42`: sim (the firmware on the sim board) and deploy
(the firmware onto a board)."""
import os
import shutil
import subprocess

from host_tools.commands.common import CommandError
from host_tools.deploy import boardcheck
from host_tools.deploy import deploy as DP
from host_tools.resources import scratch
from host_tools.sim import run as sim
from host_tools.build.sim import SimError


def cmd_sim(args):
    if args.qemu:
        from host_tools.sim import qemu
        try:
            return qemu.run_sim(script=args.script, flash=args.flash, hold=args.hold,
                                screens=args.screens, text=args.text)
        except qemu.QemuError as e:
            raise CommandError(str(e))
    try:
        if args.base:
            if not args.radio:
                raise CommandError("--base: give the air with --radio FOLDER (the scorers' "
                                   "--radio)")
            return sim.run_base(args.radio, args.chip_id)
        return sim.run(script=args.script, screens=args.screens, flash=args.flash,
                       hold=args.hold, panel=args.panel, text=args.text,
                       chip_id=args.chip_id, radio=args.radio)
    except SimError as e:
        raise CommandError(str(e))


def sim_parser(sub, name):
    p = sub.add_parser(
        name, help="run the device firmware on the sim board (keys as buttons)",
        description="Run the scorer's firmware on the MicroPython unix port with an ESP32's "
                    "heap: arrows prev/next, Enter ok, Backspace back, m menu, q quit.")
    p.add_argument("--script", metavar="FILE",
                   help="press the buttons listed in FILE (prev, next, ok, back, menu; "
                        "'long ' before one; # comments), then exit")
    p.add_argument("--screens", metavar="DIR", help="save every display refresh as a PNG")
    p.add_argument("--flash", metavar="FILE",
                   help="the flash image (default: tally42/sim-flash-CHIPID.bin in the "
                        "user's data directory, one for each --chip-id; sim-flash.bin "
                        "without one); one sim at a time on a file")
    p.add_argument("--hold", action="store_true",
                   help="after the script, keep running on the keyboard")
    p.add_argument("--panel", metavar="WxH", help="panel size (default 296x128)")
    p.add_argument("--text", action="store_true",
                   help="print the last screen in the terminal on exit")
    p.add_argument("--chip-id", metavar="HEX",
                   help="the sim's chip id, 6 hex digits: the scorer's device id is then "
                        "T42-HEX (default T42-SIM); tells several sims apart")
    p.add_argument("--radio", metavar="AIR",
                   help="a radio (ESP-NOW) on the air AIR: a folder shared by the sims, "
                        "then faults: /tmp/air,loss=0.3,dup=0.05,reorder=0.1,delay=5")
    p.add_argument("--base", action="store_true",
                   help="a base station (with --radio): it relays the scorers' frames to "
                        "`tally42 serve --base` on the serial port it names")
    p.add_argument("--qemu", action="store_true",
                   help="on the bare-metal MicroPython instead (make qemu; docs/qemu.md)")
    return p



def cmd_deploy(args):
    try:
        return _deploy(args)
    except DP.DeployError as e:
        raise CommandError(str(e))


def _deploy(args):
    if args.board not in DP.BOARDS:
        raise CommandError("unknown board %s (one of %s)" % (args.board, ", ".join(DP.BOARDS)))
    out_dir = args.build or scratch("device", args.board)
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    files = DP.build(args.board, out_dir, args.romfs)
    if args.romfs:
        size = os.path.getsize(os.path.join(out_dir, DP.ROMFS_NAME))
        print("built a %d-byte ROMFS image for %s in %s" % (size, args.board, out_dir))
    else:
        print("built %d modules for %s in %s" % (len(files), args.board, out_dir))
    remove = ()
    if args.dry_run:
        print("would ask the board what it has first (MicroPython, .mpy version, partition "
              "table, module copies)")
    else:
        plan = boardcheck.check(DP.probe(args.port), DP.table_for(args.romfs),
                                args.partition, [f for f in files if f.endswith(".mpy")],
                                args.force, args.romfs, DP.mpy_version(out_dir))
        for note in plan.notes:
            print(note)
        if plan.refusal:
            DP.restart(args.port)   # the probe stopped it at the REPL
            raise CommandError(plan.refusal)
        remove = plan.remove
        if not plan.copy_modules and not args.romfs:
            files = [f for f in files if not f.endswith(".mpy")]
    steps = []
    if args.partition:
        steps = DP.esptool_steps(args.port, out_dir, args.romfs)
        vfs = [p for p in DP.table_for(args.romfs) if p[0] == "vfs"][0]
        print("partition table: %s (file system: %d KB at 0x%x, formatted by MicroPython "
              "at the next boot; journal: 64 KB at 0x3f0000%s)"
              % (os.path.join(out_dir, "partitions.bin"), vfs[4] // 1024, vfs[3],
                 ", romfs: 192 KB at 0x3c0000" if args.romfs else ""))
    copy = DP.remote() + DP.mpremote_args(args.port, out_dir, files, remove)
    if args.dry_run:
        for cmd in steps:
            print("would run: " + DP.shell(cmd))
        if steps:
            print("would wait for the board's MicroPython prompt (its first boot formats "
                  "the file system)")
        print("would run: " + DP.shell(copy))
        return 0
    for cmd in steps:
        if subprocess.call(cmd):
            raise CommandError("esptool could not write to %s (%s): nothing else was "
                               "written; check the port, hold BOOT if the board has no "
                               "auto-reset, and try again" % (args.port, cmd[-3]))
    if steps:
        print("waiting for the board to start on its new table (it formats its file "
              "system)")
        DP.wait_for_repl(args.port)
    if subprocess.call(copy):
        if args.romfs:
            raise CommandError("mpremote could not deploy the ROMFS image to %s: the "
                               "firmware needs ROMFS (MICROPY_VFS_ROM) and a romfs "
                               "partition (--partition --romfs), see docs/hardware.md, "
                               "\"The recommended build\"" % args.port)
        raise CommandError("mpremote could not copy to %s" % args.port)
    print("deployed to %s: the board restarts into Tally 42" % args.port)
    return 0


def deploy_parser(sub, name):
    p = sub.add_parser(
        name, help="compile the firmware and copy it to a board",
        description="Compile the firmware (mpy-cross) and copy it with its board file to a "
                    "board running MicroPython, over its serial port; --partition, the "
                    "first time only, gives the board a partition table with the journal's "
                    "own 64 KB and a new file system (docs/hardware.md, \"Partitions\": "
                    "the table, what is erased and why).")
    p.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyUSB0")
    p.add_argument("--board", required=True, help="one of " + ", ".join(DP.BOARDS))
    p.add_argument("--partition", action="store_true",
                   help="first time only: write a partition table with a 64 KB journal "
                        "partition; the new file system's first 8 KB are erased so that "
                        "MicroPython formats it at the next boot (its files are lost; "
                        "the journal's flash is kept)")
    p.add_argument("--romfs", action="store_true",
                   help="put the modules in the romfs partition as one ROMFS image, run "
                        "in place from flash (MicroPython built with MICROPY_VFS_ROM)")
    p.add_argument("--force", action="store_true",
                   help="deploy even where the checks refuse: a partition table that "
                        "overwrites sittings not yet on the PC, a board that is no ESP32")
    p.add_argument("--build", help="the build folder (default: build/device/BOARD in a "
                   "checkout, else tally42/device/BOARD in the user's cache folder)")
    p.add_argument("--dry-run", action="store_true", help="build, then say what would run")
    return p



def cmd_rescue(args):
    from host_tools.deploy import rescue
    if not args.dry_run and os.path.exists(args.out) and not args.force:
        raise CommandError("%s exists: give another --out, or --force to replace it"
                           % args.out)
    try:
        rescue.rescue(args.port, args.out, args.dry_run)
    except rescue.RescueError as e:
        raise CommandError(str(e))
    return 0


def rescue_parser(sub, name):
    p = sub.add_parser(
        name, help="read the journal off a board that no longer starts (esptool)",
        description="Read the journal partition off a board over esptool, through the "
                    "chip's own boot loader (nothing on the board has to run), into a file "
                    "that `tally42 export --from-image FILE` reads. The partition table "
                    "says where the journal is; without one, the 64 KB at 0x3f0000 "
                    "(docs/hardware.md, \"Rescuing the journal\").")
    p.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyUSB0")
    p.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--dry-run", action="store_true", help="say what would run")
    return p
