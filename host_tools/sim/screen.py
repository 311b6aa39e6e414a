"""The sim's screen and keys on the PC: the board's stdout split into refreshes, each drawn
in the terminal in Unicode braille or saved as a 1-bit PNG (this side does the drawing,
so that none of it takes the firmware's heap), and the terminal's keys as buttons."""
import os
import struct
import sys
import zlib

from host_tools.build.sim import SimError

FRAME = 0xF5        # boards/sim/board.py: a refresh on the board's stdout
QUIT = 0xFF         # boards/sim/board.py: stop, on its stdin

# Logical buttons (firmware/codes.py): a script's words, and the keys of the terminal.
PREV, NEXT, OK, BACK, MENU, LONG = 1, 2, 3, 4, 5, 0x10
KEYS = {b"\x1b[D": PREV, b"\x1b[A": PREV, b"\x1b[C": NEXT, b"\x1b[B": NEXT,
        b"\x1bOD": PREV, b"\x1bOA": PREV, b"\x1bOC": NEXT, b"\x1bOB": NEXT,
        b"\x1b[5~": LONG | PREV, b"\x1b[6~": LONG | NEXT, b"\r": OK, b"\n": OK,
        b"\x7f": BACK, b"\x08": BACK, b"m": MENU, b"M": MENU, b"q": QUIT, b"Q": QUIT,
        b"\t": LONG | OK}
HELP = ("arrows prev/next  Enter ok  Backspace back  m menu  q quit\n"
        "held down: PgUp/PgDn prev/next, Tab ok")


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
        self.status = ""        # a line shown under every frame (the sim's serial port)

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
        if self.status:
            lines.append(self.status)
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
