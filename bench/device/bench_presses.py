# runs on: micropython
# Taps against the firmware's long steps and the ESP32's sleeps, with the real Buttons and
# the pin IRQs as the chip delivers them (tests/kit/chip/fakes.py, tests/kit/costclock.py):
#   ui.presses_lost.during_long_steps   taps of 30 to 150 ms, one to three, beginning
#                                       anywhere in a firmware step of 50 to 3000 ms of
#                                       Python code, or in one of the C calls the device
#                                       makes (tests/kit/costclock.py: a 10 ms frame to the
#                                       panel, a 40 ms module load, a 45 ms flash
#                                       erase), on the cost clock
#   ui.presses_lost.in_slowest_erase    the same taps in a 300 ms erase (the flash's
#                                       datasheet maximum): the pin's IRQ status is one
#                                       bit, so two taps in one C call are one
#   ui.presses_lost.after_light_sleep   each button of each board that light-sleeps
#                                       (not the CoreInk: boards/m5stack_coreink.py) tapped
#                                       after the board's
#                                       light sleep (its pins routed to the RTC domain)
#   ui.phantom_presses                  noise pulses of 1 to 5 ms, while polled and during
#                                       Python steps: presses that came of them
#   ui.phantom_presses.in_c_call        the same noise inside one C call: its handler
#                                       runs after, and cannot tell a pulse from a tap
import os


from costclock import COSTS, CostClock  # noqa: E402
from fakes import FakePresses, install_fake_hardware  # noqa: E402
from firmware.buttons import NONE, Buttons  # noqa: E402
from firmware.codes import OK  # noqa: E402

QUICK = os.getenv("TALLY42_BENCH_QUICK") == "1"
T0 = 1000


def stepped(taps, hold, step_ms, c_call, dropped=False):
    """Events from `taps` (ms into the step) of `hold` ms during one step. dropped: the
    timer's tick was dropped before (its queue full: tests/kit/costclock.py)."""
    clock = CostClock(T0 - 200)
    fp = FakePresses(clock, [(T0 + t, 0) for t in taps], hold)
    b = Buttons([(fp.reader(0), OK)])
    clock.irq = b.edge
    clock.timer = b.tick
    b.rearm = clock.rearm       # the board's Timer.init (boards/device.py)
    if dropped:
        clock.drop_tick()
    n = 0
    while clock.t < T0:
        n += b.poll(clock.t) != NONE
        clock.sleep_ms(10)
    clock.advance(step_ms, c_call)
    end = clock.t + 1200
    while clock.t < end:
        n += b.poll(clock.t) != NONE
        clock.sleep_ms(10)
    return n


def during_long_steps(steps, dropped=False):
    lost = extra = cases = 0
    taps = (30, 65, 150) if QUICK else (30, 45, 65, 100, 150)
    for step, c_call in steps:
        for tap in taps:
            for count in (1, 2, 3):
                span = count * tap + (count - 1) * 40
                if span > step + tap:
                    continue
                stride = max(1, (step - 1) // (4 if QUICK else 12))
                for at in range(0, step, stride):
                    starts = [at + k * (tap + 40) for k in range(count)]
                    if starts[-1] >= step:
                        continue
                    got = stepped(starts, tap, step, c_call, dropped)
                    cases += 1
                    lost += max(0, count - got)
                    extra += max(0, got - count)
    return lost, extra, cases


def phantoms(dropped=False):
    python = c_call = 0
    for ms in (1, 2, 3, 4, 5):
        python += stepped([-160, -93, -41], ms, 0, False, dropped)          # while polled
        for step in (100, 3000):
            python += stepped([7, step // 2, step - 6], ms, step, False, dropped)
        c_call += stepped([20], ms, 45, True, dropped)
    return python, c_call


_BOARDS = {
    # GPIO of each button, and its level when released
    "esp32_epd29": ((32, 0), (33, 0), (25, 0), (26, 0), (27, 0)),
    "lilygo_t5_213": ((39, 1), (32, 0), (33, 0)),
    "m5stack_coreink": ((37, 1), (39, 1), (38, 1), (5, 1), (27, 1)),
}


def after_light_sleep():
    lost = taps = 0
    for name, pins in _BOARDS.items():
        m, e, undo = install_fake_hardware()
        try:
            board = __import__("boards." + name, None, None, ["open"]).open()
            if board.light_sleep is None:   # the CoreInk does not light-sleep
                continue
            now = [0]
            board.ticks_ms = lambda: now[0]
            for gpio, rest in pins:
                m.pins[gpio].level = rest
            b = board.buttons
            for rounds in range(2 if QUICK else 5):
                board.light_sleep(5000)
                for gpio, rest in pins:
                    pin = m.pins[gpio]
                    got = 0
                    for t, level in ((now[0] + 10, 1 - rest), (now[0] + 50, rest)):
                        while now[0] < t:
                            got += b.poll(now[0]) != NONE
                            now[0] += 10
                        pin.drive(level)
                    for _ in range(30):
                        got += b.poll(now[0]) != NONE
                        now[0] += 10
                    taps += 1
                    lost += 1 - min(got, 1)
        finally:
            undo()
    return lost, taps


def main():
    python_steps = (100, 3000) if QUICK else (50, 100, 150, 300, 1000, 3000)
    c_calls = [COSTS[k][0] // 1000 for k in ("spi_frame", "import", "erase")]
    lost, extra, cases = during_long_steps([(ms, False) for ms in python_steps]
                                           + [(ms, True) for ms in c_calls])
    print("ui.presses_lost.during_long_steps: %d taps (%d cases)" % (lost, cases))
    print("ui.presses_extra.during_long_steps: %d presses" % extra)
    lost, extra, cases = during_long_steps([(COSTS["erase_max"][0] // 1000, True)])
    print("ui.presses_lost.in_slowest_erase: %d taps (%d cases)" % (lost, cases))
    lost, taps = after_light_sleep()
    print("ui.presses_lost.after_light_sleep: %d of %d taps" % (lost, taps))
    python, c_call = phantoms()
    print("ui.phantom_presses: %d presses" % python)
    print("ui.phantom_presses.in_c_call: %d of 5 pulses" % c_call)
    lost, extra, cases = during_long_steps([(ms, False) for ms in python_steps]
                                           + [(ms, True) for ms in c_calls], True)
    python, c_call = phantoms(True)
    print("ui.presses_lost.after_dropped_tick: %d taps (%d cases)" % (lost, cases))
    print("ui.phantom_presses.after_dropped_tick: %d presses" % (extra + python))


main()
