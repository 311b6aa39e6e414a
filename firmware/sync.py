# The sync endpoint: serves the journal's finished sittings to the PC over the USB serial
# line it shares with the REPL (protocol: docs/sync-protocol.md, framing: engine_core.wire).
# Polled from the main loop: it reads only what has arrived, sends at most one bulk frame
# a poll, and changes the journal only through mark_synced, after the host's acknowledge.
from micropython import const
from time import ticks_diff, ticks_ms

from engine_core import wire
from firmware.journal import JournalError

# Error codes of an "e" reply (docs/sync-protocol.md).
E_BAD_FRAME = const(1)
E_NO_SESSION = const(2)
E_VERSION = const(3)
E_UNKNOWN = const(4)
E_BAD_ARGS = const(5)
E_NOT_FOUND = const(6)
E_OPEN = const(7)
E_JOURNAL = const(8)
E_UNSUPPORTED = const(9)
E_REFUSED = const(10)
E_STALE = const(11)

_CHUNK = const(512)         # sitting bytes in a data frame
_IDLE_MS = const(5000)      # a session with no request for this long closes
_READ_BUDGET = const(256)   # bytes taken from the line in one poll
_MAX_ITEMS = const(16)      # sittings or ranges in one fetch
_ENTRY = const(7)           # list entry: id (3), flags, length (3)
_CTRL_C = const(3)
_STR_MAX = const(64)        # device id, firmware version
_HELLO_MAX = const(22 + 2 + 2 * _STR_MAX)

# What poll() is doing between requests.
_IDLE = const(0)
_LISTING = const(1)
_SENDING = const(2)

# Requests whose repeat (same session and sequence number) must not act twice.
_ONCE = b"CNS"


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


class StreamPort:
    """A stream that blocks until it has every byte asked for (the REPL's stdin on an
    ESP32) made safe to poll: one byte at a time, only while select.poll says one is
    there. `StreamPort(sys.stdin.buffer, sys.stdout.buffer)`."""

    def __init__(self, rd, wr=None):
        import select
        self._rd = rd
        self._wr = rd if wr is None else wr
        self._poll = select.poll()
        self._poll.register(rd, select.POLLIN)
        self._in = select.POLLIN
        self._one = bytearray(1)

    def _ready(self):
        for _, ev in self._poll.ipoll(0):
            return ev & self._in
        return 0

    def readinto(self, buf):
        n = 0
        while n < len(buf) and self._ready():
            if not self._rd.readinto(self._one):
                break
            buf[n] = self._one[0]
            n += 1
        return n

    def write(self, data):
        return self._wr.write(data)


class TtyPort:
    """A tty opened raw with VMIN = VTIME = 0, so that a read returns what has arrived at
    once (on the unix port a tty read otherwise waits for a full buffer): the sim's
    serial port. `TtyPort("/dev/pts/3")`, or an open file descriptor number."""

    def __init__(self, path):
        import termios
        self._f = f = open(path, "r+b")
        fd = f.fileno()
        termios.setraw(fd)
        attr = termios.tcgetattr(fd)
        attr[6][6] = 0      # VMIN (the module lacks the names)
        attr[6][5] = 0      # VTIME
        termios.tcsetattr(fd, termios.TCSANOW, attr)

    def readinto(self, buf):
        try:
            return self._f.readinto(buf) or 0
        except OSError:     # the other end is not open: nothing has arrived
            return 0

    def write(self, data):
        try:
            return self._f.write(data)
        except OSError:
            return 0

    def close(self):
        self._f.close()


class SyncEndpoint:
    """`SyncEndpoint(port, journal, device_id, firmware)`, then `poll()` from the main loop.

    port: readinto(buf) -> bytes read (never blocks), write(buf). Callbacks, each
    returning None when done or a short message when refused: clock(unix_seconds,
    utc_offset_minutes), names(kind, [str]) with kind "p" (players) or "t" (teams),
    settings([(key, value)]). now(): the device clock in Unix seconds (0: not set).
    kbd_intr: micropython.kbd_intr, switched off (-1) while a session is open and back on
    (3) when it closes. A Ctrl-C byte read (in a session, or on a port that is not the
    REPL's) closes the session and raises KeyboardInterrupt, as the REPL would: poll()
    raises it to the main loop, which ends for the REPL. interrupt(), if given, is called
    instead."""

    def __init__(self, port, journal, device_id, firmware, clock=None, names=None,
                 settings=None, now=None, kbd_intr=None, interrupt=None, chunk=_CHUNK,
                 idle_ms=_IDLE_MS, ticks=ticks_ms):
        if kbd_intr is None:
            import micropython
            kbd_intr = micropython.kbd_intr
        self._port = port
        self._j = journal
        self._id = device_id.encode() if isinstance(device_id, str) else device_id
        self._fw = firmware.encode() if isinstance(firmware, str) else firmware
        self._clock = clock
        self._names = names
        self._settings = settings
        self._now = now
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
        self._state = _IDLE
        self._out_seq = 0
        # A fetch: items as (first id, last id, offset of the first); where it is.
        self._first = [0] * _MAX_ITEMS
        self._lastid = [0] * _MAX_ITEMS
        self._off0 = [0] * _MAX_ITEMS
        self._items = 0
        self._item = 0
        self._sid = 0
        self._off = 0
        self._len = 0
        self._left = 0
        self._list = None       # the journal's sittings while listing or sending
        self._li = 0
        self._hint = 0
        self.requests = 0       # counters, for the sync screen and the tests
        self.bad_frames = 0
        self.bytes_sent = 0
        self.acked = 0

    # ---- the main loop's side ----

    @property
    def session_open(self):
        return self._session != 0

    @property
    def status(self):
        if not self._session:
            return "idle"
        return "sending" if self._state != _IDLE else "connected"

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
        if self._state == _SENDING:
            self._send_data()
        elif self._state == _LISTING:
            self._send_list()
        if self._session and ticks_diff(self._ticks(), self._last) > self._idle:
            self.close()
        return self._session != 0

    def close(self):
        """End the session (if any) and give Ctrl-C back to the REPL."""
        if self._session:
            self._session = 0
            self._state = _IDLE
            self._list = None
            self._kbd(_CTRL_C)

    # ---- requests ----

    def _byte(self, c):
        if c == _CTRL_C:
            # Never in a request: someone wants the REPL (mpremote). Do what the REPL
            # would have done had keyboard interrupt been on.
            self.close()
            if self._interrupt is None:
                raise KeyboardInterrupt
            self._interrupt()
            return
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
        self._state = _IDLE     # a request ends any reply still being sent
        self._list = None
        if again and cmd in _ONCE:
            self._ok(q.seq)
            return
        if cmd == 0x4C:     # L
            self._start_list(q)
        elif cmd == 0x46:   # F
            self._start_fetch(q)
        elif cmd == 0x41:   # A
            self._ack(q)
        elif cmd == 0x43:   # C
            self._set_clock(q)
        elif cmd == 0x4E:   # N
            self._set_names(q)
        elif cmd == 0x53:   # S
            self._set_settings(q)
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
        self._state = _IDLE
        self._list = None
        count = 0
        size = 0
        try:
            free = self._j.free_bytes()
            for sid, finished, synced, length in self._j.sittings():
                if finished and not synced:
                    count += 1
                    size += length
        except JournalError:
            free = 0
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
        self._send(0x68, q.seq, p - wire.HEAD)     # h

    def _put_str(self, p, s):
        n = min(len(s), _STR_MAX)
        self._tx[p] = n
        i = 0
        while i < n:
            self._tx[p + 1 + i] = s[i]
            i += 1
        return p + 1 + n

    # List: 7 bytes a sitting, as many frames as it takes.
    def _start_list(self, q):
        s, e = wire.token(q.buf, q.start, q.end)
        unsynced = e - s == 1 and q.buf[s] == 0x75      # "u"
        try:
            self._list = self._j.sittings()
        except JournalError:
            self._error(q.seq, E_JOURNAL, 0, b"journal unreadable")
            return
        if unsynced:
            self._list = [x for x in self._list if x[1] and not x[2]]
        self._li = 0
        self._out_seq = q.seq
        self._state = _LISTING

    def _send_list(self):
        t = self._tx
        lst = self._list
        p = wire.HEAD
        stop = wire.HEAD + (self._chunk // _ENTRY) * _ENTRY
        while self._li < len(lst) and p < stop:
            sid, finished, synced, length = lst[self._li]
            wire.put_u24(t, p, sid)
            t[p + 3] = (1 if finished else 0) | (2 if synced else 0)
            wire.put_u24(t, p + 4, length)
            p += _ENTRY
            self._li += 1
        last = self._li >= len(lst)
        if last:
            self._state = _IDLE
            self._list = None
        self._send(0x4C if last else 0x6C, self._out_seq, p - wire.HEAD)   # L / l

    # Fetch: "F count item..." with items "id", "id:offset" or "first-last".
    def _start_fetch(self, q):
        b = q.buf
        s, e = wire.token(b, q.start, q.end)
        count = wire.number(b, s, e)
        if count is None or count < 1:
            self._error(q.seq, E_BAD_ARGS, 0, b"fetch: count")
            return
        n = 0
        pos = e
        while True:
            s, e = wire.token(b, pos, q.end)
            if s >= e:
                break
            if n >= _MAX_ITEMS or not self._item_at(b, s, e, n):
                self._error(q.seq, E_BAD_ARGS, n, b"fetch: item")
                return
            n += 1
            pos = e
        if not n:
            self._error(q.seq, E_BAD_ARGS, 0, b"fetch: no sitting")
            return
        if not self._check_items(q.seq, n):
            return
        self._items = n
        self._item = 0
        self._left = count
        self._out_seq = q.seq
        self._enter(self._first[0], self._off0[0])
        self._state = _SENDING

    def _item_at(self, b, s, e, n):
        # Parse one item into slot n; False if malformed.
        cut = s
        while cut < e and b[cut] != 0x3A and b[cut] != 0x2D:    # ":" "-"
            cut += 1
        first = wire.number(b, s, cut)
        if first is None or first < 1:
            return False
        last = first
        off = 0
        if cut < e:
            v = wire.number(b, cut + 1, e)
            if v is None or v < 0:
                return False
            if b[cut] == 0x3A:
                off = v
            elif v < first:
                return False
            else:
                last = v
        self._first[n] = first
        self._lastid[n] = last
        self._off0[n] = off
        return True

    def _find(self, sid):
        # The journal's entry for sid, or None; from where the last search ended, as a
        # fetch walks the ids upwards.
        lst = self._list
        n = len(lst)
        k = self._hint
        if k >= n or lst[k][0] > sid:
            k = 0
        while k < n and lst[k][0] < sid:
            k += 1
        self._hint = k
        return lst[k] if k < n and lst[k][0] == sid else None

    def _check_items(self, seq, n, need_offset=True):
        # Every id named must be a finished sitting in the journal (an offset within it).
        # The journal's ids increase, so a range is a run of entries: the work is bounded
        # by the journal, whatever range a request names.
        try:
            self._list = lst = self._j.sittings()
        except JournalError:
            self._error(seq, E_JOURNAL, 0, b"journal unreadable")
            return False
        i = 0
        while i < n:
            sid = self._first[i]
            self._find(sid)
            k = self._hint
            while sid <= self._lastid[i]:
                if k >= len(lst) or lst[k][0] != sid:
                    self._error(seq, E_NOT_FOUND, sid, b"no such sitting")
                    return False
                if not lst[k][1]:
                    self._error(seq, E_OPEN, sid, b"sitting not finished")
                    return False
                if need_offset and sid == self._first[i] and self._off0[i] > lst[k][3]:
                    self._error(seq, E_BAD_ARGS, sid, b"offset past the end")
                    return False
                sid += 1
                k += 1
            i += 1
        return True

    def _enter(self, sid, off):
        self._sid = sid
        self._off = off
        self._len = self._find(sid)[3]

    def _next_sitting(self):
        # Move on to the next sitting of the fetch; False at its end.
        if self._sid < self._lastid[self._item]:
            self._enter(self._sid + 1, 0)
            return True
        self._item += 1
        if self._item >= self._items:
            return False
        self._enter(self._first[self._item], self._off0[self._item])
        return True

    def _has_next(self):
        return self._sid < self._lastid[self._item] or self._item + 1 < self._items

    def _send_data(self):
        # One frame: (id, offset) of its first byte, then sitting bytes up to the chunk,
        # running on into the next sittings of the fetch.
        t = self._tx
        done = False
        while self._off >= self._len and not done:
            done = not self._next_sitting()
        p = wire.HEAD
        wire.put_u24(t, p, self._sid)
        wire.put_u24(t, p + 3, self._off)
        p += 6
        stop = p + self._chunk
        while not done and p < stop and self._left > 0:
            if self._off >= self._len:
                done = not self._next_sitting()
                continue
            want = min(stop - p, self._left, self._len - self._off)
            try:
                got = self._j.read(self._sid, self._off, self._txv[p:p + want])
            except JournalError:
                self._state = _IDLE
                self._list = None
                self._error(self._out_seq, E_JOURNAL, self._sid, b"journal read failed")
                return
            if not got:     # shorter than listed: the sitting ends here
                self._len = self._off
                continue
            p += got
            self._off += got
            self._left -= got
            self.bytes_sent += got
        if done or self._left <= 0 or (self._off >= self._len and not self._has_next()):
            self._state = _IDLE
            self._list = None
            kind = 0x44     # D: the last frame of this fetch
        else:
            kind = 0x64     # d
        self._send(kind, self._out_seq, p - wire.HEAD)

    # Acknowledge: "A item..." with items "id" or "first-last".
    def _ack(self, q):
        b = q.buf
        n = 0
        pos = q.start
        while True:
            s, e = wire.token(b, pos, q.end)
            if s >= e:
                break
            if n >= _MAX_ITEMS or not self._item_at(b, s, e, n) or self._off0[n]:
                self._error(q.seq, E_BAD_ARGS, n, b"ack: item")
                return
            n += 1
            pos = e
        if not n:
            self._error(q.seq, E_BAD_ARGS, 0, b"ack: no sitting")
            return
        if not self._check_items(q.seq, n, False):
            return
        self._list = None
        marked = 0
        i = 0
        try:
            while i < n:
                sid = self._first[i]
                while sid <= self._lastid[i]:
                    self._j.mark_synced(sid)
                    marked += 1
                    sid += 1
                i += 1
            free = self._j.free_bytes()
        except JournalError:
            self._error(q.seq, E_JOURNAL, 0, b"journal write failed")
            return
        self.acked += marked
        t = self._tx
        wire.put_u16(t, wire.HEAD, marked)
        wire.put_u32(t, wire.HEAD + 2, free)
        self._send(0x61, q.seq, 6)     # a

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

    def _reply_to(self, seq, refusal):
        if refusal is None:
            self._ok(seq)
        else:
            msg = refusal.encode() if isinstance(refusal, str) else refusal
            self._error(seq, E_REFUSED, 0, msg)

    # ---- replies ----

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
