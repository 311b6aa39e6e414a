# Power (firmware/power.py) on the sim board in fake time (tests/kit/chip/fakes.py): the CPU clock
# down and light sleep while idle, a press waking it and counting, deep sleep after ten
# idle minutes with the score on the panel. MicroPython only: run with tests/mp_run.py.
from boardrig import START_MS, fake_board, run_loop, script
from firmware import power as P
from firmware.codes import BID, HOME


def test_idle_board_slows_light_sleeps_and_a_press_wakes_it():
    presses = script(("ok", "ok"), 20000)       # start a sitting; 20 s later a new hand
    b = fake_board(presses, stop_ms=presses[1][0] + 4000, light=True, deep=True)
    lp = run_loop(b)
    pw = lp.power
    assert lp.keys == 2 and lp.app.screen == BID     # the waking press counted
    assert b.freqs[:2] == [P.SLOW_HZ, P.FAST_HZ]
    assert pw.light_sleeps >= 1
    # Asleep from AWAKE_MS after the first screen to the second press, less the refresh.
    assert pw.light_ms >= 20000 - P.AWAKE_MS - 3000, pw.light_ms
    assert b.display.sleeps >= 1 and b.deep == []


def test_ten_idle_minutes_draw_the_score_then_deep_sleep():
    presses = script(("ok", "ok", "ok"), 200)   # a sitting, a bid made
    stop = START_MS + P.DEEP_SLEEP_MS + 10000
    b = fake_board(presses, stop_ms=stop, light=True, deep=True)
    b.wakes_on_every_button = False     # no naps in the refreshes: the idle sleeps alone
    lp = run_loop(b)
    assert len(b.deep) == 1
    idle_from = presses[-1][0]
    assert P.DEEP_SLEEP_MS <= b.deep[0] - idle_from < P.DEEP_SLEEP_MS + 5000
    assert lp.app.screen == HOME and b.display.name == "score"
    # The ten minutes were spent asleep, not polling every 10 ms.
    assert lp.power.light_ms > P.DEEP_SLEEP_MS - 10000
    assert lp.power.light_sleeps < 10


def test_in_a_refresh_only_a_board_every_button_wakes_naps_and_never_with_one_down():
    for naps in (False, True):
        b = fake_board([], stop_ms=START_MS + 4000, light=True, full_ms=6000)
        b.wakes_on_every_button = naps
        lp = run_loop(b)
        if naps:        # asleep by REFRESH_NAP_MS while the boot's full refresh runs
            assert lp.power.light_sleeps > 30 and lp.power.light_ms > 3500
        else:
            assert lp.power.light_sleeps == 0   # the full refresh outlasted the stop
    # A button held through a refresh: awake, polling.
    b = fake_board([(START_MS, 2)], stop_ms=START_MS + 4000, light=True,
                   full_ms=6000, hold_ms=5000)
    lp = run_loop(b)
    assert lp.power.light_sleeps == 0


def test_a_press_in_play_listens_briefly_a_waking_press_and_the_sync_screen_longer():
    presses = script(("ok", "ok"), 3000)        # a sitting started, a bid: in play
    b = fake_board(presses, stop_ms=presses[-1][0] + 20000, light=True, full_ms=600)
    b.wakes_on_every_button = False
    light = []
    sleep = b.light_sleep

    def spy(ms):
        light.append(b.clock.t)
        sleep(ms)
    b.light_sleep = spy
    run_loop(b)
    # the first light sleep after the last press: PLAY_AWAKE_MS on (+ its refresh)
    after = [t for t in light if t > presses[-1][0]]
    assert after and after[0] - presses[-1][0] < 1500 + 1000    # PLAY_AWAKE_MS, after[:1]
    presses = [(START_MS + 500, 2), (START_MS + 65000, 1)]    # a minute after: a waking press
    presses = presses[:2]
    b = fake_board(presses, stop_ms=presses[-1][0] + 4000, light=True)
    b.wakes_on_every_button = False
    light = []
    sleep = b.light_sleep

    def spy(ms):
        light.append(b.clock.t)
        sleep(ms)
    b.light_sleep = spy
    run_loop(b)
    assert not [t for t in light if presses[-1][0] < t < presses[-1][0] + P.AWAKE_MS]


# -- the watchdog and the battery, on a device board opened on fake hardware ----------

def _device(name, volts=3.9):
    from costclock import FakeCell
    from fakes import FakeClock, install_fake_hardware
    from boards.sim.flash import NorFlash
    m, e, undo = install_fake_hardware()
    board = __import__("boards." + name, None, None, ["open"]).open()
    for gpio in (37, 38, 39):   # pulled up on the boards: released
        if gpio in m.pins:
            m.pins[gpio].level = 1
    if name == "m5stack_coreink":
        m.pins[4].level = 1     # its BUSY: high when idle
    m.ADC.cell = FakeCell(volts)
    m.ADC.ratio = board.battery_ratio
    clock = FakeClock(START_MS)
    board.ticks_ms = clock.ticks_ms
    board.sleep_ms = clock.sleep_ms
    board.flash = NorFlash(8, 4096)
    board.display.busy_timeout_ms = 30
    m.WDT.now = clock.ticks_ms
    return board, clock, m, undo


def test_the_loop_feeds_the_watchdog_and_the_repl_gets_its_longest_timeout():
    from firmware import link
    from firmware.app import App
    from firmware.loop import Loop
    board, clock, m, undo = _device("esp32_epd29")
    try:
        app = App(board.display, board.flash, None)
        app.boot()
        lp = Loop(board, app, P.Power(board, 10))
        for _ in range(50):
            lp.step()
        assert m.WDT.timeout == 30000 and m.WDT.feeds >= 50
        try:
            link._to_repl()
        except KeyboardInterrupt:
            pass
        assert m.WDT.timeout == 3600000    # an hour
    finally:
        undo()


def test_a_restart_after_a_hang_says_so():
    from firmware import start
    board, clock, m, undo = _device("lilygo_t5_213")
    try:
        m.cause = m.WDT_RESET
        board.buttons = _StopAt(board.buttons, clock, START_MS + 2000)
        a = start.run(board)
        assert a is not None and "after a hang" in (a.banner or "")
    finally:
        undo()


class _StopAt:
    def __init__(self, buttons, clock, t):
        self.b, self.clock, self.t = buttons, clock, t

    def poll(self, now):
        return -1 if self.clock.t >= self.t else self.b.poll(now)

    def held(self):
        return self.b.held()

    def busy(self):
        return self.b.busy()

    def skip_held(self, now):
        self.b.skip_held(now)


def test_a_low_battery_warns_on_the_score_screen():
    from firmware import battery
    board, clock, m, undo = _device("lilygo_t5_213", volts=3.5)
    try:
        from firmware.app import App
        app = App(board.display, board.flash, None)
        app.boot()
        app.battery_low = False
        assert battery.check(board, app) and app.battery_low
        m.ADC.cell.ocv = 3.9
        assert not battery.check(board, app) and not app.battery_low
    finally:
        undo()


def test_below_the_floor_a_last_screen_then_deep_sleep_and_no_full_refresh():
    from firmware import start
    from firmware.battery import CHECK_MS
    board, clock, m, undo = _device("m5stack_coreink", volts=3.3)
    try:
        shown = []
        show = board.display.show

        def spy(full=False):
            shown.append((full, board.display.low_power))
            show(full)
        board.display.show = spy
        board.buttons = _StopAt(board.buttons, clock, START_MS + 2000)
        start.run(board)
        assert m.deep[0] == CHECK_MS
        assert shown[0] == (False, True)        # the last screen: a partial refresh
        assert not board.display._shown         # no full refresh went to the panel
        # Charged again: after the timer's wake it plays (and refreshes in full).
        m.deep[:] = []
        m.ADC.cell.ocv = 3.95
        board.display.low_power = False
        board.buttons.t = clock.t + 2000
        shown[:] = []
        start.run(board)
        assert m.deep == [] and shown and board.display._shown, (m.deep, shown)
    finally:
        undo()


class _AskingRadio:
    """The radio's sender as Power sees it (firmware/radio/sender.py): resting, with an
    ask for the next table due every SLOW_MS (wakes, wake_at); each poll counted."""

    def __init__(self, clock, every):
        self.clock = clock
        self.every = every
        self.wakes = True
        self.wake_at = every
        self.polls = []

    def poll(self):
        now = self.clock.t
        if now >= self.wake_at:
            self.polls.append(now)
            self.wake_at = now + self.every
        return False

    def stop(self):
        pass


def test_a_radio_asking_again_later_wakes_a_light_sleeping_board_then():
    from boardrig import A
    from firmware.loop import Loop
    presses = script(("ok",), 200)
    stop = START_MS + 60000
    b = fake_board(presses, stop_ms=stop, light=True, deep=True)
    app = A.App(b.display, b.flash, None)
    app.boot()
    app.render()
    radio = app.radio = _AskingRadio(b.clock, 10000)
    radio.wake_at = START_MS + 10000
    lp = Loop(b, app, P.Power(b, 10))
    lp.run()
    # Asleep between the asks, and woken by the timer for each: about every 10 s.
    assert lp.power.light_ms > 40000, lp.power.light_ms
    assert len(radio.polls) >= 4, radio.polls
    assert all(9990 <= b2 - a2 <= 10500 for a2, b2 in zip(radio.polls, radio.polls[1:])), \
        radio.polls
