# The radio on the MicroPython unix port: the sim's espnow (boards/sim/radio.py) against
# what MicroPython's esp32 port does, and the scorer's sender (firmware/radio/sender.py)
# against a PC that acknowledges, over an air that loses, duplicates and reorders.
import os
import random
import time

from boards.sim.flash import NorFlash
from boards.sim.radio import ESPNow, WLAN, Air
from firmware.journal import Journal
from engine_core.journal.reader import JournalReader
from engine_core.air import wire as W
from firmware.radio.air import Radio
from firmware.radio.sender import Sender
import scratch

_AIR = scratch.path("air")
KEY = bytes(range(16))

# Seconds of real time each (the chip's 2 s blocked sends, thirty hands through a lossy
# air): make test's, not make check's (tests/kit/engine/quick.py).
SLOW = ("test_the_sender_gets_a_sitting_to_the_pc_through_loss_duplication_and_reordering",
        "test_the_sender_gets_a_sitting_through_sends_that_find_the_buffers_full",
        "test_espnow_with_its_transmit_buffers_full_blocks_two_seconds_then_raises_no_mem")


def _clean():
    try:
        for n in os.listdir(_AIR):
            os.remove(_AIR + "/" + n)
    except OSError:
        pass


def _pair(**faults):
    _clean()
    air = Air(_AIR, **faults)
    a = ESPNow(air, WLAN(b"\x02\x00\x00\x00\x00\x01"))
    b = ESPNow(air, WLAN(b"\x02\x00\x00\x00\x00\x02"))
    return air, a, b


def _raises(fn, code):
    try:
        fn()
    except OSError as e:
        assert e.args[0] == code, e.args
        return
    assert False, "no OSError %d" % code


def test_espnow_calls_before_active_raise_not_init():
    _, a, _ = _pair()
    _raises(lambda: a.send(b"\x02\x00\x00\x00\x00\x02", b"x"), -12389)
    _raises(lambda: a.add_peer(b"\x02\x00\x00\x00\x00\x02"), -12389)
    _raises(lambda: a.irecv(0), -12389)


def test_espnow_send_needs_a_registered_peer_an_active_wlan_and_at_most_250_bytes():
    _, a, b = _pair()
    a._wlan.active(True)
    a.active(True)
    peer = b"\x02\x00\x00\x00\x00\x02"
    _raises(lambda: a.send(peer, b"x"), -12393)         # ESP_ERR_ESPNOW_NOT_FOUND
    a.add_peer(peer)
    _raises(lambda: a.add_peer(peer), -12395)           # ESP_ERR_ESPNOW_EXIST
    _raises(lambda: a.send(peer, bytes(251)), -12390)   # ESP_ERR_ESPNOW_ARG
    a._wlan.active(False)
    _raises(lambda: a.send(peer, b"x"), -12396)         # ESP_ERR_ESPNOW_IF
    try:
        a.add_peer(b"\x01\x02")
        assert False
    except ValueError as e:
        assert "invalid buffer length" in str(e)
    a.active(False)


def test_espnow_carries_a_frame_and_irecv_reuses_one_buffer():
    _, a, b = _pair()
    for e in (a, b):
        e._wlan.active(True)
        e.active(True)
    a.add_peer(b"\x02\x00\x00\x00\x00\x02")
    assert a.send(b"\x02\x00\x00\x00\x00\x02", b"hello", True)
    got = b.irecv(500)
    assert got[0] == b"\x02\x00\x00\x00\x00\x01" and got[1] == b"hello", got
    buf = got[1]
    assert a.send(b"\x02\x00\x00\x00\x00\x02", b"again")
    got = b.irecv(500)
    assert got[1] is buf and got[1] == b"again"
    assert b.irecv(0) == (None, None)
    assert b.recv(0) == (None, None)
    a.active(False)
    b.active(False)


def test_espnow_drops_what_the_receive_ring_has_no_room_for():
    _, a, b = _pair()
    for e in (a, b):
        e._wlan.active(True)
        e.active(True)
    a.add_peer(b"\x02\x00\x00\x00\x00\x02")
    for i in range(5):
        a.send(b"\x02\x00\x00\x00\x00\x02", bytes([i]) * 200)
    time.sleep_ms(20)
    assert b.any()
    n = 0
    while b.irecv(0)[0] is not None:
        n += 1
    # The default ring (528 bytes) holds two 200-byte frames with their 14-byte heads.
    assert n == 2, n
    assert b.stats()[4] == 3, b.stats()
    a.active(False)
    b.active(False)


def test_espnow_drops_a_frame_under_another_lmk():
    _, a, b = _pair()
    for e in (a, b):
        e._wlan.active(True)
        e.active(True)
    a.add_peer(b"\x02\x00\x00\x00\x00\x02", b"k" * 16)
    b.add_peer(b"\x02\x00\x00\x00\x00\x01", b"j" * 16)
    a.send(b"\x02\x00\x00\x00\x00\x02", b"secret")
    assert b.irecv(50) == (None, None)
    b.mod_peer(b"\x02\x00\x00\x00\x00\x01", b"k" * 16)
    a.send(b"\x02\x00\x00\x00\x00\x02", b"secret")
    assert b.irecv(200)[1] == b"secret"
    a.active(False)
    b.active(False)


def test_espnow_loses_frames_and_says_so_to_a_sync_send():
    _, a, b = _pair(loss=0.5, seed=7)
    for e in (a, b):
        e._wlan.active(True)
        e.active(True)
    a.add_peer(b"\x02\x00\x00\x00\x00\x02")
    ok = 0
    for i in range(40):
        if a.send(b"\x02\x00\x00\x00\x00\x02", bytes([i])):
            ok += 1
        while b.irecv(0)[0] is not None:
            pass
    assert 8 < ok < 32, ok
    assert a.stats()[2] == 40 - ok
    a.active(False)
    b.active(False)


def test_espnow_loses_broadcast_frames_too_and_a_sync_send_cannot_tell():
    # The sender broadcasts until the base station has answered: the air loses those as
    # it loses any frame, and with no acknowledgement the send still says it went.
    _, a, b = _pair(loss=0.5, seed=11)
    for e in (a, b):
        e._wlan.active(True)
        e.active(True)
    a.add_peer(b"\xff" * 6)
    heard = 0
    for i in range(40):
        assert a.send(b"\xff" * 6, bytes([i]), True)
        time.sleep_ms(1)
        while b.irecv(0)[0] is not None:
            heard += 1
    assert 8 < heard < 32, heard
    a.active(False)
    b.active(False)


def test_espnow_with_its_transmit_buffers_full_blocks_two_seconds_then_raises_no_mem():
    # modespnow.c espnow_send: esp_now_send's ESP_ERR_ESPNOW_NO_MEM is tried again for
    # DEFAULT_SEND_TIMEOUT_MS, then raised; nothing reaches the air.
    _, a, b = _pair(busy=1.0)
    for e in (a, b):
        e._wlan.active(True)
        e.active(True)
    a.add_peer(b"\x02\x00\x00\x00\x00\x02")
    t0 = time.ticks_ms()
    _raises(lambda: a.send(b"\x02\x00\x00\x00\x00\x02", b"x", False), -12391)
    assert time.ticks_diff(time.ticks_ms(), t0) >= 2000
    time.sleep_ms(5)
    assert b.irecv(0)[0] is None and a.stats()[0] == 0
    a.active(False)
    b.active(False)


# ---- the sender against a PC that acknowledges ----

class _Pc:
    """The PC behind a base: what each scorer's stream holds, acknowledged as
    host_tools/events/radio.py does (the bytes following on from what is held)."""

    def __init__(self, espnow):
        self.e = espnow
        self.held = {}
        self.duplicates = 0

    def poll(self):
        while True:
            peer, msg = self.e.recv(0)
            if peer is None:
                return
            n = len(msg)
            if not W.sound(KEY, peer, msg, n):
                continue
            sid = W.get_u24(msg, 5)
            off = W.get_u24(msg, 8)
            s = self.held.setdefault(sid, bytearray())
            rec = msg[W.HEAD:n - W.MAC_LEN]
            if off <= len(s) < off + len(rec):
                s.extend(rec[len(s) - off:])
            elif off + len(rec) <= len(s):
                self.duplicates += 1
            a = bytearray(W.ACK_LEN)
            W.put_head(a, W.ACK, W.tag_of(KEY), sid, len(s), 0)
            W.seal(KEY, peer, a, W.HEAD)
            try:
                self.e.add_peer(peer)
            except OSError:
                pass
            self.e.send(peer, a, False)


def _maker(mac, faults):
    def make():
        w = WLAN(mac)
        return w, ESPNow(Air(_AIR, **faults), w)
    return make


def _radio_for(mac, faults):
    return Radio(_maker(mac, faults))


def _sender_and_pc(faults, base_faults=None):
    # A scorer's journal and its sender on an air with `faults`, and a base station with
    # the PC behind it (on a clean air unless base_faults says otherwise).
    _clean()
    j = Journal(NorFlash(8, 4096))
    j.mount()
    base = _radio_for(b"\x02\x00\x00\x00\x00\x09", base_faults or {})
    base.on(8192)
    s = Sender(j, _radio_for(b"\x02\x00\x00\x00\x00\x01", faults), KEY, time.ticks_ms)
    return j, base, _Pc(base.espnow), s


def _play(j, s, pc, hands):
    # `hands` hands of 6 records, each polled until the PC holds it (a deadline well past
    # what a hand takes: a loaded machine stalls the loop). Returns the polls that were
    # blocked 2 s or more (a send that found the buffers full).
    blocked = 0
    for hand in range(hands):
        for k in range(6):
            j.append(bytes([hand, k]))
        t0 = time.ticks_ms()
        while time.ticks_diff(time.ticks_ms(), t0) < 60000:
            t1 = time.ticks_ms()
            more = s.poll()
            if time.ticks_diff(time.ticks_ms(), t1) >= 2000:
                blocked += 1
            if not more:
                break
            pc.poll()
            time.sleep_ms(1)
        pc.poll()
    want = bytearray(4096)
    n = JournalReader(j).read(1, 0, want)
    assert bytes(pc.held[1]) == bytes(want[:n]), (len(pc.held[1]), n)
    return blocked


def test_the_sender_gets_a_sitting_to_the_pc_through_loss_duplication_and_reordering():
    faults = {"loss": 0.3, "dup": 0.1, "reorder": 0.2, "delay_ms": 3, "seed": 3}
    j, base, pc, s = _sender_and_pc(faults, faults)
    j.begin_sitting(b"H" * 40)
    _play(j, s, pc, 30)
    assert s.resends > 0 and s.frames > 30
    assert not s._radio.active      # all held: the radio is off
    base.close()


def test_the_sender_gets_a_sitting_through_sends_that_find_the_buffers_full():
    # A send that blocks 2 s and raises ESP_ERR_ESPNOW_NO_MEM is a frame not sent: the
    # resend sends it, and nothing is lost or sent twice.
    j, base, pc, s = _sender_and_pc({"busy": 0.3})
    random.seed(5)      # the air's only draws are the busy sends': the same ones each run
    j.begin_sitting(b"H" * 40)
    blocked = _play(j, s, pc, 4)
    assert blocked > 0 and pc.duplicates == 0, (blocked, pc.duplicates)
    base.close()


def test_the_sender_starts_again_after_a_reboot_from_what_the_pc_holds():
    _clean()
    flash = NorFlash(8, 4096)
    j = Journal(flash)
    j.mount()
    base = _radio_for(b"\x02\x00\x00\x00\x00\x09", {})
    base.on(8192)
    pc = _Pc(base.espnow)
    s = Sender(j, _radio_for(b"\x02\x00\x00\x00\x00\x01", {}), KEY, time.ticks_ms)
    j.begin_sitting(b"H" * 10)
    for i in range(200):
        j.append(bytes([i % 250, 1, 2]))
    for _ in range(3):      # a few frames out, then the power goes
        s.poll()
        time.sleep_ms(2)
        pc.poll()
    j2 = Journal(flash)     # the reboot: a new journal on the same flash, a new sender
    j2.mount()
    s2 = Sender(j2, _radio_for(b"\x02\x00\x00\x00\x00\x01", {}), KEY, time.ticks_ms)
    t0 = time.ticks_ms()
    while s2.poll() and time.ticks_diff(time.ticks_ms(), t0) < 30000:
        pc.poll()
        time.sleep_ms(1)
    want = bytearray(4096)
    n = JournalReader(j2).read(1, 0, want)
    assert bytes(pc.held[1]) == bytes(want[:n])
    base.close()


def test_the_sender_ignores_an_acknowledge_forged_or_under_another_key():
    _clean()
    j = Journal(NorFlash(8, 4096))
    j.mount()
    base = _radio_for(b"\x02\x00\x00\x00\x00\x09", {})
    base.on()
    s = Sender(j, _radio_for(b"\x02\x00\x00\x00\x00\x01", {}), KEY, time.ticks_ms)
    j.begin_sitting(b"H" * 10)
    j.append(b"\x01")
    s.poll()
    time.sleep_ms(5)
    base.espnow.recv(100)
    for key in (b"x" * 16, None):
        a = bytearray(W.ACK_LEN)
        W.put_head(a, W.ACK, W.tag_of(KEY), 1, 14, 0)
        if key:
            W.seal(key, b"\x02\x00\x00\x00\x00\x01", a, W.HEAD)
        base.send(b"\x02\x00\x00\x00\x00\x01", a)
    time.sleep_ms(5)
    s.poll()
    assert s._held == 0 and s.acks == 0
    base.close()
    s.stop()


# ---- joining: the radio's code only for a scorer in an event ----

class _Board:
    def __init__(self, faults=None):
        self.radio = _maker(b"\x02\x00\x00\x00\x00\x01", faults or {})
        self.ticks_ms = time.ticks_ms


def _app(path):
    import sys
    from boards.sim.board import Board
    from firmware import app as A
    from firmware.radio import join
    b = Board(NorFlash(8, 4096))
    a = A.App(b.display, b.flash, path)
    a.boot()
    a.air = _Board()
    return a, join, sys


def test_a_scorer_with_no_event_key_keeps_none_of_the_radios_code():
    path = scratch.path("radio.settings")
    try:
        os.remove(path + ".radio")
    except OSError:
        pass
    a, join, sys = _app(path)
    assert join.start(a) is None and a.radio is None
    for name in ("firmware.radio.join", "firmware.radio.sender", "firmware.radio.air",
                 "firmware.radio"):
        assert name not in sys.modules, name


def test_a_kept_key_starts_the_sender_with_the_first_record_and_a_bad_key_is_refused():
    path = scratch.path("radio.settings")
    a, join, sys = _app(path)
    assert join.save(join.path_of(path), "zz" * 16) == "radio: a key of 32 hex digits"
    assert join.save(join.path_of(path), "ab" * 15) == "radio: a key of 32 hex digits"
    assert join.save(join.path_of(path), "0f" * 16) is None
    assert join.load(join.path_of(path)) == b"\x0f" * 16
    from firmware import transient
    transient.unload("firmware.radio")   # as at boot (this module imported them)
    w = join.start(a)
    assert w is a.radio and "firmware.radio.sender" not in sys.modules
    assert not w.poll()             # nothing taken yet: still waiting
    a.scorer.journal.begin_sitting(b"H" * 8)
    a.scorer.journal.append(b"\x01")
    w.poll()
    assert type(a.radio).__name__ == "Sender" and "firmware.radio.sender" in sys.modules
    join.stop(a)
    assert a.radio is None and "firmware.radio.sender" not in sys.modules
    with open(join.path_of(path), "r+b") as f:     # a damaged key file: no key
        f.seek(6)
        f.write(b"\x00")
    assert join.load(join.path_of(path)) is None
    assert join.save(join.path_of(path), "off") is None
    assert join.load(join.path_of(path)) is None


def test_a_scorer_booted_with_a_sitting_open_sends_at_once():
    from engine_core.texas42 import options as O
    from engine_core.header import encode_header
    from firmware import transient
    path = scratch.path("radio.settings")
    a, join, sys = _app(path)
    assert join.save(join.path_of(path), "0f" * 16) is None
    rules = O.resolve("42")
    a.scorer.journal.begin_sitting(encode_header(rules, 0))
    a.scorer.start(rules, 0)            # as the boot's resume leaves it
    transient.unload("firmware.radio")
    w = join.start(a)
    w.poll()
    assert type(a.radio).__name__ == "Sender"
    join.stop(a)
    join.save(join.path_of(path), "off")


def test_an_idle_sender_does_not_walk_the_journal_at_every_poll():
    j, base, pc, s = _sender_and_pc({})
    j.begin_sitting(b"H" * 10)
    j.append(b"\x01")
    j.finish()
    t0 = time.ticks_ms()
    while s.poll() and time.ticks_diff(time.ticks_ms(), t0) < 3000:
        pc.poll()
        time.sleep_ms(1)
    assert bytes(pc.held[1])[:1] == b"\x0a"     # the header's length came
    walks = [0]
    walk = j.walk

    def counted(w):
        walks[0] += 1
        return walk(w)
    j.walk = counted
    for _ in range(50):
        assert not s.poll()
    assert walks[0] <= 1, walks
    j.begin_sitting(b"H" * 10)  # the journal moves: looked at again, and sent
    assert s.poll() and walks[0] >= 1
    base.close()
    s.stop()


def test_the_radios_poll_allocates_nothing_while_it_has_nothing_to_send():
    # The main loop polls the radio every round: waiting for a record (no sender yet),
    # or with every record held by the PC. Only a frame sent allocates (its MAC).
    import micropython
    _clean()
    path = scratch.path("radio-poll.settings")
    a, join, sys = _app(path)
    assert join.save(join.path_of(path), "0f" * 16) is None
    w = join.start(a)
    micropython.heap_lock()
    try:
        for _ in range(20):
            assert not w.poll()
    finally:
        micropython.heap_unlock()
    join.stop(a)
    join.save(join.path_of(path), "off")
    j = Journal(NorFlash(8, 4096))
    j.mount()
    base = _radio_for(b"\x02\x00\x00\x00\x00\x09", {})
    base.on(8192)
    pc = _Pc(base.espnow)
    s = Sender(j, _radio_for(b"\x02\x00\x00\x00\x00\x01", {}), KEY, time.ticks_ms)
    j.begin_sitting(b"H" * 10)
    for i in range(40):
        j.append(bytes([i, 1]))
    t0 = time.ticks_ms()
    while s.poll() and time.ticks_diff(time.ticks_ms(), t0) < 3000:
        pc.poll()
        time.sleep_ms(1)
    frames = s.frames
    micropython.heap_lock()
    try:
        for _ in range(20):
            busy = s.poll()
    finally:
        micropython.heap_unlock()
    assert not busy and s.frames == frames and len(pc.held[1]) > 80
    base.close()
    s.stop()


def test_a_radio_out_of_memory_gives_way_and_the_scorer_goes_on():
    path = scratch.path("radio.settings")
    a, join, sys = _app(path)
    assert join.save(join.path_of(path), "0f" * 16) is None

    class Starved:
        stopped = False

        def poll(self):
            raise MemoryError

        def stop(self):
            Starved.stopped = True
    a.radio = Starved()
    assert a.poll_link() is False       # no MemoryError out of the main loop's poll
    assert Starved.stopped and type(a.radio).__name__ == "Waiting"
    join.stop(a)
    join.save(join.path_of(path), "off")


# ---- the next table, over the air ----

class _NextPc(_Pc):
    """_Pc that says a game over (its last record b"\xee") in its acknowledge and sends a
    next frame with it, as host_tools/events/radio.py does (then again at each ask, a
    data frame with no records), and counts the scorer's confirms."""

    def __init__(self, espnow, rnd=2, table=3):
        super().__init__(espnow)
        self.rnd = rnd
        self.table = table
        self.confirms = []
        self.nexts = 0

    def poll(self):
        while True:
            peer, msg = self.e.recv(0)
            if peer is None:
                return
            n = len(msg)
            if not W.sound(KEY, peer, msg, n):
                continue
            sid = W.get_u24(msg, 5)
            if msg[0] == W.CONFIRM:
                self.confirms.append((sid, msg[9], msg[8]))
                continue
            off = W.get_u24(msg, 8)
            s = self.held.setdefault(sid, bytearray())
            rec = msg[W.HEAD:n - W.MAC_LEN]
            if off <= len(s) < off + len(rec):
                s.extend(rec[len(s) - off:])
            a = bytearray(W.ACK_LEN)
            # A sitting that ends in the record b"\xee" is a game over.
            done = len(s) and s[-1] == 0xEE and off + len(rec) <= len(s)
            W.put_head(a, W.ACK, W.tag_of(KEY), sid, len(s), W.F_OVER if done else 0)
            W.seal(KEY, peer, a, W.HEAD)
            try:
                self.e.add_peer(peer)
            except OSError:
                pass
            self.e.send(peer, a, False)
            if done:
                f = bytearray(W.MAX_FRAME)
                k = W.put_next(f, W.tag_of(KEY), sid, self.rnd, self.table, b"Club",
                               (b"Ann", b"Cy", b"Bob", b"Di"))
                self.e.send(peer, f[:W.seal(KEY, peer, f, k)], False)
                self.nexts += 1


def _asked(faults, answers):
    # A finished sitting and a sender whose on_next answers from `answers` in turn.
    _clean()
    j = Journal(NorFlash(8, 4096))
    j.mount()
    base = _radio_for(b"\x02\x00\x00\x00\x00\x09", faults)
    base.on(8192)
    got = []
    cleared = []

    def on_next(msg, n):
        if msg is None:         # a record taken: the line said is old
            cleared.append(len(got))
            return 0
        got.append(W.next_parts(msg, n))
        return answers[min(len(got), len(answers)) - 1]
    s = Sender(j, _radio_for(b"\x02\x00\x00\x00\x00\x01", faults), KEY, time.ticks_ms,
               on_next)
    j.begin_sitting(b"H" * 10)
    for i in range(20):
        j.append(bytes([i, 1]))
    j.append(b"\xee")       # the game over: the PC says so
    s.cleared = cleared
    return j, base, _NextPc(base.espnow), s, got


def _until(s, pc, done, ms=30000):
    t0 = time.ticks_ms()
    while not done() and time.ticks_diff(time.ticks_ms(), t0) < ms:
        s.poll()
        pc.poll()
        time.sleep_ms(1)
    return done()


def test_a_finished_sitting_brings_its_next_table_confirmed_through_a_lossy_air():
    faults = {"loss": 0.3, "dup": 0.05, "reorder": 0.1, "seed": 7}
    j, base, pc, s, got = _asked(faults, [1])
    assert _until(s, pc, lambda: pc.confirms)
    assert got[0] == (1, 2, 3, b"Club", [b"Ann", b"Cy", b"Bob", b"Di"]), got
    assert pc.confirms[0] == (1, 2, 3) and s.nexts == 1
    # Taken: the asking ends and the radio goes off.
    t0 = time.ticks_ms()
    while s.poll() and time.ticks_diff(time.ticks_ms(), t0) < 5000:
        pc.poll()
        time.sleep_ms(1)
    assert not s.poll() and not s._radio.active
    base.close()
    s.stop()


def test_a_next_table_not_taken_mid_game_is_asked_for_again_and_not_confirmed():
    j, base, pc, s, got = _asked({}, [0, 0, 1])
    assert _until(s, pc, lambda: len(got) >= 2)
    assert pc.confirms == [] and s.nexts == 0     # not taken: no confirm
    assert _until(s, pc, lambda: pc.confirms)
    assert len(got) == 3 and s.nexts == 1
    base.close()
    s.stop()


def test_wait_for_a_round_is_asked_again_with_the_radio_off_between():
    j, base, pc, s, got = _asked({}, [2, 1])
    assert _until(s, pc, lambda: pc.confirms)
    assert s._wait and s._want == 1
    # Between asks the radio is off: polls say nothing waits.
    busy = [s.poll() for _ in range(5)]
    assert not s._radio.active or busy[-1]
    assert _until(s, pc, lambda: len(pc.confirms) >= 2, 20000)
    assert not s._wait and s._want == 0
    base.close()
    s.stop()


def test_a_record_taken_an_undo_or_a_new_sitting_ends_the_asking():
    j, base, pc, s, got = _asked({}, [0])
    assert _until(s, pc, lambda: got)
    assert s._want == 1
    j.append(b"\x01")          # an undo: no game over any more
    s.poll()
    assert s._want == 0 and s.cleared[-1] == len(got)
    n = len(got)
    for _ in range(20):
        s.poll()
        pc.poll()
        time.sleep_ms(2)
    assert len(got) == n and s._want == 0     # not asked: the PC says no game over
    base.close()
    s.stop()


class _Open:
    """A sitting in play, as NextTable asks it (Sitting.over)."""

    def over(self):
        return False


def _next_frame(rnd, table, names=(b"Ann", b"Cy", b"Bob", b"Di")):
    f = bytearray(W.MAX_FRAME)
    k = W.put_next(f, W.tag_of(KEY), 1, rnd, table, b"Club", names)
    return f, W.seal(KEY, b"\x02\x00\x00\x00\x00\x01", f, k)


def test_the_next_table_is_kept_as_the_next_setup_never_over_a_game_in_play():
    from engine_core import header
    from firmware.radio.nexttable import NextTable, NOT_TAKEN, TAKEN, WAIT
    path = scratch.path("radio-next.settings")
    a, join, sys = _app(path)
    before = a.scorer.last_setup
    taker = NextTable(a)
    a.scorer.s = _Open()
    f, n = _next_frame(2, 3)
    assert taker(f, n) == NOT_TAKEN
    assert a.scorer.last_setup == before and a.next_table is None
    a.scorer.s = None
    assert taker(f, n) == TAKEN
    assert header.header_assignment(a.scorer.last_setup) == ("Club", 2, 3)
    assert list(header.decode_header(a.scorer.last_setup)[2]) == ["Ann", "Cy", "Bob", "Di"]
    assert a.next_table == "next: table 3, round 2: Ann/Bob v Cy/Di"
    f, n = _next_frame(3, 0, ())
    assert taker(f, n) == WAIT and a.next_table == "wait for round 3"
    assert header.header_assignment(a.scorer.last_setup) == ("Club", 2, 3)
    assert taker(None, 0) == NOT_TAKEN and a.next_table is None
