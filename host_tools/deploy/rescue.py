"""`tally42 rescue`: the journal read off a board over esptool, when the scorer no
longer starts (or MicroPython is gone). esptool talks to the chip's ROM boot loader, so
nothing on the board has to run: it reads the partition table (4 KB at 0x8000), finds
the "journal" partition in it, and reads that partition into a file that `tally42
export --from-image FILE` reads. A board whose table has no journal (MicroPython was
flashed whole, with its stock table) still has the blocks where deploy put them: the
64 KB at 0x3f0000 are read then."""
import os
import shlex
import struct
import subprocess
import sys
import tempfile

TABLE_OFFSET = 0x8000
TABLE_SIZE = 0xC00
JOURNAL_LABEL = "journal"
DEFAULT = (0x3F0000, 0x10000)      # where `tally42 deploy --partition` puts the journal


class RescueError(Exception):
    """The rescue cannot go on: a message to act on."""


def esptool(port, *args):
    return [sys.executable, "-m", "esptool", "--port", port] + list(args)


def read_step(port, offset, size, path):
    """The esptool command reading size bytes at offset into path."""
    return esptool(port, "read-flash", "0x%x" % offset, "0x%x" % size, path)


def parse_table(data):
    """[(label, type, subtype, offset, size)] of an ESP-IDF partition table's bytes (its
    32-byte entries of magic 0x50AA); ValueError when the bytes hold no table."""
    parts = []
    for pos in range(0, len(data) - 31, 32):
        magic, ptype, sub, offset, size, label, _ = struct.unpack_from("<HBBII16sI", data, pos)
        if magic != 0x50AA:
            break
        parts.append((label.split(b"\0")[0].decode("ascii", "replace"), ptype, sub,
                      offset, size))
    if not parts:
        raise ValueError("no partition table at 0x%x (the flash there is %s)"
                         % (TABLE_OFFSET, "erased" if set(data) <= {0xFF} else "not a table"))
    return parts


def journal_place(table):
    """(offset, size, where it was found) of the journal in a table's entries."""
    for label, ptype, _, offset, size in table:
        if label == JOURNAL_LABEL and ptype == 1:
            return offset, size, "the journal partition"
    return DEFAULT + ("no journal partition in the table: the 64 KB where deploy puts it",)


def rescue(port, out, dry_run=False, run=subprocess.call, say=print):
    """Read the journal off the board on `port` into `out`. Returns (offset, size)."""
    if dry_run:
        say("would run: " + shlex.join(read_step(port, TABLE_OFFSET, TABLE_SIZE,
                                                 "TABLE.bin")))
        say("would read the journal's place from the table (else 0x%x, 64 KB)" % DEFAULT[0])
        say("would run: " + shlex.join(read_step(port, DEFAULT[0], DEFAULT[1], out)))
        return DEFAULT
    with tempfile.TemporaryDirectory() as tmp:
        table_file = os.path.join(tmp, "table.bin")
        if run(read_step(port, TABLE_OFFSET, TABLE_SIZE, table_file)):
            raise RescueError("esptool could not read the board on %s: check the port; "
                              "hold BOOT while pressing reset if the board has no "
                              "auto-reset" % port)
        with open(table_file, "rb") as f:
            data = f.read()
    try:
        offset, size, where = journal_place(parse_table(data))
    except ValueError as e:
        offset, size = DEFAULT
        where = "%s: the 64 KB where deploy puts the journal" % e
    say("journal: %d KB at 0x%x (%s)" % (size // 1024, offset, where))
    tmp_out = out + ".part"
    if run(read_step(port, offset, size, tmp_out)):
        raise RescueError("esptool could not read the journal at 0x%x" % offset)
    os.replace(tmp_out, out)
    say("wrote %s: `tally42 export --from-image %s --all` reads its sittings" % (out, out))
    return offset, size
