# The main loop on a board in fake time (tests/kit/chip/fakes.py): a slow e-paper panel, presses
# from a script. MicroPython only: run with tests/mp_run.py.
from apphelp import boot, press, same_state
from boardrig import PLAY, fake_board, run_loop, script
from engine_core.codes import TRUMP


def _played_one_at_a_time():
    a = boot()
    press(a, *PLAY)
    return a


def test_no_press_is_lost_to_a_slow_refresh_and_the_order_is_kept():
    presses = script(PLAY, 150)
    b = fake_board(presses, stop_ms=presses[-1][0] + 6000)
    lp = run_loop(b)
    a = lp.app
    want = _played_one_at_a_time()
    assert lp.keys == len(PLAY), lp.keys
    assert b.keys.dropped == 0
    assert a.scorer.s.hands() == 1 and a.scorer.s.score(1) == 1
    assert a.scorer.s.high_value() == 30 and a.scorer.s.phase() == TRUMP  # hand 2: S bid 30, 3 passes
    assert same_state(a.scorer.s, want.scorer.s)
    # The panel was busy for most of the presses; it shows the last state in the end.
    assert b.display.busy_ms > 150 * len(PLAY)
    assert lp.draws < len(PLAY)
    assert a.fb.name == "contract" and "S bid 30" in b.display.screen_text()


class _PanelRam:
    # Fake SPI bus of an SSD1680 panel (rotate=0, 296x128: its RAM window streams in
    # buffer order), keeping only what the test asks: the last image written to each RAM
    # and the kind of every refresh. BUSY reads busy for `reads` reads after each 0x20.
    def __init__(self, dc, busy, reads):
        self.dc = dc
        self.busy = busy
        self.reads = reads
        self.cmd = None
        self.ram = {0x24: bytearray(), 0x26: bytearray()}
        self.kinds = []

    def write(self, buf):
        if self.dc.level == 0:
            self.cmd = buf[0]
            if self.cmd in self.ram:
                self.ram[self.cmd] = bytearray()
            elif self.cmd == 0x20:
                self.busy.hold(1, self.reads)
        elif self.cmd in self.ram:
            self.ram[self.cmd] += buf
        elif self.cmd == 0x22:
            self.kinds.append(buf[0])


def test_on_an_ssd1680_the_loop_refreshes_in_part_and_the_old_image_stays_right():
    # The real driver on a fake bus, presses every 150 ms against refreshes of 30 polls:
    # the frame on the panel goes to the controller's 0x26 each time a refresh is seen
    # done, so no refresh is a full one but those the app asks for, and the RAMs end with
    # the last screen.
    from fakes import FakePin
    from firmware.display.ssd1680 import SSD1680

    presses = script(PLAY, 150)
    b = fake_board(presses, stop_ms=presses[-1][0] + 6000)
    dc, busy = FakePin(0), FakePin(0)
    bus = _PanelRam(dc, busy, 30)
    b.display = SSD1680(bus, FakePin(1), dc, FakePin(1), busy)
    asked = []
    show = b.display.show

    def shown(full=False):
        asked.append(0xF7 if full or not asked else 0xFF)   # the first is full anyway
        show(full)

    b.display.show = shown
    lp = run_loop(b)
    assert lp.keys == len(PLAY) and lp.app.scorer.s.hands() == 1
    assert len(asked) > 3 and 0xFF in asked
    assert bus.kinds == asked       # a full refresh only where the app asked for one
    frame = bytes(b.display._buf)
    assert bytes(bus.ram[0x24]) == frame and bytes(bus.ram[0x26]) == frame


def test_a_sync_longer_than_the_busy_timeout_is_no_stuck_panel():
    # The panel refreshing when a session opens, the session busy for 20 s: its end
    # draws the outcome, a refresh like any other, not a panel stuck for 20 s.
    from boardrig import fake_board, run_loop
    b = fake_board([], stop_ms=40000)
    b.display.busy_timeout_ms = 15000
    polls = []
    from firmware import app as A
    poll_link = A.App.poll_link

    def session(self):
        polls.append(b.clock.t)
        if 3000 <= b.clock.t < 23000:
            b.clock.t += 10
            if b.clock.t >= 23000:
                self.render()       # the outcome, as Link.poll draws it
            return True
        return False
    A.App.poll_link = session
    try:
        lp = run_loop(b)
    finally:
        A.App.poll_link = poll_link
    assert lp.app is not None and b.clock.t >= 40000


def test_an_idle_round_of_the_main_loop_allocates_nothing():
    # An idle board goes round every 10 ms (buttons, panel, line, power): a round that
    # allocates fills the heap and wakes the collector over and over.
    import micropython
    from boards.sim.board import Board
    from boards.sim.flash import NorFlash
    from fakes import FakePin
    from firmware import app as A
    from firmware.buttons import Buttons
    from firmware.codes import OK
    from firmware.loop import Loop
    from firmware.power import Power

    b = Board(NorFlash(8, 4096))
    b.buttons = Buttons([(FakePin(0), OK)])
    b.sleep_ms = lambda ms: None
    a = A.App(b.display, b.flash, None)
    a.boot()
    a.render()
    lp = Loop(b, a, Power(b, 10))
    for _ in range(5):
        lp.step()
    draws = lp.draws
    micropython.heap_lock()
    try:
        for _ in range(20):
            ok = lp.step()
    finally:
        micropython.heap_unlock()
    assert ok and lp.draws == draws and lp.keys == 0
