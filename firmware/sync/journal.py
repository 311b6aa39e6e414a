# The journal's side of sync: the list of sittings, fetches by offset and acknowledges,
# built straight into the endpoint's reply buffer (firmware/sync/endpoint.py sends them). It reads
# the journal, and changes it only by mark_synced when the PC acknowledges.
from micropython import const

from engine_core import wire
from firmware.journal import JournalError, Walk
from engine_core.journal.reader import JournalReader

# Error codes it reports (docs/sync-protocol.md; firmware/sync/endpoint.py has the others); 0: none.
E_BAD_ARGS = const(5)
E_NOT_FOUND = const(6)
E_OPEN = const(7)
E_JOURNAL = const(8)

KIND_ERROR = const(0x65)    # "e": next_frame() failed, see err_*

_MAX_ITEMS = const(16)      # sittings or ranges in one fetch or acknowledge
_ENTRY = const(7)           # list entry: id (3), flags, length (3)
_DATA_HEAD = const(6)       # data frame: id (3), offset (3) of its first byte

_IDLE = const(0)
_LISTING = const(1)
_SENDING = const(2)


class SyncJournal:
    """`SyncJournal(journal, tx, chunk)`: tx is a memoryview of the reply buffer, whose
    payload starts at wire.HEAD and holds _DATA_HEAD + chunk bytes."""

    def __init__(self, journal, tx, chunk):
        self._j = journal
        self._r = JournalReader(journal)
        self._tx = tx
        self._chunk = chunk
        self._state = _IDLE
        # Where a list or fetch is among the journal's sittings: walked one at a time
        # from flash, so that RAM does not grow with the sittings the journal holds.
        self._w = Walk()
        self._more = False      # listing: the walk stands on a sitting not sent yet
        self._unsynced = False  # listing: "L u", finished sittings not synced only
        # A fetch or acknowledge: items as (first id, last id, offset of the first).
        self._first = [0] * _MAX_ITEMS
        self._last = [0] * _MAX_ITEMS
        self._off0 = [0] * _MAX_ITEMS
        self._items = 0
        self._item = 0
        self._sid = 0
        self._off = 0
        self._len = 0
        self._left = 0
        self.n = 0              # payload bytes of the frame next_frame() built
        self.err_code = 0       # what went wrong, for the error reply
        self.err_detail = 0
        self.err_msg = b""
        self.bytes_sent = 0
        self.acked = 0
        self.damaged = 0        # damaged sittings not synced, as the hello counted them

    @property
    def busy(self):
        """A list or fetch has frames left to send."""
        return self._state != _IDLE

    def stop(self):
        self._state = _IDLE

    def _fail(self, code, detail, msg):
        self.err_code = code
        self.err_detail = detail
        self.err_msg = msg
        self.stop()
        return code

    def summary(self):
        """(free bytes, finished sittings not synced, their bytes); zeros if unreadable.
        The damaged ones count (the PC lists them to name them), also in self.damaged."""
        count = 0
        size = 0
        self.damaged = 0
        w = self._w
        try:
            free = self._j.free_bytes()
            self._j.walk(w)
            while self._j.walk_next(w):
                if w.finished and not w.synced:
                    count += 1
                    size += w.length
                    if w.damaged:
                        self.damaged += 1
        except JournalError:
            return 0, 0, 0
        return free, count, size

    def next_frame(self):
        """Build the next frame of the list or fetch in progress: its kind (n payload
        bytes), or KIND_ERROR."""
        if self._state == _LISTING:
            return self._list_frame()
        return self._data_frame()

    # ---- list: "L" or "L u" ----

    def start_list(self, buf, start, end):
        """0, or an error code."""
        s, e = wire.token(buf, start, end)
        self._unsynced = e - s == 1 and buf[s] == 0x75      # "u"
        self._j.walk(self._w)
        self._state = _LISTING
        return 0 if self._step_list() else E_JOURNAL

    def _step_list(self):
        # Onto the next sitting the list shows; False if the journal cannot be read.
        w = self._w
        try:
            while True:
                self._more = self._j.walk_next(w)
                if not (self._more and self._unsynced and (w.synced or not w.finished)):
                    return True
        except JournalError:
            self._fail(E_JOURNAL, 0, b"journal unreadable")
            return False

    def _list_frame(self):
        t = self._tx
        w = self._w
        p = wire.HEAD
        stop = wire.HEAD + (self._chunk // _ENTRY) * _ENTRY
        while self._more and p < stop:
            wire.put_u24(t, p, w.sid)
            t[p + 3] = ((1 if w.finished else 0) | (2 if w.synced else 0)
                        | (4 if w.damaged else 0))
            wire.put_u24(t, p + 4, w.length)
            p += _ENTRY
            if not self._step_list():
                return KIND_ERROR
        self.n = p - wire.HEAD
        if not self._more:
            self.stop()
            return 0x4C     # L: the last
        return 0x6C         # l

    # ---- items: "id", "id:offset", "first-last" ----

    def _items_at(self, buf, pos, end, offsets):
        # Parse the items into the slots: how many, or -1 if malformed.
        n = 0
        while True:
            s, e = wire.token(buf, pos, end)
            if s >= e:
                return n
            if n >= _MAX_ITEMS or not self._item_at(buf, s, e, n):
                return -1
            if self._off0[n] and not offsets:
                return -1
            n += 1
            pos = e

    def _item_at(self, b, s, e, n):
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
        self._last[n] = last
        self._off0[n] = off
        return True

    def _check_items(self, n, open_ok=False):
        # Every id named must be a finished sitting in the journal (an offset within it;
        # a damaged one is sent as far as its records read, up to the damage): 0 or an
        # error code. open_ok: the sitting being played may be fetched too (the PC shows
        # its progress), never acknowledged. A range is a run of consecutive sittings,
        # walked from its first: the work is bounded by the journal, whatever range a
        # request names.
        w = self._w
        w.reset()       # the journal may have changed since the last request
        i = 0
        try:
            while i < n:
                sid = self._first[i]
                found = self._j.find(sid, w)
                while True:
                    if not found:
                        return self._fail(E_NOT_FOUND, sid, b"no such sitting")
                    if not (w.finished or open_ok):
                        return self._fail(E_OPEN, sid, b"sitting not finished")
                    if sid == self._first[i] and self._off0[i] > w.length:
                        return self._fail(E_BAD_ARGS, sid, b"offset past the end")
                    if sid >= self._last[i]:
                        break
                    sid += 1
                    found = self._j.walk_next(w) and w.sid == sid
                i += 1
        except JournalError:
            return self._fail(E_JOURNAL, 0, b"journal unreadable")
        return 0

    # ---- fetch: "F count item..." ----

    def start_fetch(self, buf, start, end):
        """0, or an error code."""
        s, e = wire.token(buf, start, end)
        count = wire.number(buf, s, e)
        if count is None or count < 1:
            return self._fail(E_BAD_ARGS, 0, b"fetch: count")
        n = self._items_at(buf, e, end, True)
        if n <= 0:
            return self._fail(E_BAD_ARGS, 0, b"fetch: items")
        err = self._check_items(n, open_ok=True)
        if err:
            return err
        self._items = n
        self._item = 0
        self._left = count
        self._enter(self._first[0], self._off0[0])
        self._state = _SENDING
        return 0

    def _enter(self, sid, off):
        self._sid = sid
        self._off = off
        self._len = self._w.length if self._j.find(sid, self._w) else 0

    def _next_sitting(self):
        # Move on to the next sitting of the fetch; False at its end.
        if self._sid < self._last[self._item]:
            self._enter(self._sid + 1, 0)
            return True
        self._item += 1
        if self._item >= self._items:
            return False
        self._enter(self._first[self._item], self._off0[self._item])
        return True

    def _has_next(self):
        return self._sid < self._last[self._item] or self._item + 1 < self._items

    def _data_frame(self):
        # (id, offset) of the frame's first byte, then sitting bytes up to the chunk,
        # running on into the next sittings of the fetch; read straight into the frame.
        t = self._tx
        done = False
        while self._off >= self._len and not done:
            done = not self._next_sitting()
        p = wire.HEAD
        wire.put_u24(t, p, self._sid)
        wire.put_u24(t, p + 3, self._off)
        p += _DATA_HEAD
        stop = p + self._chunk
        while not done and p < stop and self._left > 0:
            if self._off >= self._len:
                done = not self._next_sitting()
                continue
            want = min(stop - p, self._left, self._len - self._off)
            try:
                got = self._r.read(self._sid, self._off, t[p:p + want])
            except JournalError:
                self._fail(E_JOURNAL, self._sid, b"journal read failed")
                return KIND_ERROR
            if not got:     # shorter than listed: the sitting ends here
                self._len = self._off
                continue
            p += got
            self._off += got
            self._left -= got
            self.bytes_sent += got
        self.n = p - wire.HEAD
        if done or self._left <= 0 or (self._off >= self._len and not self._has_next()):
            self.stop()
            return 0x44     # D: the last frame of this fetch
        return 0x64         # d

    # ---- acknowledge: "A item..." (no offsets) ----

    def ack(self, buf, start, end):
        """Mark the sittings synced, all or none: 0 (the "a" payload is built) or an
        error code."""
        n = self._items_at(buf, start, end, False)
        if n <= 0:
            return self._fail(E_BAD_ARGS, 0, b"ack: items")
        err = self._check_items(n)
        if err:
            return err
        marked = 0
        i = 0
        try:
            while i < n:
                sid = self._first[i]
                while sid <= self._last[i]:
                    self._j.mark_synced(sid)
                    marked += 1
                    sid += 1
                i += 1
            free = self._j.free_bytes()
        except JournalError:
            return self._fail(E_JOURNAL, 0, b"journal write failed")
        self.acked += marked
        wire.put_u16(self._tx, wire.HEAD, marked)
        wire.put_u32(self._tx, wire.HEAD + 2, free)
        self.n = 6
        return 0
