# The flash journal: every accepted event of every sitting, as an append-only log over
# the blocks of its own partition, durable when append() returns. Format and recovery:
# docs/journal.md. The Journal holds all of the writing (loaded for good: no write
# imports anything); the reading it builds on (records, the mount, the walk over the
# sittings that marking one synced and reclaiming a block need) is Log's, in
# engine_core/journal/log.py, which the PC reads flash images with. A sitting's
# records are read back by JournalReader (engine_core/journal/reader.py).
# Blocks of format 1 (written by firmware before the check values) are read as they were
# written; every block taken now is of format 2, each record with its check value.
# One name for the format's module: each name imported would be one more entry in
# this module's globals, in RAM for as long as the scorer runs.
from engine_core.journal import blocks as B
from engine_core.journal.log import Log
from firmware import transient


class Journal(Log):
    """`Journal(bdev)`: bdev is a block device with the extended protocol of
    esp32.Partition (readblocks, writeblocks with an offset, ioctl). mount() before use."""

    def __init__(self, bdev):
        super().__init__(bdev)
        self._end = bytearray(B.K_END)  # an END record's payload (end())

    # Mount: the scan of Blocks.mount, its code out of the heap after ---------------

    def mount(self):
        """Log.mount, then the scan's code leaves the heap (firmware/transient.py): a
        stock flash does not keep it while the scorer plays."""
        try:
            return Log.mount(self)
        finally:
            transient.release()     # the scan (engine_core/journal/mount.py)

    # Space: a new head block (erased, the tail reclaimed when the journal is full) ----

    def _room(self, size):
        if not self._mounted:
            raise B.JournalError("journal not mounted")
        if self._head_dirty or self._head_off + size > self._bs:
            self._next_block()

    def _next_block(self):
        nb = (self._head + 1) % self._n
        if nb == self._tail and self._count == self._n:
            if not self._reclaimable(nb):
                raise B.JournalFull("journal full: sync finished sittings to free space")
            self._tail = (nb + 1) % self._n
            self._count -= 1
        # nb, erased if need be, with its header: the head. The records of the block
        # before end where the head's did.
        self._seq += 1
        self.new_block(nb, self._seq, self._next_sid, self._open, self._head_off)
        self._ok[nb] = 0
        self._head = nb
        self._count += 1
        self._head_off = B.HDR2
        self._head_dirty = False

    def _reclaimable(self, b):
        # A block may go when every sitting that has records in it is synced: the one
        # carried into it and each one begun in it. Known once, until a sitting changes.
        if self._ok[b]:
            return self._ok[b] == 1
        self._ok[b] = 2         # until every sitting with records in it is found synced
        carry = self._carry[b]
        if carry:
            if carry == self._open:
                return False
            # Its BEGIN is in an older block, or gone with it: then it was synced. One
            # whose BEGIN is lost to damage holds nothing that can be synced.
            if carry >= self._lo[self._tail]:
                w = self._find(carry)
                if w.pos >= 0 and not w.synced:
                    return False
        end = self.records_end(b)
        off = self.records_start(b)
        last = self._lo[b] - 1
        while off < end:
            self._mode = B.QUICK
            k = self.record(b, off, end)
            self._mode = B.CHECKED
            if k == 0:
                break
            if k < 0:
                from engine_core.journal import damage
                off = damage.resync(self, b, off, end, last)
                continue
            if k == B.K_BEGIN:
                if self.flags_at(b, off) & B.F_SYNCED:  # bit erased: not synced
                    return False
                last = self.sid_at(b, off)
            off += self.size
        self._ok[b] = 1
        return True

    def free_bytes(self):
        """Bytes of records that fit before the journal is full (synced sittings that
        would be reclaimed count as free)."""
        usable = self._bs - B.HDR2
        free = 0 if self._head_dirty else self._bs - self._head_off
        free += (self._n - self._count) * usable
        b = self._tail
        while b != self._head and self._reclaimable(b):
            free += usable
            b = (b + 1) % self._n
        return free
    # Writing ---------------------------------------------------------------------

    def begin_sitting(self, header):
        """Start a sitting (finishing the open one); returns its id."""
        hlen = len(header)
        if hlen > B.MAX_HEADER or B.BEGIN_FIXED + hlen + 1 > self._bs - B.HDR2:
            raise B.JournalError("sitting header too long")
        self._room(B.BEGIN_FIXED + hlen + 1)  # first: a refused begin changes nothing
        if self._open:
            self.finish()
        sid = self._next_sid
        if sid > 0xFFFFFF:  # 3 bytes on flash: sixteen million sittings
            raise B.JournalFull("journal full: no sitting ids left")
        r = bytearray(B.BEGIN_FIXED + hlen + 1)     # once a sitting
        r[1] = 0xFF
        r[2] = sid & 0xFF
        r[3] = (sid >> 8) & 0xFF
        r[4] = (sid >> 16) & 0xFF
        r[5] = hlen
        r[B.BEGIN_FIXED : B.BEGIN_FIXED + hlen] = header
        c = B.crc8(0, B.T_BEGIN)
        for i in range(2, B.BEGIN_FIXED + hlen):
            c = B.crc8(c, r[i])
        r[B.BEGIN_FIXED + hlen] = c
        b = self._head
        off = self._head_off
        # Body first, tag last: the tag is the commit.
        self.program(b, memoryview(r)[1:], off + 1)
        self._one[0] = B.T_BEGIN
        self.program(b, self._one, off)
        self._head_off = off + len(r)
        self._last = self._open = sid
        self._last_pos = b * self._bs + off
        self._last_flags = 0xFF
        self._ended = False
        self._bad = 0
        self._ok[b] = 2
        self._next_sid = sid + 1
        return sid

    def end(self, t, offset):
        """Record that the open sitting ended (game over, abandoned for a new one) at
        `t`, seconds since 2024-01-01T00:00Z on the scorer's clock (0: not set), `offset`
        its UTC offset in minutes: an END record, durable on return. Does nothing when
        the sitting's last record is an END already (its first end stands until an event
        reopens it), when no sitting is open, or when there is no room (the sitting keeps
        no end time; the events are all there): then False. Allocates nothing."""
        if not self._open or self._ended:
            return False
        e = self._end
        e[0] = t & 0xFF
        e[1] = (t >> 8) & 0xFF
        e[2] = (t >> 16) & 0xFF
        e[3] = (t >> 24) & 0xFF
        e[4] = (offset // 15) & 0xFF
        try:
            self.append(e)      # the one record of 5 bytes append takes
        except B.JournalError:
            return False
        return True

    def append(self, event):
        """Append one event (1 to 4 bytes) to the open sitting; durable on return.
        Allocates nothing, also when it takes a new block (every few KB)."""
        n = len(event)
        if n < 1 or (n > 4 and event is not self._end):
            raise B.JournalError("event must be 1 to 4 bytes")
        if not self._open:
            raise B.JournalError("no sitting open")
        self._room(2 + n)
        b = self._head
        off = self._head_off
        t = B.TAGS[n - 1]
        c = B.crc8(0, t)
        i = 0
        while i < n:
            c = B.crc8(c, event[i])
            i += 1
        # Body first (the event's bytes, then its check value), tag last: the tag is
        # the commit.
        self.program(b, event, off + 1)
        self._one[0] = c
        self.program(b, self._one, off + 1 + n)
        self._one[0] = t
        self.program(b, self._one, off)
        self._head_off = off + 2 + n
        self._ended = n == B.K_END
        self._ok[b] = 2

    def mark_synced(self, sid):
        """Record that the host holds sitting `sid`; it may then be reclaimed (a bit
        cleared in place: needs no space). A sitting whose BEGIN was lost to damage has
        nothing to mark."""
        if sid == self._open:
            raise B.JournalError("finish the sitting before syncing it")
        w = self._find(sid)
        if w.pos >= 0 and not w.synced:
            self.program_flag(w.pos, B.F_SYNCED)
            if w.pos == self._last_pos:
                self._last_flags &= 0xFF ^ B.F_SYNCED
            i = 0
            while i < self._n:      # what may be reclaimed is known again when asked
                self._ok[i] = 0
                i += 1

