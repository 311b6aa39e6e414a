# The sim board's terminal: the frame drawn with Unicode braille (2x4 dots a character;
# 74x32 characters for 296x128, so it fits an 80x40 terminal with its border and help
# line), and the keyboard read as the logical buttons.
import sys

from firmware.display import WHITE
from firmware.ui import BACK, LONG, MENU, NEXT, OK, PREV

QUIT = -1
# WIRING (keys as buttons): left/up prev, right/down next, Enter ok, Backspace back,
# m menu, PgUp/PgDn long prev/next, q quit.
_KEYS = {b"\x1b[D": PREV, b"\x1b[A": PREV, b"\x1b[C": NEXT, b"\x1b[B": NEXT,
         b"\x1b[5~": LONG | PREV, b"\x1b[6~": LONG | NEXT, b"\r": OK, b"\n": OK,
         b"\x7f": BACK, b"\x08": BACK, b"m": MENU, b"M": MENU, b"q": QUIT, b"Q": QUIT}
HELP = "arrows prev/next  Enter ok  Backspace back  m menu  PgUp/PgDn long  q quit"


class Terminal:
    """The frame in braille on a VT100 terminal, and the keyboard as buttons."""

    def __init__(self, width, height):
        # Pixels a braille dot covers, so that the frame fits 78 columns by 36 rows.
        self.sx = (width + 155) // 156
        self.sy = (height + 143) // 144
        self.cols = (width + 2 * self.sx - 1) // (2 * self.sx)
        self.rows = (height + 4 * self.sy - 1) // (4 * self.sy)
        self._line = bytearray(3 * self.cols + 3)
        self._saved = None
        self._pending = b""

    def open(self):
        import termios
        try:
            self._saved = termios.tcgetattr(0)
        except OSError:
            self._saved = None
            return
        attr = termios.tcgetattr(0)
        termios.setraw(0)
        attr = termios.tcgetattr(0)
        attr[6][6] = 0      # VMIN: a read returns what has arrived
        attr[6][5] = 0      # VTIME: without waiting
        termios.tcsetattr(0, termios.TCSANOW, attr)
        sys.stdout.write("\x1b[2J\x1b[?25l")

    def close(self):
        if self._saved is not None:
            import termios
            termios.tcsetattr(0, termios.TCSANOW, self._saved)
            self._saved = None
        sys.stdout.write("\x1b[?25h\r\n")

    def draw(self, fb, full):
        out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else sys.stdout
        out.write(b"\x1b[H")
        self.frame(fb, out, b"\r\n")
        out.write(b"\r\n" + ("%-76s" % HELP).encode() + b"\r\n")
        out.write(("%s refresh %d  " % ("full" if full else "partial", fb.frames)).encode())

    def frame(self, fb, out, eol=b"\n"):
        """Write the frame as braille lines framed by a border."""
        line = self._line
        cols = self.cols
        out.write(b"\xe2\x94\x8c" + b"\xe2\x94\x80" * cols + b"\xe2\x94\x90" + eol)
        sx = self.sx
        sy = self.sy
        w = fb.width
        h = fb.height
        for r in range(self.rows):
            line[0] = 0xE2
            line[1] = 0x94
            line[2] = 0x82
            k = 3
            for c in range(cols):
                bits = 0
                for d in range(8):
                    dx = _DX[d]
                    dy = _DY[d]
                    x0 = (2 * c + dx) * sx
                    y0 = (4 * r + dy) * sy
                    hit = False
                    for yy in range(y0, min(y0 + sy, h)):
                        for xx in range(x0, min(x0 + sx, w)):
                            if fb.pixel(xx, yy) != WHITE:
                                hit = True
                    if hit:
                        bits |= 1 << d
                line[k] = 0xE2
                line[k + 1] = 0xA0 + (bits >> 6)
                line[k + 2] = 0x80 + (bits & 0x3F)
                k += 3
            out.write(line[:k])
            out.write(b"\xe2\x94\x82" + eol)
        out.write(b"\xe2\x94\x94" + b"\xe2\x94\x80" * cols + b"\xe2\x94\x98" + eol)

    def key(self, timeout_ms):
        """The next key's button, 0 when none came within timeout_ms."""
        import select
        p = select.poll()
        p.register(sys.stdin, select.POLLIN)
        if not self._pending and not p.poll(timeout_ms):
            return 0
        data = self._pending + sys.stdin.buffer.read(16)
        for seq in _KEYS:
            if data.startswith(seq):
                self._pending = data[len(seq):]
                return _KEYS[seq]
        self._pending = b""     # an unknown key or sequence: dropped
        return 0




# Braille dot d (0..7) sits at column _DX[d], row _DY[d] of its 2x4 cell.
_DX = (0, 0, 0, 1, 1, 1, 0, 1)
_DY = (0, 1, 2, 0, 1, 2, 3, 3)
