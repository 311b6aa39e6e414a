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
                # Not set: the seconds since power-on (the RTC at 2000-01-01 00:00:00).
                assert 1 <= got <= again <= 3 and a.clock.unix() == 0
            else:
                assert T - 1704067200 <= got <= again <= T - 1704067200 + 2, got
    finally:
        undo()


def test_a_clock_never_set_counts_from_power_on_under_a_tag_deep_sleep_keeps():
    # An ESP32's RTC reads 2000-01-01 at power-on and counts on through deep sleep and
    # resets (ESP-IDF's system time: the RTC timer is reset by a power-on only); its user
    # memory is RTC_NOINIT (machine_rtc.c), lost at power-on. Until a sync sets the clock,
    # stamps are seconds since power-on under the power-on's tag (engine_core.stamp).
    from engine_core import stamp
    m, e, undo = install_fake_hardware()
    try:
        m.RTC().datetime((2000, 1, 1, 5, 1, 0, 0, 0))     # an hour after power-on
        a = A.App(None, NorFlash(4, 4096), None, rtc=_board().rtc)
        secs, tag = a.clock.count()
        assert 3600 <= secs <= 3603 and 0 <= tag < stamp.TAGS
        assert m.RTC().memory() == b"u%d" % tag             # kept for the next boot
        assert a.clock.unix() == 0 and 3600 <= a.clock.now() <= 3603
        assert stamp.power_on_tag(a.clock.utc_offset) == tag
        # A deep sleep of a day (or a reset): the same power-on, the same tag.
        m.RTC().datetime((2000, 1, 2, 6, 1, 0, 0, 0))
        a2 = A.App(None, NorFlash(4, 4096), None, rtc=_board().rtc)
        assert a2.clock.count()[1] == tag and a2.clock.now() >= 86400 + 3600
        # The PC sets it: a date, its offset; no count in the hello.
        assert pc_sets(a2, "clock", T, -300) is None
        assert a2.clock.count() == (0, -1) and a2.clock.utc_offset == -300
        assert m.RTC().memory() == b"-300"
    finally:
        undo()
    # A power-on: the RTC's memory is lost, a tag drawn again and kept.
    m, e, undo = install_fake_hardware()
    try:
        assert m.RTC().memory() == b""
        a = A.App(None, NorFlash(4, 4096), None, rtc=_board().rtc)
        assert m.RTC().memory() == b"u%d" % a.clock.count()[1]
    finally:
        undo()
