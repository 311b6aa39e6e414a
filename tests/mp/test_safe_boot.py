# Boot always ends on a usable screen (firmware/start.py): faults drawn, then deep sleep
# rather than spin; safe mode; events the engine refuses on resume reported. On the sim
# board in fake time (tests/fakes.py). MicroPython only: run with tests/mp_run.py.
from apphelp import boot, flash, press
from boardrig import INDEX, START_MS, fake_board
from engine_core import codec
from engine_core.header import encode_header
from engine_core import codes as C
from engine_core.rules import Rules
from firmware import start
from firmware.journal import Journal
from firmware.journal.reader import JournalReader
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
    held = [(START_MS - 100, INDEX["back"])]      # BACK held at power-on, for 1 s
    b = fake_board(held, stop_ms=START_MS + 3000, nor=nor, hold_ms=1100)
    a = start.run(b)
    assert a is not None and a.safe and a.s is None
    assert a.screen == SYNC and "safe mode" in b.display.screen_text()
    assert "every hand is saved" not in b.display.screen_text()
    # The PC's hello: the unresumed sitting is finished, so the sync sends it.
    from engine_core import wire
    from fakes import FakeLine
    line = FakeLine(wire.request(0, 1, "H", b"1"))
    from firmware.hello import HelloGate
    a._port = line
    a._gate = HelloGate(a._peek)
    assert a.poll_link()
    assert a.journal.open_sitting() is None
    assert [s for s, fin, syn, size in JournalReader(a.journal).sittings() if fin and not syn] == [sid]
    a.sync.close()
    assert not a.poll_link()    # the session over: the endpoint leaves the heap
    assert a.sync is None


def test_the_press_that_wakes_the_board_is_no_safe_mode():
    nor = flash()
    a = boot(nor)
    press(a, "ok")
    held = [(START_MS - 100, INDEX["ok"])]
    b = fake_board(held, stop_ms=START_MS + 3000, nor=nor, hold_ms=1100)
    b.woke = lambda: True
    a = start.run(b)
    assert not a.safe and a.s is not None and a.screen == HOME


def test_events_refused_on_resume_are_reported():
    nor = flash()
    a = boot(nor)
    press(a, "ok", "next", "ok")    # E bids 30
    # An event the engine refuses (a bid of 29) on flash, as a newer or buggy build
    # might have written it.
    buf = bytearray(MAX_EVENT_BYTES)
    n = codec.encode_into(C.event(C.EV_BID, 29), buf, 0)
    a.journal.append(bytes(buf[:n]))
    a = boot(nor)
    assert a.s.high_value() == 30
    assert "1 saved events refused" in a.fb.screen_text()


def test_rules_header_still_resumes():
    # The check above is about the events: a good header resumes as before.
    nor = flash()
    j = Journal(nor)
    j.mount()
    j.begin_sitting(encode_header(Rules(0), 0))
    a = boot(nor)
    assert a.s is not None and a.screen == HOME
