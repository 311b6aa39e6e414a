# The web board: the firmware on MicroPython's WebAssembly port, in a browser page
# (web/index.html, web/tally42.js; `make web` builds it into build/web/).
#
# WIRING (what stands in for the hardware)
#   display   the sim's framebuf panel (boards/sim/board.py SimDisplay: 296x128 MONO_HLSB,
#             1 = white, or the T5's 250x122), drawn by the page onto a canvas at each
#             show(): the page reads the frame where it lies in the wasm memory
#             (frame_address()), so a refresh copies nothing on this heap
#   buttons   the page's five on-screen buttons and the sim's keys: a press is queued
#             by the page (Keys.push) as a firmware.buttons code, LONG or-ed in when the
#             button or key was held down for the firmware's long press (600 ms)
#   flash     the journal's NOR partition, the same image file as the sim's --flash
#             (boards/sim/board.py FileFlash) in the port's in-memory file system; the page
#             copies it to the browser's storage (IndexedDB) whenever it changes, and
#             back before boot, so a reload or a closed tab resumes where it was
#   clock     the browser's: ticks_ms from the port (Date.now(), its micropython.mjs
#             mp_js_ticks_ms), the time of day from Date too (WebRtc)
#   serial    none (the page downloads the sitting log instead of a sync)
#   random    os.urandom from the browser's crypto (urandom(): the port has none)
# The firmware's main loop is not run() here: the page calls boards/sim/webmain.py step(),
# one round of firmware.loop.Loop, from a timer, so the page never blocks.
import time

from micropython import const

from boards.sim.board import FileFlash, SimDisplay

_QUEUE = const(32)      # presses waiting for the loop (the page sends a few at most)
WIDTH = const(296)
HEIGHT = const(128)
T5_WIDTH = const(250)
T5_HEIGHT = const(122)


class Keys:
    """The buttons: codes pushed by the page, taken by the main loop in order. A full
    queue drops the press (push() returns False): the page says nothing is lost by
    never sending that many between two rounds."""

    def __init__(self):
        self._q = bytearray(_QUEUE)
        self._head = 0
        self._n = 0

    def push(self, code):
        if not 0 < code < 256 or self._n == _QUEUE:
            return False
        self._q[(self._head + self._n) % _QUEUE] = code
        self._n += 1
        return True

    def poll(self, now_ms):
        if not self._n:
            return 0
        code = self._q[self._head]
        self._head = (self._head + 1) % _QUEUE
        self._n -= 1
        return code

    def waiting(self):
        return self._n


class WebDisplay(SimDisplay):
    """The sim's panel, its frames counted for the page (frames: shows so far)."""

    def __init__(self, width, height):
        super().__init__(width, height, None, True)

    def frame_address(self):
        import uctypes
        return uctypes.addressof(self._buf)

    def frame_size(self):
        return len(self._buf)


class WebFlash(FileFlash):
    """The sim's NOR flash in a file, its programs and erases counted (writes): the page
    copies the file to IndexedDB when the count moves."""

    def __init__(self, path):
        super().__init__(path)
        self.writes = 0

    def writeblocks(self, block, buf, offset=None):
        self.writes += 1
        super().writeblocks(block, buf, offset)

    def ioctl(self, op, arg):
        if op == 6:
            self.writes += 1
        return super().ioctl(op, arg)


class WebRtc:
    """The time of day: the browser's (Date), as boards/device.py RtcClock offers it.
    set() (a PC's clock) moves it by the difference, until the page is loaded again."""

    def __init__(self, utc_offset_minutes=0):
        self._offset = utc_offset_minutes
        self._shift = 0

    def set(self, unix_seconds, utc_offset_minutes=0):
        self._shift = unix_seconds - int(time.time())
        self._offset = utc_offset_minutes

    def now(self):
        return int(time.time()) + self._shift, self._offset


def urandom(n):
    """os.urandom as the chip gives it (ESP-IDF's hardware random number generator,
    MicroPython's ports/esp32 modos.c), which the WebAssembly port leaves out: the
    browser's crypto.getRandomValues. The sittings' random ids come from it."""
    import js  # pyright: ignore[reportMissingImports]  (the WebAssembly port's own)
    a = js.Uint8Array.new(n)
    js.crypto.getRandomValues(a)
    return bytes(a[i] for i in range(n))


def _no_sleep(ms):
    # The page's timer calls the next round: a wait here would block the page.
    pass


class Board:
    """The web board, with the attributes of every board (boards/__init__.py).
    flash_path: the journal image file; settings_path: firmware.settings' file."""

    def __init__(self, flash_path, settings_path, width=WIDTH, height=HEIGHT,
                 utc_offset_minutes=0):
        import os
        from time import ticks_ms
        if not hasattr(os, "urandom"):
            os.urandom = urandom
        self.name = "web"
        self.display = WebDisplay(width, height)
        self.buttons = Keys()
        self.flash = WebFlash(flash_path)
        self.settings_path = settings_path
        self.serial = None
        self.rtc = WebRtc(utc_offset_minutes)
        self.device_id = "T42-WEB"
        self.ticks_ms = ticks_ms
        self.sleep_ms = _no_sleep
        self.deep_sleep = None
        self.restart = None
        self.radio = None

    def close(self):
        self.flash.close()
