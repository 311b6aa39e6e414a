"""An ESP32's flash as a file, and its boot on MicroPython's unix port: the stock
layout the ESP32_GENERIC download leaves, esptool's commands applied to it as esptool
applies them, and the esp32 port's own _boot.py and inisetup.py run over it
(tests/kit/espboot/boot_run.py, with the fake chip's esp32 module, boards/sim/chip/esp32.py).

The port's modules and its stock partition table come from MicroPython's source (the
tarball in ../shared/micropython, unpacked once into build/mp32/src by tools/mp32.py,
or MICROPY_DIR), as they are: nothing here is a copy of them."""
import ast
import hashlib
import json
import os
import struct
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
import mp32    # tools/: on the path (tests/conftest.py)

FLASH_SIZE = 4 * 1024 * 1024
SECTOR = 0x1000
RUNNER = os.path.join(HERE, "espboot", "boot_run.py")
# What the stock table's CSV names mean (ESP-IDF's gen_esp32part.py).
_TYPES = {"app": 0, "data": 1}
_SUBTYPES = {"factory": 0x00, "nvs": 0x02, "phy": 0x01, "fat": 0x81, "ota": 0x00}


def port_dir():
    """ports/esp32 of the MicroPython source; mp32.Missing when there is none."""
    path = os.path.join(mp32.source(), "ports", "esp32")
    if not os.path.exists(os.path.join(path, "modules", "_boot.py")):
        raise mp32.Missing("the MicroPython source has no ports/esp32/modules/_boot.py")
    return path


def stock_csv():
    """The partition table the ESP32_GENERIC build uses (boards/sdkconfig.base names it)."""
    with open(os.path.join(port_dir(), "boards", "sdkconfig.base")) as f:
        for line in f:
            if line.startswith("CONFIG_PARTITION_TABLE_CUSTOM_FILENAME="):
                return os.path.join(port_dir(), line.split("=", 1)[1].strip().strip('"'))
    raise AssertionError("sdkconfig.base names no partition table")


def table_from_csv(path):
    """The binary table (as ESP-IDF's gen_esp32part.py writes it) of a partition CSV."""
    body = b""
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            name, ptype, sub, offset, size = [c.strip() for c in line.split(",")[:5]]
            ptype = _TYPES[ptype]
            sub = int(sub, 0) if sub.startswith("0x") else _SUBTYPES[sub]
            body += struct.pack("<HBBII16sI", 0x50AA, ptype, sub, int(offset, 0),
                                int(size, 0), name.encode(), 0)
    body += struct.pack("<H14s", 0xEBEB, b"\xff" * 14) + hashlib.md5(body).digest()
    return body + b"\xff" * (0xC00 - len(body))


def read(image, addr, n):
    with open(image, "rb") as f:
        f.seek(addr)
        return f.read(n)


def write(image, addr, data):
    with open(image, "r+b") as f:
        f.seek(addr)
        f.write(data)


def boot(image, copies=None, tmp=None):
    """Boot the image once: the port's _boot.py (and inisetup.py when the mount fails);
    with copies, then run them on the board as mpremote does: ("exec", code) or
    ("cp", source, device path). Returns
    {"mounted", "corrupted", "fs", "files": {device path: size}, "out": what it printed}."""
    from host_tools.build import sim as simbuild
    args = [simbuild.tool("micropython"), RUNNER, os.path.abspath(image),
            os.path.join(port_dir(), "modules")]
    if copies:
        listing = os.path.join(tmp, "copies.txt")
        with open(listing, "w") as f:
            for step in copies:
                assert step[0] in ("cp", "exec"), step
                if step[0] == "cp":
                    step = ("cp", os.path.abspath(step[1]), step[2])
                f.write(json.dumps(list(step)) + "\n")
        args.append(listing)
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    lines = [x for x in r.stdout.splitlines() if x.startswith("BOOT-RESULT ")]
    if r.returncode or not lines:
        raise AssertionError("the boot did not finish:\n%s\n%s" % (r.stdout, r.stderr))
    result = ast.literal_eval(lines[-1][len("BOOT-RESULT "):])
    result["out"] = r.stdout
    return result


def stock_board(image):
    """A 4 MB ESP32 as the ESP32_GENERIC download leaves it after its first boot: the
    bootloader and app (marked), the stock table, and the LittleFS its inisetup.py made
    with vfs.VfsLfs2 (boot.py on it). Returns boot()'s result of that first boot."""
    with open(image, "wb") as f:
        f.write(b"\xff" * FLASH_SIZE)
    write(image, 0x1000, b"BOOTLOADER")
    write(image, 0x8000, table_from_csv(stock_csv()))
    write(image, 0x10000, b"MICROPYTHON APP")
    return boot(image)


# ---- esptool's commands on the image, as esptool 5 takes them ----

_GLOBAL_WITH_VALUE = ("--port", "-p", "--chip", "-c", "--baud", "-b", "--before",
                      "--after", "-a", "--connect-attempts")


def esptool(image, argv, files_dir=None):
    """Apply one esptool command line (whatever precedes "esptool" dropped) to the
    image: write-flash (each 4 KB sector it touches erased first, then written, as
    esptool does), erase-region, read-flash (into its file); erase-flash erases all.
    Anything else is an AssertionError: a plan step this does not know is not tried."""
    argv = list(argv)
    argv = argv[argv.index("esptool") + 1:] if "esptool" in argv else argv
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in _GLOBAL_WITH_VALUE else 1
    cmd, rest = argv[i], argv[i + 1:]
    assert not [a for a in rest if a.startswith("-")], "options not known here: %s" % argv
    if cmd == "write-flash":
        assert len(rest) % 2 == 0 and rest, argv
        for a in range(0, len(rest), 2):
            addr = int(rest[a], 0)
            assert addr % SECTOR == 0, "esptool: address 0x%x is not 4 KB aligned" % addr
            with open(rest[a + 1], "rb") as f:
                data = f.read()
            end = -(-(addr + len(data)) // SECTOR) * SECTOR
            assert end <= FLASH_SIZE, argv
            write(image, addr, b"\xff" * (end - addr))
            write(image, addr, data)
    elif cmd == "erase-region":
        addr, size = int(rest[0], 0), int(rest[1], 0)
        assert addr % SECTOR == 0 and size % SECTOR == 0, "esptool: erase-region unaligned"
        assert addr + size <= FLASH_SIZE
        write(image, addr, b"\xff" * size)
    elif cmd == "read-flash":
        addr, size, out = int(rest[0], 0), int(rest[1], 0), rest[2]
        with open(out, "wb") as f:
            f.write(read(image, addr, size))
    elif cmd == "erase-flash":
        write(image, 0, b"\xff" * FLASH_SIZE)
    else:
        raise AssertionError("esptool command not known here: %s" % cmd)


def plan_steps(output):
    """The commands a dry run printed ("would run: COMMAND"), each as its argv."""
    steps = []
    for line in output.splitlines():
        if line.startswith("would run: "):
            steps.append(split(line[len("would run: "):]))
    return steps


def split(command):
    """A command line as the shell splits it, $'...' (with \\n, \\t, \\\\, \\') too."""
    out = []
    word = None
    i = 0
    while i < len(command):
        c = command[i]
        if c == " ":
            if word is not None:
                out.append(word)
                word = None
            i += 1
            continue
        word = word or ""
        if command.startswith("$'", i):
            i += 2
            while command[i] != "'":
                if command[i] == "\\":
                    word += {"n": "\n", "t": "\t", "\\": "\\", "'": "'"}[command[i + 1]]
                    i += 2
                else:
                    word += command[i]
                    i += 1
            i += 1
        elif c in "'\"":
            end = command.index(c, i + 1)
            word += command[i + 1:end]
            i = end + 1
        else:
            word += c
            i += 1
    if word is not None:
        out.append(word)
    return out


def table_parts(image):
    """[(type, subtype, offset, size, label)] of the image's partition table at 0x8000."""
    raw = read(image, 0x8000, 0xC00)
    parts = []
    for pos in range(0, len(raw), 32):
        if raw[pos:pos + 2] != b"\xaa\x50":
            break
        _, t, st, off, size, label, _ = struct.unpack_from("<HBBII16sI", raw, pos)
        parts.append((t, st, off, size, label.split(b"\0")[0].decode()))
    return parts
