# The sim board: the firmware on the MicroPython unix port, run by `tally42 sim`.
#
# WIRING (what stands in for the hardware)
#   display   a framebuf panel (296x128 MONO_HLSB, 1 = white): each refresh is sent to
#             `tally42 sim` on stdout, with the words on it, and drawn in the terminal in
#             Unicode braille with the words under it, or saved as a PNG (that work is
#             done on the PC side, off this heap)
#   buttons   one byte a logical button on stdin (the firmware.buttons codes, LONG or-ed
#             in; 0xFF: stop), sent by `tally42 sim` from the keys or from a script
#             (boards/sim/main.py Keys)
#   flash     the journal's NOR partition, kept in a file (--flash)
#   serial    a pseudo-terminal (--link), the PC's end being --serial (boards/sim/main.py
#             SimSerial)
#   radio     ESP-NOW over UDP on 127.0.0.1 (boards/sim/radio.py; boards/sim/main.py runs
#             a sim with a radio, a scorer or a base station)
# The program that runs the board, reading the buttons and the line, is
# boards/sim/main.py.
import framebuf
from micropython import const

from firmware.codes import WHITE

_WIDTH = const(296)
_HEIGHT = const(128)
_FLASH_BLOCKS = const(16)  # a 64 KB journal partition, 4 KB blocks
_FRAME = const(0xF5)    # the first byte of a refresh on stdout


class FileFlash:
    """A NOR partition kept in a file (nothing of it in RAM), with the block protocol of
    esp32.Partition: an erase sets a block to 0xFF, a program only clears bits."""

    def __init__(self, path, nblocks=_FLASH_BLOCKS, block_size=4096):
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
            self._fill(0xFF)
            while size < want:
                size += self._f.write(self._tmp)
            self._f.flush()

    def _fill(self, v):
        for i in range(len(self._tmp)):
            self._tmp[i] = v

    def readblocks(self, block, buf, offset=0):
        self._f.seek(block * self.block_size + offset)
        self._f.readinto(buf)

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            for b in range(block, block + (len(buf) + self.block_size - 1) // self.block_size):
                self.ioctl(6, b)
            offset = 0
        a = block * self.block_size + offset
        tmp = self._tmp
        mv = memoryview(tmp)
        done = 0
        n = len(buf)
        while done < n:
            k = min(len(tmp), n - done)
            self._f.seek(a + done)
            self._f.readinto(mv[:k])
            for i in range(k):
                tmp[i] &= buf[done + i]     # NOR: a program only clears bits
            self._f.seek(a + done)
            self._f.write(mv[:k])
            done += k
        self._f.flush()

    def ioctl(self, op, arg):
        if op == 4:
            return self.nblocks
        if op == 5:
            return self.block_size
        if op == 6:
            self._fill(0xFF)
            self._f.seek(arg * self.block_size)
            for _ in range(self.block_size // len(self._tmp)):
                self._f.write(self._tmp)
            self._f.flush()
            return 0
        return 0

    def close(self):
        self._f.close()


class SimDisplay(framebuf.FrameBuffer):
    """A framebuf panel. show() counts refreshes and sends each to `out` (a binary
    stream) as FRAME, full (0/1), the screen's name (a length byte, then ASCII), the
    screen's words (two length bytes, big-endian, then one `x y height colour words`
    line for each text drawn, in the 8x8 font or in big type), then the frame bytes.
    record=True keeps the words of the frame (else none are sent)."""

    def __init__(self, width=_WIDTH, height=_HEIGHT, out=None, record=False):
        self.width = width
        self.height = height
        self._buf = bytearray((width + 7) // 8 * height)
        super().__init__(self._buf, width, height, framebuf.MONO_HLSB)
        self.out = out
        self.frames = 0
        self.fulls = 0
        self.name = ""
        self._head = bytearray(5)
        self.texts = [] if record else None
        self.fill(WHITE)

    def text(self, s, x, y, c=0):
        if self.texts is not None:
            self.texts.append((x, y, 8, c, s))
        super().text(s, x, y, c)

    def note(self, x, y, words, height, c):
        # firmware.fonts: words (or a number) drawn in big type
        if self.texts is not None:
            self.texts.append((x, y, height, c, str(words)))

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
        out = self.out
        if out is not None:
            words = b""
            if self.texts:
                words = "\n".join("%d %d %d %d %s" % t for t in self.texts).encode()
            h = self._head
            h[0] = _FRAME
            h[1] = 1 if full else 0
            h[2] = len(self.name)
            out.write(h[:3])
            out.write(self.name)
            h[3] = len(words) >> 8
            h[4] = len(words) & 0xFF
            out.write(h[3:])
            out.write(words)
            out.write(self._buf)
            out.flush()

    def ready(self):
        return True

    def wait_until_ready(self, timeout_ms=0):
        return True

    def sleep(self):
        pass

    def screen_text(self):
        """Every string of the frame on show, one a line, as drawn (record=True)."""
        return "\n".join(t[4] for t in self.texts or ())


class Board:
    """The sim board, with the attributes of every board (see boards/__init__.py).
    flash: a file name, or a block device (a fresh RAM one when None)."""

    def __init__(self, flash=None, width=_WIDTH, height=_HEIGHT, out=None, keys=None,
                 serial=None, record=False, settings=None, blocks=_FLASH_BLOCKS, radio=None):
        from time import sleep_ms, ticks_ms
        self.name = "sim"
        self.display = SimDisplay(width, height, out, record)
        self.buttons = keys
        if flash is None:
            from boards.sim.flash import NorFlash
            flash = NorFlash(blocks, 4096)
        if isinstance(flash, str):
            self.settings_path = flash + ".settings"
            flash = FileFlash(flash, blocks)
        else:
            self.settings_path = settings
        self.flash = flash
        self.serial = serial
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms
        self.deep_sleep = None
        self.restart = None
        self.radio = radio      # () -> (wlan, espnow): boards/sim/radio.py

    def close(self):
        if self.serial is not None:
            self.serial.close()
        if hasattr(self.flash, "close"):
            self.flash.close()
