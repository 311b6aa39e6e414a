# The base station (firmware/radio/base.py) on the MicroPython unix port, its radio on the
# sim's espnow (boards/sim/radio.py) and its USB line a fake: the PC's requests in, the
# replies out. Handed the event's key, it drops what fails the key of the scorer whose
# address sent it (engine_core/air/keys.py), counts it, and passes the rest to the PC.
import os

from boards.sim.radio import Air, ESPNow, WLAN
from engine_core import wire
from engine_core.air import keys as AK
from engine_core.air import wire as W
from firmware.radio.air import Radio
from firmware.radio.base import Base
import scratch

_AIR = scratch.path("baseair")
EVENT_KEY = bytes(range(16))
BASE = b"\x02\x00\x00\x00\x00\xb0"
ANN = b"\x02\x00\x00\x00\x00\xa1"       # two scorers of the event
BOB = b"\x02\x00\x00\x00\x00\xa2"


class _FakeLine:
    """A fake of the base's USB line (firmware/syncport.py's ports: readinto returns what
    has arrived, at once; write takes a whole reply): requests queued by the test, the
    replies collected."""

    def __init__(self):
        self.inbox = bytearray()
        self.out = bytearray()

    def readinto(self, buf):
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        self.inbox = self.inbox[n:]
        return n

    def write(self, b):
        self.out.extend(b)
        return len(b)


class _Pc:
    """The PC's side of the line: one request, its one reply (kind, payload)."""

    def __init__(self, base, line):
        self.base = base
        self.line = line
        self.session = 0
        self.seq = 0

    def ask(self, cmd, args=b""):
        self.seq += 1
        self.line.inbox.extend(wire.request(self.session, self.seq, cmd, args))
        for _ in range(50):
            self.base.poll()
            if self.line.out:
                break
        o = self.line.out
        assert o and o[0] == wire.SOF, o
        n = wire.get_u16(o, 4)
        kind = chr(o[2])
        payload = bytes(o[wire.HEAD:wire.HEAD + n])
        self.line.out = bytearray()
        if kind == "h":
            self.session = wire.get_u16(payload, 2)
        return kind, payload

    def fetch(self):
        """The frames the base heard since the last fetch: [(address, frame)]."""
        kind, p = self.ask("R")
        assert kind == "r", (kind, p)
        out = []
        i = 2
        while i < len(p):
            n = p[i]
            out.append((p[i + 1:i + 7], p[i + 7:i + 7 + n]))
            i += 7 + n
        return out

    def counts(self):
        kind, p = self.ask("Q")
        assert kind == "q", (kind, p)
        return [wire.get_u32(p, 4 * i) for i in range(5)] + [p[20]]


def _clean():
    try:
        for n in os.listdir(_AIR):
            os.remove(_AIR + "/" + n)
    except OSError:
        pass


def _rig():
    _clean()
    air = Air(_AIR)

    def make():
        w = WLAN(BASE)
        return w, ESPNow(air, w)
    line = _FakeLine()
    base = Base(line, Radio(make), "T42-0000B0")
    pc = _Pc(base, line)
    assert pc.ask("H", b"1")[0] == "h"
    return air, base, pc


def _scorer(air, mac):
    w = WLAN(mac)
    e = ESPNow(air, w)
    w.active(True)
    e.active(True)
    e.add_peer(BASE)
    return e


def _data(key, address, sid, records=b"\x05hello", tag=None):
    b = bytearray(W.MAX_FRAME)
    W.put_head(b, W.DATA, tag or W.tag_of(key), sid, 0, 0)
    b[W.HEAD:W.HEAD + len(records)] = records
    return bytes(b[:W.seal(key, address, b, W.HEAD + len(records))])


def _heard(pc, want):
    # The air is UDP between processes' sockets: fetch until `want` frames or 40 tries.
    got = []
    for _ in range(40):
        got += pc.fetch()
        if len(got) >= want:
            break
    return got


def test_a_base_with_the_key_passes_a_scorers_frames_and_drops_one_forged_in_its_name():
    air, base, pc = _rig()
    assert pc.ask("K", EVENT_KEY.hex().upper().encode()) == ("k", b"")
    ann, bob = _scorer(air, ANN), _scorer(air, BOB)
    ann_key = AK.scorer_key(EVENT_KEY, AK.device_of(ANN))
    bob_key = AK.scorer_key(EVENT_KEY, AK.device_of(BOB))
    good = _data(ann_key, ANN, 1)
    # Bob, a scorer of the event, makes a frame in Ann's name: her tag, his key; and
    # one under his own tag as if from her address; a frame of another event.
    forged = _data(bob_key, ANN, 1, b"\x05evil!", tag=W.tag_of(ann_key))
    moved = _data(bob_key, ANN, 1)
    other = _data(AK.scorer_key(bytes(16), AK.device_of(ANN)), ANN, 1)
    altered = bytearray(good)
    altered[W.HEAD + 2] ^= 1
    ann.send(BASE, good)
    bob.send(BASE, _data(bob_key, BOB, 4))
    # The forgeries go out from Ann's address (a radio can send from any address).
    for f in (forged, moved, other, bytes(altered)):
        ann.send(BASE, f)
    got = _heard(pc, 2)
    assert sorted(got) == sorted([(ANN, good), (BOB, _data(bob_key, BOB, 4))]), got
    heard, dropped, foreign, forged_n, sent, checks = pc.counts()
    assert (heard, dropped, foreign, forged_n, checks) == (2, 0, 2, 2, 1), pc.counts()
    ann.active(False)
    bob.active(False)


def test_without_the_key_the_base_carries_every_frame_and_a_bad_key_changes_nothing():
    air, base, pc = _rig()
    kind, p = pc.ask("K", b"12345")
    assert kind == "e" and b"32 hex digits" in p, (kind, p)
    assert pc.counts()[5] == 0          # still no check
    ann = _scorer(air, ANN)
    junk = _data(bytes(16), ANN, 1)
    ann.send(BASE, junk)
    assert _heard(pc, 1) == [(ANN, junk)]
    # Checked from now on; K alone stops the check again.
    assert pc.ask("K", EVENT_KEY.hex().encode())[0] == "k"
    kind, p = pc.ask("K", b"Z" * 32)
    assert kind == "e", (kind, p)
    ann.send(BASE, junk)
    assert _heard(pc, 1) == [] and pc.counts()[2] == 1     # the key kept: dropped
    assert pc.ask("K")[0] == "k" and pc.counts()[5] == 0
    ann.send(BASE, junk)
    assert _heard(pc, 1) == [(ANN, junk)]
    ann.active(False)


def test_a_base_keeps_at_most_MOST_scorers_keys_whatever_addresses_a_rogue_makes_up():
    s = AK.Scorers(EVENT_KEY)
    for i in range(AK.MOST + 40):
        a = bytes([2, 0, 0, 0, i >> 8, i & 255])
        frame = _data(AK.scorer_key(EVENT_KEY, AK.device_of(a)), a, 1)
        assert s.check(a, frame, len(frame)) == AK.SOUND
        assert len(s._known) <= AK.MOST
    a = bytes([2, 0, 0, 0, 0, 1])
    f = _data(EVENT_KEY, a, 1)          # under the event's key itself: no scorer's
    assert s.check(a, f, len(f)) == AK.FOREIGN


def test_a_base_answers_more_scorers_than_espnow_holds_peers():
    # ESP-NOW registers at most 20 peers (the sim's fake raises ESP_ERR_ESPNOW_FULL past
    # it, as modespnow.c's add_peer does): a base answering 24 scorers lets the oldest go.
    air, base, pc = _rig()
    macs = [bytes([2, 0, 0, 0, 1, i]) for i in range(24)]
    scorers = [_scorer(air, m) for m in macs]
    for rnd in range(2):        # twice: the peers let go are registered again
        args = b" ".join((m + b"ack%d" % i).hex().upper().encode()
                         for i, m in enumerate(macs))
        # Four frames a request, as the PC packs them (host_tools/serial/radio.py).
        parts = args.split(b" ")
        for i in range(0, len(parts), 4):
            assert pc.ask("R", b" ".join(parts[i:i + 4]))[0] == "r"
        for i, e in enumerate(scorers):
            got = None
            for _ in range(20):
                peer, msg = e.irecv(0)
                if peer is not None:
                    got = bytes(msg)
                    break
            assert got == b"ack%d" % i, (rnd, i, got)
    assert pc.counts()[4] == 48
    assert base._radio.espnow.peer_count()[0] <= 20
    for e in scorers:
        e.active(False)
