# The flash journal's writer as the firmware before check values had it (format 1, kept
# verbatim but for this header): the tests write images with it, as a scorer not yet
# updated did, and check that today's journal reads them and writes on (
# tests/device/journal/test_journal_formats.py).
# The flash journal: every accepted event of every sitting, as an append-only log over
# the blocks of its own partition, durable when append() returns. Format and recovery:
# docs/journal.md. The Journal holds all of the writing (loaded for good: no write
# imports anything), its mount, and the walk over its sittings that marking one synced
# and reclaiming a block need. A sitting's records are read back by JournalReader
# (engine_core/journal/reader.py), through the public methods at the end of the class.
import binascii
import struct

from engine_core.compat import const

_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_BLOCK_ERASE = const(6)

# Block header: magic "T42" + format version, seq, next sitting id, carried sitting id,
# CRC-32 of the first 16 bytes. The block's first record follows it.
HDR = const(20)
_MAGIC = b"T42\x01"

# Record tags: the 4-of-8 constant-weight codes (exactly four bits programmed). A torn
# program of a tag clears only some of its four bits, which is never a valid tag, and
# 0xFF (erased) is never one either. The six in use are >= 4 bit flips apart.
_T_EV1 = const(0x96)
_T_EV2 = const(0x69)
_T_EV3 = const(0xA5)
_T_EV4 = const(0x5A)
_T_END = const(0x3C)
_T_BEGIN = const(0xC3)
# A record's kind is its payload length (events 1..4, END 5: the records that follow a
# BEGIN in its sitting), or K_BEGIN.
K_END = const(5)
K_BEGIN = const(6)
# A BEGIN record: tag, flags, sitting id (3 bytes), header length, then the header.
BEGIN_FIXED = const(6)
MAX_HEADER = const(255)

# Flag bits of a BEGIN record, cleared in place (a NOR program clears bits only).
_F_FINISHED = const(0x01)
_F_SYNCED = const(0x02)


class JournalError(Exception):
    pass


class JournalFull(JournalError):
    pass


def kind(t):
    """Payload length of an event or END tag, K_BEGIN for a sitting's BEGIN, 0 if not a tag."""
    if t == _T_EV1:
        return 1
    if t == _T_EV2:
        return 2
    if t == _T_EV3:
        return 3
    if t == _T_EV4:
        return 4
    if t == _T_END:
        return K_END
    if t == _T_BEGIN:
        return K_BEGIN
    return 0


_REC_TAGS = (0, _T_EV1, _T_EV2, _T_EV3, _T_EV4, _T_END)


class Walk:
    """A position among the journal's sittings, oldest first, for Journal.walk,
    walk_next and find (reusable): the fields describe the sitting last stepped onto."""

    def __init__(self):
        self.sid = 0
        self.flags = 0xFF       # of its BEGIN record: bits cleared when finished, synced
        self.pos = 0            # block * block_size + offset of its BEGIN record
        self.length = 0         # byte length of its stream (JournalReader.read)
        self._blk = -1          # where the search for the next BEGIN goes on
        self._off = 0

    @property
    def finished(self):
        return self.flags & _F_FINISHED == 0

    @property
    def synced(self):
        return self.flags & _F_SYNCED == 0

    def reset(self):
        """Forget the position: the next find searches from the sitting's block (after
        the journal changed)."""
        self._blk = -1


class Journal:
    """`Journal(bdev)`: bdev is a block device with the extended protocol of
    esp32.Partition (readblocks, writeblocks with an offset, ioctl). mount() before use."""

    def __init__(self, bdev):
        self._bdev = bdev
        self._n = bdev.ioctl(_IOCTL_BLOCK_COUNT, 0)
        self._bs = bs = bdev.ioctl(_IOCTL_BLOCK_SIZE, 0)
        if self._n < 2 or bs < 64 or bs % 64:
            raise JournalError("journal partition too small")
        self._wsize = 256 if bs % 256 == 0 else 64
        self._win = bytearray(self._wsize)  # read window, aligned within one block
        self._wblk = -1
        self._woff = 0
        self._tag = bytearray(1)
        self._end = bytearray(K_END)  # an END record's payload (end())
        self._flag = bytearray(1)
        self._zero4 = bytearray(4)
        self._hdr = bytearray(HDR)
        self._walk = None       # the lookups by id (mark_synced, reclaim, begin_pos)
        self._mounted = False
        self._carry = []        # by block: the sitting open when it was taken (0: none)
        self._lo = []           # by block: the next sitting id then
        self._ok = bytearray(0)  # by block: reclaimable? 0 not known yet, 1 yes, 2 no
        self._last = 0          # the newest sitting: id, BEGIN position, flags
        self._last_pos = 0
        self._last_flags = 0
        self._ended = False     # the newest sitting's last record is an END
        self._open = 0          # the open sitting's id, 0 when none (always the newest)
        self._next_sid = 1
        self._head = 0          # the ring: head and tail blocks, blocks in use, the
        self._tail = 0          # head's sequence number, where its next record goes,
        self._count = 0         # and whether torn bytes follow its last record
        self._seq = 0
        self._head_off = HDR
        self._head_dirty = False

    # Flash access ----------------------------------------------------------------

    def _rd(self, blk, off):
        w = off - self._woff
        if blk != self._wblk or w < 0 or w >= self._wsize:
            self._woff = off - off % self._wsize
            self._bdev.readblocks(blk, self._win, self._woff)
            self._wblk = blk
            w = off - self._woff
        return self._win[w]

    def _prog(self, blk, buf, off):
        self._wblk = -1
        try:
            self._bdev.writeblocks(blk, buf, off)
        except OSError:
            self._mounted = False
            raise JournalError("flash write failed: restart the scorer")

    def _erase(self, blk):
        self._wblk = -1
        try:
            self._bdev.ioctl(_IOCTL_BLOCK_ERASE, blk)
        except OSError:
            self._mounted = False
            raise JournalError("flash erase failed: restart the scorer")

    def _blank(self, blk, off):
        while off < self._bs:
            if self._rd(blk, off) != 0xFF:
                return False
            off += 1
        return True

    def _read_header(self, blk):
        # Sequence number of a valid block header (left in self._hdr), or -1.
        h = self._hdr
        self._bdev.readblocks(blk, h, 0)
        if h[0:4] != _MAGIC:
            return -1
        if binascii.crc32(memoryview(h)[0:16]) & 0xFFFFFFFF != struct.unpack_from("<I", h, 16)[0]:
            return -1
        return struct.unpack_from("<I", h, 4)[0]

    # Mount -----------------------------------------------------------------------

    def mount(self):
        """Scan the partition, drop a torn tail, find the newest sitting; formats a blank
        or garbage partition. Returns the open sitting's id or None. What it keeps is a
        few numbers a block and the newest sitting, however many sittings the journal
        holds: the others are found by walking the records (walk, find)."""
        n = self._n
        seqs = [-1] * n
        self._carry = [0] * n
        self._lo = [0] * n
        self._ok = bytearray(n)
        self._last = 0
        self._last_pos = 0
        self._last_flags = 0
        self._ended = False
        self._open = 0
        self._wblk = -1
        if self._walk is not None:
            self._walk.reset()
        next_sid = 1
        head = -1
        try:
            for b in range(n):
                seqs[b] = s = self._read_header(b)
                if s >= 0:
                    self._carry[b] = struct.unpack_from("<I", self._hdr, 12)[0]
                    self._lo[b] = struct.unpack_from("<I", self._hdr, 8)[0]
                    next_sid = max(next_sid, self._lo[b])
                    if head < 0 or s > seqs[head]:
                        head = b
            if head < 0:
                self._mounted = True
                self._format()
                return None
            tail = head
            count = 1
            while count < n:
                p = (tail - 1) % n
                if seqs[p] != seqs[tail] - 1:
                    break
                tail = p
                count += 1
            self._head = head
            self._tail = tail
            self._count = count
            self._seq = seqs[head]
            b = tail
            while True:
                end = self._scan_block(b)
                if b == head:
                    break
                b = (b + 1) % n
            self._head_off = end
            self._head_dirty = end < self._bs and not self._blank(head, end)
        except OSError:
            raise JournalError("flash read failed")
        if self._last:
            next_sid = max(next_sid, self._last + 1)
            if self._last_flags & _F_FINISHED:  # bit still erased: not finished
                self._open = self._last
        self._next_sid = next_sid
        self._mounted = True
        return self.open_sitting()

    def _scan_block(self, b):
        # Follows the newest sitting through the block (whether its last record is an
        # END); returns where the block's records end.
        bs = self._bs
        carry = self._carry[b]
        counting = carry != 0 and self._last == carry  # records before a BEGIN are its
        off = HDR
        while off < bs:
            k = kind(self._rd(b, off))
            if k == 0:
                break  # erased: the end; anything else: a torn record
            if k < K_BEGIN:
                if off + 1 + k > bs:
                    break
                if counting:
                    self._ended = k == K_END
                off += 1 + k
                continue
            if off + BEGIN_FIXED > bs:
                break
            sid = self._rd(b, off + 2) | self._rd(b, off + 3) << 8 | self._rd(b, off + 4) << 16
            hlen = self._rd(b, off + 5)
            if off + BEGIN_FIXED + hlen > bs or sid <= self._last:
                break
            self._last = sid
            self._last_pos = b * bs + off
            self._last_flags = self._rd(b, off + 1)
            self._ended = False
            counting = True
            off += BEGIN_FIXED + hlen
        return off

    def _format(self):
        self._head = self._tail = 0
        self._count = 1
        self._seq = 0
        self._next_sid = 1
        self._start_block(0, 1)
        self._head_off = HDR
        self._head_dirty = False

    # Space: a new head block (erased, the tail reclaimed when the journal is full) ----

    def _room(self, size):
        if not self._mounted:
            raise JournalError("journal not mounted")
        if self._head_dirty or self._head_off + size > self._bs:
            self._next_block()

    def _next_block(self):
        nb = (self._head + 1) % self._n
        if nb == self._tail and self._count == self._n:
            if not self._reclaimable(nb):
                raise JournalFull("journal full: sync finished sittings to free space")
            self._tail = (nb + 1) % self._n
            self._count -= 1
        self._start_block(nb, self._seq + 1)
        self._count += 1
        self._head_off = HDR
        self._head_dirty = False

    def _start_block(self, b, seq):
        # Erase block b if needed, then give it a header: it becomes the head.
        if not self._blank(b, 0):
            if self._read_header(b) >= 0:
                # Clear the magic first, so that a torn erase can't leave a valid header
                # over half-erased records.
                self._prog(b, self._zero4, 0)
            self._erase(b)
        h = self._hdr
        h[0:4] = _MAGIC
        carry = self._open
        struct.pack_into("<IIII", h, 4, seq, self._next_sid, carry, 0)
        struct.pack_into("<I", h, 16, binascii.crc32(memoryview(h)[0:16]) & 0xFFFFFFFF)
        self._prog(b, h, 0)
        self._carry[b] = carry
        self._lo[b] = self._next_sid
        self._ok[b] = 0
        self._head = b
        self._seq = seq

    def _reclaimable(self, b):
        # A block may go when every sitting that has records in it is synced: the one
        # carried into it and each one begun in it. Known once, until a sitting changes.
        if not self._ok[b]:
            self._ok[b] = 1 if self._all_synced(b) else 2
        return self._ok[b] == 1

    def _all_synced(self, b):
        carry = self._carry[b]
        if carry:
            if carry == self._open:
                return False
            # Its BEGIN is in an older block, or gone with it: then it was synced.
            if carry >= self._lo[self._tail] and not self._find(carry).synced:
                return False
        end = self.records_end(b)
        off = HDR
        while off < end:
            k = kind(self._rd(b, off))
            if k == 0 or off + 1 + k > end:
                break
            if k < K_BEGIN:
                off += 1 + k
                continue
            if self._rd(b, off + 1) & _F_SYNCED:  # bit erased: not synced
                return False
            off += BEGIN_FIXED + self._rd(b, off + 5)
        return True

    def free_bytes(self):
        """Bytes of records that fit before the journal is full (synced sittings that
        would be reclaimed count as free)."""
        usable = self._bs - HDR
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
        if hlen > MAX_HEADER or BEGIN_FIXED + hlen > self._bs - HDR:
            raise JournalError("sitting header too long")
        self._room(BEGIN_FIXED + hlen)  # first: a refused begin changes nothing
        if self._open:
            self.finish()
        sid = self._next_sid
        if sid > 0xFFFFFF:  # 3 bytes on flash: sixteen million sittings
            raise JournalFull("journal full: no sitting ids left")
        r = bytearray(BEGIN_FIXED + hlen)     # once a sitting
        r[1] = 0xFF
        r[2] = sid & 0xFF
        r[3] = (sid >> 8) & 0xFF
        r[4] = (sid >> 16) & 0xFF
        r[5] = hlen
        r[BEGIN_FIXED : BEGIN_FIXED + hlen] = header
        b = self._head
        off = self._head_off
        # Body first, tag last: the tag is the commit.
        self._prog(b, memoryview(r)[1 : BEGIN_FIXED + hlen], off + 1)
        self._tag[0] = _T_BEGIN
        self._prog(b, self._tag, off)
        self._head_off = off + BEGIN_FIXED + hlen
        self._last = self._open = sid
        self._last_pos = b * self._bs + off
        self._last_flags = 0xFF
        self._ended = False
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
        except JournalError:
            return False
        return True

    def append(self, event):
        """Append one event (1 to 4 bytes) to the open sitting; durable on return."""
        n = len(event)
        if n < 1 or (n > 4 and event is not self._end):
            raise JournalError("event must be 1 to 4 bytes")
        if not self._open:
            raise JournalError("no sitting open")
        self._room(1 + n)
        b = self._head
        off = self._head_off
        self._prog(b, event, off + 1)
        self._tag[0] = _REC_TAGS[n]
        self._prog(b, self._tag, off)
        self._head_off = off + 1 + n
        self._ended = n == K_END
        self._ok[b] = 2

    def _set_flag(self, pos, bit):
        self._flag[0] = 0xFF ^ bit
        self._prog(pos // self._bs, self._flag, pos % self._bs + 1)
        if pos == self._last_pos:
            self._last_flags &= 0xFF ^ bit

    def finish(self):
        """Mark the open sitting finished (a bit cleared in place: needs no space)."""
        if not self._open:
            raise JournalError("no sitting open")
        self._set_flag(self._last_pos, _F_FINISHED)
        self._open = 0

    def mark_synced(self, sid):
        """Record that the host holds sitting `sid`; it may then be reclaimed (a bit
        cleared in place: needs no space)."""
        if sid == self._open:
            raise JournalError("finish the sitting before syncing it")
        w = self._find(sid)
        if w.flags & _F_SYNCED:
            self._set_flag(w.pos, _F_SYNCED)
            i = 0
            while i < self._n:      # what may be reclaimed is known again when asked
                self._ok[i] = 0
                i += 1

    def open_sitting(self):
        return self._open or None

    # The sittings, oldest first (allocating nothing) -------------------------------

    def walk(self, w):
        """Put Walk `w` before the oldest sitting; walk_next(w) then steps onto each."""
        w._blk = self._tail
        w._off = HDR
        w.sid = 0

    def walk_next(self, w):
        """Step `w` onto the next sitting (its id, flags, position, length): False after
        the newest. Reads the records from flash; allocates nothing."""
        if not self._next_begin(w):
            return False
        b = w._blk
        off = w._off
        sid = w.sid
        w.pos = b * self._bs + off
        w.length = 1 + self._rd(b, off + 5)
        off += BEGIN_FIXED + w.length - 1
        while True:
            end = self.records_end(b)
            while off < end:
                k = kind(self._rd(b, off))
                if k == 0 or k == K_BEGIN or off + 1 + k > end:
                    break
                w.length += 1 + k
                off += 1 + k
            if off < end and kind(self._rd(b, off)) == K_BEGIN:
                break
            if b == self._head:
                off = end
                break
            b = (b + 1) % self._n
            off = HDR
            if self._carry[b] != sid:
                break
        w._blk = b
        w._off = off
        return True

    def _next_begin(self, w):
        # Move w to the next BEGIN record at or after its position, and read its id and
        # flags: False when there is none.
        b = w._blk
        if b < 0:
            return False
        off = w._off
        while True:
            end = self.records_end(b)
            while off < end:
                k = kind(self._rd(b, off))
                if k == 0 or off + 1 + k > end:
                    break
                if k == K_BEGIN:
                    w._blk = b
                    w._off = off
                    w.sid = (self._rd(b, off + 2) | self._rd(b, off + 3) << 8
                             | self._rd(b, off + 4) << 16)
                    w.flags = self._rd(b, off + 1)
                    return True
                off += 1 + k
            if b == self._head:
                w._blk = -1
                return False
            b = (b + 1) % self._n
            off = HDR

    def find(self, sid, w):
        """Step Walk `w` onto sitting `sid`; False if the journal does not hold it. From
        where w is when sid lies ahead of it (a fetch walks the ids upwards), else from
        the block the sitting began in."""
        if not (w._blk >= 0 and w.sid and w.sid < sid):
            if sid < self._lo[self._tail] or sid > self._last:
                return False
            b = self._head
            while b != self._tail and self._lo[b] > sid:
                b = (b - 1) % self._n
            w._blk = b
            w._off = HDR
            w.sid = 0
        while self.walk_next(w):
            if w.sid >= sid:
                return w.sid == sid
        return False

    def _find(self, sid):
        w = self._walk
        if w is None:
            self._walk = w = Walk()
        w.reset()
        if not self.find(sid, w):
            raise JournalError("no sitting %d in the journal" % sid)
        return w

    # For JournalReader: where a sitting's records are --------------------------------

    @property
    def block_size(self):
        return self._bs

    def byte(self, blk, off):
        """The byte at `off` in block `blk` (through a read window: allocates nothing)."""
        return self._rd(blk, off)

    def begin_pos(self, sid):
        """Where sitting `sid`'s BEGIN record is: block * block_size + offset."""
        return self._last_pos if sid == self._last else self._find(sid).pos

    def records_end(self, blk):
        """Where block `blk`'s records end (the head block's, where the next goes)."""
        return self._head_off if blk == self._head else self._bs

    def following(self, blk, sid):
        """The block after `blk` when sitting `sid`'s records go on in it, else -1."""
        if blk == self._head:
            return -1
        blk = (blk + 1) % self._n
        return blk if self._carry[blk] == sid else -1
