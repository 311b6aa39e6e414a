# A sim board in fake time (tests/kit/chip/fakes.py): a clock that moves only when the firmware
# sleeps or waits, a slow e-paper panel, buttons pressed by a script. For the main-loop,
# power and boot tests, and the benchmarks that print their figures.
from boards.sim.board import Board
from fakes import FakeClock, FakePresses, StopAfter, fake_panel
from firmware import app as A
from firmware.buttons import Buttons
from firmware.codes import BACK, MENU, NEXT, OK, PREV
from firmware.loop import Loop
from boards.sim.flash import NorFlash
from firmware.power import Power

ORDER = (PREV, NEXT, OK, BACK, MENU)
INDEX = {"prev": 0, "next": 1, "ok": 2, "back": 3, "menu": 4}
START_MS = 1000


def script(names, every_ms, t0=START_MS + 500):
    """[(down_ms, button index)] for the named presses, one every every_ms from t0."""
    return [(t0 + k * every_ms, INDEX[n]) for k, n in enumerate(names)]


def fake_board(presses, stop_ms, nor=None, partial_ms=600, full_ms=2500, light=False,
               deep=False, hold_ms=70, clock=None):
    """A sim board over `nor` whose panel refreshes in partial_ms/full_ms and whose
    buttons follow `presses`; its buttons say stop at stop_ms. light/deep: the board
    can light-sleep (until the next press) and deep-sleep (counted in board.deep).
    clock: a costclock.CostClock, to charge the firmware's steps (costed())."""
    clock = clock or FakeClock(START_MS)
    fp = FakePresses(clock, presses, hold_ms)
    b = Board(nor or NorFlash(8, 4096), record=True)
    b.display = fake_panel(clock, partial_ms, full_ms)
    keys = Buttons([(fp.reader(i), code) for i, code in enumerate(ORDER)])
    b.buttons = StopAfter(keys, clock, stop_ms)
    b.ticks_ms = clock.ticks_ms
    b.sleep_ms = clock.sleep_ms
    b.clock = clock
    b.keys = keys
    b.freqs = []
    b.cpu_freq = b.freqs.append
    if light:
        b.light_sleep = clock.light_sleep
        b.wakes_on_every_button = True     # as the DIY board: its five buttons wake it
    b.deep = []
    if deep:
        def sleep_deep():
            b.deep.append(clock.t)
            clock.t += 1000     # off for a second, then a press (the test's) wakes it
        b.deep_sleep = sleep_deep
    b.restarts = []
    b.restart = lambda: b.restarts.append(clock.t)
    return b


def run_loop(b):
    """Boot the App on b and run the main loop until the script's end: the Loop."""
    app = A.App(b.display, b.flash, None)
    app.boot()
    app.render()
    lp = Loop(b, app, Power(b, 10))
    lp.run()
    return lp


def costed(b):
    """Charge b's firmware steps on its CostClock (tests/kit/costclock.py): each screen drawn
    and sent to the panel, a module import when the screen changes; the buttons hear
    their pin IRQs and timer ticks as a board's do."""
    clock = b.clock
    clock.irq = b.keys.edge
    clock.timer = b.keys.tick
    show = b.display.show
    last = [None]

    def costly(full=False):
        clock.charge("render")
        name = getattr(b.display, "name", None)
        if name != last[0]:
            last[0] = name
            clock.charge("import")
        clock.charge("spi_frame")
        show(full)
    b.display.show = costly
    return b


# Start plain 42, then a hand (E bids 32, three passes, trump, made), then the next hand
# begun (S bids 30): 15 presses, many of them during a refresh.
PLAY = ("ok",                                   # start the sitting (a full refresh)
        "next", "ok", "ok", "ok", "ok", "ok", "prev",  # E bids 30, 3 passes, trump, made (<)
        "next", "ok", "ok", "ok", "ok")               # S bids 30, 3 passes


# Datasheet currents in mA (docs/hardware.md says where each comes from).
CPU_160MHZ = 44.0       # ESP32, CPU on, radio off, 160 MHz (upper figure)


CPU_80MHZ = 31.0        # ESP32, CPU on, radio off, 80 MHz (upper figure)


LIGHT_SLEEP = 0.8       # ESP32 light sleep


DEEP_SLEEP = 0.01       # ESP32 deep sleep, RTC timer and memory on


PANEL_REFRESH = 8.0     # e-paper while refreshing: 26.4 mW at 3.3 V


REGULATOR = 0.05        # a low-quiescent LDO (ME6211-class: 40-70 uA) and pull-downs


DEVKIT_REGULATOR = 5.0  # AMS1117 quiescent current (typical)


HAND = (("ok", 0), ("next", 3), ("next", 4), ("ok", 5), ("ok", 10), ("ok", 15),
        ("ok", 20), ("ok", 30), ("ok", 170))      # seconds into the hand


HAND_EVERY_S = 180


def playing(hands):
    presses = [(START_MS + 500, 2)]     # OK: start the sitting
    idx = {"prev": 0, "next": 1, "ok": 2, "back": 3, "menu": 4}
    t0 = START_MS + 5000
    for h in range(hands):
        for name, s in HAND:
            presses.append((t0 + (h * HAND_EVERY_S + s) * 1000, idx[name]))
    end = t0 + hands * HAND_EVERY_S * 1000
    return presses, end
