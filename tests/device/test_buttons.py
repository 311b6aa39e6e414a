# Debounced buttons with long press, on fake pins and a fake clock (milliseconds passed
# to poll). MicroPython only: run with tests/mp_run.py.
import micropython
from time import ticks_add

from fakes import FakePin
from firmware.buttons import NONE, Buttons, active_low
from firmware.codes import BACK, LONG, MENU, NEXT, OK, PREV

_STEP = 5  # the main loop polls every 5 ms in these tests


def _run(buttons, t0, t1, events, at=None):
    # Poll from t0 up to (not including) t1; collect events (and when they came).
    t = t0
    while t < t1:
        ev = buttons.poll(t)
        if ev != NONE:
            events.append(ev)
            if at is not None:
                at.append(t)
        t += _STEP
    return t1


def _one(entries_extra=(), **kw):
    pin = FakePin(0)
    return pin, Buttons([(pin, OK)] + list(entries_extra), **kw)


def test_short_press_is_reported_once_on_release():
    pin, b = _one(debounce_ms=30, long_ms=600)
    ev = []
    t = _run(b, 0, 50, ev)
    pin.level = 1
    t = _run(b, t, 200, ev)
    assert ev == []  # nothing while held: it could still become a long press
    pin.level = 0
    at = []
    _run(b, t, 400, ev, at)
    assert ev == [OK]
    assert 200 + 30 <= at[0] < 200 + 30 + 2 * _STEP  # once the release is debounced


def test_bounces_shorter_than_the_debounce_time_are_ignored():
    pin, b = _one(debounce_ms=30, long_ms=600)
    ev = []
    t = 0
    for _ in range(5):  # 10 ms blips: contact chatter, or a brushed button
        pin.level = 1
        t = _run(b, t, t + 10, ev)
        pin.level = 0
        t = _run(b, t, t + 15, ev)
    t = _run(b, t, t + 300, ev)
    assert ev == []
    # a real press with chatter at both ends counts once
    for level in (1, 0, 1, 0, 1):
        pin.level = level
        t = _run(b, t, t + 5, ev)
    t = _run(b, t, t + 150, ev)
    for level in (0, 1, 0, 1, 0):
        pin.level = level
        t = _run(b, t, t + 5, ev)
    _run(b, t, t + 200, ev)
    assert ev == [OK]


def test_long_press_fires_while_held_and_not_again_on_release():
    pin, b = _one(debounce_ms=30, long_ms=600)
    ev, at = [], []
    pin.level = 1
    t = _run(b, 100, 1500, ev, at)
    assert ev == [LONG | OK]
    assert 700 <= at[0] < 700 + 2 * _STEP  # held 600 ms from the first contact
    pin.level = 0
    _run(b, t, t + 300, ev)
    assert ev == [LONG | OK]


def test_press_just_under_the_long_time_is_short():
    pin, b = _one(debounce_ms=30, long_ms=600)
    ev = []
    pin.level = 1
    t = _run(b, 0, 590, ev)
    pin.level = 0
    _run(b, t, t + 200, ev)
    assert ev == [OK]


def test_three_button_map_long_press_gives_another_button():
    prev, nxt, ok = FakePin(0), FakePin(0), FakePin(0)
    b = Buttons([(prev, PREV, BACK), (nxt, NEXT), (ok, OK, MENU)], long_ms=500)
    ev = []
    t = 0
    for pin, hold in ((prev, 100), (prev, 800), (ok, 100), (ok, 800), (nxt, 100),
                      (nxt, 800)):
        pin.level = 1
        t = _run(b, t, t + hold, ev)
        pin.level = 0
        t = _run(b, t, t + 100, ev)
    assert ev == [PREV, BACK, OK, MENU, NEXT, LONG | NEXT]


def test_repeat_keeps_a_held_button_going_but_not_a_remapped_one():
    nxt, prev = FakePin(0), FakePin(0)
    b = Buttons([(nxt, NEXT), (prev, PREV, BACK)], long_ms=600, repeat_ms=200)
    ev, at = [], []
    nxt.level = 1
    t = _run(b, 0, 1250, ev, at)
    assert ev == [LONG | NEXT] * 4  # at 600, 800, 1000, 1200
    assert [a // 100 for a in at] == [6, 8, 10, 12]
    nxt.level = 0
    t = _run(b, t, t + 100, ev)
    ev = []
    prev.level = 1
    _run(b, t, t + 1500, ev)
    assert ev == [BACK]  # a long press mapped to BACK happens once


def test_no_repeat_by_default():
    pin, b = _one(long_ms=600)
    ev = []
    pin.level = 1
    _run(b, 0, 3000, ev)
    assert ev == [LONG | OK]


def test_active_low_and_callable_readers():
    low = FakePin(1)  # pull-up: 1 at rest
    level = [0]
    b = Buttons([(active_low(low), PREV), (lambda: level[0], NEXT)])
    ev = []
    t = _run(b, 0, 100, ev)
    assert ev == [] and not b.pressed()  # pull-up high at rest: released
    low.level = 0
    t = _run(b, t, t + 50, ev)
    assert b.pressed()
    t = _run(b, t, t + 100, ev)
    low.level = 1
    t = _run(b, t, t + 100, ev)
    level[0] = 1
    t = _run(b, t, t + 100, ev)
    level[0] = 0
    _run(b, t, t + 100, ev)
    assert ev == [PREV, NEXT]


def test_simultaneous_events_come_out_one_per_poll_in_button_order():
    a, c = FakePin(0), FakePin(0)
    b = Buttons([(a, PREV), (c, NEXT)], debounce_ms=30)
    a.level = c.level = 1
    t = 0
    while t < 100:
        assert b.poll(t) == NONE
        t += 5
    a.level = c.level = 0
    got = []
    while t < 200:
        got.append(b.poll(t))
        t += 5
    assert [g for g in got if g] == [PREV, NEXT]
    first = got.index(PREV)
    assert got[first + 1] == NEXT  # queued: the second comes at the very next poll


def test_timing_survives_the_tick_counter_wrapping():
    pin, b = _one(debounce_ms=30, long_ms=600)
    start = ticks_add(0, -300)  # the press begins 300 ms before ticks wrap to 0
    ev, at = [], []
    t = start
    pin.level = 1
    for _ in range(200):  # 1000 ms
        e = b.poll(t)
        if e:
            ev.append(e)
            at.append(t)
        t = ticks_add(t, _STEP)
    assert ev == [LONG | OK]
    assert at[0] == ticks_add(start, 600)


def test_skip_held_swallows_the_wake_press():
    pin, b = _one(debounce_ms=30, long_ms=600)
    pin.level = 1  # held while the board woke up
    b.skip_held(0)
    ev = []
    t = _run(b, 0, 2000, ev)
    pin.level = 0
    t = _run(b, t, t + 100, ev)
    assert ev == []
    pin.level = 1
    t = _run(b, t, t + 100, ev)
    pin.level = 0
    _run(b, t, t + 100, ev)
    assert ev == [OK]


def test_pressed_follows_the_debounced_state():
    pin, b = _one(debounce_ms=30)
    assert not b.pressed()
    pin.level = 1
    t = _run(b, 0, 20, [])
    assert not b.pressed()  # not yet debounced
    _run(b, t, t + 40, [])
    assert b.pressed()


def test_queue_overflow_drops_and_counts():
    pins = [FakePin(0) for _ in range(10)]
    b = Buttons([(p, OK) for p in pins])
    for p in pins:
        p.level = 1
    t = _run(b, 0, 100, [])
    for p in pins:
        p.level = 0
    b.poll(t)
    got = [b.poll(t + 40)]  # all ten releases debounced in this one poll
    assert b.dropped == 2  # the queue holds 8
    for i in range(10):
        got.append(b.poll(t + 45 + i))
    assert got == [OK] * 8 + [NONE] * 3


def test_poll_allocates_nothing():
    a, c, d = FakePin(0), FakePin(1), FakePin(0)
    b = Buttons([(a, PREV, BACK), (active_low(c), NEXT), (d, OK, MENU)], repeat_ms=100)
    script = [(0, 1, 0), (1, 1, 0), (1, 0, 1), (0, 1, 1), (0, 1, 0)]
    micropython.heap_lock()
    try:
        t = 0
        for levels in script:
            a.level, c.level, d.level = levels
            for _ in range(200):
                b.poll(t)
                t += 5
        failed = False
    except MemoryError:
        failed = True
    micropython.heap_unlock()
    assert not failed


def test_codes_match_the_screens():
    assert (PREV, NEXT, OK, BACK, MENU, LONG) == (PREV, NEXT, OK, BACK,
                                                  MENU, LONG)
    assert NONE == 0 and LONG & 0xF == 0


# -- each board's button map, opened on fake machine/esp32 modules -------------------

# (GPIO, level when released, short press, long press), as the boards' WIRING tables say
_MAPS = {
    "esp32_epd29": [(32, 0, PREV, LONG | PREV), (33, 0, NEXT, LONG | NEXT),
                    (25, 0, OK, LONG | OK), (26, 0, BACK, LONG | BACK),
                    (27, 0, MENU, LONG | MENU)],
    "lilygo_t5_213": [(39, 1, OK, MENU), (32, 0, PREV, BACK), (33, 0, NEXT, LONG | NEXT)],
    "m5stack_coreink": [(37, 1, PREV, LONG | PREV), (39, 1, NEXT, LONG | NEXT),
                        (38, 1, OK, LONG | OK), (5, 1, BACK, LONG | BACK),
                        (27, 1, MENU, LONG | MENU)],
}


def _press(b, pin, rest, t, hold):
    ev = []
    pin.level = 1 - rest
    t = _run(b, t, t + hold, ev)
    pin.level = rest
    t = _run(b, t, t + 100, ev)
    return t, ev


def test_board_button_maps():
    from fakes import install_fake_hardware

    for name, table in _MAPS.items():
        m, e, undo = install_fake_hardware()
        try:
            mod = __import__("boards." + name, None, None, ["open"])
            board = mod.open()
            for gpio, rest, _, _ in table:
                m.pins[gpio].level = rest
            b = board.buttons
            t = _run(b, 0, 200, [])
            assert not b.pressed(), name  # every button released at rest
            for gpio, rest, short, long in table:
                t, ev = _press(b, m.pins[gpio], rest, t, 100)
                assert ev == [short], (name, gpio, ev)
                t, ev = _press(b, m.pins[gpio], rest, t, 1000)
                assert ev == [long], (name, gpio, ev)
            if name != "m5stack_coreink":  # active-high buttons have pull-downs
                for gpio, rest, _, _ in table:
                    assert rest == 1 or m.pins[gpio].pull == m.Pin.PULL_DOWN, gpio
        finally:
            undo()


def test_boards_light_sleep_on_their_wake_buttons_and_know_a_wake():
    from fakes import install_fake_hardware

    for name, table in _MAPS.items():
        m, e, undo = install_fake_hardware()
        try:
            board = __import__("boards." + name, None, None, ["open"]).open()
            if name == "m5stack_coreink":   # only its dial press could wake it: no nap
                assert board.light_sleep is None and not board.wakes_on_every_button
                continue
            board.light_sleep(5000)
            assert m.light == [5000], name
            armed = (e.ext1[0] if e.ext1 else ()) + ((e.ext0[0],) if e.ext0 else ())
            assert armed and set(armed) <= set(board.wake_pins), name
            board.cpu_freq(80000000)
            assert m.hz == 80000000
            assert not board.woke()
            m.cause = m.DEEPSLEEP_RESET
            assert board.woke()
        finally:
            undo()


def _stepped(taps, hold, step_ms, kind=None, t0=1000):
    # A button polled every 10 ms, then a firmware step of step_ms (Python code, or the
    # C call `kind`) during which `taps` (ms into the step) come and go, then polls
    # again: the events, with the IRQ wired as a board wires it.
    from costclock import CostClock
    from fakes import FakePresses

    clock = CostClock(t0 - 200)
    fp = FakePresses(clock, [(t0 + t, 0) for t in taps], hold)
    b = Buttons([(fp.reader(0), OK)])
    clock.irq = b.edge
    clock.timer = b.tick
    ev = []
    while clock.t < t0:
        _take(b, clock, ev)
        clock.sleep_ms(10)
    if kind is None:
        clock.advance(step_ms)
    else:
        from costclock import COSTS
        clock.advance(step_ms, c_call=COSTS[kind][1])
    end = clock.t + 1000
    while clock.t < end:
        _take(b, clock, ev)
        clock.sleep_ms(10)
    return ev


def _take(b, clock, ev):
    e = b.poll(clock.t)
    if e != NONE:
        ev.append(e)


def test_taps_during_a_long_step_each_count():
    # The firmware busy (a render, a journal block, a screen import): the polls miss the
    # taps, the IRQ's edges do not.
    assert _stepped([20], 65, 100) == [OK]
    assert _stepped([10, 80], 30, 150) == [OK, OK]
    assert _stepped([10, 150], 65, 300) == [OK, OK]
    assert _stepped([100, 1000, 2500], 30, 3000) == [OK] * 3
    # inside one C call (a flash erase): the handler runs once, after it
    assert _stepped([5], 30, 45, "erase") == [OK]
    assert _stepped([50], 100, 300, "erase") == [OK]
    # a tap that began in the C call and ends after it
    assert _stepped([20], 60, 45, "erase") == [OK]
    # inside a C call with the interrupts on (a module's load): each edge's handler runs
    # after it, both reading the level as it is then: one press, not one an edge
    assert _stepped([5], 30, 45, "import") == [OK]
    assert _stepped([50], 100, 300, "import") == [OK]
    assert _stepped([20], 60, 45, "import") == [OK]


def test_noise_shorter_than_the_debounce_is_no_press():
    for ms in (1, 2, 3, 4, 5):
        assert _stepped([], 0, 0) == []
        assert _stepped([-150, -77, -33], ms, 0) == [], ms      # while polled
        assert _stepped([10, 500, 1200], ms, 2000) == [], ms    # during a long step


def test_a_logged_edge_alone_is_no_press():
    # One rising edge whose handler finds the line low again at once: noise (an ESD
    # spark, a bump), not an OK.
    pin, b = _one()
    ev = []
    t = _run(b, 0, 100, ev)
    b.edge(0, t)
    _run(b, t, t + 300, ev)
    assert ev == []


def test_boards_count_both_edges_of_each_button():
    from fakes import install_fake_hardware

    for name, table in _MAPS.items():
        m, e, undo = install_fake_hardware()
        try:
            board = __import__("boards." + name, None, None, ["open"]).open()
            now = [0]
            board.ticks_ms = lambda: now[0]
            for gpio, rest, _, _ in table:
                m.pins[gpio].level = rest
            b = board.buttons
            t = _run(b, 0, 200, [])
            for gpio, rest, short, _ in table:
                pin = m.pins[gpio]
                assert pin.irq_trigger == m.Pin.IRQ_RISING | m.Pin.IRQ_FALLING, (name, gpio)
                now[0] = t + 10
                m.block()           # a flash erase: the tap comes and goes meanwhile
                pin.drive(1 - rest)
                now[0] = t + 60
                pin.drive(rest)
                now[0] = t + 80
                m.unblock()
                ev = []
                t = _run(b, t + 80, t + 200, ev)
                assert ev == [short & 0xF], (name, gpio, ev)
        finally:
            undo()


def test_after_a_light_sleep_the_buttons_read_and_interrupt_again():
    # The sleep routes the wake pins to the RTC domain; the board routes them back.
    from fakes import install_fake_hardware

    for name, table in _MAPS.items():
        m, e, undo = install_fake_hardware()
        try:
            board = __import__("boards." + name, None, None, ["open"]).open()
            if board.light_sleep is None:   # the CoreInk: it does not light-sleep
                continue
            now = [0]
            board.ticks_ms = lambda: now[0]
            for gpio, rest, _, _ in table:
                m.pins[gpio].level = rest
            b = board.buttons
            t = _run(b, 0, 100, [])
            board.light_sleep(5000)
            ev = []
            t = _run(b, t, t + 1500, ev)
            assert ev == [], (name, ev)     # no phantom press, no phantom long press
            for gpio, rest, short, _ in table:
                pin = m.pins[gpio]
                assert not pin.rtc, (name, gpio)
                now[0] = t
                m.block()
                pin.drive(1 - rest)
                now[0] = t + 50
                pin.drive(rest)
                m.unblock()
                ev = []
                t = _run(b, t + 50, t + 200, ev)
                assert ev == [short & 0xF], (name, gpio, ev)
        finally:
            undo()


def test_a_tap_in_a_long_c_call_counts_however_many_timer_alarms_came():
    # A C call with the interrupts on (wlan.active(True) as the radio comes on, a
    # gc.collect): each edge and each alarm of the board's 10 ms timer is scheduled,
    # into MicroPython's queue of 8 (ports/esp32). A timer that kept scheduling a tick
    # every 10 ms would fill it in 80 ms and a tap after that would be lost; one
    # scheduled tick at a time leaves the room to the buttons.
    from fakes import install_fake_hardware

    for name, table in _MAPS.items():
        m, e, undo = install_fake_hardware()
        try:
            board = __import__("boards." + name, None, None, ["open"]).open()
            now = [0]
            board.ticks_ms = lambda: now[0]
            for gpio, rest, _, _ in table:
                m.pins[gpio].level = rest
            b = board.buttons
            while now[0] < 200:         # the loop runs: ticks at once, polls between
                now[0] += 10
                m.elapse(10)
                b.poll(now[0])
            gpio, rest, short, _ = table[0]
            pin = m.pins[gpio]
            m.block(isr=True)
            t0 = now[0]
            while now[0] < t0 + 200:
                now[0] += 10
                m.elapse(10)
                if now[0] == t0 + 120:
                    pin.drive(1 - rest)
                elif now[0] == t0 + 160:
                    pin.drive(rest)
            m.unblock()
            ev = []
            while now[0] < t0 + 400:
                now[0] += 10
                m.elapse(10)
                e = b.poll(now[0])
                if e:
                    ev.append(e)
            assert ev == [short & 0xF], (name, ev)
        finally:
            undo()


def test_a_timer_tick_dropped_by_a_full_scheduler_queue_is_armed_again():
    # Eight edges (a bouncing button) scheduled in a C call with the interrupts on before
    # the timer's alarm: the queue of 8 is full and the one-shot timer's tick is dropped
    # (ports/esp32/machine_timer.c ignores what mp_sched_schedule returns), and with it
    # its re-arming. The main loop's poll arms it again; the ticks come back.
    from fakes import install_fake_hardware

    for name, table in _MAPS.items():
        m, e, undo = install_fake_hardware()
        try:
            board = __import__("boards." + name, None, None, ["open"]).open()
            now = [0]
            board.ticks_ms = lambda: now[0]
            for gpio, rest, _, _ in table:
                m.pins[gpio].level = rest
            b = board.buttons
            ticks = []
            tick = b.tick

            def counted(t):
                ticks.append(t)
                tick(t)
            b.tick = counted
            while now[0] < 200:
                now[0] += 10
                m.elapse(10)
                b.poll(now[0])
            assert len(ticks) >= 19, (name, len(ticks))
            gpio, rest, short, _ = table[0]
            pin = m.pins[gpio]
            m.block(isr=True)
            for k in range(8):
                pin.drive(1 - rest if k % 2 == 0 else rest)
            now[0] += 10
            m.elapse(10)            # the alarm: its tick finds the queue full
            m.unblock()
            del ticks[:]
            ev = []
            while now[0] < 800:
                now[0] += 10
                m.elapse(10)
                got = b.poll(now[0])
                if got:
                    ev.append(got)
            assert len(ticks) >= 50, (name, len(ticks))
        finally:
            undo()
