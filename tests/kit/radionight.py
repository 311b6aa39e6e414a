# A club night on the radio in one process, in fake time: scripted scorers (each a real
# journal on a RAM flash, its sittings' streams sent as firmware/radio/sender.py sends
# them), the real base station (firmware/radio/base.py) on a fake air, and the PC's real
# side: host_tools/serial/radio.BaseStation over a fake USB line to the base, and
# host_tools/events/radio.Receiver, which stores, slots and sends each next table. For
# the whole-night tests (tests/host/events/test_whole_night.py): cheap enough to run
# every round of a round robin on SQLite and PostgreSQL. The scorers' own sender and its
# taking of a next table are the device suites' (tests/device/radio).
import random
from array import array
from collections import deque

from boards.sim.flash import NorFlash
from engine_core import codec
from engine_core.air import wire as W
from engine_core.codes import MAX_EVENT_BYTES
from engine_core.header import encode_header
from engine_core.journal.reader import JournalReader
from engine_core.texas42 import options as O
from engine_core.texas42.sitting import Sitting
from firmware.journal import Journal
from firmware.radio.air import Radio
from firmware.radio.base import Base
import clubnight as CN
from randsit import RandomPlayer, play

BASE_MAC = b"\x02\x00\x00\x00\x00\xb0"
BROADCAST = b"\xff\xff\xff\xff\xff\xff"
STEP = 0.05             # fake seconds a step of the night
RESEND = 0.25           # the sender's RESEND_MS
WINDOW = 3              # the sender's WINDOW


class FakeAir:
    """A fake of ESP-NOW's air in one process (boards/sim/radio.py's rules, after
    MicroPython's ports/esp32/modespnow.c): a frame sent is lost with probability `loss`
    (seeded), a receiver's ring holds at most `rxbuf` bytes and drops what has no room
    (espnow_recv_cb's ring full), a broadcast reaches every radio but the sender."""

    def __init__(self, loss=0.3, seed=1):
        self.loss = loss
        self.rng = random.Random(seed)
        self.rings = {}         # mac -> FakeEspNow
        self.sent = self.lost = 0

    def carry(self, src, dst, msg, lossless=False):
        self.sent += 1
        if not lossless and self.rng.random() < self.loss:
            self.lost += 1
            return False
        for mac, e in self.rings.items():
            if mac != src and (dst == BROADCAST or dst == mac):
                e.arrive(src, bytes(msg))
        return True


class FakeWlan:
    """network.WLAN(STA_IF) as firmware/radio/air.py uses it: active(), config("mac")."""

    def __init__(self, mac):
        self.mac = mac
        self.on = False

    def active(self, on=None):
        if on is not None:
            self.on = on
        return self.on

    def config(self, what):
        assert what == "mac", what
        return self.mac


class FakeEspNow:
    """espnow.ESPNow as the base uses it (modespnow.c): active, config(rxbuf=), add_peer,
    send(mac, msg, sync), any(), irecv(0) -> (peer, msg) or (None, None)."""

    def __init__(self, air, wlan):
        self.air = air
        self.wlan = wlan
        self.on = False
        self.rxbuf = 526        # modespnow.c's DEFAULT_RECV_BUFFER_SIZE
        self.ring = deque()
        self.held = 0
        self.peers = set()

    def active(self, on=None):
        if on is not None:
            self.on = on
            if on:
                self.air.rings[self.wlan.mac] = self
            else:
                self.air.rings.pop(self.wlan.mac, None)
        return self.on

    def config(self, rxbuf):
        self.rxbuf = rxbuf

    def add_peer(self, mac):
        if mac in self.peers:
            raise OSError(-12395, "ESP_ERR_ESPNOW_EXIST")
        self.peers.add(bytes(mac))

    def send(self, mac, msg, sync=True):
        if not self.on or not self.wlan.on:
            raise OSError(-12396, "ESP_ERR_ESPNOW_IF")
        if bytes(mac) not in self.peers:
            raise OSError(-12393, "ESP_ERR_ESPNOW_NOT_FOUND")
        return self.air.carry(self.wlan.mac, bytes(mac), msg)

    def arrive(self, src, msg):
        if self.held + len(msg) + 6 > self.rxbuf:
            return              # the ring is full: dropped
        self.ring.append((src, msg))
        self.held += len(msg) + 6

    def any(self):
        return bool(self.ring)

    def irecv(self, timeout_ms=0):
        if not self.ring:
            return None, None
        src, msg = self.ring.popleft()
        self.held -= len(msg) + 6
        return src, msg


class FakeUsbLine:
    """A fake of the base's USB line: `port`, the base's end (readinto, write, as
    firmware/syncport.py's ports), and the line itself the PC's link (write, read,
    discard_input, url, as host_tools/serial/transport.SerialLink's): a read runs the
    base until it answers, as a PC's read waits for the base's reply."""

    url = "fake-usb"

    def __init__(self):
        self.to_base = bytearray()
        self.to_pc = bytearray()
        self.base = None
        self.port = _BaseEnd(self)

    def write(self, b):
        self.to_base.extend(b)
        return len(b)

    def read(self, timeout=None):
        for _ in range(64):
            if self.to_pc:
                break
            self.base.poll()
        out = bytes(self.to_pc)
        self.to_pc.clear()
        return out

    def discard_input(self):
        self.to_pc.clear()


class _BaseEnd:
    def __init__(self, line):
        self.line = line

    def readinto(self, buf):
        q = self.line.to_base
        n = min(len(buf), len(q))
        buf[:n] = q[:n]
        del q[:n]
        return n

    def write(self, b):
        self.line.to_pc.extend(bytes(b))
        return len(b)


def base_station(air):
    """The real base station firmware on the fake air and line: (base, line)."""
    line = FakeUsbLine()

    def make():
        w = FakeWlan(BASE_MAC)
        return w, FakeEspNow(air, w)
    base = Base(line.port, Radio(make), "T42-0000B0")
    line.base = base
    return base, line


class Scorer:
    """A scorer whose games are random legal play (randsit) on the table it was sent, its
    journal's streams sent to the base as firmware/radio/sender.py does: go-back-N from
    what the acknowledge says is held, WINDOW frames, again after RESEND; once a game
    over is held, it asks for its next table until one comes, and confirms it, again
    after RESEND until the PC's acknowledge says it heard the confirm (F_TAKEN)."""

    def __init__(self, air, number, key, seed):
        self.mac = bytes([2, 0, 0, 0, 0, 0xA0 + number])
        self.device = "T42-0000%02X" % (0xA0 + number)
        self.key = key
        self.tag = W.tag_of(key)
        self.wlan = FakeWlan(self.mac)
        self.radio = FakeEspNow(air, self.wlan)
        self.wlan.active(True)
        self.radio.config(4096)
        self.radio.active(True)
        self.radio.add_peer(BROADCAST)
        self.radio.add_peer(BASE_MAC)
        self.journal = Journal(NorFlash(32, 4096))
        self.journal.mount()
        self.rng = random.Random(seed)
        self.seed = seed
        self.sid = None
        self.stream = b""
        self.held = 0
        self.due = 0.0
        self.next = None        # (sitting, round, table, event, [names]) of the last next
        self.confirms = 0
        self.taken = False      # the PC said it heard the confirm of self.next
        self.games = []         # (round, table, names by seat, marks by side)

    def play_game(self, event, rnd, table, names):
        """A whole game of random legal play at (rnd, table), seats `names`, into the
        journal, finished: the marks by side, as the scorer's engine counted them."""
        rules = O.resolve("42")
        s = Sitting(rules)
        dealer = len(self.games) % s.seats
        s.restart(dealer)
        evs = array("l", [0] * 4000)
        n = play(s, RandomPlayer(self.seed * 1000 + len(self.games) * 31 + 7), evs, 4000)
        j = self.journal
        self.sid = j.begin_sitting(encode_header(rules, dealer, names,
                                                 assign=(event, rnd, table)))
        ebuf = bytearray(MAX_EVENT_BYTES)
        for i in range(n):
            m = codec.encode_into(evs[i], ebuf, 0)
            j.append(ebuf[:m])
        j.finish()
        buf = bytearray(16384)
        k = JournalReader(j).read(self.sid, 0, buf)
        self.stream = bytes(buf[:k])
        self.held = 0
        self.next = None
        self.taken = False
        self.due = 0.0
        marks = [s.score(i) for i in range(s.sides)]
        self.games.append((rnd, table, list(names), marks))
        return marks

    def poll(self, now):
        while self.radio.any():
            peer, msg = self.radio.irecv(0)
            self._hear(msg)
        if now < self.due or self.sid is None:
            return
        self.due = now + RESEND
        if self.held < len(self.stream):
            off = self.held
            for _ in range(WINDOW):
                if off >= len(self.stream):
                    break
                chunk = self.stream[off:off + W.MAX_RECORDS]
                self._send(W.DATA, off, W.F_FINISHED, chunk)
                off += len(chunk)
        elif self.next is None:
            self._send(W.DATA, len(self.stream), W.F_FINISHED, b"")    # the ask
        elif not self.taken:
            self._confirm()

    def _send(self, kind, off, flags, records, head=None):
        b = bytearray(W.MAX_FRAME)
        W.put_head(b, kind, self.tag, self.sid, off, flags)
        if head is not None:
            b[8:11] = head
        b[W.HEAD:W.HEAD + len(records)] = records
        n = W.seal(self.key, self.mac, b, W.HEAD + len(records))
        try:
            self.radio.send(BASE_MAC, bytes(b[:n]), False)
        except OSError:
            pass

    def _hear(self, msg):
        n = len(msg)
        if n < W.HEAD + W.MAC_LEN or bytes(msg[1:5]) != self.tag or not W.sound(
                self.key, self.mac, msg, n) or W.get_u24(msg, 5) != self.sid:
            return
        if msg[0] == W.ACK and msg[11] & W.F_TAKEN:
            self.taken = self.next is not None
        elif msg[0] == W.ACK:
            self.held = max(self.held, W.get_u24(msg, 8))
        elif msg[0] == W.NEXT:
            parts = W.next_parts(msg, n)
            if parts is not None:
                self.next = parts
                self._confirm()

    def _confirm(self):
        sid, rnd, table = self.next[:3]
        self.confirms += 1
        self._send(W.CONFIRM, 0, 0, b"", head=bytes([table, rnd, 0]))


class Pc:
    """The PC's side: the base station over the fake line (host_tools/serial/radio.py),
    the relay's loop (host_tools/events/radio.relay_step) one fetch a step, on the
    night's fake clock."""

    def __init__(self, line, receiver):
        from host_tools.events import radio as RA
        from host_tools.serial.radio import BaseStation
        self.station = BaseStation(line, timeout=0.3, wait=5.0)
        self.station.open()
        self.rx = receiver
        self.checks = RA.give_key(self.station, receiver.key)
        self.acks = []
        self.waiting = []

    def step(self):
        from host_tools.events import radio as RA
        heard, self.acks, self.waiting = RA.relay_step(self.station, self.rx, self.acks,
                                                       self.waiting, clock=self.rx.clock)
        return heard

    def counts(self):
        from host_tools.events import radio as RA
        return RA.base_counts(self.station)


def hand_standings(games, team_of):
    """The standings by hand from the games [(team A, team B, marks A, marks B)] of the
    teams of team_of (tests/kit/clubnight.py's count)."""
    return CN.hand_standings(games, sorted(set(team_of.values())))
