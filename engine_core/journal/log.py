# The journal read back: each record checked, the mount (the scan that finds the ring
# and the newest sitting), and the walk over the sittings, allocating nothing. The
# device's Journal (firmware/journal/writer.py) writes on it; the PC reads a flash
# image with it (host_tools/log/image.py); JournalReader (reader.py) reads a sitting's
# records through it.
from engine_core.journal import blocks as B


class Log(B.Blocks):
    """`Log(bdev)`: the journal on block device `bdev` (the extended protocol of
    esp32.Partition), to read; mount() before use."""

    # Records ---------------------------------------------------------------------

    def record(self, b, off, end=-1):
        """The record at `off` in block `b` (whose records end at `end`, the block's end
        by default), checked: its kind (1 to 4 an event, 5 an END, 6 a BEGIN), its bytes
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
        is a mount's alone (engine_core/journal/mount.py): the device unloads its code
        after (firmware/journal/writer.py)."""
        from engine_core.journal import mount
        return mount.mount(self)

    def finish(self):
        """Mark the open sitting finished (a bit cleared in place: needs no space)."""
        if not self._open:
            raise B.JournalError("no sitting open")
        self.program_flag(self._last_pos, B.F_FINISHED)
        self._last_flags &= 0xFF ^ B.F_FINISHED
        self._open = 0

    def open_sitting(self):
        return self._open or None

    # For JournalReader ---------------------------------------------------------

    def begin_pos(self, sid):
        """Where sitting `sid`'s BEGIN record is: block * block_size + offset (-1: its
        BEGIN was lost to damage)."""
        return self._last_pos if sid == self._last else self._find(sid).pos

    # The sittings, oldest first (allocating nothing) -------------------------------

    def walk(self, w):
        """Put Walk `w` before the oldest sitting; walk_next(w) then steps onto each."""
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
        whole = True            # length counts the records before any damaged one: what
        off += self.size        # JournalReader.read can send (a damaged sitting's part)
        while True:
            end = self.records_end(b)
            k = self.record(b, off, end)
            if 0 < k < B.K_BEGIN:
                if whole:
                    w.length += 1 + k
                off += self.size
                continue
            if k == B.K_BEGIN:
                break
            if k < 0:
                from engine_core.journal import damage
                whole = False
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
        """Step Walk `w` onto sitting `sid`; False if the journal does not hold it. From
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
