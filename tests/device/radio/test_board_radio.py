# A device board's radio under pressure, on fake hardware (boards/sim/chip/) and the esp32
# port's network and espnow as boards/sim/chip/wifi.py copies them: a start that raises
# OSError("WiFi Out of Memory"), a cell below its low mark, the board's transmit power,
# and GPIO39's glitch while WiFi starts (ESP32 errata 3.11).
from boards.sim.flash import NorFlash
from firmware.journal import Journal
from firmware.radio.air import Radio
from firmware.radio import sender as S
import scratch

KEY = bytes(range(16))
START_MS = 1000


def _board(name, volts=3.9):
    from costclock import FakeCell
    from fakes import FakeClock, install_fake_hardware
    from boards.sim.chip import wifi as fakewifi
    m, e, undo = install_fake_hardware()
    clock = FakeClock(START_MS)
    net, undo_net = fakewifi.install(scratch.path("air33"), clock)
    board = __import__("boards." + name, None, None, ["open"]).open()
    for gpio in (37, 38, 39):   # pulled up on the boards: released
        if gpio in m.pins:
            m.pins[gpio].level = 1
    m.ADC.cell = FakeCell(volts)
    m.ADC.ratio = board.battery_ratio
    board.ticks_ms = clock.ticks_ms

    def both():
        undo_net()
        undo()
    return board, m, net, clock, both


def _sender(board):
    j = Journal(NorFlash(8, 4096))
    j.mount()
    j.begin_sitting(b"H" * 8)
    j.append(b"\x01\x02")
    return j, S.Sender(j, Radio(board.radio), KEY, board.ticks_ms)


def test_a_radio_out_of_memory_at_its_start_backs_off_and_comes_back():
    board, m, net, clock, undo = _board("lilygo_t5_213")
    try:
        j, s = _sender(board)
        net.free = 1000                 # ESP-IDF's heap nearly gone
        assert s.poll() is False        # no OSError out of the main loop's poll
        assert s.down == "WiFi Out of Memory" and net.refused == 1 and s.frames == 0
        clock.t += S.BACK_OFF_MS // 2
        j.append(b"\x03")               # a new record does not hurry it
        assert s.poll() is False and net.refused == 1
        clock.t += S.BACK_OFF_MS // 2
        assert s.poll() is False and net.refused == 2      # tried again: still short
        clock.t += S.BACK_OFF_MS        # the second wait is twice the first
        assert s.poll() is False and net.refused == 2
        net.free = 100000
        clock.t += S.BACK_OFF_MS
        s.poll()
        assert net.starts == 1 and s.frames >= 1 and s.down is None and s.failures == 0
        assert net.wlans[-1].txpower == board.tx_dbm == 8.5
        s.stop()
    finally:
        undo()


def test_the_radio_stays_off_below_the_cells_low_mark():
    from firmware.battery import LOW_MV
    for name in ("lilygo_t5_213", "m5stack_coreink", "esp32_epd29"):
        board, m, net, clock, undo = _board(name, volts=(LOW_MV - 60) / 1000)
        try:
            j, s = _sender(board)
            assert s.poll() is False and s.down == "battery low", (name, s.down)
            assert net.starts == 0 and not net.wlans[-1].active(), name
            m.ADC.cell.ocv = 3.9        # charged
            clock.t += S.BACK_OFF_MS
            s.poll()
            assert net.starts == 1 and s.frames >= 1 and s.down is None, name
            assert net.wlans[-1].txpower == board.tx_dbm, name
            s.stop()
        finally:
            undo()


def test_each_board_names_its_transmit_power():
    for name, dbm in (("esp32_epd29", 11), ("lilygo_t5_213", 8.5),
                      ("m5stack_coreink", 8.5)):
        board, m, net, clock, undo = _board(name)
        try:
            assert board.tx_dbm == dbm, name
        finally:
            undo()


def test_the_score_screen_says_the_radio_is_off():
    from boards.sim.board import Board
    from engine_core.texas42 import options as O
    from firmware import app as A
    from firmware.codes import HOME
    board, m, net, clock, undo = _board("lilygo_t5_213")
    try:
        j, s = _sender(board)
        net.free = 0
        s.poll()
        b = Board(NorFlash(8, 4096), record=True)
        a = A.App(b.display, b.flash, None)
        a.boot()
        a.scorer.start(O.resolve("42"), 0)
        a.radio = s
        a.go(HOME)
        a.render()
        assert "NO RADIO" in b.display.screen_text()
        net.free = 100000
        clock.t += S.BACK_OFF_MS
        s.poll()
        a.render()
        assert s.down is None and "NO RADIO" not in b.display.screen_text()
        s.stop()
    finally:
        undo()


def test_gpio39s_glitch_as_wifi_starts_or_the_cell_is_read_is_no_tap():
    # The T5's OK and the CoreInk's dial down are on GPIO39: each WiFi start and each
    # battery read pulls it low for a moment, and its handler runs after, the level high
    # again: a tap that came and went, to a board that did not hush it.
    from firmware.buttons import NONE
    from firmware import battery
    for name in ("lilygo_t5_213", "m5stack_coreink"):
        board, m, net, clock, undo = _board(name)
        try:
            b = board.buttons
            got = []
            battery.at_boot(board)      # as start.py does, before the first poll

            def run(ms):
                end = clock.t + ms
                while clock.t < end:
                    ev = b.poll(clock.t)
                    if ev != NONE:
                        got.append(ev)
                    clock.t += 10
            run(100)
            for _ in range(5):
                battery.millivolts(board)
                run(100)
            w, e = board.radio()
            for _ in range(5):
                w.active(True)
                run(100)
                w.active(False)
            assert got == [] and b.hushed >= 10, (name, got, b.hushed)
            # A real press of that button still counts, a battery read or not.
            pin = m.pins[39]
            pin.drive(0)
            run(30)
            battery.millivolts(board)
            run(40)
            pin.drive(1)
            run(100)
            assert len(got) == 1, (name, got)
        finally:
            undo()
