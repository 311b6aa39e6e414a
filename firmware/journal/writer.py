# The flash journal: every accepted event of every sitting, as an append-only log over
# the blocks of its own partition, durable when append() returns. Format and recovery:
# docs/journal.md. The Journal holds all of the writing (loaded for good: no write
# imports anything), its mount, and the walk over its sittings that marking one synced
# and reclaiming a block need. A sitting's records are read back by JournalReader
# (engine_core/journal/reader.py), through the public methods at the end of the class.
# Blocks of format 1 (written by firmware before the check values) are read as they were
# written; every block taken now is of format 2, each record with its check value.
# One name for the format's module: each name imported would be one more entry in
# this module's globals, in RAM for as long as the scorer runs.
from engine_core.journal import blocks as B
from firmware import transient


class Journal(B.Blocks):
    """`Journal(bdev)`: bdev is a block device with the extended protocol of
    esp32.Partition (readblocks, writeblocks with an offset, ioctl). mount() before use."""

    def __init__(self, bdev):
        super().__init__(bdev)
        self._end = bytearray(B.K_END)  # an END record's payload (end())
        self._walk = None       # the lookups by id (mark_synced, reclaim, begin_pos)
        self._ok = bytearray(0)  # by block: reclaimable? 0 not known yet, 1 yes, 2 no
        self._last_pos = 0      # the newest sitting's BEGIN position, flags
        self._last_flags = 0
        self._ended = False     # the newest sitting's last record is an END
        self._bad = 0           # 1: the newest sitting is damaged; 2: a BEGIN after it
        self._open = 0          # the open sitting's id, 0 when none (always the newest)
        self._next_sid = 1
        self._tail = 0          # the ring: tail block, blocks in use, the head's
        self._count = 0         # sequence number, and whether torn bytes follow its
        self._seq = 0           # last record
        self._head_dirty = False

    # Records ---------------------------------------------------------------------

    def record(self, b, off, end=-1):
        """The record at `off` in block `b` (whose records end at `end`, the block's end
        by default), checked: its B.kind (1 to 4 an event, 5 an END, 6 a BEGIN), its bytes
        on flash in `size`; 0 where the block's records end, -1 where a record is
        damaged (then damage.resync finds the next sitting). A walk of the structure
        alone (_mode) leaves the events' checks out."""
        if end < 0:
            self._mode = B.CHECKED
            end = self.records_end(b)
        if off >= end:
            return 0
        t = self.byte(b, off)
        k = B.kind(t)
        if not self._pend[b]:
            # Format 1: no check values; a record that is not whole ends the block.
            if not k or k == B.K_BEGIN and off + B.BEGIN_FIXED > end:
                return 0
            self.size = B.BEGIN_FIXED + self.byte(b, off + 5) if k == B.K_BEGIN else 1 + k
            return k if off + self.size <= end else 0
        if k:
            if self._mode == B.QUICK and k < B.K_BEGIN:
                # Only the records' structure is wanted: an event's tag is whole (so is
                # its body: the tag is written last); its check is left for the reader.
                self.size = k + 2
                return k if off + k + 2 <= end else -1
            return k if self.checks(b, off, end, t, k, False) else -1
        at_end = self._mode == B.SCANNING and b == self._head
        if at_end and t == 0xFF and self.blank(b, off):
            return 0        # the end of the log: erased flash
        # A tag that is not one: damaged, or torn by a power cut at the log's end.
        from engine_core.journal import damage
        return damage.tag(self, b, off, end, t, at_end, self._last)

    # Mount -----------------------------------------------------------------------

    def mount(self):
        """Scan the partition, drop a torn tail, find the newest sitting; formats a blank
        or garbage partition. Returns the open sitting's id or None. What it keeps is a
        few numbers a block and the newest sitting, however many sittings the journal
        holds: the others are found by walking the records (walk, find). A damaged open
        sitting (or one followed by damage) is finished: it is not played on. The scan
        is a boot's alone (firmware/boot/mount.py): its code leaves the heap after."""
        from firmware.boot import mount
        try:
            return mount.mount(self)
        finally:
            transient.unload(transient.MOUNT)

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

    def finish(self):
        """Mark the open sitting finished (a bit cleared in place: needs no space)."""
        if not self._open:
            raise B.JournalError("no sitting open")
        self.program_flag(self._last_pos, B.F_FINISHED)
        self._last_flags &= 0xFF ^ B.F_FINISHED
        self._open = 0

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

    def open_sitting(self):
        return self._open or None

    # For JournalReader ---------------------------------------------------------

    def begin_pos(self, sid):
        """Where sitting `sid`'s BEGIN record is: block * block_size + offset (-1: its
        BEGIN was lost to damage)."""
        return self._last_pos if sid == self._last else self._find(sid).pos

    # The sittings, oldest first (allocating nothing) -------------------------------

    def walk(self, w):
        """Put B.Walk `w` before the oldest sitting; walk_next(w) then steps onto each."""
        w._blk = self._tail
        w._off = self.records_start(self._tail)
        w._want = self._lo[self._tail]
        w.sid = 0

    def walk_next(self, w):
        """Step `w` onto the next sitting (its id, flags, position, length, damage):
        False after the newest. Reads the records from flash; allocates nothing. A
        sitting whose BEGIN is lost is stepped onto too (by its id: ids have no gaps)."""
        self._mode = B.CHECKED if w.checked else B.QUICK
        sid = self._next_begin(w)
        want = w._want
        if want > w.sid and want < (sid or self._next_sid):
            w.sid = want            # lost to damage: only its id is known
            w._want = want + 1
            w.flags = 0xFF ^ B.F_FINISHED
            w.finished = True
            w.synced = False
            w.pos = -1
            w.length = 0
            w.damaged = True
            self._mode = B.CHECKED
            return True
        if not sid:
            self._mode = B.CHECKED
            return False
        b = w._blk
        off = w._off
        w.sid = sid
        w._want = sid + 1
        w.pos = b * self._bs + off
        w.flags = self.flags_at(b, off)
        if sid != self._last:
            w.flags &= 0xFF ^ B.F_FINISHED    # only the newest sitting may be open
        w.finished = w.flags & B.F_FINISHED == 0
        w.synced = w.flags & B.F_SYNCED == 0
        w.length = 1 + self.byte(b, off + 5)
        w.damaged = sid == self._last and self._bad == 1
        off += self.size
        while True:
            end = self.records_end(b)
            k = self.record(b, off, end)
            if 0 < k < B.K_BEGIN:
                w.length += 1 + k
                off += self.size
                continue
            if k == B.K_BEGIN:
                break
            if k < 0:
                from engine_core.journal import damage
                nxt = damage.resync(self, b, off, end, sid)
                w.damaged = w.damaged or damage.blames(
                    self, b, off, nxt, end, sid,
                    0 if b == self._head else self._lo[(b + 1) % self._n])
                off = nxt
                if nxt < end:
                    break
            if b == self._head:
                off = end
                break
            b = (b + 1) % self._n
            off = self.records_start(b)
            if self._carry[b] != sid:
                break
        w._blk = b
        w._off = off
        self._mode = B.CHECKED
        return True

    def _next_begin(self, w):
        # Move w to the next whole BEGIN at or after its position and return its id
        # (w stays on it); 0 when there is none.
        b = w._blk
        if b < 0:
            return 0
        off = w._off
        while True:
            end = self.records_end(b)
            while off < end:
                k = self.record(b, off, end)
                if k == 0:
                    break
                if k < 0:
                    from engine_core.journal import damage
                    off = damage.resync(self, b, off, end, w._want - 1)
                    continue
                if k == B.K_BEGIN:
                    w._blk = b
                    w._off = off
                    return self.sid_at(b, off)
                off += self.size
            if b == self._head:
                w._blk = -1
                return 0
            b = (b + 1) % self._n
            off = self.records_start(b)

    def find(self, sid, w):
        """Step B.Walk `w` onto sitting `sid`; False if the journal does not hold it. From
        where w is when sid lies ahead of it (a fetch walks the ids upwards), else from
        the block the sitting began in."""
        if not (w._blk >= 0 and w.sid and w.sid < sid):
            if sid < self._lo[self._tail] or sid >= self._next_sid:
                return False
            b = self._head
            while b != self._tail and self._lo[b] > sid:
                b = (b - 1) % self._n
            w._blk = b
            w._off = self.records_start(b)
            w._want = self._lo[b]
            w.sid = 0
        while self.walk_next(w):
            if w.sid >= sid:
                return w.sid == sid
        return False

    def _find(self, sid):
        w = self._walk
        if w is None:
            self._walk = w = B.Walk(False)    # a lookup: the structure is enough
        w.reset()
        if not self.find(sid, w):
            raise B.JournalError("no sitting %d in the journal" % sid)
        return w

