# The USB line to the PC. While no sync is open, firmware.hello's gate watches it: only a
# PC's hello opens a session (firmware/session.py), which serves the PC until it is done;
# then the session's modules leave the heap (firmware/transient.py SESSION), so that
# none of it takes heap while the scorer is scoring.
import gc
from time import ticks_ms

from firmware import transient
from firmware.codes import HOME, SETUP, SYNC
from firmware.hello import HELLO, REPL, HelloGate

FIRMWARE = "0.1.0"


class Link:
    def __init__(self, app, line, device_id):
        self.app = app              # the hub: the screens a session shows
        self.line = line            # the board's USB serial line, or None
        self.device_id = device_id
        self.sync = None            # the sync endpoint (firmware.sync), while a session is
        self.status = "idle"        # the last session's, for the sync screen
        self.to_repl = no_kbd       # the REPL tools asked in (a device: to the REPL)
        self._session = None
        self._port = None           # the line as the endpoint reads it
        self._gate = None           # what on the line may open a session
        self._hello = bytearray(64)     # a session's hello, before the endpoint loads
        self._back = HOME           # the screen on show when the session opened

    def attach(self, port):
        """Read the line through `port` (a firmware.syncport port), a gate on it."""
        self._port = port
        self._gate = HelloGate(self._hello)

    def poll(self):
        """Called from the main loop between buttons. A hello on the line brings in the
        sync endpoint and its screen until the PC's session ends. True while a session is
        open (poll again soon)."""
        try:
            if self._port is None:
                if self.line is None:
                    return False
                self._open()
            if self.sync is None:
                what = self._gate.poll(self._port, ticks_ms())
                if what == REPL:
                    self.to_repl()
                if what != HELLO:
                    return False
                self._begin(self._gate.n)
            busy = self.sync.poll()
            # The panel keeps the sync screen drawn when the session opened (the screens'
            # modules are out of the heap meanwhile); the outcome is drawn at the end.
            self.status = self.sync.status
            if not busy:
                self._end()
                self.app.render()
        except MemoryError:
            self._failed()
            return False
        return busy

    def close(self):
        """Drop a session (a fault is to be drawn): its modules out of the heap."""
        self.sync = None
        self._session = None
        transient.unload(transient.SESSION)

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

    def _begin(self, n):
        # The sync screen first, so that the other screens' modules leave the heap, then
        # the endpoint, handed the bytes already read.
        app = self.app
        scorer = app.scorer
        self._back = app.screen
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
        from firmware.session import Session
        # Keyboard interrupt stays off (_open); a Ctrl-C in the session is the REPL
        # tools' (to_repl).
        self._session = Session(app)
        self.sync = self._session.open(self._port, self._hello, n, FIRMWARE, no_kbd,
                                       self.to_repl)

    def _end(self):
        # The endpoint out of the heap, the house options pushed by the PC checked and
        # kept, the outcome's screen next.
        app = self.app
        served = self.sync.requests
        self.status = "done, %d sent to the PC" % self.sync.acked if served else "idle"
        pending = self._session.pending
        self.close()
        gc.collect()
        if pending:
            refusal = app.pushed(app.scorer.update_setup(pending, None))
            transient.unload(transient.SESSION)     # the option checks
            if refusal:
                app.banner = "settings from the PC: " + refusal
        if served or self._back == SYNC:
            app.go(SYNC)        # the outcome stays on show until OK or BACK
        elif app.scorer.s is None:
            app.go(SETUP)
        else:
            app.go(self._back)
        app.full = True

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
    # The REPL tools asked in (mpremote): keyboard interrupt on again, and to the REPL.
    import micropython
    micropython.kbd_intr(3)
    raise KeyboardInterrupt
