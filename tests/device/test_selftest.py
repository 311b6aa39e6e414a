# The self-test (firmware/ui/selftest.py): from the menu on the sim, and at a device
# board's first boot on fake hardware (tests/kit/chip/fakes.py).
from apphelp import boot, press, start, text
from firmware.codes import MENU_SCREEN, SETUP
import scratch

SELFTEST = "selftest"     # firmware/ui/selftest.py's screen name

START_MS = 1000


def test_the_menu_opens_the_self_test_which_names_each_key_pressed():
    a = boot()
    start(a)                            # a sitting: the menu opens from its score
    press(a, "menu", "next", "next", "next", "next", "ok")     # after the sync
    assert a.screen == SELFTEST, a.screen
    a.render()
    t = text(a)
    assert "Self-test" in t and "key: none yet" in t, t
    assert "journal: 1 sitting, 1 to sync" in t and "battery: not measured" in t, t
    for name, shown in (("next", "key: NEXT"), ("prev", "key: PREV"), ("ok", "key: OK"),
                        ("back", "key: BACK"), ("long next", "key: NEXT")):
        press(a, name)
        a.render()
        assert a.screen == SELFTEST and shown in text(a), (name, text(a))
    assert a.fields[0] == 0x0F          # all four ticked
    # the test pattern: the panel's corners and a band of squares, black
    fb = a.fb
    assert fb.pixel(0, 0) == 0 and fb.pixel(fb.width - 1, fb.height - 1) == 0
    press(a, "menu")
    assert a.screen == MENU_SCREEN


def test_the_journal_line_says_an_empty_journal():
    a = boot()
    a.go(SELFTEST)
    a.render()
    assert "journal: empty" in text(a), text(a)


def _device(path):
    from boards.sim.flash import NorFlash
    from costclock import FakeCell
    from fakes import FakeClock, install_fake_hardware
    m, e, undo = install_fake_hardware()
    board = __import__("boards.lilygo_t5_213", None, None, ["open"]).open()
    m.pins[39].level = 1
    m.ADC.cell = FakeCell(3.9)
    m.ADC.ratio = board.battery_ratio
    clock = FakeClock(START_MS)
    board.ticks_ms = clock.ticks_ms
    board.sleep_ms = clock.sleep_ms
    board.flash = NorFlash(8, 4096)
    board.display.busy_timeout_ms = 30
    board.settings_path = path
    said = []
    draw = board.display.text

    def spy(s, x, y, c=1):
        said.append(s)
        draw(s, x, y, c)
    board.display.text = spy

    class Stop:
        def __init__(self, b):
            self.b = b

        def poll(self, now):
            return -1 if clock.t >= START_MS + 2000 else self.b.poll(now)

        def held(self):
            return self.b.held()

        def busy(self):
            return self.b.busy()

        def skip_held(self, now):
            self.b.skip_held(now)
    board.buttons = Stop(board.buttons)
    return board, m, clock, said, undo


def test_a_device_boards_first_boot_shows_the_self_test_then_the_setup():
    import os
    from firmware import start as S
    path = scratch.path("first.settings")
    try:
        os.remove(path)
    except OSError:
        pass
    board, m, clock, said, undo = _device(path)
    try:
        a = S.run(board)
        assert a.screen == SELFTEST, a.screen
        words = " ".join(said)
        assert "Self-test" in words and "journal: empty, " in words, words
        assert "battery: 3.8" in words or "battery: 3.9" in words, words
        os.stat(path)                   # the settings written: it was the first boot
        del said[:]
        clock.t = START_MS
        a = S.run(board)
        assert a.screen == SETUP, a.screen
    finally:
        undo()
        try:
            os.remove(path)
        except OSError:
            pass
