"""`tally42 sim`: the device firmware on the sim board (boards/sim.py), under the MicroPython
unix port with an ESP32's heap. The device modules are compiled with mpy-cross into a
build directory and run from .mpy files, as on a device; the flash is a file; the USB
serial port is a pseudo-terminal. The board sends each display refresh here, where it is
drawn in the terminal in Unicode braille or saved as a 1-bit PNG, and gets its buttons
from here: the keys, or a script. (This side does the drawing so that none of it takes
the firmware's heap.)"""
import os
import re
import select
import struct
import subprocess
import sys
import threading
import zlib

from host_tools import romfs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE_DIRS = romfs.PACKAGES
HEAP = "110K"
ROM = "tally42.rom"
# Every script run on the sim board starts with a prelude that says where the firmware's
# modules come from, as on a device; FIRMWARE_BASE is the heap in use before the
# firmware's first import, so that the firmware's heap is the rest, and FIRMWARE_FREE
# what it has to start with. The forms:
# romfs   (the sim's own) the modules are one ROMFS image, mounted at /rom and imported
#         from there: bytecode and strings run in place, as on a device whose modules sit
#         in a ROMFS partition mapped from flash. The unix port has no flash to map, so the
#         image sits at the bottom of the heap, and the heap is made bigger by the image's
#         size: the firmware has the ESP32's 110K above it.
# files   the .mpy files from the file system, loaded into the heap: a stock MicroPython
#         flash with `make deploy`.
# frozen  the modules frozen into the interpreter (tools/mp32.py frozen): a custom build.
FORMS = ("romfs", "files", "frozen")
PRELUDE = """import gc, os, sys, vfs
def _mount(path):
    rom = bytearray(os.stat(path)[6])
    with open(path, "rb") as f:
        f.readinto(rom)
    vfs.mount(vfs.VfsRom(rom), "/rom")
    sys.path[:] = ["/rom", path[:path.rfind("/") + 1] or "."]
_mount(%r)
del _mount
"""
# (files: from the folder the modules are in, as on a device, whose modules sit at the
# root of its file system: their paths, which MicroPython interns, are as short.)
PRELUDE_FILES = """import gc, os, sys
os.chdir(%r)
sys.path[:] = [""]
"""
PRELUDE_FROZEN = """import gc, sys
sys.path[:] = [".frozen", %r]
"""
PRELUDE_END = """gc.collect()
FIRMWARE_BASE = gc.mem_alloc()
FIRMWARE_FREE = gc.mem_free()
"""
LAUNCHER = """try:
    from boards import sim
    sim.main(sys.argv[1:])
except Exception as e:
    sys.print_exception(e, sys.stderr)
    sys.exit(1)
"""
WIDTH, HEIGHT = 296, 128
FRAME = 0xF5        # boards/sim.py: a refresh on the board's stdout
QUIT = 0xFF         # boards/sim.py: stop, on its stdin

# Logical buttons (firmware.buttons): a script's words, and the keys of the terminal.
PREV, NEXT, OK, BACK, MENU, LONG = 1, 2, 3, 4, 5, 0x10
WORDS = {"prev": PREV, "next": NEXT, "ok": OK, "back": BACK, "menu": MENU}
KEYS = {b"\x1b[D": PREV, b"\x1b[A": PREV, b"\x1b[C": NEXT, b"\x1b[B": NEXT,
        b"\x1bOD": PREV, b"\x1bOA": PREV, b"\x1bOC": NEXT, b"\x1bOB": NEXT,
        b"\x1b[5~": LONG | PREV, b"\x1b[6~": LONG | NEXT, b"\r": OK, b"\n": OK,
        b"\x7f": BACK, b"\x08": BACK, b"m": MENU, b"M": MENU, b"q": QUIT, b"Q": QUIT,
        b"\t": LONG | OK}
HELP = ("arrows prev/next  Enter ok  Backspace back  m menu  q quit\n"
        "held down: PgUp/PgDn prev/next, Tab ok")


class SimError(Exception):
    """The sim cannot start: a message to act on."""


def tool(name):
    """A tool of the virtual environment this Python runs in, else one on PATH. The
    MicroPython the sim board runs on can be chosen with TALLY42_MICROPYTHON (the tests
    run the sim on a 32-bit build that way)."""
    if name == "micropython" and os.environ.get("TALLY42_MICROPYTHON"):
        return os.environ["TALLY42_MICROPYTHON"]
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    venv = os.path.join(ROOT, ".venv", "bin", name)
    return venv if os.path.exists(venv) else name


def build_dir():
    venv = os.path.join(ROOT, ".venv")
    if os.path.isdir(venv):
        return os.path.join(venv, "tally42-sim")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "tally42", "sim")


def default_flash():
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "tally42", "sim-flash.bin")


def build(out=None):
    """Compile the device modules to .mpy under `out` (only those changed); returns it."""
    out = out or build_dir()
    mpy_cross = tool("mpy-cross")
    for top in DEVICE_DIRS:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            rel = os.path.relpath(folder, ROOT)
            if "__pycache__" in rel:
                continue
            os.makedirs(os.path.join(out, rel), exist_ok=True)
            for name in files:
                if not name.endswith(".py"):
                    continue
                src = os.path.join(folder, name)
                dst = os.path.join(out, rel, name[:-3] + ".mpy")
                if os.path.exists(dst) and os.path.getmtime(dst) >= os.path.getmtime(src):
                    continue
                try:
                    # The module's own name as its source name: already interned, so
                    # tracebacks cost no extra heap ("firmware.ui.score", line 12).
                    name = os.path.relpath(src, ROOT)[:-3].replace(os.sep, ".")
                    if name.endswith(".__init__"):
                        name = name[:-9]
                    r = subprocess.run([mpy_cross, "-O3", "-o", dst, "-s", name, src],
                                       capture_output=True, text=True)
                except OSError as e:
                    raise SimError("cannot run mpy-cross (%s): run `make setup`" % e)
                if r.returncode:
                    raise SimError("mpy-cross %s: %s" % (os.path.relpath(src, ROOT),
                                                         r.stderr.strip()))
    # Modules deleted from the tree must not linger as .mpy files.
    for top in DEVICE_DIRS:
        for folder, _, files in os.walk(os.path.join(out, top)):
            for name in files:
                src = os.path.join(ROOT, os.path.relpath(folder, out), name[:-4] + ".py")
                if name.endswith(".mpy") and not os.path.exists(src):
                    os.remove(os.path.join(folder, name))
    write_rom(out)
    write_script(out, "simmain.py", LAUNCHER)
    return out


def write_rom(out):
    """The ROMFS image of the compiled modules (see PRELUDE), remade when one changed."""
    rom = os.path.join(out, ROM)
    if romfs.stale(rom, out):
        romfs.write(rom, out)
    return rom


def write_script(out, name, body, form="romfs"):
    """A script for the sim board in `out`: the prelude of `form` (see FORMS), then body."""
    if form == "romfs":
        head = PRELUDE % os.path.join(out, ROM)
    else:
        head = (PRELUDE_FILES if form == "files" else PRELUDE_FROZEN) % out
    path = os.path.join(out, name)
    with open(path, "w") as f:
        f.write(head + PRELUDE_END + body)
    return path


_word_bytes = {}


def word_bytes(micropython):
    """4 on a 32-bit MicroPython (the ESP32's), 8 on a 64-bit one."""
    if micropython not in _word_bytes:
        r = subprocess.run([micropython, "-c", "import sys; print(sys.maxsize > 2**31)"],
                           capture_output=True, text=True)
        _word_bytes[micropython] = 8 if r.stdout.strip() == "True" else 4
    return _word_bytes[micropython]


def heap_option(out, heap=HEAP, form="romfs", micropython=None):
    """-X heapsize for the sim board: `heap` for the firmware, plus (romfs) the image, its
    share of the collector's tables (3 bits a block of 4 words) and its mount
    (tests/test_sim.py checks the sum)."""
    size = int(heap[:-1]) * {"K": 1024, "M": 1024 * 1024}[heap[-1].upper()]
    if form == "romfs":
        rom = os.path.getsize(os.path.join(out, ROM))
        block = 4 * word_bytes(micropython or tool("micropython"))
        size += rom + rom * 3 // (8 * block) + 512
    return "heapsize=%d" % size


def command(out, args, heap=HEAP, script="simmain.py", form="romfs", micropython=None):
    """The micropython command line that runs `script` (written for `form`) on the sim
    board with `args` (simmain.py: FLASH WIDTH HEIGHT [SERIAL LINK])."""
    mp = micropython or tool("micropython")
    return ([mp, "-X", heap_option(out, heap, form, mp), os.path.join(out, script)]
            + [str(a) for a in args])


# ---- the USB serial port: a pseudo-terminal for the PC, relayed to the firmware's ----

class SerialLink:
    """Two pseudo-terminals: `name` is the PC's end (tally42 sync --port NAME), `path`
    the firmware's; a thread copies bytes between them while the sim runs."""

    def __init__(self):
        import tty
        self.pc_master, pc_slave = os.openpty()
        self.fw_master, fw_slave = os.openpty()
        self.name = os.ttyname(pc_slave)
        self.path = os.ttyname(fw_slave)
        for fd in (pc_slave, fw_slave):
            tty.setraw(fd)
        self._slaves = (pc_slave, fw_slave)
        self._stop = False
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _relay(self):
        import select
        pair = {self.pc_master: self.fw_master, self.fw_master: self.pc_master}
        while not self._stop:
            try:
                ready, _, _ = select.select(list(pair), [], [], 0.2)
                for fd in ready:
                    data = os.read(fd, 4096)
                    if data:
                        os.write(pair[fd], data)
            except OSError:
                # A side closed (EIO on a master with no slave open): wait for it.
                threading.Event().wait(0.05)

    def close(self):
        self._stop = True
        self._thread.join(1)
        for fd in (self.pc_master, self.fw_master) + self._slaves:
            try:
                os.close(fd)
            except OSError:
                pass


# ---- scripts ----

def read_script(path):
    """The button codes of a script: one button a line (prev, next, ok, back, menu;
    `long ` before one for a long press); blank lines and # comments skipped."""
    try:
        with open(path, "rb") as f:
            data = f.read((1 << 20) + 1)
    except OSError as e:
        raise SimError("%s: cannot read: %s" % (path, e.strerror or e))
    if len(data) > 1 << 20:
        raise SimError("%s: not a script: over 1 MB" % path)
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        raise SimError("%s: not a script: not UTF-8 text" % path)
    codes = []
    for n, raw in enumerate(lines, 1):
        word = raw.split("#")[0].strip().lower()
        if not word:
            continue
        code = 0
        if word.startswith("long "):
            code = LONG
            word = word[5:].strip()
        if word not in WORDS:
            raise SimError("%s: script line %d: unknown button %s (prev, next, ok, back, "
                           "menu, with `long ` before one for a long press)"
                           % (path, n, ascii(word)[1:-1][:40]))
        codes.append(code | WORDS[word])
    return codes


# ---- frames from the board ----

class Frames:
    """Splits the board's stdout into refreshes: (full, name, words, frame bytes), words
    being (x, y, height, colour, text) for each text on the screen."""

    def __init__(self, width, height):
        self.size = (width + 7) // 8 * height
        self._buf = b""

    def feed(self, data):
        self._buf += data
        out = []
        while len(self._buf) >= 3:
            if self._buf[0] != FRAME:
                raise SimError("the board wrote something that is not a frame: %r"
                               % self._buf[:40])
            n = self._buf[2]
            if len(self._buf) < 5 + n:
                break
            k = self._buf[3 + n] << 8 | self._buf[4 + n]
            end = 5 + n + k + self.size
            if len(self._buf) < end:
                break
            words = []
            for line in self._buf[5 + n:5 + n + k].decode("utf-8", "replace").split("\n"):
                parts = line.split(" ", 4)
                if len(parts) == 5 and all(p.lstrip("-").isdigit() for p in parts[:4]):
                    words.append(tuple(int(p) for p in parts[:4]) + (parts[4],))
            out.append((self._buf[1], self._buf[3:3 + n].decode("ascii", "replace"),
                        words, self._buf[5 + n + k:end]))
            self._buf = self._buf[end:]
        return out


def words_lines(words):
    """The words of a screen as lines of text, top to bottom, left to right: a text
    whose middle is level with a line's texts joins that line. White on black (a
    cursor, a refusal) is shown [in brackets]."""
    lines = []      # [top, bottom, [(x, text)]]
    for x, y, h, c, text in sorted(words, key=lambda w: (w[1], w[0])):
        if c:
            text = "[%s]" % text
        mid = y + h // 2
        for line in lines:
            if line[0] <= mid < line[1]:
                line[2].append((x, text))
                break
        else:
            lines.append([y, y + h, [(x, text)]])
    return ["  ".join(t for _, t in sorted(items)) for _, _, items in lines]


def braille(frame, width, height, scale=None):
    """A frame (MONO_HLSB, 1 = white) as lines of Unicode braille in a box: 2x4 dots a
    character, a dot black when any pixel it covers is. `scale` pixels a dot each way:
    1 is full size (150x34 characters in all for 296x128); by default half size for
    panels wider than 156 pixels (76x34 characters for 296x128)."""
    sx = scale or (width + 155) // 156
    sy = scale or (height + 143) // 144
    stride = (width + 7) // 8
    cols = (width + 2 * sx - 1) // (2 * sx)
    rows = (height + 4 * sy - 1) // (4 * sy)

    def black(x, y):
        return x < width and y < height and not frame[y * stride + x // 8] & (0x80 >> (x % 8))

    dots = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
            (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))
    lines = ["\u250c" + "\u2500" * cols + "\u2510"]
    for r in range(rows):
        cells = []
        for c in range(cols):
            bits = 0
            for dx, dy, bit in dots:
                x0 = (2 * c + dx) * sx
                y0 = (4 * r + dy) * sy
                if any(black(x, y) for y in range(y0, y0 + sy) for x in range(x0, x0 + sx)):
                    bits |= bit
            cells.append(chr(0x2800 + bits))
        lines.append("\u2502" + "".join(cells) + "\u2502")
    lines.append("\u2514" + "\u2500" * cols + "\u2518")
    return lines


def png_1bit(width, height, frame):
    """A 1-bit greyscale PNG (0 black, 1 white) of a MONO_HLSB frame (1 = white): the
    bits are already PNG's, each row only needs its filter byte."""
    stride = (width + 7) // 8
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        raw.extend(frame[y * stride:(y + 1) * stride])

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))


class Terminal:
    """The terminal side of the sim: raw keys in, braille frames out."""

    def __init__(self, width, height, out=None):
        self.width = width
        self.height = height
        self.out = out or sys.stdout
        self._saved = None
        self._stdin = -1
        self._pending = b""

    def open(self):
        self.raw(sys.stdin)
        self.out.write("\x1b[2J\x1b[?25l")
        self.out.flush()

    def raw(self, stdin):
        """Keys one at a time from a terminal on stdin (nothing to do for a pipe)."""
        import termios
        import tty
        if stdin.isatty():
            self._stdin = stdin.fileno()
            self._saved = termios.tcgetattr(self._stdin)
            tty.setraw(self._stdin)

    def restore(self):
        if self._saved is not None:
            import termios
            termios.tcsetattr(self._stdin, termios.TCSADRAIN, self._saved)
            self._saved = None

    def close(self):
        self.restore()
        self.out.write("\x1b[?25h\r\n")
        self.out.flush()

    def columns(self):
        try:
            return os.get_terminal_size(self.out.fileno()).columns
        except (OSError, ValueError, AttributeError):
            return 80

    def draw(self, full, name, words, frame, count):
        # Full size when the terminal has the room (150 columns for 296 pixels), else
        # half as wide; the screen's words under it, readable in any terminal.
        scale = 1 if self.columns() >= (self.width + 1) // 2 + 2 else None
        lines = braille(frame, self.width, self.height, scale)
        lines += ["  " + line for line in words_lines(words)]
        lines += HELP.split("\n")
        lines.append("%-12s %s refresh %d" % (name, "full" if full else "partial", count))
        self.out.write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")
        self.out.flush()

    def keys(self, data):
        """The buttons (codes, QUIT for q) of the keys in data."""
        data = self._pending + data
        self._pending = b""
        out = []
        while data:
            for seq in KEYS:
                if data.startswith(seq):
                    out.append(KEYS[seq])
                    data = data[len(seq):]
                    break
            else:
                if data[:1] == b"\x1b" and len(data) < 3:
                    self._pending = data    # the rest of an escape sequence is coming
                    break
                data = data[1:]             # a key that is no button
        return out


FLASH_SIZE = 16 * 4096      # boards/sim.py: FLASH_BLOCKS of 4 KB
_JOURNAL_MAGIC = b"T42"      # firmware/journal.py: every block in use starts with it
PANEL_MIN = (200, 120)
PANEL_MAX = (400, 300)


def check_flash(path):
    """SimError unless path is the sim's flash image, or nothing yet: the sim formats
    what it is given, and must not take another file for its flash."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return      # not there yet: the sim makes it
    if os.path.isdir(path):
        raise SimError("--flash %s: a folder, not a flash image" % path)
    if size == 0:
        return
    if size != FLASH_SIZE:
        raise SimError("--flash %s: not a flash image of the sim (%d bytes, not %d): give "
                       "another file, or a name that does not exist yet" % (path, size,
                                                                            FLASH_SIZE))
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SimError("--flash %s: cannot read: %s" % (path, e.strerror or e))
    blocks = [data[i:i + 4096] for i in range(0, size, 4096)]
    if not any(b[:3] == _JOURNAL_MAGIC for b in blocks) and data.strip(b"\xff"):
        raise SimError("--flash %s: not a flash image of the sim (no journal in it): give "
                       "another file, or a name that does not exist yet" % path)


def panel_size(panel):
    """(width, height) of a --panel WxH; SimError when it is not a panel the firmware
    can draw on."""
    try:
        width, height = (int(v) for v in panel.lower().split("x"))
    except ValueError:
        raise SimError("--panel wants WIDTHxHEIGHT, such as 250x122")
    if not (PANEL_MIN[0] <= width <= PANEL_MAX[0] and PANEL_MIN[1] <= height <= PANEL_MAX[1]):
        raise SimError("--panel %s: a panel from %dx%d to %dx%d" % (
            panel, PANEL_MIN[0], PANEL_MIN[1], PANEL_MAX[0], PANEL_MAX[1]))
    return width, height


def run(script=None, screens=None, flash=None, hold=False, panel=None, text=False,
        heap=HEAP, stdout=None, stdin=None, chip_id=None):
    """Run the sim; returns the firmware's exit status. chip_id: 6 hex digits, the
    scorer's device id is then T42-<chip_id> (default T42-SIM)."""
    if chip_id is not None and not re.fullmatch(r"[0-9A-Fa-f]{6}", chip_id):
        raise SimError("--chip-id %s: 6 hex digits, such as 0000A1 (the scorer is then "
                       "T42-0000A1)" % chip_id)
    stdout = stdout or sys.stdout
    stdin = stdin or sys.stdin
    width, height = panel_size(panel) if panel else (WIDTH, HEIGHT)
    codes = read_script(script) if script else []
    flash = os.path.abspath(flash or default_flash())
    check_flash(flash)
    os.makedirs(os.path.dirname(flash), exist_ok=True)
    if screens:
        os.makedirs(screens, exist_ok=True)
    out = build()
    link = SerialLink()
    headless = bool(script)     # with --hold it keeps running after the script
    term = None if headless else Terminal(width, height, stdout)
    # After a script, --hold takes the keys (drawing only on a terminal).
    keyboard = term or (Terminal(width, height, stdout) if hold else None)
    drawn = term or (keyboard if hold and stdout.isatty() else None)
    frames = Frames(width, height)
    count = 0
    last = None
    last_words = []
    if headless:
        stdout.write("serial: %s\n" % link.name)
        stdout.flush()
    child = subprocess.Popen(command(out, [flash, width, height, link.name, link.path]
                                     + (["id=" + chip_id.upper()] if chip_id else []), heap),
                             cwd=out, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        if term:
            term.open()
        elif keyboard:
            keyboard.raw(stdin)
        child.stdin.write(bytes(codes))
        if headless and not hold:
            child.stdin.write(bytes([QUIT]))
        child.stdin.flush()
        keys = stdin.fileno() if keyboard else None
        sources = [child.stdout.fileno()] + ([keys] if keyboard else [])
        while True:
            ready, _, _ = select.select(sources, [], [])
            if child.stdout.fileno() in ready:
                data = os.read(child.stdout.fileno(), 65536)
                if not data:
                    break
                for full, name, words, frame in frames.feed(data):
                    count += 1
                    last = frame
                    last_words = words
                    if screens:
                        path = os.path.join(screens, "%04d-%s.png" % (count, name or "screen"))
                        with open(path, "wb") as f:
                            f.write(png_1bit(width, height, frame))
                    if drawn:
                        drawn.draw(full, name, words, frame, count)
            if keyboard and keys in ready:
                data = os.read(keys, 64)
                if not data and hold:
                    sources.remove(keys)    # no more keys: run on until interrupted
                    continue
                pressed = keyboard.keys(data) if data else [QUIT]
                try:
                    child.stdin.write(bytes(pressed))
                    child.stdin.flush()
                except BrokenPipeError:
                    pass
    finally:
        if term:
            term.close()
        elif keyboard:
            keyboard.restore()
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass
        rc = child.wait()
        link.close()
    if text and last is not None:
        stdout.write("\n".join(braille(last, width, height) + words_lines(last_words)) + "\n")
    return rc
