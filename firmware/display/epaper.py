# What the e-paper drivers share: command/data framing on a 4-wire SPI bus, the BUSY line,
# the refresh policy (partial, full on demand and every N partials) and the sleep state.
# A controller subclass provides _wake() (reset + init), _refresh(full) and _power_down().
import framebuf
from micropython import const
from time import sleep_ms, ticks_diff, ticks_ms

from firmware.codes import WHITE
from firmware.display import DisplayError

_BUSY_TIMEOUT_MS = const(15000)  # a cold full refresh takes a few seconds; this is a fault
_RESET_MS = const(10)  # RES# low, then settle (10 ms in the SSD1680 and JD79653A flows)


class EPaper(framebuf.FrameBuffer):
    note = None     # firmware.fonts: no one to tell what big type says (the sim has)
    busy_timeout_ms = _BUSY_TIMEOUT_MS
    low_power = False   # the battery is low: partial refreshes only (firmware/battery.py)
    feed = None     # called all through a wait: the board's watchdog (boards/device.py)

    def __init__(self, spi, cs, dc, rst, busy, width, height, fmt, nbytes, busy_level,
                 full_every):
        # The frame the UI draws into, made here, once. The image on the panel (the "old"
        # one a partial refresh compares against) is the controller's to keep (_keep).
        self._buf = bytearray(nbytes)
        super().__init__(self._buf, width, height, fmt)
        self.width = width
        self.height = height
        self._spi = spi
        self._cs = cs
        self._dc = dc
        self._rst = rst
        self._busy = busy
        self._busy_level = busy_level
        self._full_every = full_every
        self._partials = 0
        self._shown = False  # no full refresh yet: the panel's content is unknown
        self._asleep = True  # nothing sent yet: the first show() resets and inits
        self._kept = False  # the controller holds the panel's image as the old one
        self._fresh = False  # the frame is still the one the last show() sent
        self._cmdbuf = bytearray(1)
        self._argbuf = bytearray(1)
        super().fill(WHITE)
        cs(1)
        rst(1)

    # -- bus ---------------------------------------------------------------------------

    def _cmd(self, cmd, data=None):
        # D/C low for the command byte, high for its parameters (4-wire SPI, both datasheets).
        self._cmdbuf[0] = cmd
        self._cs(0)
        self._dc(0)
        self._spi.write(self._cmdbuf)
        if data is not None:
            self._dc(1)
            self._spi.write(data)
        self._cs(1)

    def _cmd1(self, cmd, arg):
        # A command with a one-byte parameter chosen at run time.
        self._argbuf[0] = arg
        self._cmd(cmd, self._argbuf)

    def _begin_data(self, cmd):
        # A command followed by a long data stream written in several pieces.
        self._cmdbuf[0] = cmd
        self._cs(0)
        self._dc(0)
        self._spi.write(self._cmdbuf)
        self._dc(1)

    def _end_data(self):
        self._cs(1)

    def _reset(self):
        self._rst(0)
        sleep_ms(_RESET_MS)
        self._rst(1)
        sleep_ms(_RESET_MS)

    # -- BUSY --------------------------------------------------------------------------

    def ready(self):
        # In deep sleep the SSD1680 holds BUSY high, yet the panel is idle.
        if self._asleep:
            return True
        if self._busy.value() == self._busy_level:
            return False
        if not self._kept and self._fresh:
            # The refresh is done and the frame is still the one it showed: it becomes
            # the old image of the next partial refresh.
            self._keep()
            self._kept = True
        return True

    def wait_until_ready(self, timeout_ms=None):
        timeout_ms = timeout_ms or self.busy_timeout_ms
        t0 = ticks_ms()
        while not self.ready():
            if ticks_diff(ticks_ms(), t0) >= timeout_ms:
                return False
            if self.feed is not None:
                self.feed()
            sleep_ms(1)
        return True

    def _wait(self):
        if not self.wait_until_ready(self.busy_timeout_ms):
            raise DisplayError("e-paper BUSY stuck: check the BUSY, RST and power wiring")

    # -- what each controller provides ------------------------------------------------

    def _wake(self):
        # The controller's init sequence after a hardware reset.
        raise NotImplementedError

    def _refresh(self, full):
        # Send the frame and start a full or partial refresh. True when the controller
        # then holds the frame as its old image already (_keep is not needed).
        raise NotImplementedError

    def _keep(self):
        # After a refresh: hand the controller the frame (on the panel now) as its old image.
        raise NotImplementedError

    def _power_down(self):
        # The controller's deep sleep command.
        raise NotImplementedError

    # -- refresh policy ----------------------------------------------------------------

    def fill(self, c):
        # A new frame begins (every screen is drawn from fill() to show()): the one the
        # panel shows is kept first, if its refresh is done, as it leaves the buffer.
        self.ready()
        self._fresh = False
        super().fill(c)

    def show(self, full=False):
        self._fresh = False  # drawn on since the last show(): not the panel's image
        self._wait()
        if self._asleep:
            self._asleep = False
            self._reset()
            self._wait()
            self._wake()
        # A frame redrawn before the last refresh was seen done: the controller's old
        # image is not the panel's, and only a full refresh is right.
        if not self._shown or self._partials >= self._full_every or not self._kept:
            full = True
        if self.low_power:
            full = False    # a full refresh draws the most current: a low cell browns out
        self._kept = self._refresh(full)
        self._fresh = True
        if full:
            self._shown = True
            self._partials = 0
        else:
            self._partials += 1

    def sleep(self):
        if self._asleep:
            return
        self._wait()
        self._power_down()
        self._asleep = True
