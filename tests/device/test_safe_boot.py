# Boot always ends on a usable screen (firmware/start.py): faults drawn, then deep sleep
# rather than spin; safe mode; events the engine refuses on resume reported. On the sim
# board in fake time (tests/kit/chip/fakes.py). MicroPython only: run with tests/mp_run.py.
from apphelp import boot, flash, press
from boardrig import INDEX, START_MS, fake_board
from engine_core import codec
from engine_core.header import encode_header
from engine_core import codes as C
from engine_core.texas42.rules import Rules
from firmware import start
from firmware.journal import Journal
from engine_core.journal.reader import JournalReader
from engine_core.codes import MAX_EVENT_BYTES
from firmware.codes import HOME, SYNC


def _newer_sitting(nor):
    # A sitting whose header this code cannot read (a newer codec's), with a hand on it.
    j = Journal(nor)
    j.mount()
    j.begin_sitting(b"\x7f\x09from a newer codec")
    j.append(b"\x01")
    return j.open_sitting()


def test_a_sitting_that_cannot_be_resumed_is_drawn_then_the_board_deep_sleeps():
    nor = flash()
    _newer_sitting(nor)
    b = fake_board([], stop_ms=START_MS + 600000, nor=nor, deep=True)
    start.run(b)
    text = b.display.screen_text().replace("\n", " ")
    assert "every hand is saved" in text and "hold a button at power-on" in text
    assert "cannot be resumed" in text
    assert b.restarts == []
    assert len(b.deep) == 1
    assert 60000 <= b.deep[0] - START_MS < 65000     # a minute, not a spin forever


def test_a_press_on_the_crash_screen_restarts():
    nor = flash()
    _newer_sitting(nor)
    b = fake_board([(START_MS + 5000, INDEX["ok"])], stop_ms=START_MS + 600000, nor=nor,
                   deep=True)
    start.run(b)
    assert len(b.restarts) == 1 and b.deep == []


def test_a_board_that_does_not_open_goes_to_the_repl_with_a_message():
    assert start.main("no_such_board") is None


def test_safe_mode_skips_resume_and_hands_the_sitting_to_the_pc():
    nor = flash()
    sid = _newer_sitting(nor)
    held = [(START_MS - 100, INDEX["back"])]      # BACK held at power-on, for 2.2 s
    b = fake_board(held, stop_ms=START_MS + 5000, nor=nor, hold_ms=2200)
    a = start.run(b)
    assert a is not None and a.safe and a.scorer.s is None
    assert a.screen == SYNC and "safe mode" in b.display.screen_text()
    assert "every hand is saved" not in b.display.screen_text()
    # The PC's hello: the unresumed sitting is finished, so the sync sends it.
    from engine_core import wire
    from fakes import FakeLine
    line = FakeLine(wire.request(0, 1, "H", b"1"))
    a.link.attach(line)
    assert a.poll_link()
    assert a.scorer.journal.open_sitting() is None
    assert [s for s, fin, syn, size in JournalReader(a.scorer.journal).sittings() if fin and not syn] == [sid]
    a.link.sync.close()
    assert not a.poll_link()    # the session over: the endpoint leaves the heap
    assert a.link.sync is None


def test_the_press_that_wakes_the_board_is_no_safe_mode():
    nor = flash()
    a = boot(nor)
    press(a, "ok")
    held = [(START_MS - 100, INDEX["ok"])]
    b = fake_board(held, stop_ms=START_MS + 5000, nor=nor, hold_ms=2200)
    b.woke = lambda: True
    a = start.run(b)
    assert not a.safe and a.scorer.s is not None and a.screen == HOME


def test_the_press_that_switches_a_coreink_on_is_no_safe_mode():
    nor = flash()
    a = boot(nor)
    press(a, "ok")
    held = [(START_MS - 100, INDEX["menu"])]      # the power button, held a second
    b = fake_board(held, stop_ms=START_MS + 3000, nor=nor, hold_ms=1000)
    a = start.run(b)
    assert not a.safe and a.scorer.s is not None and a.screen == HOME


def test_safe_mode_comes_before_any_screen_module_loads():
    import sys
    nor = flash()
    held = [(START_MS - 100, INDEX["back"])]
    b = fake_board(held, stop_ms=START_MS + 5000, nor=nor, hold_ms=2200)
    seen = []
    held_fn = b.buttons.held

    def held_spy():
        seen.append([k for k in sys.modules if k.startswith("firmware.ui.")
                     or k == "firmware.app"])
        return held_fn()
    b.buttons.held = held_spy
    sys.modules.pop("firmware.app", None)
    for k in [k for k in sys.modules if k.startswith("firmware.ui.")]:
        sys.modules.pop(k)
    a = start.run(b)
    assert a.safe and seen and seen[0] == [], seen[:1]


def test_in_safe_mode_no_press_starts_a_sitting():
    nor = flash()
    sid = _newer_sitting(nor)
    held = [(START_MS - 100, INDEX["back"])]
    presses = held + [(START_MS + 3000 + k * 300, INDEX["ok"]) for k in range(6)]
    b = fake_board(presses, stop_ms=START_MS + 9000, nor=nor, hold_ms=2200)
    a = start.run(b)
    assert a.safe and a.screen == SYNC
    assert a.scorer.journal.open_sitting() == sid     # still the one not resumed
    assert "safe mode" in b.display.screen_text()


def test_events_refused_on_resume_are_reported():
    nor = flash()
    a = boot(nor)
    press(a, "ok", "next", "ok")    # E bids 30
    # An event the engine refuses (a bid of 29) on flash, as a newer or buggy build
    # might have written it.
    buf = bytearray(MAX_EVENT_BYTES)
    n = codec.encode_into(C.event(C.EV_BID, 29), buf, 0)
    a.scorer.journal.append(bytes(buf[:n]))
    a = boot(nor)
    assert a.scorer.s.high_value() == 30
    assert "1 saved events refused" in a.fb.screen_text()


def test_rules_header_still_resumes():
    # The check above is about the events: a good header resumes as before.
    nor = flash()
    j = Journal(nor)
    j.mount()
    j.begin_sitting(encode_header(Rules(0), 0))
    a = boot(nor)
    assert a.scorer.s is not None and a.screen == HOME


def _device(name, m):
    # A device board opened on fake hardware, on the sim's flash and a fake clock.
    from boards.sim.flash import NorFlash
    from fakes import FakeClock
    board = __import__("boards." + name, None, None, ["open"]).open()
    if name == "m5stack_coreink":
        for gpio in (37, 38, 39):   # pulled up on the board: released
            m.pins[gpio].level = 1
    from costclock import FakeCell
    m.ADC.cell = FakeCell(3.9)      # a charged LiPo
    m.ADC.ratio = board.battery_ratio
    clock = FakeClock(START_MS)
    board.ticks_ms = clock.ticks_ms
    board.sleep_ms = clock.sleep_ms
    board.flash = NorFlash(8, 4096)
    board.display.busy_timeout_ms = 30
    m.WDT.now = clock.ticks_ms
    return board, clock


def test_a_stuck_busy_line_ends_in_deep_sleep_not_awake_at_the_repl():
    from fakes import install_fake_hardware
    for name, busy in (("esp32_epd29", 1), ("m5stack_coreink", 0)):
        m, e, undo = install_fake_hardware()
        try:
            board, clock = _device(name, m)
            m.pins[4].level = busy      # BUSY stuck: the panel never answers
            assert start.run(board) is None
            assert m.deep == [None], (name, m.deep)     # asleep, a press wakes it
            assert 60000 <= clock.t - START_MS < 65000
        finally:
            undo()


def test_a_board_that_does_not_open_sleeps_and_tries_again():
    from fakes import install_fake_hardware
    m, e, undo = install_fake_hardware()
    try:
        waited = []
        assert start.main("no_such_board", waited.append) is None
        assert waited == [start.CRASH_SLEEP_MS] and m.deep == [600000]     # ten minutes
    finally:
        undo()
