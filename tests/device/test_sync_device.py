# Tests of the sync endpoint (firmware/sync/endpoint.py) on the MicroPython unix port: a fake serial
# link, a journal on the NOR emulation. Handshake, list, fetch by offset, ack marks synced,
# clock/names/settings, sessions and Ctrl-C; garbage, truncated, corrupted and replayed
# requests leave the journal as it was and the endpoint answering.
import gc

from engine_core import wire
from firmware.sync import endpoint as Y
from firmware.journal import Journal
from engine_core.journal.reader import JournalReader
from boards.sim.flash import NorFlash


class FakeLink:
    """The device's side of a serial line: `feed()` what the host sends; readinto hands
    it over at most `dribble` bytes a call; `frames()` parses what the device wrote."""

    def __init__(self, dribble=1000):
        self.inbox = bytearray()
        self.out = bytearray()
        self.dribble = dribble
        self.writes = 0

    def feed(self, data):
        self.inbox.extend(data)

    def readinto(self, buf):
        n = min(len(buf), len(self.inbox), self.dribble)
        if not n:
            return 0
        i = 0
        while i < n:
            buf[i] = self.inbox[i]
            i += 1
        self.inbox = self.inbox[n:]
        return n

    def write(self, data):
        self.out.extend(data)
        self.writes += 1
        return len(data)

    def frames(self):
        """[(kind letter, seq, payload bytes)] of everything written since the last call;
        asserts nothing but whole, checked frames was written."""
        out = []
        buf = self.out
        pos = 0
        while pos < len(buf):
            at, total = wire.scan_reply(buf, pos, len(buf))
            assert at == pos and total, "stray bytes from the device at %d" % pos
            n = wire.get_u16(buf, at + 4)
            out.append((chr(buf[at + 2]), buf[at + 3], bytes(buf[at + wire.HEAD:at + wire.HEAD + n])))
            pos = at + total
        self.out = bytearray()
        return out


class NullLink(FakeLink):
    def write(self, data):
        self.writes += 1
        return len(data)


class Clock:
    def __init__(self):
        self.t = 1000

    def __call__(self):
        return self.t


class Rig:
    """An endpoint over a FakeLink and a journal, with a scripted host."""

    def __init__(self, finished=3, open_events=2, chunk=64, dribble=1000, events=30):
        self.flash = NorFlash(4, 4096)
        self.j = Journal(self.flash)
        self.j.mount()
        self.sids = []
        k = 0
        while k < finished:
            self.sids.append(self.j.begin_sitting(bytes([1, k, 2, 3, 4])))
            i = 0
            while i < events + k * 7:
                self.j.append(bytes([(i * 7 + k) & 0x7F]) * (1 + i % 3))
                i += 1
            self.j.finish()
            k += 1
        self.open = None
        if open_events:
            self.open = self.j.begin_sitting(b"\x01\x09")
            i = 0
            while i < open_events:
                self.j.append(b"\x11")
                i += 1
        self.link = FakeLink(dribble)
        self.kbd = []
        self.calls = []
        self.interrupts = 0
        self.clock = Clock()
        self.ep = Y.SyncEndpoint(
            self.link, self.j, "T42-TEST", "0.1.0", clock=self._clock, names=self._names,
            settings=self._settings, assign=self._assign, now=lambda: 1700000000, kbd_intr=self.kbd.append,
            interrupt=self._interrupt, chunk=chunk, idle_ms=5000, ticks=self.clock)
        self.session = 0
        self.seq = 0

    def _clock(self, secs, offset):
        self.calls.append(("clock", secs, offset))
        return None

    def _names(self, kind, names):
        self.calls.append(("names", kind, names))
        return "too many names" if len(names) > 6 else None

    def _settings(self, pairs):
        self.calls.append(("settings", pairs))
        return None

    def _assign(self, assign):
        self.calls.append(("assign", assign))
        return "round and table from 1 to 255" if assign and assign[1] > 255 else None

    def _interrupt(self):
        self.interrupts += 1

    def send(self, cmd, args=b"", seq=None, session=None):
        if seq is None:
            self.seq = (self.seq + 1) & 0xFF
            seq = self.seq
        if session is None:
            session = self.session
        line = wire.request(session, seq, cmd, args)
        self.link.feed(line)
        return line

    def run(self, polls=200):
        """Poll until the device has nothing left to say; its frames."""
        i = 0
        while i < polls:
            self.ep.poll()
            i += 1
            if not self.link.inbox and self.ep.status != "sending":
                break
        return self.link.frames()

    def ask(self, cmd, args=b""):
        self.send(cmd, args)
        return self.run()

    def hello(self):
        f = self.ask("H", b"1")
        assert f[-1][0] == "h", f
        self.session = wire.get_u16(f[-1][2], 2)
        return f[-1][2]

    def image(self):
        buf = bytearray(4 * 4096)
        self.flash.readblocks(0, buf, 0)
        return bytes(buf)

    def stream(self, sid):
        r = JournalReader(self.j)
        out = bytearray()
        buf = bytearray(100)
        while True:
            n = r.read(sid, len(out), buf)
            if not n:
                return bytes(out)
            out.extend(buf[:n])

    def synced(self):
        return [s[0] for s in JournalReader(self.j).sittings() if s[2]]


def _error(frame):
    kind, seq, p = frame
    assert kind == "e", frame
    return p[0], wire.get_u32(p, 1), p[5:]


def _entries(frames):
    out = []
    for kind, seq, p in frames:
        assert kind in "lL" and len(p) % 7 == 0, (kind, p)
        i = 0
        while i < len(p):
            out.append((wire.get_u24(p, i), p[i + 3], wire.get_u24(p, i + 4)))
            i += 7
    return out


def _data(frames):
    # The fetched bytes, checking that each frame starts where the last one ended.
    out = bytearray()
    heads = []
    for kind, seq, p in frames:
        assert kind in "dD", (kind, p)
        heads.append((wire.get_u24(p, 0), wire.get_u24(p, 3)))
        out.extend(p[6:])
    assert frames[-1][0] == "D" and all(f[0] == "d" for f in frames[:-1])
    return bytes(out), heads


# Handshake and session ----------------------------------------------------------------


def test_hello_reports_the_device_and_opens_a_session():
    r = Rig()
    p = r.hello()
    assert p[0] == wire.VERSION and p[1] == wire.MINOR
    assert r.session != 0 and r.ep.session_open and r.kbd == [-1]
    assert wire.get_u32(p, 4) == r.j.free_bytes()
    assert wire.get_u16(p, 8) == 64
    unsynced = [s for s in JournalReader(r.j).sittings() if s[1] and not s[2]]
    assert wire.get_u16(p, 12) == len(unsynced) == 3
    assert wire.get_u32(p, 14) == sum(s[3] for s in unsynced)
    assert wire.get_u32(p, 18) == 1700000000
    n = p[22]
    assert p[23:23 + n] == b"T42-TEST"
    assert p[24 + n:24 + n + p[23 + n]] == b"0.1.0"


def test_hello_with_another_major_version_is_refused():
    r = Rig()
    r.send("H", b"2")
    code, detail, msg = _error(r.run()[0])
    assert code == Y.E_VERSION and detail == wire.VERSION
    assert not r.ep.session_open and r.kbd == []


def test_requests_need_the_session_of_the_last_hello():
    r = Rig()
    code, _, _ = _error(r.ask("L")[0])
    assert code == Y.E_NO_SESSION
    r.hello()
    r.send("L", session=r.session ^ 1)
    code, _, _ = _error(r.run()[0])
    assert code == Y.E_NO_SESSION
    assert r.ask("L")[-1][0] == "L"


def test_bye_idle_timeout_and_ctrl_c_give_ctrl_c_back():
    r = Rig()
    r.hello()
    assert r.ask("B") == [("k", r.seq, b"")]
    assert not r.ep.session_open and r.kbd == [-1, 3]
    r.hello()
    r.clock.t += 4000
    r.ep.poll()
    assert r.ep.session_open
    r.clock.t += 1001
    r.ep.poll()
    assert not r.ep.session_open and r.kbd == [-1, 3, -1, 3]
    r.hello()
    r.link.feed(b"\r\x03")       # a REPL tool's call (a lone Ctrl-C: tests/device/test_hello.py)
    r.ep.poll()
    assert not r.ep.session_open and r.kbd[-1] == 3 and r.interrupts == 1
    r.link.feed(b"\r\x03")
    r.ep.poll()
    assert r.interrupts == 2


def test_ctrl_c_interrupts_the_main_loop_like_the_repl():
    r = Rig()
    r.ep._interrupt = None
    r.hello()
    r.link.feed(b"\r\x03")
    try:
        r.ep.poll()
    except KeyboardInterrupt:
        pass
    else:
        assert False, "Ctrl-C must interrupt"
    assert not r.ep.session_open and r.kbd == [-1, 3]


# List, fetch, acknowledge -------------------------------------------------------------


def test_list_all_and_unsynced_only():
    r = Rig(finished=3)
    r.hello()
    r.j.mark_synced(r.sids[0])
    want = [(s[0], (1 if s[1] else 0) | (2 if s[2] else 0), s[3]) for s in JournalReader(r.j).sittings()]
    assert _entries(r.ask("L")) == want and len(want) == 4
    assert _entries(r.ask("L", b"u")) == [w for w in want if w[1] == 1]


def test_a_long_list_takes_several_frames():
    r = Rig(finished=20, events=2, chunk=64)
    r.hello()
    frames = r.ask("L", b"u")
    assert len(frames) == 3 and [f[0] for f in frames] == ["l", "l", "L"]
    assert [e[0] for e in _entries(frames)] == r.sids


def test_fetch_streams_the_sittings_back_to_back():
    r = Rig(finished=3, chunk=64)
    r.hello()
    want = b"".join(r.stream(s) for s in r.sids)
    frames = r.ask("F", b"%d %d-%d" % (len(want), r.sids[0], r.sids[-1]))
    data, heads = _data(frames)
    assert data == want
    assert len(frames) == (len(want) + 63) // 64
    # Each head is where its first byte is: (sitting, offset), advanced past ended ones.
    pos = []
    for sid in r.sids:
        n = len(r.stream(sid))
        pos.extend((sid, off) for off in range(n))
    assert heads == [pos[64 * i] for i in range(len(frames))]
    assert r.synced() == []


def test_fetch_from_an_offset_resumes_mid_sitting():
    r = Rig(finished=3, chunk=64)
    r.hello()
    a, b = r.sids[1], r.sids[2]
    sa, sb = r.stream(a), r.stream(b)
    frames = r.ask("F", b"100000 %d:%d %d" % (a, 37, b))
    data, heads = _data(frames)
    assert data == sa[37:] + sb and heads[0] == (a, 37)
    # The count caps the bytes: the frame that reaches it is the last.
    frames = r.ask("F", b"50 %d:10" % a)
    data, heads = _data(frames)
    assert data == sa[10:60]
    # An offset at the very end sends an empty last frame.
    data, heads = _data(r.ask("F", b"9 %d:%d" % (a, len(sa))))
    assert data == b"" and heads == [(a, len(sa))]


def test_fetch_sends_the_open_sitting_so_far_and_refuses_missing_and_malformed_items():
    r = Rig(finished=2)
    r.hello()
    # The sitting being played: its bytes so far (the PC shows its progress).
    data, heads = _data(r.ask("F", b"10 %d" % r.open))
    so_far = r.stream(r.open)
    assert heads[0] == (r.open, 0) and so_far and data == so_far[:10]
    code, detail, _ = _error(r.ask("F", b"10 1-2 5-9")[0])
    assert (code, detail) == (Y.E_NOT_FOUND, 5)
    # A huge range is refused at its first gap, not walked id by id.
    code, detail, _ = _error(r.ask("F", b"10 1-2 5-9999999999")[0])
    assert (code, detail) == (Y.E_NOT_FOUND, 5)
    code, detail, _ = _error(r.ask("A", b"2-999999999")[0])
    assert (code, detail) == (Y.E_OPEN, r.open)
    for bad in (b"", b"0 1", b"x 1", b"10", b"10 0", b"10 2-1", b"10 1:", b"10 a", b"10 1:-3",
                b"10 " + b"1 " * 17, b"10 1:99999"):
        code, _, _ = _error(r.ask("F", bad)[0])
        assert code == Y.E_BAD_ARGS, bad


def test_a_new_request_ends_a_fetch_in_flight():
    r = Rig(finished=3, chunk=16)
    r.hello()
    r.send("F", b"10000 1-3")
    r.ep.poll()
    r.ep.poll()
    r.send("L", b"u")
    frames = r.run()
    kinds = [f[0] for f in frames]
    assert kinds[:2] == ["d", "d"] and kinds[-1] == "L" and "D" not in kinds


def test_ack_marks_synced_only_what_it_names_and_survives_a_remount():
    r = Rig(finished=3)
    r.hello()
    want = b"".join(r.stream(s) for s in r.sids)
    _data(r.ask("F", b"%d 1-3" % len(want)))
    assert r.synced() == []
    frames = r.ask("A", b"1-2")
    assert frames[0][0] == "a" and wire.get_u16(frames[0][2], 0) == 2
    assert wire.get_u32(frames[0][2], 2) == r.j.free_bytes()
    assert r.synced() == [1, 2] and r.ep.acked == 2
    j = Journal(r.flash)
    j.mount()
    assert [s[0] for s in JournalReader(j).sittings() if s[2]] == [1, 2]
    # Again: still marked, nothing else.
    assert r.ask("A", b"1")[0][0] == "a" and r.synced() == [1, 2]


def test_ack_is_all_or_nothing():
    r = Rig(finished=3)
    r.hello()
    before = r.image()
    code, detail, _ = _error(r.ask("A", b"1 %d" % r.open)[0])
    assert (code, detail) == (Y.E_OPEN, r.open)
    code, detail, _ = _error(r.ask("A", b"2-3 5-7")[0])
    assert (code, detail) == (Y.E_NOT_FOUND, 5)
    code, _, _ = _error(r.ask("A", b"1:5")[0])
    assert code == Y.E_BAD_ARGS
    assert r.image() == before and r.synced() == []


# Clock, names, settings ---------------------------------------------------------------


def test_clock_names_and_settings_reach_the_app():
    r = Rig()
    r.hello()
    assert r.ask("C", b"1767225600 -360")[0][0] == "k"
    names = ["Ann", "Bo Jo", "Zoë", "100%*=~"]
    args = b"p " + b" ".join(wire.escape(n.encode("utf-8")) for n in names)
    assert r.ask("N", args)[0][0] == "k"
    assert r.ask("S", b"target=7 tracker=on")[0][0] == "k"
    assert r.calls == [("clock", 1767225600, -360), ("names", "p", names),
                       ("settings", [("target", "7"), ("tracker", "on")])]
    code, _, msg = _error(r.ask("N", b"t a b c d e f g")[0])
    assert code == Y.E_REFUSED and msg == b"too many names"
    for cmd, bad in (("C", b"x"), ("C", b"5 9999"), ("N", b"q Ann"), ("N", b"p %zz"),
                     ("S", b"target"), ("S", b"=7")):
        code, _, _ = _error(r.ask(cmd, bad)[0])
        assert code == Y.E_BAD_ARGS, (cmd, bad)
    code, detail, _ = _error(r.ask("Z")[0])
    assert (code, detail) == (Y.E_UNKNOWN, ord("Z"))


def test_a_table_assignment_reaches_the_app_once():
    r = Rig()
    r.hello()
    line = r.send("T", b"2 3 Club%20night")
    assert r.run()[0][0] == "k"
    r.link.feed(line)               # sent again (a lost reply): answered, not acted on
    assert r.run()[0][0] == "k"
    assert r.ask("T")[0][0] == "k"  # T alone: no assignment
    assert r.calls == [("assign", ("Club night", 2, 3)), ("assign", None)]
    code, _, msg = _error(r.ask("T", b"300 1 Cup")[0])
    assert code == Y.E_REFUSED and msg == b"round and table from 1 to 255"
    for bad in (b"x 3 Cup", b"2 3", b"2", b"2 y Cup", b"2 3 %zz"):
        code, _, _ = _error(r.ask("T", bad)[0])
        assert code == Y.E_BAD_ARGS, bad
    assert len(r.calls) == 3


def test_a_scorer_without_assignments_says_so():
    r = Rig()
    r.ep._assign = None
    r.hello()
    code, _, msg = _error(r.ask("T", b"2 3 Cup")[0])
    assert code == Y.E_UNSUPPORTED and r.calls == []


def test_a_repeated_request_does_not_act_twice_and_an_old_one_is_stale():
    r = Rig()
    r.hello()
    line = r.send("C", b"1767225600 0")
    assert r.run()[0][0] == "k"
    r.link.feed(line)
    assert r.run()[0][0] == "k"
    assert len(r.calls) == 1
    r.ask("L")
    r.link.feed(line)       # behind the last request
    code, _, _ = _error(r.run()[0])
    assert code == Y.E_STALE and len(r.calls) == 1
    # A request of an earlier session is refused.
    old = r.session
    r.send("A", b"1")
    r.run()
    r.hello()
    assert r.session != old
    r.link.feed(wire.request(old, r.seq + 1, "A", b"2"))
    code, _, _ = _error(r.run()[0])
    assert code == Y.E_NO_SESSION and r.synced() == [1]


# Faults ---------------------------------------------------------------------------------


def _lcg(seed):
    state = [seed & 0x7FFFFFFF or 1]

    def nxt(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n

    return nxt


def test_garbage_never_changes_the_journal_and_the_endpoint_still_answers():
    r = Rig(finished=3, dribble=7)
    rnd = _lcg(5)
    before = r.image()
    for round in range(3):
        junk = bytearray(3000)
        for i in range(len(junk)):
            c = rnd(256)
            if c == 3:
                c = 4
            junk[i] = c
        # Plenty of starts and ends of lines, and the prefix of real requests.
        for i in range(0, len(junk), 37):
            junk[i] = 0x7E
        for i in range(5, len(junk), 53):
            junk[i] = 0x0A
        r.link.feed(junk)
        r.link.feed(wire.request(r.session, 0x40 + round, "A", b"1-3")[:20])
        r.run(polls=2000)
        assert r.image() == before
        r.hello()
    assert r.ep.bad_frames > 50
    assert _entries(r.ask("L", b"u"))[0][0] == 1


def test_truncated_requests_are_dropped_and_the_next_one_is_answered():
    r = Rig(finished=2)
    r.hello()
    before = r.image()
    line = wire.request(r.session, r.seq + 1, "A", b"1-2")
    for cut in range(1, len(line) - 1):
        r.link.feed(line[:cut])
        r.link.feed(wire.request(r.session, r.seq + 1, "L", b"u"))
        r.seq += 1
        frames = r.run()
        assert frames[-1][0] == "L", (cut, frames)
    assert r.image() == before


def test_every_single_bit_flip_of_an_ack_is_refused():
    r = Rig(finished=2)
    r.hello()
    before = r.image()
    line = wire.request(r.session, r.seq + 1, "A", b"1-2")
    for i in range(1, len(line) - 1):
        for bit in range(8):
            if line[i] ^ 1 << bit == 3:
                continue    # Ctrl-C: it ends the session (test_bye_idle_timeout_...)
            bad = bytearray(line)
            bad[i] ^= 1 << bit
            r.link.feed(bad)
            frames = r.run()
            assert all(f[0] == "e" for f in frames), (i, bit, frames)
    assert r.image() == before and r.synced() == []
    r.link.feed(line)
    assert r.run()[0][0] == "a" and r.synced() == [1, 2]


def test_bad_frames_get_an_error_only_in_a_session():
    r = Rig()
    r.link.feed(b"~garbage*00000000\n")
    assert r.run() == []
    r.hello()
    r.link.feed(b"~garbage*00000000\n")
    code, _, _ = _error(r.run()[0])
    assert code == Y.E_BAD_FRAME


# The main loop's side -------------------------------------------------------------------


def test_one_bulk_frame_a_poll_and_scoring_goes_on_meanwhile():
    r = Rig(finished=3, chunk=32)
    r.hello()
    want = b"".join(r.stream(s) for s in r.sids)
    r.send("F", b"%d 1-3" % len(want))
    frames = []
    polls = 0
    while True:
        writes = r.link.writes
        r.ep.poll()
        polls += 1
        assert r.link.writes - writes <= 1
        # The players go on scoring the open sitting between polls.
        r.j.append(b"\x22")
        frames.extend(r.link.frames())
        if frames and frames[-1][0] == "D":
            break
        assert polls < 500
    assert _data(frames)[0] == want and polls == len(frames)
    assert [s[3] for s in JournalReader(r.j).sittings()][-1] == 3 + 2 * (2 + polls)


class PatternJournal:
    # A journal of three long finished sittings whose reads allocate nothing (the NOR
    # emulation's readblocks slices), to weigh the endpoint's own allocations. The
    # endpoint walks the journal's sittings through the Journal and reads their bytes
    # through a JournalReader; reading() makes this fake its own reader.
    def __init__(self):
        self.list = [(1, True, False, 9000), (2, True, False, 9000), (3, True, False, 9000)]

    def walk(self, w):
        w.sid = 0

    def walk_next(self, w):
        if w.sid >= len(self.list):
            return False
        w.sid, finished, synced, w.length = self.list[w.sid]
        w.finished, w.synced = finished, synced
        return True

    def find(self, sid, w):
        w.sid = sid - 1
        return self.walk_next(w)

    def free_bytes(self):
        return 1000

    def read(self, sid, offset, buf):
        n = min(len(buf), 9000 - offset)
        i = 0
        while i < n:
            buf[i] = (offset + i) & 0xFF
            i += 1
        return n

    def reading(self, on):
        """Make the endpoint read this fake (on: it is its own JournalReader), or the
        real journal again (off)."""
        import firmware.sync.journal as SJ
        if on:
            self.saved = SJ.JournalReader
            SJ.JournalReader = lambda j: j
        else:
            SJ.JournalReader = self.saved


def test_a_data_frame_allocates_little():
    link = NullLink()
    journal = PatternJournal()
    journal.reading(True)
    try:
        _weigh_a_data_frame(link, journal)
    finally:
        journal.reading(False)


def _weigh_a_data_frame(link, journal):
    ep = Y.SyncEndpoint(link, journal, "T42-TEST", "0.1.0", kbd_intr=lambda v: None,
                        chunk=512)
    link.feed(wire.request(0, 1, "H", b"1"))
    ep.poll()
    link.feed(wire.request(ep._session, 2, "F", b"27000 1-3"))
    ep.poll()
    gc.collect()
    polls = 0
    before = gc.mem_alloc()
    while ep.status == "sending":
        ep.poll()
        polls += 1
    used = gc.mem_alloc() - before
    # The frame is built in the endpoint's buffer: what is left is a view for the journal
    # read, one for the CRC and one for the write (a copy of the data would be 512 more).
    assert polls + 1 == (27000 + 511) // 512 and ep.bytes_sent == 27000
    assert used / polls <= 100, (polls, used)
    print("data frame: %d bytes a poll" % (used // polls))
