# Power: what the board does while nobody presses anything. Called by the main loop
# (firmware/loop.py) when it has nothing to do; the board offers the means (boards/):
#
#   cpu_freq(hz)        the CPU clock: FAST_HZ while working, SLOW_HZ once idle
#   light_sleep(ms)     the CPU stops until a button (or the timer) wakes it; RAM, the
#                       program and the e-ink picture stay. The USB line hears nothing
#                       meanwhile: the PC tool asks the player to press a button, and
#                       the sync screen keeps the board listening.
#   deep_sleep()        the board off but for its wake buttons; it starts again at boot
#
# The policy, from the last press (or screen, or sync request):
#   a redraw waiting, a button held, a sync open: awake, polling
#   the panel refreshing: awake at SLOW_HZ, or, on a board whose every button wakes it
#       (board.wakes_on_every_button), light sleep by _REFRESH_NAP_MS
#   idle PANEL_SLEEP_MS: the panel to deep sleep, the CPU to SLOW_HZ
#   idle AWAKE_MS after a press that woke the board (the one before it _LISTEN_AFTER_MS
#       ago or more: "press a button, then sync"), _PLAY_AWAKE_MS after a press in play:
#       light sleep, a button wakes it (that press counts); on the sync screen, never
#   idle DEEP_SLEEP_MS: the score drawn, then deep sleep (its wake press only wakes)
# light_ms, slow_ms and deep_ms count the time spent each way, for the current model in
# bench/device/bench_power.py.
from micropython import const
from time import ticks_diff

from firmware.codes import SYNC

PANEL_SLEEP_MS = const(3000)
AWAKE_MS = const(5000)          # the USB line listens this long after a waking press
_PLAY_AWAKE_MS = const(1500)     # and this long after a press in play
_LISTEN_AFTER_MS = const(60000)  # a press this long after the last one is a waking one
_REFRESH_NAP_MS = const(100)
DEEP_SLEEP_MS = const(600000)   # ten idle minutes
FAST_HZ = const(160000000)
SLOW_HZ = const(80000000)


class Power:
    def __init__(self, board, poll_ms):
        self._poll = poll_ms
        self._display = board.display
        self._ticks = board.ticks_ms
        self._sleep = board.sleep_ms
        self._light = getattr(board, "light_sleep", None)
        self._deep = getattr(board, "deep_sleep", None)
        self._cpu = getattr(board, "cpu_freq", None)
        self._board = board
        self._battery = getattr(board, "battery", None)
        self._feed = getattr(board, "feed", None)     # the watchdog
        self._nap = getattr(board, "wakes_on_every_button", False)
        self._last = 0
        self._awake = AWAKE_MS
        self._pressed = -_LISTEN_AFTER_MS
        self._slow_at = 0
        self._panel_asleep = False
        self._slow = False
        self.light_ms = 0       # time spent in light sleep
        self.slow_ms = 0        # time awake at SLOW_HZ
        self.deep_ms = 0        # time in a deep sleep that returned (fake boards)
        self.light_sleeps = 0
        self.deep_sleeps = 0

    def touch(self, now, press=False):
        """Something happened (a press): full speed, and the idle time starts again."""
        if press:
            gap = ticks_diff(now, self._pressed)
            self._awake = AWAKE_MS if gap >= _LISTEN_AFTER_MS else _PLAY_AWAKE_MS
            self._pressed = now
        self._last = now
        self._panel_asleep = False
        if self._slow:
            self._slow = False
            self.slow_ms += ticks_diff(now, self._slow_at)
            if self._cpu is not None:
                self._cpu(FAST_HZ)

    def idle(self, now, busy, app, refreshing=False):
        """Nothing to do this round: wait, or sleep as long as the idle time allows.
        refreshing: busy only because the panel is refreshing."""
        if refreshing and self._light is not None and app.link.sync is None:
            self._go_slow(now)
            if self._nap:
                self._light_sleep(_REFRESH_NAP_MS)
                return
        if busy or app.link.sync is not None:
            self._sleep(self._poll)
            return
        idle = ticks_diff(now, self._last)
        listen = app.screen == SYNC
        light = (self._light is not None and not listen and idle >= self._awake)
        if not self._panel_asleep and (idle >= PANEL_SLEEP_MS or light):
            if self._battery is not None:
                from firmware import battery
                if battery.check(self._board, app):
                    app.render()    # the warning on the screen now, not at the next press
                    return
            self._display.sleep()
            self._panel_asleep = True
            self._go_slow(now)
        if self._deep is not None and idle >= DEEP_SLEEP_MS:
            app.rest()          # the e-ink keeps the score while the board sleeps
            self._display.sleep()
            self.deep_sleeps += 1
            t0 = self._ticks()
            self._deep()
            slept = ticks_diff(self._ticks(), t0)     # a deep sleep that returns: fakes
            self.deep_ms += slept
            self.slow_ms -= slept
            self.touch(self._ticks())
            return
        if light:
            ms = DEEP_SLEEP_MS - idle if self._deep is not None else 60000
            radio = getattr(app, "radio", None)
            if radio is not None and getattr(radio, "wakes", False):
                # The radio's sender asks for the next table (or confirms it) again then
                # (firmware/radio/sender.py): the timer wakes the board for it.
                ms = max(1, min(ms, ticks_diff(radio.wake_at, now)))
            self._light_sleep(ms)
            return
        self._sleep(self._poll)

    def _light_sleep(self, ms):
        light = self._light
        if light is None:
            return
        t0 = self._ticks()
        feed = self._feed
        if feed is not None:
            feed()
        light(ms)           # the watchdog stands still meanwhile
        if feed is not None:
            feed()
        self.light_sleeps += 1
        slept = ticks_diff(self._ticks(), t0)
        self.light_ms += slept
        self.slow_ms -= slept   # asleep, not awake at the low clock

    def _go_slow(self, now):
        if not self._slow:
            self._slow = True
            self._slow_at = now
            if self._cpu is not None:
                self._cpu(SLOW_HZ)

