# A sitting's records read back from the flash journal: `JournalReader(journal)`, for the
# boot's replay, the history screen, a sync and the PC. Loaded when needed (the Journal
# writes without it); it reads through the Journal's public methods, and allocates
# nothing once made (next_event, read), but for a cursor made without one to reuse.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.journal.blocks import JournalError
from engine_core.journal.blocks import BEGIN_FIXED, K_BEGIN, MAX_HEADER, Walk


class Cursor:
    """A position in one sitting's records, for next_event (reusable)."""

    def __init__(self):
        self.sid = 0
        self.blk = -1
        self.off = 0
        self.header_done = False
        self.damaged = False    # the sitting's records stopped at a damaged one


class JournalReader:
    """`JournalReader(journal)`: a mounted Journal's sittings read back."""

    def __init__(self, journal):
        self._j = journal
        self._cur = None        # read(): where the stream read last stopped, the
        self._item = None       # logical item being copied, and where in the stream
        self._roff = 0
        self._ilen = -1
        self._ipos = 0

    def sittings(self):
        """[(id, finished, synced, byte length)], oldest first: for the PC and the tests
        (the device walks them one at a time instead: Journal.walk, walk_next). The
        damaged ones are left out: damaged() lists them."""
        return [s[:4] for s in self.all_sittings() if not s[4]]

    def damaged(self):
        """The ids of the sittings the journal holds damaged (a record of them fails its
        check, or their BEGIN is lost), oldest first."""
        return [s[0] for s in self.all_sittings() if s[4]]

    def all_sittings(self):
        """[(id, finished, synced, byte length, damaged)], oldest first."""
        j = self._j
        out = []
        w = Walk()
        j.walk(w)
        while j.walk_next(w):
            out.append((w.sid, w.finished, w.synced, w.length, w.damaged))
        return out

    def cursor(self, sid, cur=None):
        """A cursor at sitting `sid`'s header (pass `cur` to reuse one)."""
        j = self._j
        pos = j.begin_pos(sid)
        if cur is None:
            cur = Cursor()
        cur.sid = sid
        cur.blk = pos // j.block_size if pos >= 0 else -1
        cur.off = pos % j.block_size
        cur.header_done = False
        cur.damaged = pos < 0
        return cur

    def _copy(self, b, off, buf, n):
        if len(buf) < n:
            raise JournalError("buffer too small")
        j = self._j
        i = 0
        while i < n:
            buf[i] = j.byte(b, off + i)
            i += 1

    def next_event(self, cur, buf):
        """Copy the sitting's header, then each event in turn, into buf; returns its
        length, or -1 after the last event. An END record comes as an item of 5 bytes
        (events have 1 to 4): u32 seconds since 2024, the UTC offset in quarter hours.
        At a damaged record it stops as at the end, with cur.damaged set (the record
        may be the next sitting's BEGIN: Walk.damaged says whether this one is)."""
        j = self._j
        b = cur.blk
        if b < 0:
            return -1
        off = cur.off
        if not cur.header_done:
            if j.record(b, off) != K_BEGIN:
                cur.blk = -1
                cur.damaged = True
                return -1
            n = j.byte(b, off + 5)
            self._copy(b, off + BEGIN_FIXED, buf, n)
            cur.off = off + j.size
            cur.header_done = True
            return n
        while True:
            k = j.record(b, off)
            if 0 < k < K_BEGIN:
                self._copy(b, off + 1, buf, k)
                cur.blk = b
                cur.off = off + j.size
                return k
            if k < 0:
                # Damaged: this sitting's record, or the next one's BEGIN (then this
                # sitting's records ended there: the walk tells which, Walk.damaged).
                cur.damaged = True
                break
            if k:
                break
            b = j.following(b, cur.sid)
            if b < 0:
                break
            off = j.records_start(b)
        cur.blk = -1
        return -1

    def read(self, sid, offset, buf):
        """Copy bytes of sitting `sid`'s stream from `offset` into buf; returns the count
        (0 at the end). The stream: for the header and then each event (or END), one
        length byte followed by that many bytes."""
        c = self._cur
        if c is None:
            self._cur = c = Cursor()
            self._item = bytearray(MAX_HEADER)
        if c.sid != sid or offset != self._roff or c.blk < 0:
            # Not where the last read stopped (or it hit the end, and events may have
            # come since): start over from the header and skip to offset.
            self.cursor(sid, c)
            self._roff = 0
            self._ilen = -1
            self._ipos = 0
        item = self._item
        got = 0
        want = len(buf)
        while got < want:
            if self._ilen < 0 or self._ipos > self._ilen:
                self._ilen = self.next_event(c, item)
                self._ipos = 0
                if self._ilen < 0:
                    break
            if self._roff >= offset:
                buf[got] = self._ilen if self._ipos == 0 else item[self._ipos - 1]
                got += 1
            self._ipos += 1
            self._roff += 1
        return got
