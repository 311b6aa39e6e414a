# The base station: the same firmware on one more ESP32 plugged into the organiser's PC.
# It carries frames between the scorers' radios and the PC's serial line. Handed the
# event's key by the PC (K), it checks each frame heard against the key of the scorer
# whose address sent it (derived from the event's key and that scorer's device id,
# engine_core/air/keys.py) and drops, and counts, what fails: another event's frames and
# frames forged in a scorer's name never reach the PC's queue. The PC checks them again,
# stores what is new and writes the acknowledge, which the base sends back over the air.
# It keeps the key in RAM only (a reboot forgets it: the PC hands it over again when it
# opens a session) and no state but the frames heard and not yet fetched.
#
# On the line it speaks the sync protocol (docs/sync-protocol.md, engine_core/wire.py):
#   H  hello: opens a session; the reply names the base ("+base" after its firmware)
#   K  the event's key, 32 hex digits: check every frame under its scorers' keys from
#      now on (the queue heard before is dropped); K alone: check none. Reply "k"
#   Q  its counts: reply "q", u32 each: frames heard and queued, dropped for want of
#      room, dropped as foreign (no scorer's frame, or another event's tag), dropped as
#      forged (the scorer's tag, a wrong MAC), frames sent; then u8 1 when it checks
#   R  the radio: its arguments are frames to send, each as hex of the scorer's address
#      (6 bytes) and the frame; the reply "r" is a u16 count of frames dropped for want
#      of room so far, then each frame heard: length (1), sender's address (6), frame
#   B  goodbye
#
#   from firmware.radio import base
#   base.main("esp32_epd29")    # main.py on a device: any board file
#   base.run(board)             # a board with `radio` and `serial` (boards/)
from engine_core.compat import const

from engine_core import wire
from engine_core.air import keys as AK
from firmware.radio.air import Radio

FIRMWARE = "0.1.0+base"
_QUEUE = const(4096)        # frames heard and not yet fetched by the PC
_RXBUF = const(8192)        # ESP-NOW's receive ring: 16 scorers' windows
_REPLY = const(2048)        # wire.MAX_PAYLOAD
_E_NO_SESSION = const(2)
_E_BAD_ARGS = const(5)
_E_UNKNOWN = const(4)


class Base:
    """`Base(port, radio, device_id)`, then poll() as often as it can."""

    def __init__(self, port, radio, device_id):
        self._port = port
        self._radio = radio
        self._id = device_id.encode()
        radio.on(_RXBUF)
        self._req = wire.RequestReader()
        self._rx = bytearray(64)
        self._tx = bytearray(wire.HEAD + _REPLY + wire.TAIL)
        self._q = bytearray(_QUEUE)
        self._qn = 0
        self._out = bytearray(wire.MAX_REQUEST // 2)
        self._session = 0
        self._keys = None       # AK.Scorers under the event's key, once the PC gives it
        self.heard = 0
        self.dropped = 0
        self.foreign = 0
        self.forged = 0
        self.sent = 0

    def poll(self):
        """Read the line and the air once; True when something came."""
        got = self._hear()
        n = self._port.readinto(self._rx)
        i = 0
        while i < n:
            if self._req.feed(self._rx[i]) == wire.GOOD:
                self._request()
            i += 1
        return got or n > 0

    # ---- the air ----
    def _hear(self):
        e = self._radio.espnow
        got = False
        while e.any():
            peer, msg = e.irecv(0)
            if peer is None:
                break
            got = True
            n = len(msg)
            if self._keys is not None:
                why = self._keys.check(peer, msg, n)
                if why == AK.FOREIGN:
                    self.foreign += 1
                    continue
                if why == AK.FORGED:
                    self.forged += 1
                    continue
            q = self._qn
            if q + 7 + n > _QUEUE:
                self.dropped += 1       # the PC is not fetching: the scorer sends again
                continue
            self._q[q] = n
            self._q[q + 1:q + 7] = peer
            self._q[q + 7:q + 7 + n] = msg
            self._qn = q + 7 + n
            self.heard += 1
        return got

    # ---- the line ----
    def _request(self):
        q = self._req
        if q.cmd == 0x48:       # H
            self._hello(q.seq)
        elif not self._session or q.session != self._session:
            self._error(q.seq, _E_NO_SESSION, b"no session: send hello")
        elif q.cmd == 0x52:     # R
            self._relay(q)
        elif q.cmd == 0x4B:     # K
            self._key(q)
        elif q.cmd == 0x51:     # Q
            self._counts(q.seq)
        elif q.cmd == 0x42:     # B
            self._reply(0x6B, q.seq, 0)     # k
            self._session = 0
        else:
            self._error(q.seq, _E_UNKNOWN, b"unknown command")

    def _hello(self, seq):
        from os import urandom
        s = urandom(2)
        self._session = (s[0] | s[1] << 8) or 1
        t = self._tx
        p = wire.HEAD
        t[p:p + 22] = bytes(22)
        t[p] = wire.VERSION
        t[p + 1] = wire.MINOR
        wire.put_u16(t, p + 2, self._session)
        wire.put_u16(t, p + 10, wire.MAX_REQUEST)
        p += 22
        for s in (self._id, FIRMWARE.encode()):
            t[p] = len(s)
            t[p + 1:p + 1 + len(s)] = s
            p += 1 + len(s)
        self._reply(0x68, seq, p - wire.HEAD)   # h

    def _key(self, q):
        # The event's key: 32 hex digits, or none (check nothing).
        s, e = wire.token(q.buf, q.start, q.end)
        if s >= e:
            self._keys = None
        else:
            key = bytearray(AK.KEY_HEX // 2)
            if e - s != AK.KEY_HEX or _unhex(q.buf, s, e, key) != len(key):
                self._error(q.seq, _E_BAD_ARGS, b"K: the event's key, 32 hex digits")
                return
            self._keys = AK.Scorers(key)
        self._qn = 0            # heard before the check: the scorers send it again
        self._reply(0x6B, q.seq, 0)     # k

    def _counts(self, seq):
        t = self._tx
        p = wire.HEAD
        for v in (self.heard, self.dropped, self.foreign, self.forged, self.sent):
            wire.put_u32(t, p, v)
            p += 4
        t[p] = 1 if self._keys is not None else 0
        self._reply(0x71, seq, p + 1 - wire.HEAD)   # q

    def _relay(self, q):
        # The acknowledges to send, then the frames heard since the last fetch.
        b = q.buf
        e = q.start
        while True:
            s, e = wire.token(b, e, q.end)
            if s >= e:
                break
            n = _unhex(b, s, e, self._out)
            if n <= 6:
                self._error(q.seq, _E_BAD_ARGS, b"R: hex of address and frame")
                return
            try:
                self._radio.send(bytes(self._out[:6]), memoryview(self._out)[6:n])
                self.sent += 1
            except OSError:
                pass            # the radio's buffers are full: the scorer asks again
        self._hear()
        t = self._tx
        p = wire.HEAD
        wire.put_u16(t, p, self.dropped & 0xFFFF)
        p += 2
        i = 0
        while i < self._qn:
            k = 7 + self._q[i]
            if p - wire.HEAD + k > _REPLY:
                break
            t[p:p + k] = self._q[i:i + k]
            p += k
            i += k
        self._q[0:self._qn - i] = self._q[i:self._qn]
        self._qn -= i
        self._reply(0x72, q.seq, p - wire.HEAD)     # r

    def _error(self, seq, code, text):
        t = self._tx
        p = wire.HEAD
        t[p] = code
        t[p + 1] = 0
        t[p + 2:p + 2 + len(text)] = text
        self._reply(0x65, seq, 2 + len(text))   # e

    def _reply(self, kind, seq, n):
        k = wire.reply_into(self._tx, kind, seq, n)
        self._port.write(memoryview(self._tx)[:k])


def _unhex(b, s, e, out):
    # Hex digits b[s:e] into out: the byte count, or -1 when they are not hex.
    n = (e - s) // 2
    if (e - s) % 2 or n > len(out):
        return -1
    i = 0
    while i < n:
        hi = _digit(b[s + 2 * i])
        lo = _digit(b[s + 2 * i + 1])
        if hi < 0 or lo < 0:
            return -1
        out[i] = hi << 4 | lo
        i += 1
    return n


def _digit(c):
    if 0x30 <= c <= 0x39:
        return c - 0x30
    if 0x41 <= c <= 0x46:
        return c - 0x37
    if 0x61 <= c <= 0x66:
        return c - 0x57
    return -1


def main(board_name):
    """A device's main.py for a base station: `from firmware.radio import base;
    base.main("esp32_epd29")` (any board file: only its USB line and radio are used)."""
    wiring = __import__("boards." + board_name, None, None, ("open",))
    return run(wiring.open())


def run(board):
    """The base station on `board` until the board says stop (the sim: stdin closed)."""
    from firmware import start, syncport
    line = board.serial
    path = getattr(line, "path", None)
    if path:
        port = syncport.TtyPort(path)
    else:
        import micropython
        micropython.kbd_intr(-1)
        port = syncport.StreamPort(line.rx, line.tx)
    base = Base(port, Radio(board.radio), getattr(board, "device_id", None)
                or start.device_id())
    keys = board.buttons
    while True:
        if not base.poll():
            # Idle: the board's buttons say when to stop (the sim's, once its stdin
            # closes); a device's base runs until it is unplugged.
            if keys is not None and keys.poll(board.ticks_ms()) < 0:
                return base
            board.sleep_ms(1)
