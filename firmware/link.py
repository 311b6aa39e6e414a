# The USB line to the PC, and the clock the PC sets. While no sync is open, a HelloGate
# (firmware/hello.py) watches the line, loaded when bytes arrive and unloaded once it has
# decided: only a hello with a good CRC opens a session (firmware/sync/session.py), which
# serves the PC until it is done. The session's modules leave the heap when it ends
# (firmware/transient.py: the firmware.sync phase).
import gc
import time
from time import ticks_ms

from micropython import const

from firmware import transient
from firmware.codes import HOME, SETUP, SYNC

FIRMWARE = "0.1.0"

EPOCH = const(1704067200)     # 2024-01-01T00:00:00Z in Unix seconds


class Clock:
    """The scorer's clock: set by the PC at a sync, kept by the board's RTC where it
    has one. A sitting's header and its END record carry its time."""

    def __init__(self, rtc=None):
        self.rtc = rtc              # the board's clock (boards.device.RtcClock), or None
        self.utc_offset = 0         # minutes east of UTC, as the PC said
        self._since = 0             # seconds since EPOCH at _at, 0: not set
        self._at = 0
        if rtc is not None:
            # Read once, here at boot: its date is a tuple and its Unix seconds an int of
            # 2**30 or more, which allocate on a 32-bit port. Only set() sets it after.
            unix, offset = rtc.now()
            if unix > EPOCH:
                self._since = unix - EPOCH
                self._at = time.ticks_ms()
                self.utc_offset = offset

    def now(self):
        """Seconds since 2024-01-01T00:00Z (0 until a sync set the clock). A board's RTC
        keeps it through deep sleep and restarts; ticks_ms wraps after about six days, so
        without one the count stays right as long as the scorer is synced or restarted
        within that. Allocates nothing: a game's end stamps its END record from the
        event path."""
        if not self._since:
            return 0
        return self._since + time.ticks_diff(time.ticks_ms(), self._at) // 1000

    def unix(self):
        """The clock in Unix seconds (0 until a sync has set it), for the hello."""
        t = self.now()
        return t + EPOCH if t else 0

    def set(self, unix_seconds, utc_offset_minutes):
        """The PC's clock: kept as seconds since 2024, a small int on the ESP32 until 2058.
        None, or why it is refused."""
        since = unix_seconds - EPOCH
        if not 0 < since < 0x3FFFFFFF:
            return "the clock must be set to a time from 2024 to 2057"
        self._since = since
        self._at = time.ticks_ms()
        self.utc_offset = utc_offset_minutes
        if self.rtc is not None:
            self.rtc.set(unix_seconds, utc_offset_minutes)
        return None


class Link:
    """The USB line: the gate on it, a sync session's opening and end."""

    def __init__(self, app, line, device_id):
        self.app = app              # the hub: the screens a session shows
        self.line = line            # the board's USB serial line, or None
        self.device_id = device_id
        self.sync = None            # the sync endpoint (firmware.sync.endpoint), while a session is
        self.status = "idle"        # the last session's, for the sync screen
        self.to_repl = no_kbd       # the REPL tools asked in (a device: to the REPL)
        self._session = None
        self._port = None           # the line as the endpoint reads it
        self._gate = None           # the hello gate, while bytes on the line are read
        self.back = HOME            # the screen on show when the session opened

    def attach(self, port):
        """Read the line through `port` (a firmware.syncport port)."""
        self._port = port
        self._gate = None

    def poll(self):
        """Called from the main loop between buttons. A hello on the line brings in the
        sync endpoint and its screen until the PC's session ends. True while a session is
        open (poll again soon)."""
        try:
            if self._port is None:
                if self.line is None:
                    return False
                self._open()
            if self.sync is None and not self._watch():
                return False
            busy = self.sync.poll()
            # The panel keeps the sync screen drawn when the session opened (the screens'
            # modules are out of the heap meanwhile); the outcome is drawn at the end.
            self.status = self.sync.status
            if not busy:
                self._session.end(self)
                self.app.render()
        except MemoryError:
            self._failed()
            return False
        return busy

    def close(self):
        """Drop a session (a fault is to be drawn): its modules out of the heap."""
        self.sync = None
        self._session = None
        transient.unload("firmware.sync")

    def _watch(self):
        # The hello gate on the line, loaded when bytes arrive and unloaded once it has
        # decided: True when it read a hello (the session is then open).
        if self._gate is None and not self._port.pending():
            return False
        if self._gate is None and self.app.radio is not None:
            self.app.switch_radio(False)    # the line may bring a session: the heap is its
        from firmware import hello
        if self._gate is None:
            self._gate = hello.HelloGate(bytearray(64))
        gate = self._gate
        what = gate.poll(self._port, ticks_ms())
        if what == hello.REPL:
            self.to_repl()
        if what != hello.HELLO and gate.busy():
            return False
        self._gate = None
        transient.unload("firmware.hello")
        if what != hello.HELLO:
            self.app.switch_radio(True)     # not a session: the radio again
            return False
        self._begin(gate.buf, gate.n)
        return True

    def _open(self):
        from firmware import syncport
        path = getattr(self.line, "path", None)
        if path:    # the sim: a pseudo-terminal read without waiting
            self.attach(syncport.TtyPort(path))
        else:       # a device: the REPL's stdin, polled, Ctrl-C a byte like another
            import micropython
            micropython.kbd_intr(-1)
            self.to_repl = _to_repl
            self.attach(syncport.StreamPort(self.line.rx, self.line.tx))

    def _begin(self, line, n):
        # The sync screen first, so that the other screens' modules leave the heap, then
        # the endpoint, handed the bytes already read.
        app = self.app
        scorer = app.scorer
        self.back = app.screen
        self.status = "connected"
        if scorer.journal.open_sitting() is not None and (
                app.safe or (scorer.s is not None and scorer.s.over())):
            # A sitting played out goes to the PC with this sync; in safe mode, the
            # sitting that was not resumed, as it stands.
            scorer.finish()
        app.banner = None
        app.go(SYNC)
        app.full = True
        app.render()
        app.drop_screen()
        gc.collect()
        from firmware.sync.session import Session
        # Keyboard interrupt stays off (_open); a Ctrl-C in the session is the REPL
        # tools' (to_repl).
        self._session = Session(app)
        self.sync = self._session.open(self._port, line, n, FIRMWARE, no_kbd,
                                       self.to_repl)

    def _failed(self):
        # No room for the endpoint or a reply: close the session (which gives Ctrl-C
        # back), unload it and go back to scoring. The PC's sync times out and says so;
        # what it asks for again is refused the same way until the heap has room.
        sync = self.sync
        self.close()
        if sync is not None:
            sync.close()
        sync = None
        app = self.app
        app.drop_screen()
        gc.collect()
        self.status = "failed: not enough memory"
        app.banner = "sync failed: not enough memory"
        app.go(HOME if app.scorer.s is not None else SETUP)
        app.full = True
        try:
            app.render()
        except MemoryError:
            # Not even room for the score screen (the heap is held elsewhere): it is drawn
            # at the next press or poll, the banner with it; the scorer goes on.
            app.drop_screen()
            gc.collect()


def no_kbd(*args):
    # The sim's line is not the REPL's: nothing to switch, nothing to interrupt.
    return None


def _to_repl():
    # The REPL tools asked in (mpremote): keyboard interrupt on again, the watchdog at its
    # longest (boards/device.py: no one feeds it there), and to the REPL.
    import micropython
    micropython.kbd_intr(3)
    watchdog_to_repl()
    raise KeyboardInterrupt


_REPL_WATCHDOG_MS = const(3600000)    # an hour at the REPL, then the scorer again


def watchdog_to_repl():
    try:
        from machine import WDT
    except ImportError:     # a port without one (the sim, qemu)
        return
    WDT(timeout=_REPL_WATCHDOG_MS).feed()
