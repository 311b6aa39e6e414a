# The USB line to the PC, and the clock the PC sets. While no sync is open, a HelloGate
# (below) watches the line, made when bytes arrive and dropped once it has decided: only
# a hello with a good CRC opens a session (firmware/sync/session.py), which serves the PC
# until it is done. The session's modules leave the heap when it ends
# (firmware/transient.py: the firmware.sync phase).
#
# The gate: every byte but a complete hello request whose CRC checks
# (docs/sync-protocol.md) is dropped, so that a terminal opened on the port, line noise
# or a floating RX pin changes nothing on the table. Another request whose CRC checks
# (the PC's, from a session that closed or from before a restart) gets error 2, "no
# session", so that the PC says hello again. Keyboard interrupt is off while the scorer
# runs (the main loop sees the 0x03 bytes). A lone Ctrl-C is dropped; the REPL tools' way
# in is honoured: mpremote sends CR Ctrl-C, then at once CR Ctrl-A (raw REPL). Seeing CR
# Ctrl-C, the gate stops reading; if more bytes are waiting within CALL_MS, it answers
# REPL and leaves them to the REPL.
#
#   gate = HelloGate(bytearray(64))
#   what = gate.poll(port, ticks_ms())   # NONE, HELLO (gate.buf[:gate.n]) or REPL
import gc
import time
from time import ticks_diff, ticks_ms

from micropython import const

from firmware import transient
from firmware.codes import HOME, SETUP, SYNC

FIRMWARE = "0.1.0"

EPOCH = const(1704067200)     # 2024-01-01T00:00:00Z in Unix seconds

# The hello gate (HelloGate, below)
NONE = const(0)         # HelloGate.poll's answers
HELLO = const(1)
REPL = const(2)

CALL_MS = const(300)
_START = const(0x7E)    # "~" begins every request
_END = const(0x0A)
_HELLO = const(0x48)    # "H", the command letter after "~", session and sequence
_CMD_AT = const(7)
_MIN = const(18)        # "~", session, seq, command, "*", CRC, "\n"
_CR = const(0x0D)
_CTRL_C = const(3)
_E_NO_SESSION = const(2)    # the "e" reply's code (firmware/sync/endpoint.py E_NO_SESSION)


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
        # The hello gate on the line, made when bytes arrive and dropped once it has
        # decided: True when it read a hello (the session is then open).
        if self._gate is None and not self._port.pending():
            return False
        if self._gate is None and self.app.radio is not None:
            self.app.switch_radio(False)    # the line may bring a session: the heap is its
        if self._gate is None:
            self._gate = HelloGate(bytearray(64))
        gate = self._gate
        what = gate.poll(self._port, ticks_ms())
        if what == REPL:
            self.to_repl()
        if what != HELLO and gate.busy():
            return False
        self._gate = None
        if what != HELLO:
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


# ---- the gate on the line while no sync is open ----


class HelloGate:
    """What on the line may open a session."""

    def __init__(self, buf):
        self.buf = buf          # the line so far; a hello fits (the host's is 21 bytes)
        self.n = 0              # bytes of a checked hello in buf, once poll said HELLO
        self._at = -1           # bytes of the line so far; -1: waiting for "~"
        self._prev = 0
        self._one = bytearray(1)
        self._called = False    # CR Ctrl-C seen
        self._called_at = 0
        self.dropped = 0        # bytes that opened nothing

    def busy(self):
        """True while a line or a REPL tool's call is partway (the gate must stay)."""
        return self._at >= 0 or self._called or self._prev == _CR

    def poll(self, port, now):
        if self._called:
            if port.pending():
                self._called = False
                return REPL
            if ticks_diff(now, self._called_at) < CALL_MS:
                return NONE
            self._called = False    # a lone Ctrl-C: ignored
        one = self._one
        while port.readinto(one):
            c = one[0]
            if c == _CTRL_C and self._prev == _CR:
                self._called = True
                self._called_at = now
                self._prev = 0
                self._at = -1
                return NONE
            self._prev = c
            if self._feed(c, port):
                return HELLO
        return NONE

    def _feed(self, c, port):
        buf = self.buf
        if c == _START:
            buf[0] = c
            self._at = 1
            return False
        at = self._at
        if at < 0:
            self.dropped += 1
            return False
        if at >= len(buf) or (c != _END and not 0x20 <= c <= 0x7E):
            self.dropped += at + 1
            self._at = -1
            return False
        buf[at] = c
        at += 1
        self._at = at
        if c != _END:
            return False
        self._at = -1
        if at >= _MIN and _checked(buf, at, None if buf[_CMD_AT] == _HELLO else port):
            if buf[_CMD_AT] == _HELLO:
                self.n = at
                return True
        self.dropped += at
        return False


def _checked(buf, n, port):
    # The request's own check (engine_core.wire), loaded for a whole candidate line and
    # unloaded again unless a sync follows (which uses it). A good request that is not a
    # hello (port given) is answered with error 2.
    from engine_core import wire
    r = wire.RequestReader()
    i = 0
    good = False
    while i < n:
        good = r.feed(buf[i]) == wire.GOOD
        i += 1
    if good and port is not None:
        msg = b"no session: send hello"
        tx = bytearray(wire.HEAD + 5 + len(msg) + wire.TAIL)
        tx[wire.HEAD] = _E_NO_SESSION       # the detail (u32) stays 0
        tx[wire.HEAD + 5:wire.HEAD + 5 + len(msg)] = msg
        port.write(tx[:wire.reply_into(tx, 0x65, r.seq, 5 + len(msg))])     # e
    if not good or port is not None:
        transient.release()     # the request's check
    return good
