# The USB line while no sync is open (firmware/hello.py, firmware/link.py): only a whole
# hello with a good CRC opens the sync; noise, a terminal, other requests and a lone
# Ctrl-C change nothing.
# MicroPython only: run with tests/mp_run.py.
from apphelp import boot, press
from engine_core import wire
from fakes import FakeLine
from firmware.hello import HELLO, NONE, REPL, HelloGate
from firmware.codes import HOME, OVER_SCREEN, SYNC

HELLO_LINE = wire.request(0, 1, "H", b"1")


NOISE = (b"\x00\xff\x55garbage\r\n", b"ls /dev\r\n", b"~0000 not a request*12345678\n",
         HELLO_LINE[:-3] + b"00\n",                 # a hello with a wrong CRC
         wire.request(0, 1, "L", b"u"),             # a good request, but not a hello
         HELLO_LINE[:-1])                           # a hello cut short
CTRL_C = (b"\x03", b"\r\x03")     # lone Ctrl-Cs (a terminal's)


def test_only_a_whole_hello_with_a_good_crc_opens_the_sync():
    line = FakeLine()
    gate = HelloGate(bytearray(64))
    t = 0
    for noise in NOISE + CTRL_C:
        line.arrive(noise)
        for _ in range(40):
            assert gate.poll(line, t) == NONE, noise
            t += 10
    assert not line.data and gate.dropped > 0
    line.arrive(b"\x7f" + HELLO_LINE)
    assert gate.poll(line, t) == HELLO
    assert bytes(gate.buf[:gate.n]) == HELLO_LINE


def test_a_request_of_a_closed_session_gets_error_2_so_the_pc_says_hello_again():
    # The PC's session ended (idle, a REPL tool's Ctrl-C, a restart): its next request
    # is answered "no session", which makes the PC send a hello (docs/sync-protocol.md).
    line = FakeLine(b"\x01garbage\n" + wire.request(0x1234, 7, "F", b"8192 1-3"))
    gate = HelloGate(bytearray(64))
    assert gate.poll(line, 0) == NONE
    r = wire.ReplyReader()
    r.feed(bytes(line.out))
    kind, seq, payload = r.next()
    assert (kind, seq, payload[0]) == ("e", 7, 2) and r.next() is None
    line.out = bytearray()
    line.arrive(wire.request(0x1234, 8, "L", b"u")[:-4] + b"00\n")    # a wrong CRC
    assert gate.poll(line, 10) == NONE and not line.out


def test_the_repl_tools_ctrl_c_is_honoured_and_left_to_the_repl():
    line = FakeLine(b"\r\x03")
    gate = HelloGate(bytearray(64))
    assert gate.poll(line, 0) == NONE
    line.arrive(b"\r\x01")      # mpremote: Ctrl-A at once, for the raw REPL
    assert gate.poll(line, 5) == REPL
    assert bytes(line.data) == b"\r\x01"    # not taken: the REPL reads it


def _app_on(line, a=None):
    a = a or boot()
    a.link.attach(line)
    calls = []
    a.link.to_repl = lambda: calls.append(1)
    return a, calls


def test_noise_on_the_line_changes_nothing_on_the_table():
    a = boot()
    press(a, "ok", "ok", "ok")      # a sitting, a hand being bid
    screen, frames, fulls = a.screen, a.fb.frames, a.fb.fulls
    line = FakeLine()
    a, calls = _app_on(line, a)
    for noise in NOISE:
        line.arrive(noise)
        for _ in range(3):
            assert not a.poll_link()
    assert a.link.sync is None and a.screen == screen
    assert a.fb.frames == frames and a.fb.fulls == fulls
    assert calls == []
    assert bytes(line.out[:3]) == b"\xfe1e"     # the request of no session: error 2
    line.out = bytearray()
    line.arrive(HELLO_LINE)
    assert a.poll_link()            # the sync opens, and answers the hello
    assert a.screen == SYNC and a.link.sync is not None
    assert bytes(line.out[:3]) == b"\xfe1h"     # the hello answered


def test_a_game_over_is_not_finished_by_noise():
    # A sitting played out stays open (BACK can still take its last hand back) until the
    # PC's hello; noise used to finish it, with two full refreshes.
    a = boot()
    press(a, "ok")
    while not a.scorer.s.over() and a.scorer.s.hands() < 14:
        press(a, "next", "ok", "ok", "ok", "ok", "ok", "ok")     # 30, 3 passes, made
    assert a.scorer.s.over() and a.screen == OVER_SCREEN
    line = FakeLine(b"hello?\r\n" * 4 + b"\x00\x13\x11")
    a, calls = _app_on(line, a)
    j = a.scorer.journal
    sid = j.open_sitting()
    fulls = a.fb.fulls
    for _ in range(10):
        a.poll_link()
    assert j.open_sitting() == sid and a.screen == OVER_SCREEN and a.fb.fulls == fulls
    line.arrive(HELLO_LINE)
    a.poll_link()
    assert j.open_sitting() is None     # the hello: now it goes to the PC


def test_ctrl_c_outside_a_session_stays_in_the_game_unless_a_repl_tool_asks():
    a = boot()
    press(a, "ok")
    line = FakeLine(b"\x03")
    a, calls = _app_on(line, a)
    for _ in range(5):
        a.poll_link()
    assert calls == [] and a.screen == HOME
    line.arrive(b"\r\x03\r\x01")
    a.poll_link()
    a.poll_link()
    assert calls == [1]


def test_a_lone_ctrl_c_in_a_session_is_noise_and_the_sync_goes_on():
    # A stray 0x03 in the middle of a sync used to close the session (and the PC then
    # waited for replies that never came); only CR Ctrl-C, a REPL tool's call, does.
    from firmware.journal import Journal
    from firmware.sync.endpoint import SyncEndpoint
    from boards.sim.flash import NorFlash
    j = Journal(NorFlash(2, 4096))
    j.mount()
    j.begin_sitting(b"\x01\x00")
    j.finish()
    line = FakeLine()
    calls = []
    ep = SyncEndpoint(line, j, "T42-TEST", "0.1.0", kbd_intr=lambda v: None,
                      interrupt=lambda: calls.append(1))
    line.arrive(HELLO_LINE)
    ep.poll()
    session = wire.get_u16(bytes(line.out)[wire.HEAD:], 2)
    line.arrive(b"\x03" + wire.request(session, 2, "L", b""))
    ep.poll()
    while ep.status == "sending":
        ep.poll()
    r = wire.ReplyReader()
    r.feed(bytes(line.out))
    kinds = []
    while True:
        f = r.next()
        if f is None:
            break
        kinds.append(f[0])
    assert ep.session_open and calls == [] and kinds == ["h", "L"], kinds
    line.arrive(b"\r\x03")
    ep.poll()
    assert not ep.session_open and calls == [1]
