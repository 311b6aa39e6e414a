# The main loop on any board: buttons to the app, the app's screen to the panel, the USB
# line to the sync, and the board to sleep (firmware.power) when nothing happens.
#
# No press is lost to a refresh: a partial refresh takes 0.3-0.6 s and a full one 2-3 s,
# and the loop never waits for one. A press is handed to the app (and its event put on
# flash) at once; the screen is drawn only when the panel is idle again, once for all the
# presses taken meanwhile, and the buttons are polled all the while. So every press
# counts, in the order made, however fast the players are.
#
#   from firmware import loop
#   loop.run(board)     # the board as boards/__init__.py describes it
from micropython import const
from time import ticks_diff

_POLL_MS = const(10)    # between two looks at the buttons, the panel and the line
# The board's watchdog (boards/device.py), fed every round and all through every wait: a
# hang (no round, no wait) this long restarts the board; at the REPL (firmware/link.py)
# no one feeds it, and an hour later the scorer is back.
_WATCHDOG_MS = const(30000)
_BUSY_MS = const(15000)     # no refresh takes this long (firmware/display/epaper.py)


class Loop:
    """One board's loop. step() does one round; run() repeats it until the board says
    stop (the sim's buttons return -1). keys and draws count what it has done."""

    def __init__(self, board, app, power):
        self.board = board
        self.app = app
        self.power = power
        self.display = board.display
        self.buttons = board.buttons
        self.ticks_ms = board.ticks_ms
        self.sleep_ms = board.sleep_ms
        start = getattr(board, "start_watchdog", None)
        if start is not None:
            start(_WATCHDOG_MS)
        self.feed = getattr(board, "feed", None)     # every round feeds it
        # Looked up once: getattr() of a method makes a bound method on the heap, and an
        # idle board goes round every _POLL_MS.
        self._busy = getattr(self.buttons, "busy", None)
        self.dirty = False      # presses taken that the panel does not show yet
        self.panel_busy_at = None   # when the panel was first seen busy, this time
        self.keys = 0           # presses handed to the app
        self.draws = 0          # screens sent to the panel

    def run(self):
        skip = getattr(self.buttons, "skip_held", None)
        if skip is not None:
            skip(self.ticks_ms())   # the press that woke the board only wakes it
        self.power.touch(self.ticks_ms())
        while self.step():
            pass
        return self.app

    def step(self):
        """One round: False when the board says stop."""
        if self.feed is not None:
            self.feed()
        now = self.ticks_ms()
        key = self.buttons.poll(now)
        if key < 0:
            return False
        if key:
            self.app.handle(key)
            self.keys += 1
            self.dirty = True
            self.power.touch(self.ticks_ms(), True)
        if self.dirty and self.display.ready():
            self.dirty = False
            self.app.render()
            self.draws += 1
            self.power.touch(self.ticks_ms())
            self.panel_busy_at = None   # a refresh begins: timed from the next look
            return True
        link = self.app.poll_link()
        if self.app.redraw:     # the radio brought something to show (the next table)
            self.app.redraw = False
            self.dirty = True
        refreshing = not self.display.ready()
        if link:
            self.power.touch(self.ticks_ms())
            self.panel_busy_at = None   # (a session's end draws its outcome)
            return True
        if not refreshing:
            self.panel_busy_at = None
        elif self.panel_busy_at is None:
            self.panel_busy_at = now
        elif ticks_diff(now, self.panel_busy_at) > getattr(self.display, "busy_timeout_ms",
                                                           _BUSY_MS):
            # Busy longer than any refresh takes: its BUSY line is stuck, a fault, not a
            # reason to stay awake polling it.
            from firmware.display import DisplayError
            raise DisplayError("e-paper BUSY stuck: check the BUSY, RST and power wiring")
        # The radio's sender waiting on an acknowledge keeps the board awake, a nap too.
        awake = self.dirty or self._held() or self.app.radio_busy
        self.power.idle(now, awake or refreshing, self.app, refreshing and not awake)
        return True

    def _held(self):
        busy = self._busy
        return busy is not None and busy()


def run(board, app):
    """Run `app` on `board` until the board says stop; returns the app."""
    from firmware.power import Power
    return Loop(board, app, Power(board, _POLL_MS)).run()
