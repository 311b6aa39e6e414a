# The sync endpoint: serves the journal's finished sittings to the PC over the USB serial
# line it shares with the REPL (protocol: docs/sync-protocol.md, framing: engine_core.wire).
# Polled from the main loop: it reads only what has arrived, sends at most one bulk frame
# a poll, and changes the journal only through mark_synced, after the host's acknowledge
# (firmware/sync/journal.py). Ports to read from: firmware/syncport.py.
from micropython import const
from time import ticks_diff, ticks_ms

from engine_core import wire
from firmware.sync.journal import E_BAD_ARGS, E_JOURNAL, E_NOT_FOUND, E_OPEN  # noqa: F401
from firmware.sync.journal import KIND_ERROR, SyncJournal

# Error codes of an "e" reply (docs/sync-protocol.md); 5 to 8 are SyncJournal's.
E_BAD_FRAME = const(1)
E_NO_SESSION = const(2)
E_VERSION = const(3)
E_UNKNOWN = const(4)
E_UNSUPPORTED = const(9)
E_REFUSED = const(10)
E_STALE = const(11)

_CHUNK = const(512)         # sitting bytes in a data frame
_IDLE_MS = const(5000)      # a session with no request for this long closes
_READ_BUDGET = const(256)   # bytes taken from the line in one poll
_CTRL_C = const(3)
_CR = const(0x0D)
_STR_MAX = const(64)        # device id, firmware version
_HELLO_MAX = const(22 + 2 + 2 * _STR_MAX + 5)

# Requests whose repeat (same session and sequence number) must not act twice.
_ONCE = b"CNST"


def _random16():
    # A new session id, so that a request recorded in one session (or before a restart)
    # is refused in the next.
    try:
        from os import urandom
        b = urandom(2)
        return b[0] | b[1] << 8
    except (ImportError, AttributeError):
        from random import getrandbits
        return getrandbits(16)


class SyncEndpoint:
    """`SyncEndpoint(port, journal, device_id, firmware)`, then `poll()` from the main loop.

    port: readinto(buf) -> bytes read (never blocks), write(buf). Callbacks, each
    returning None when done or a short message when refused: clock(unix_seconds,
    utc_offset_minutes), names(kind, [str]) with kind "p" (players) or "t" (teams),
    settings([(key, value)]), assign((event, round, table) or None): the next sitting's
    table assignment. now(): the device clock in Unix seconds (0: not set). count():
    (seconds since power-on, the power-on's tag) while the clock is not set, (0, -1)
    once it is (firmware.link.Clock.count): the hello's last fields, for the PC to place
    the times stamped on that count (engine_core.stamp).
    kbd_intr: micropython.kbd_intr, switched off (-1) while a session is open and back on
    (3) when it closes. CR Ctrl-C read (a REPL tool's call, in a session, or on a port
    that is not the REPL's) closes the session and raises KeyboardInterrupt, as the REPL
    would: poll() raises it to the main loop, which ends for the REPL. interrupt(), if
    given, is called instead. A lone Ctrl-C is noise."""

    def __init__(self, port, journal, device_id, firmware, clock=None, names=None,
                 settings=None, now=None, count=None, assign=None, kbd_intr=None, interrupt=None, chunk=_CHUNK,
                 idle_ms=_IDLE_MS, ticks=ticks_ms):
        if kbd_intr is None:
            import micropython
            kbd_intr = micropython.kbd_intr
        self._port = port
        self._id = device_id.encode() if isinstance(device_id, str) else device_id
        self._fw = firmware.encode() if isinstance(firmware, str) else firmware
        self._clock = clock
        self._names = names
        self._settings = settings
        self._assign = assign
        self._now = now
        self._count = count
        self._kbd = kbd_intr
        self._interrupt = interrupt
        self._chunk = chunk
        self._idle = idle_ms
        self._ticks = ticks
        self._rx = bytearray(64)
        self._req = wire.RequestReader()
        self._cap = max(6 + chunk, _HELLO_MAX)     # payload bytes of the biggest reply
        self._tx = bytearray(wire.HEAD + self._cap + wire.TAIL)
        self._txv = memoryview(self._tx)
        self._arg = bytearray(64)
        self._session = 0
        self._seq = -1
        self._last = 0          # ticks of the last request
        self._out_seq = 0       # the request the frames being sent answer
        self._data = SyncJournal(journal, self._txv, chunk)
        self._prev = 0          # the byte before, read from the line
        self.requests = 0       # counters, for the sync screen and the tests
        self.bad_frames = 0

    # ---- the main loop's side ----

    @property
    def session_open(self):
        return self._session != 0

    @property
    def status(self):
        if not self._session:
            return "idle"
        return "sending" if self._data.busy else "connected"

    @property
    def bytes_sent(self):
        return self._data.bytes_sent

    @property
    def acked(self):
        return self._data.acked

    def poll(self):
        """Handle what has arrived, then send at most one bulk frame; returns True while
        a session is open (poll often then: the PC is waiting)."""
        got = 0
        while got < _READ_BUDGET:
            n = self._port.readinto(self._rx)
            if not n:
                break
            i = 0
            while i < n:
                self._byte(self._rx[i])
                i += 1
            got += n
        if self._data.busy:
            kind = self._data.next_frame()
            if kind == KIND_ERROR:
                self._data_error(self._out_seq)
            else:
                self._send(kind, self._out_seq, self._data.n)
        if self._session and ticks_diff(self._ticks(), self._last) > self._idle:
            self.close()
        return self._session != 0

    def close(self):
        """End the session (if any) and give Ctrl-C back to the REPL."""
        if self._session:
            self._session = 0
            self._data.stop()
            self._kbd(_CTRL_C)

    # ---- requests ----

    def _byte(self, c):
        prev = self._prev
        self._prev = c
        if c == _CTRL_C and prev == _CR:
            # Never in a request: a REPL tool (mpremote sends CR Ctrl-C) wants the REPL.
            # Do what the REPL would have done had keyboard interrupt been on.
            self.close()
            if self._interrupt is None:
                raise KeyboardInterrupt
            self._interrupt()
            return
        # A lone Ctrl-C is line noise, like any byte a request never holds: the request
        # it lands in is dropped (and asked again), the session stays.
        r = self._req.feed(c)
        if r == wire.GOOD:
            self._request()
        elif r == wire.BAD:
            self.bad_frames += 1
            if self._session:
                self._error(0xFF, E_BAD_FRAME, 0, b"bad frame")

    def _request(self):
        q = self._req
        self.requests += 1
        cmd = q.cmd
        if cmd == 0x48:     # H
            self._hello(q)
            return
        if not self._session or q.session != self._session:
            self._error(q.seq, E_NO_SESSION, 0, b"no session: send hello")
            return
        self._last = self._ticks()
        ahead = (q.seq - self._seq) & 0xFF
        if ahead >= 128:    # behind the last request: a replay of an old one
            self._error(q.seq, E_STALE, self._seq, b"stale request")
            return
        again = ahead == 0
        self._seq = q.seq
        self._data.stop()       # a request ends any reply still being sent
        if again and cmd in _ONCE:
            self._ok(q.seq)
            return
        d = self._data
        if cmd == 0x4C:     # L
            self._started(q.seq, d.start_list(q.buf, q.start, q.end))
        elif cmd == 0x46:   # F
            self._started(q.seq, d.start_fetch(q.buf, q.start, q.end))
        elif cmd == 0x41:   # A
            if d.ack(q.buf, q.start, q.end):
                self._data_error(q.seq)
            else:
                self._send(0x61, q.seq, d.n)     # a
        elif cmd == 0x43:   # C
            self._set_clock(q)
        elif cmd == 0x4E:   # N
            self._set_names(q)
        elif cmd == 0x53:   # S
            self._set_settings(q)
        elif cmd == 0x54:   # T
            self._set_assign(q)
        elif cmd == 0x42:   # B
            self._ok(q.seq)
            self.close()
        else:
            self._error(q.seq, E_UNKNOWN, cmd, b"unknown command")

    def _hello(self, q):
        b = q.buf
        s, e = wire.token(b, q.start, q.end)
        major = wire.number(b, s, e)
        if major != wire.VERSION:
            self._error(q.seq, E_VERSION, wire.VERSION, b"protocol version")
            return
        session = _random16()
        if session == self._session or not session:
            session = (session + 1) & 0xFFFF or 1
        if not self._session:
            self._kbd(-1)
        self._session = session
        self._seq = q.seq
        self._last = self._ticks()
        self._data.stop()
        free, count, size = self._data.summary()
        t = self._tx
        p = wire.HEAD
        t[p] = wire.VERSION
        t[p + 1] = wire.MINOR
        wire.put_u16(t, p + 2, session)
        wire.put_u32(t, p + 4, free)
        wire.put_u16(t, p + 8, self._chunk)
        wire.put_u16(t, p + 10, wire.MAX_REQUEST)
        wire.put_u16(t, p + 12, count)
        wire.put_u32(t, p + 14, size)
        wire.put_u32(t, p + 18, self._now() if self._now else 0)
        p = self._put_str(p + 22, self._id)
        p = self._put_str(p, self._fw)
        # (minor 2) u32 seconds since power-on and u8 the power-on's tag + 1 while the
        # clock is not set; 0 and 0 once it is, or on a scorer that cannot tell.
        secs, tag = self._count() if self._count else (0, -1)
        wire.put_u32(t, p, secs if tag >= 0 else 0)
        t[p + 4] = tag + 1 if tag >= 0 else 0
        p += 5
        self._send(0x68, q.seq, p - wire.HEAD)     # h

    def _put_str(self, p, s):
        n = min(len(s), _STR_MAX)
        self._tx[p] = n
        i = 0
        while i < n:
            self._tx[p + 1 + i] = s[i]
            i += 1
        return p + 1 + n

    # Clock, names, settings: handed to the app's callbacks.
    def _set_clock(self, q):
        b = q.buf
        s, e = wire.token(b, q.start, q.end)
        secs = wire.number(b, s, e)
        s, e = wire.token(b, e, q.end)
        offset = wire.number(b, s, e) if s < e else 0
        if secs is None or secs < 0 or offset is None or not -1440 < offset < 1440:
            self._error(q.seq, E_BAD_ARGS, 0, b"clock: seconds offset")
            return
        if self._clock is None:
            self._error(q.seq, E_UNSUPPORTED, 0, b"no clock")
            return
        self._reply_to(q.seq, self._clock(secs, offset))

    def _word(self, b, s, e):
        n = wire.unescape_into(b, s, e, self._arg)
        if n < 0:
            return None
        try:
            return bytes(self._arg[:n]).decode("utf-8")
        except UnicodeError:
            return None

    def _set_names(self, q):
        b = q.buf
        s, e = wire.token(b, q.start, q.end)
        kind = b[s] if e - s == 1 else 0
        if kind != 0x70 and kind != 0x74:       # p, t
            self._error(q.seq, E_BAD_ARGS, 0, b"names: p or t")
            return
        names = []
        while True:
            s, e = wire.token(b, e, q.end)
            if s >= e:
                break
            w = self._word(b, s, e)
            if w is None:
                self._error(q.seq, E_BAD_ARGS, len(names), b"names: bad name")
                return
            names.append(w)
        if self._names is None:
            self._error(q.seq, E_UNSUPPORTED, 0, b"no names")
            return
        self._reply_to(q.seq, self._names(chr(kind), names))

    def _set_settings(self, q):
        b = q.buf
        pairs = []
        e = q.start
        while True:
            s, e = wire.token(b, e, q.end)
            if s >= e:
                break
            eq = s
            while eq < e and b[eq] != 0x3D:     # "="
                eq += 1
            key = self._word(b, s, eq)
            value = self._word(b, eq + 1, e) if eq < e else None
            if not key or value is None:
                self._error(q.seq, E_BAD_ARGS, len(pairs), b"settings: key=value")
                return
            pairs.append((key, value))
        if self._settings is None:
            self._error(q.seq, E_UNSUPPORTED, 0, b"no settings")
            return
        self._reply_to(q.seq, self._settings(pairs))

    def _set_assign(self, q):
        # T round table event: the next sitting's table assignment; T alone drops it.
        b = q.buf
        s, e = wire.token(b, q.start, q.end)
        assign = None
        if s < e:
            rnd = wire.number(b, s, e)
            s, e = wire.token(b, e, q.end)
            table = wire.number(b, s, e) if s < e else None
            s, e = wire.token(b, e, q.end)
            event = self._word(b, s, e) if s < e else None
            if rnd is None or table is None or not event:
                self._error(q.seq, E_BAD_ARGS, 0, b"table: round table event")
                return
            assign = (event, rnd, table)
        if self._assign is None:
            self._error(q.seq, E_UNSUPPORTED, 0, b"no table assignments")
            return
        self._reply_to(q.seq, self._assign(assign))

    def _reply_to(self, seq, refusal):
        if refusal is None:
            self._ok(seq)
        else:
            msg = refusal.encode() if isinstance(refusal, str) else refusal
            self._error(seq, E_REFUSED, 0, msg)

    # ---- replies ----

    def _started(self, seq, err):
        # A list or fetch begins (its frames go out from poll()), or is refused.
        if err:
            self._data_error(seq)
        else:
            self._out_seq = seq

    def _data_error(self, seq):
        d = self._data
        self._error(seq, d.err_code, d.err_detail, d.err_msg)

    def _ok(self, seq):
        self._send(0x6B, seq, 0)       # k

    def _error(self, seq, code, detail, msg):
        t = self._tx
        p = wire.HEAD
        t[p] = code
        wire.put_u32(t, p + 1, detail & 0xFFFFFFFF)
        n = min(len(msg), self._cap - 5)
        i = 0
        while i < n:
            t[p + 5 + i] = msg[i]
            i += 1
        self._send(0x65, seq, 5 + n)       # e

    def _send(self, kind, seq, n):
        total = wire.reply_into(self._txv, kind, seq & 0xFF, n)
        self._port.write(self._txv[:total])
