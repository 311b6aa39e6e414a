"""`tally42 sim`: the device firmware on the sim board (boards/sim/board.py), under the MicroPython
unix port with an ESP32's heap. The device modules are built by build.py and run as on a
device; the flash is a file; the USB serial port is a pseudo-terminal. The board sends
each display refresh here, where screen.py draws it, and gets its buttons from here: the
keys, or a script."""
import os
import re
import select
import subprocess
import sys
import threading

from host_tools.build.sim import HEAP, SimError, build, command, tool, word_bytes
from host_tools.sim.screen import (BACK, LONG, MENU, NEXT, OK, PREV, QUIT, Frames, Terminal,
                                   braille, png_1bit, words_lines)

WIDTH, HEIGHT = 296, 128
# A script's words for the logical buttons.
WORDS = {"prev": PREV, "next": NEXT, "ok": OK, "back": BACK, "menu": MENU}


def default_flash(chip_id=None):
    """The flash file of a sim: one for each chip id, as each scorer has its own."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    name = "sim-flash-%s.bin" % chip_id.upper() if chip_id else "sim-flash.bin"
    return os.path.join(base, "tally42", name)


class FlashLock:
    """The flash file, held by one sim at a time: a second sim on the same file would
    write over the first one's journal. An advisory lock (fcntl.flock) on the file
    beside it (FILE.lock), released when the sim ends, or when its process dies."""

    def __init__(self, path):
        import fcntl
        self.path = path
        self.fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise SimError("--flash %s: another sim is running on this flash file (give "
                           "each sim its own --chip-id, or its own --flash)" % path)

    def close(self):
        os.close(self.fd)


# ---- the USB serial port: a pseudo-terminal for the PC, relayed to the firmware's ----

class PtyRelay:
    """The sim's USB serial port, as two pseudo-terminals: `name` is the PC's end (tally42
    sync --port NAME), `path` the firmware's; a thread copies bytes between them while
    the sim runs."""

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


FLASH_SIZE = 16 * 4096      # boards/sim/board.py: FLASH_BLOCKS of 4 KB
_JOURNAL_MAGIC = b"T42"      # engine_core/journal/blocks.py: every block in use starts with it
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


def radio_air(radio):
    """The sim's --radio: FOLDER[,loss=P][,dup=P][,reorder=P][,busy=P][,delay=MS][,seed=N] (the
    air boards/sim/radio.py carries frames on), checked here; SimError when it is not."""
    folder, *faults = radio.split(",")
    if not folder:
        raise SimError("--radio: give a folder for the air (such as /tmp/air), then "
                       "faults: /tmp/air,loss=0.3")
    for f in faults:
        k, _, v = f.partition("=")
        try:
            ok = (k in ("loss", "dup", "reorder", "busy") and 0 <= float(v) <= 1) or (
                k in ("delay", "seed") and int(v) >= 0)
        except ValueError:
            ok = False
        if not ok:
            raise SimError("--radio: %s is not a fault (loss=, dup=, reorder=, busy= from 0 to 1; "
                           "delay= milliseconds; seed=)" % f)
    return ",".join([os.path.abspath(folder)] + faults)


# The fake ESP-NOW's share of the heap, which a chip's built-in espnow does not take: its
# module and a radio turned on hold 9,184 bytes on the 64-bit sim and 5,328 on the 32-bit
# one (ROMFS, measured with gc.mem_alloc), the chip's espnow its 528-byte receive ring and
# its object. A sim with a radio gets this many KB more heap, by word size (a little less
# than the difference: never kinder than the chip).
RADIO_HEAP_K = {8: 8, 4: 4}
# The fake machine module (boards/sim/chip/machine.py) a sim with a chip id imports, whose
# objects the chip's C machine module does not put in the heap: 13,696 bytes on the 64-bit
# sim and 7,632 on the 32-bit one (ROMFS, gc.mem_alloc around its import and a
# FakeMachine). A sim with an id gets this many KB more heap (a little less: never kinder).
CHIP_HEAP_K = {8: 13, 4: 7}


def sim_command(out, flash, width, height, link, chip_id=None, radio=None, base=False,
                heap=HEAP):
    """The sim's command line: boards/sim/main.py's main, with a radio and as the base
    station where asked."""
    args = ([flash, width, height, link.name, link.path]
            + (["id=" + chip_id.upper()] if chip_id else [])
            + (["radio=" + radio_air(radio)] if radio else []) + (["base"] if base else []))
    if heap.upper().endswith("K"):
        word = word_bytes(tool("micropython"))
        heap = "%dK" % (int(heap[:-1]) + (RADIO_HEAP_K[word] if radio else 0)
                        + (CHIP_HEAP_K[word] if chip_id else 0))
    return command(out, args, heap)


def run_base(radio, chip_id=None, stdout=None, heap=HEAP):
    """`tally42 sim --base`: the base station on the sim board, its serial port named on
    stdout for `tally42 serve --base`, until interrupted; returns its exit status."""
    stdout = stdout or sys.stdout
    _check_chip(chip_id)
    radio_air(radio)        # a bad --radio said before the build, not after
    out = build()
    link = PtyRelay()
    stdout.write("base station: serial %s\n" % link.name)
    stdout.flush()
    flash = os.path.join(out, "base-flash.bin")
    child = subprocess.Popen(sim_command(out, flash, WIDTH, HEIGHT, link, chip_id, radio, True,
                                         heap),
                             cwd=out)     # stdin: it stops when ours closes
    try:
        return child.wait()
    except KeyboardInterrupt:
        return child.wait()
    finally:
        link.close()


def _check_chip(chip_id):
    if chip_id is not None and not re.fullmatch(r"[0-9A-Fa-f]{6}", chip_id):
        raise SimError("--chip-id %s: 6 hex digits, such as 0000A1 (the scorer is then "
                       "T42-0000A1)" % chip_id)


def run(script=None, screens=None, flash=None, hold=False, panel=None, text=False,
        heap=HEAP, stdout=None, stdin=None, chip_id=None, radio=None):
    """Run the sim; returns the firmware's exit status. chip_id: 6 hex digits, the
    scorer's device id is then T42-<chip_id> (default T42-SIM). radio: the air its radio
    is on (radio_air)."""
    _check_chip(chip_id)
    if radio:
        radio_air(radio)    # every flag checked before the build (seconds on a fresh one)
    stdout = stdout or sys.stdout
    stdin = stdin or sys.stdin
    width, height = panel_size(panel) if panel else (WIDTH, HEIGHT)
    codes = read_script(script) if script else []
    flash = os.path.abspath(flash or default_flash(chip_id))
    check_flash(flash)
    os.makedirs(os.path.dirname(flash), exist_ok=True)
    if screens:
        os.makedirs(screens, exist_ok=True)
    lock = FlashLock(flash)
    try:
        # with --hold a script's sim keeps running after the script
        return _run(codes, bool(script), flash, screens, hold, width, height, text, heap,
                    stdout, stdin, chip_id, radio)
    finally:
        lock.close()


def _run(codes, headless, flash, screens, hold, width, height, text, heap, stdout, stdin,
         chip_id, radio):
    out = build()
    link = PtyRelay()
    term = None if headless else Terminal(width, height, stdout)
    # After a script, --hold takes the keys (drawing only on a terminal).
    keyboard = term or (Terminal(width, height, stdout) if hold else None)
    drawn = term or (keyboard if hold and stdout.isatty() else None)
    frames = Frames(width, height)
    count = 0
    last = None
    last_words = []
    # The port to sync on, before anything else and on every frame drawn after (a
    # terminal's frame is drawn over the whole screen).
    serial = "serial: %s" % link.name
    stdout.write(serial + "\n")
    stdout.flush()
    for shown in (term, keyboard):
        if shown is not None:
            shown.status = serial
    child = subprocess.Popen(sim_command(out, flash, width, height, link, chip_id, radio,
                                         heap=heap),
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
