# The sim board: the firmware on the MicroPython unix port. The e-ink frame is drawn in
# the terminal with Unicode braille (2x4 dots a character, 74x32 characters for 296x128),
# keys are the buttons, the journal's NOR partition is a file, the USB serial port a
# pseudo-terminal (opened by `tally42 sim`). Headless, buttons come from a script and each
# refresh can be saved as a 1-bit PBM (made into a PNG by `tally42 sim --screens`).
import framebuf
import sys

from firmware.display import WHITE
from firmware.ui import BACK, LONG, MENU, NEXT, OK, PREV

WIDTH = 296
HEIGHT = 128
FLASH_BLOCKS = 16       # a 64 KB journal partition, 4 KB blocks
QUIT = -1               # poll(): the board asks the program to stop

_WORDS = {"prev": PREV, "next": NEXT, "ok": OK, "back": BACK, "menu": MENU}


class FileFlash:
    """A NOR partition kept in a file (nothing of it in RAM), with the block protocol of
    esp32.Partition: an erase sets a block to 0xFF, a program only clears bits."""

    def __init__(self, path, nblocks=FLASH_BLOCKS, block_size=4096):
        self.nblocks = nblocks
        self.block_size = block_size
        self._tmp = bytearray(256)
        try:
            self._f = open(path, "r+b")
        except OSError:
            self._f = open(path, "w+b")
        size = self._f.seek(0, 2)
        want = nblocks * block_size
        if size < want:
            ff = b"\xff" * 256
            while size < want:
                size += self._f.write(ff[:min(256, want - size)])
            self._f.flush()

    def readblocks(self, block, buf, offset=0):
        self._f.seek(block * self.block_size + offset)
        self._f.readinto(buf)

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            n = (len(buf) + self.block_size - 1) // self.block_size
            for b in range(block, block + n):
                self.ioctl(6, b)
            offset = 0
        a = block * self.block_size + offset
        tmp = self._tmp
        done = 0
        n = len(buf)
        while done < n:
            k = min(len(tmp), n - done)
            mv = memoryview(tmp)[:k]
            self._f.seek(a + done)
            self._f.readinto(mv)
            for i in range(k):
                tmp[i] &= buf[done + i]
            self._f.seek(a + done)
            self._f.write(mv)
            done += k
        self._f.flush()

    def ioctl(self, op, arg):
        if op == 4:
            return self.nblocks
        if op == 5:
            return self.block_size
        if op == 6:
            ff = self._tmp
            for i in range(len(ff)):
                ff[i] = 0xFF
            self._f.seek(arg * self.block_size)
            for _ in range(self.block_size // len(ff)):
                self._f.write(ff)
            self._f.flush()
            return 0
        return 0

    def close(self):
        self._f.close()


class SimDisplay(framebuf.FrameBuffer):
    """A framebuf panel: counts refreshes, saves them as PBM files, draws them in the
    terminal, and (record=True) keeps the 8x8 text of the frame for tests."""

    def __init__(self, width=WIDTH, height=HEIGHT, screens=None, term=None, record=False):
        self.width = width
        self.height = height
        self._stride = (width + 7) // 8
        self._buf = bytearray(self._stride * height)
        super().__init__(self._buf, width, height, framebuf.MONO_HLSB)
        self.screens = screens
        self.term = term
        self.frames = 0
        self.fulls = 0
        self.name = ""
        self.texts = [] if record else None
        self.fill(WHITE)

    def text(self, s, x, y, c=0):
        if self.texts is not None:
            self.texts.append(s)
        super().text(s, x, y, c)

    def fill(self, c):
        if self.texts is not None and c == WHITE:
            self.texts = []
        super().fill(c)

    def label(self, name):
        self.name = name

    def show(self, full=False):
        self.frames += 1
        if full:
            self.fulls += 1
        if self.screens:
            self._save()
        if self.term:
            self.term.draw(self, full)

    def ready(self):
        return True

    def wait_until_ready(self, timeout_ms=0):
        return True

    def sleep(self):
        pass

    def screen_text(self):
        """Every 8x8 string of the frame on show, joined by newlines (record=True)."""
        return "\n".join(self.texts or ())

    def black(self, x, y):
        return self.pixel(x, y) != WHITE

    def _save(self):
        # P4 PBM: 1 is black, rows packed MSB first: MONO_HLSB with the bits inverted.
        name = "%s/%04d-%s.pbm" % (self.screens, self.frames, self.name or "screen")
        row = bytearray(self._stride)
        with open(name, "wb") as f:
            f.write(b"P4\n%d %d\n" % (self.width, self.height))
            buf = self._buf
            base = 0
            for _ in range(self.height):
                for i in range(self._stride):
                    row[i] = buf[base + i] ^ 0xFF
                f.write(row)
                base += self._stride


class Script:
    """Buttons from a script (a list of lines, or a file read a line at a time): one
    button a line (prev, next, ok, back, menu; `long ` before one for a long press);
    blank lines and # comments are skipped."""

    def __init__(self, lines):
        self._lines = iter(lines)
        self.line = 0
        self.pressed = 0

    def next(self):
        for raw in self._lines:
            self.line += 1
            t = raw.split("#")[0].strip().lower()
            if not t:
                continue
            code = 0
            if t.startswith("long "):
                code = LONG
                t = t[5:].strip()
            if t not in _WORDS:
                raise ValueError("script line %d: unknown button %s" % (self.line, t))
            self.pressed += 1
            return code | _WORDS[t]
        return QUIT


class Buttons:
    """poll(now_ms): the next logical button, 0 for none yet, QUIT to stop."""

    def __init__(self, script=None, term=None):
        self.script = script
        self.term = term

    def poll(self, now_ms):
        if self.script is not None:
            b = self.script.next()
            if b != QUIT or self.term is None:
                return b
            self.script = None      # --hold: the keyboard takes over
        if self.term is None:
            return QUIT
        return self.term.key(50)


class SimSerial:
    """The firmware's end of the sim's USB serial line: a pseudo-terminal opened raw,
    reads returning what has arrived. `name` is the PC's end (tally42 sync --port)."""

    def __init__(self, path, name):
        import termios
        self.name = name
        self._f = open(path, "r+b")
        fd = self._f.fileno()
        termios.setraw(fd)
        attr = termios.tcgetattr(fd)
        attr[6][6] = 0      # VMIN
        attr[6][5] = 0      # VTIME
        termios.tcsetattr(fd, termios.TCSANOW, attr)
        self.rx = self._f
        self.tx = self._f

    def close(self):
        self._f.close()


class Board:
    """The sim board, with the attributes of every board (see boards/__init__.py)."""

    def __init__(self, flash=None, script=None, screens=None, term=False, width=WIDTH,
                 height=HEIGHT, serial=None, record=False, blocks=FLASH_BLOCKS,
                 settings=None):
        from time import sleep_ms, ticks_ms
        self.name = "sim"
        self.term = None
        if term:
            from boards.simterm import Terminal
            self.term = Terminal(width, height)
        self.display = SimDisplay(width, height, screens, self.term, record)
        self.buttons = Buttons(script, self.term)
        if flash is None:
            from firmware.nor import NorFlash
            self.flash = NorFlash(blocks, 4096)
        elif not isinstance(flash, str):
            self.flash = flash
        else:
            self.flash = FileFlash(flash, blocks)
        self.settings_path = flash + ".settings" if isinstance(flash, str) else settings
        self.serial = serial
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms
        self.deep_sleep = None
        self.restart = None

    def close(self):
        if self.term:
            self.term.close()
        if self.serial is not None:
            self.serial.close()
        if hasattr(self.flash, "close"):
            self.flash.close()


def _args(argv):
    opts = {"flash": None, "script": None, "screens": None, "hold": False, "serial": None,
            "panel": None, "text": False, "link": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--hold", "--text"):
            opts[a[2:]] = True
        elif a.startswith("--") and a[2:] in opts and i + 1 < len(argv):
            opts[a[2:]] = argv[i + 1]
            i += 1
        else:
            raise ValueError("unknown argument %s" % a)
        i += 1
    return opts


def main(argv):
    from firmware import app
    app.warm()      # before the board's buffers: see app.warm
    opts = _args(argv)
    width, height = WIDTH, HEIGHT
    if opts["panel"]:
        width, height = [int(v) for v in opts["panel"].split("x")]
    script = None
    if opts["script"]:
        script = Script(open(opts["script"]))
    term = script is None or opts["hold"]
    serial = SimSerial(opts["link"], opts["serial"]) if opts["link"] else None
    board = Board(opts["flash"], script, opts["screens"], term, width, height, serial)
    try:
        if board.term:
            board.term.open()
        app.run(board)
    finally:
        board.close()
        if opts["text"]:
            from boards.simterm import Terminal
            Terminal(width, height).frame(board.display, sys.stdout.buffer)
