# The time of day a sync sets is kept in the board's RTC (boards.device.RtcClock), which runs on
# through deep sleep: after a wake (a new App), sittings still get their date. On fake
# machine and esp32 modules (tests/kit/chip/fakes.py). MicroPython only.
from apphelp import pc_sets
from fakes import install_fake_hardware
from firmware import app as A
from boards.sim.flash import NorFlash

T = 1796112755      # 2026-12-01 08:12:35 UTC (the clock takes 2024 to 2057)


def _board():
    return __import__("boards.esp32_epd29", None, None, ["open"]).open()


def test_the_clock_survives_a_deep_sleep_in_the_rtc():
    m, e, undo = install_fake_hardware()
    try:
        b = _board()
        a = A.App(b.display, NorFlash(4, 4096), None, rtc=b.rtc)
        assert a.clock.unix() == 0                 # a fresh RTC (2000-01-01): not set
        assert pc_sets(a, "clock", T, 60) is None
        assert m.RTC().datetime()[:3] == (2026, 12, 1)
        # Deep sleep ends the program; the next boot is a new App on the same RTC.
        b2 = _board()
        a2 = A.App(b2.display, NorFlash(4, 4096), None, rtc=b2.rtc)
        assert T <= a2.clock.unix() <= T + 2 and a2.clock.utc_offset == 60
    finally:
        undo()


def test_without_an_rtc_the_clock_is_lost_with_the_app():
    nor = NorFlash(4, 4096)
    a = A.App(None, nor, None)
    pc_sets(a, "clock", T, 0)
    assert a.clock.unix() >= T
    assert A.App(None, nor, None).clock.unix() == 0


def test_the_coreink_keeps_the_time_in_its_bm8563_through_the_esp32s_drift():
    from fakes import install_fake_hardware
    from boards.sim.chip.bm8563 import FakeBM8563
    chip = FakeBM8563()
    m, e, undo = install_fake_hardware()
    try:
        m.I2C = chip.i2c_class()
        board = __import__("boards.m5stack_coreink", None, None, ["open"]).open()
        assert board.rtc.now() == (0, 0)        # the chip lost its time: nothing loaded
        board.rtc.set(1767225600 + 3600, 60)    # 2026-01-01 01:00 UTC, UTC+1
        assert board.rtc.now() == (1767225600 + 3600, 60)
        # Deep sleep: the ESP32's RTC drifts (here it stood still), the chip's does not.
        chip.advance(1800)
        board = __import__("boards.m5stack_coreink", None, None, ["open"]).open()
        assert board.rtc.now() == (1767225600 + 5400, 60)
    finally:
        undo()
    m, e, undo = install_fake_hardware()
    try:
        m.I2C = FakeBM8563(present=False).i2c_class()
        board = __import__("boards.m5stack_coreink", None, None, ["open"]).open()
        assert board.rtc.now() == (0, 0)        # no chip: the ESP32's clock, unset
    finally:
        undo()


def test_a_games_end_reads_the_clock_without_allocating_set_or_not():
    # Scorer.take stamps a game's END from the clock on the event path. The RTC is read
    # at boot: its date is a tuple, its Unix seconds an int past 2**30 (both on the heap
    # of a 32-bit port), so a clock never set must not read it again at every game's end.
    import micropython
    m, e, undo = install_fake_hardware()
    try:
        b = _board()
        for when in (None, (2026, 12, 1, 1, 8, 12, 35, 0)):
            if when is not None:
                m.RTC().datetime(when)
            a = A.App(b.display, NorFlash(4, 4096), None, rtc=b.rtc)
            micropython.heap_lock()
            try:
                got = a.clock.now()
                again = a.clock.now()
            finally:
                micropython.heap_unlock()
            if when is None:
                assert got == again == 0
            else:
                assert T - 1704067200 <= got <= again <= T - 1704067200 + 2, got
    finally:
        undo()
