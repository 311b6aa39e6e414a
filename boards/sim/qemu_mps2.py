# MicroPython's qemu port on an emulated MPS2-AN385 (Cortex-M3, qemu-system-arm): the
# bare-metal rung below the sim. Built with the firmware frozen in by tools/qemu.py; the
# port runs no main.py, so the harness (host_tools/sim/qemu.py) types the two lines of one
# on the raw REPL:
#     from firmware import start
#     start.main("sim.qemu_mps2")
#
# WIRING (QEMU's -serial options give the UARTs their pseudo-terminals, in this order)
#   serial    UART0, the REPL (0x40004000): the scorer's sync link shares it with the
#             REPL as an ESP32's USB serial does (sys.stdin/stdout.buffer)
#   buttons   UART1 (0x40005000): one byte a press, the firmware.buttons code (LONG
#             or-ed in; 0xFF: stop), read from the UART's registers
#   display   a 296x128 MONO_HLSB framebuf; each refresh goes out on UART2 (0x40006000)
#             in the sim's frame format (boards/sim/board.py) and keeps the panel busy for a
#             refresh's time (ready() is False meanwhile)
#   flash     the journal: a 64 KB RAM block device in SSRAM2 (0x20000000), outside
#             MicroPython's heap: it outlives a soft reset, not QEMU. The harness loads
#             a flash image there (QEMU's -device loader) and saves it (pmemsave).
#
# CMSDK APB UART registers (ARM DDI 0479, QEMU hw/char/cmsdk-apb-uart.c; the port's
# uart.c drives UART0 the same way): DATA +0x0, STATE +0x4 (bit 0 TX full, bit 1 RX
# full), CTRL +0x8 (bit 0 TX enable, bit 1 RX enable), BAUDDIV +0x10.
import framebuf
import machine
from micropython import const
from time import sleep_ms, ticks_diff, ticks_ms

NAME = "qemu_mps2"
_UART1 = const(0x40005000)      # buttons
_UART2 = const(0x40006000)      # the panel's frames
_DATA = const(0)
_STATE = const(4)
_CTRL = const(8)
_BAUDDIV = const(16)
_TX_FULL = const(1)
_RX_FULL = const(2)
_TX_EN = const(1)
_RX_EN = const(2)

_FLASH_BASE = const(0x20000000)  # SSRAM2/3: 4 MB that the port's linker script leaves be
_FLASH_BLOCKS = const(16)        # 64 KB, 4 KB blocks: the sim's partition
_BLOCK = const(4096)
_MAGIC_AT = const(0x20010000)    # a word after the partition: "formatted"
_MAGIC = const(0x54343246)       # "F24T"

_WHITE = const(1)
_WIDTH = const(296)
_HEIGHT = const(128)
_FRAME = const(0xF5)             # boards/sim/board.py: the first byte of a refresh
_PARTIAL_MS = const(600)         # an SSD1680's partial refresh (docs/hardware.md)
_FULL_MS = const(2500)           # and its full one
_STOP = const(0xFF)


class Uart:
    """A CMSDK APB UART driven through its registers, polled (no interrupts)."""

    def __init__(self, base):
        self._base = base
        machine.mem32[base + _BAUDDIV] = 16
        machine.mem32[base + _CTRL] = _TX_EN | _RX_EN

    def any(self):
        return machine.mem32[self._base + _STATE] & _RX_FULL

    def read1(self):
        """The next byte received, -1 when none is there."""
        if not machine.mem32[self._base + _STATE] & _RX_FULL:
            return -1
        return machine.mem32[self._base + _DATA] & 0xFF

    def write(self, buf):
        base = self._base
        mem = machine.mem32
        for b in buf:
            while mem[base + _STATE] & _TX_FULL:
                pass
            mem[base + _DATA] = b
        return len(buf)


class UartKeys:
    """The buttons: one code a byte on UART1, 0 while none has come, -1 on 0xFF (stop:
    start.main returns to the REPL). The stop waits for the screen: presses come faster
    than the panel refreshes, so the loop takes them all and draws their outcome once
    the panel is ready again. The stop is given only when the panel has been ready at
    two polls in a row after it came (the loop draws between them whatever is pending),
    so that the last frame is the screen the presses left."""

    _stop = 0       # 1: a stop came; 2: and the panel was ready at the last poll

    def __init__(self, uart, panel=None):
        self._uart = uart
        self._panel = panel

    def poll(self, now_ms):
        if self._stop:
            if self._panel is None:
                return -1
            if not self._panel.ready():
                self._stop = 1
                return 0
            if self._stop == 2:
                return -1
            self._stop = 2
            return 0
        b = self._uart.read1()
        if b < 0:
            return 0
        if b == _STOP:
            self._stop = 1
            return 0
        return b


class Panel(framebuf.FrameBuffer):
    """A framebuf panel whose refreshes take the time an e-paper's do: show() sends the
    frame on a UART (FRAME, full, the screen's name, no words, the bytes) and the panel
    is busy for _PARTIAL_MS or _FULL_MS. refreshes, fulls: counts. With Panel.record
    set (by `tally42 sim --qemu --text` before the scorer starts) the frames carry the
    screen's words as boards/sim/board.py's do (one `x y height colour words` line for each
    text drawn, in the 8x8 font or in big type); else none, and nothing is kept."""
    note = None     # firmware.fonts: no one to tell what big type says
    record = False
    texts = None    # the words of the frame, when recording

    def __init__(self, uart, width=_WIDTH, height=_HEIGHT):
        self.width = width
        self.height = height
        self._buf = bytearray((width + 7) // 8 * height)
        super().__init__(self._buf, width, height, framebuf.MONO_HLSB)
        self._uart = uart
        self._head = bytearray(5)
        self._name = ""
        self._since = ticks_ms()
        self._takes = 0
        self.refreshes = 0
        self.fulls = 0
        self.asleep = False
        if Panel.record:
            self._record()
        self.fill(_WHITE)

    def _record(self):
        # The words of each frame kept, through the framebuf's own text() and fill(): the
        # functions are made here, so a panel that does not record pays nothing for them.
        text, fill = self.text, self.fill
        self.texts = []

        def record_text(s, x, y, c=1):
            self.texts.append((x, y, 8, c, s))
            text(s, x, y, c)

        def record_fill(c):
            if c == _WHITE:
                self.texts = []
            fill(c)

        def note(x, y, words, height, c):
            # firmware.fonts: words (or a number) drawn in big type
            self.texts.append((x, y, height, c, str(words)))
        self.text = record_text
        self.fill = record_fill
        self.note = note

    def label(self, name):
        self._name = name

    def show(self, full=False):
        self.wait_until_ready(_FULL_MS)
        self.refreshes += 1
        if full:
            self.fulls += 1
        self.asleep = False
        h = self._head
        h[0] = _FRAME
        h[1] = 1 if full else 0
        h[2] = len(self._name)
        words = b""
        if self.texts:
            words = "\n".join("%d %d %d %d %s" % t for t in self.texts).encode()
        h[3] = len(words) >> 8
        h[4] = len(words) & 0xFF
        u = self._uart
        u.write(h[:3])
        u.write(self._name.encode())
        u.write(h[3:])
        u.write(words)
        u.write(self._buf)
        self._since = ticks_ms()
        self._takes = _FULL_MS if full else _PARTIAL_MS

    def ready(self):
        return ticks_diff(ticks_ms(), self._since) >= self._takes

    def wait_until_ready(self, timeout_ms=0):
        t0 = ticks_ms()
        while not self.ready():
            if ticks_diff(ticks_ms(), t0) >= timeout_ms:
                return False
            sleep_ms(1)
        return True

    def sleep(self):
        self.asleep = True


class RamFlash:
    """The journal's partition in RAM outside the heap, with the block protocol of
    esp32.Partition and NOR rules: an erase sets a block to 0xFF, a program only clears
    bits. Formatted (erased) the first time, found again after a soft reset."""

    def __init__(self, base=_FLASH_BASE, nblocks=_FLASH_BLOCKS):
        import uctypes
        self.nblocks = nblocks
        self._mem = uctypes.bytearray_at(base, nblocks * _BLOCK)
        self._ff = b"\xff" * 256
        if machine.mem32[_MAGIC_AT] != _MAGIC:
            for b in range(nblocks):
                self.ioctl(6, b)
            machine.mem32[_MAGIC_AT] = _MAGIC

    def readblocks(self, block, buf, offset=0):
        a = block * _BLOCK + offset
        buf[:] = memoryview(self._mem)[a:a + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            for b in range(block, block + (len(buf) + _BLOCK - 1) // _BLOCK):
                self.ioctl(6, b)
            offset = 0
        a = block * _BLOCK + offset
        m = self._mem
        for i in range(len(buf)):
            m[a + i] &= buf[i]

    def ioctl(self, op, arg):
        if op == 4:
            return self.nblocks
        if op == 5:
            return _BLOCK
        if op == 6:
            mv = memoryview(self._mem)
            a = arg * _BLOCK
            for i in range(0, _BLOCK, 256):
                mv[a + i:a + i + 256] = self._ff
            return 0
        return 0


class Board:
    """The attributes of every board (boards/__init__.py); no sleeps, no RTC."""

    def __init__(self):
        from boards.device import UsbSerial
        self.name = NAME
        self.device_id = "T42-QEMU"     # the port's machine has no unique_id()
        self.display = Panel(Uart(_UART2))
        self.buttons = UartKeys(Uart(_UART1), self.display)
        self.flash = RamFlash()
        self.serial = UsbSerial()
        self.settings_path = None   # no writable file system: the defaults each start
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms
        self.deep_sleep = None
        self.light_sleep = None
        self.restart = None         # a fault stays on the panel and the REPL says what


def open():
    import gc
    gc.collect()    # the frame buffer wants a contiguous block
    return Board()
