# The journal's code that a hand seldom runs (firmware/journal.py keeps the writing): the
# sittings walked oldest first, one found by id, its records read back; a new head block
# (every few KB of records: erased, the tail reclaimed when the journal is full), the
# free bytes, a sitting marked synced: functions of the Journal `j`. Imported by its
# readers (and by the Journal for a new block) when first used, and unloaded with the
# screens, after a sync and after the boot (firmware/app.py), so that a hand keeps only
# the writing code in the heap. Allocates nothing once loaded (walk_next, next_event).
import binascii
import struct

from engine_core.compat import const
from firmware.journal import JournalError, JournalFull, _kind

_HDR = const(20)            # journal.py: the block header's size, the record kinds,
_K_BEGIN = const(6)         # a BEGIN record's fixed part and flag bits, the header's
_BEGIN_FIXED = const(6)     # longest
_F_FINISHED = const(0x01)
_F_SYNCED = const(0x02)
_T_BEGIN = const(0xC3)      # a BEGIN record: tag, flags, sitting id (3), header length
_MAX_HEADER = const(255)
_MAGIC = b"T42\x01"


class Cursor:
    """A position in one sitting's records, for next_event (reusable)."""

    def __init__(self):
        self.sid = 0
        self.blk = -1
        self.off = 0
        self.header_done = False



class Walk:
    """A position among the journal's sittings, oldest first, for walk and
    walk_next (reusable): the fields describe the sitting last stepped onto."""

    def __init__(self):
        self.sid = 0
        self.flags = 0xFF       # of its BEGIN record: bits cleared when finished, synced
        self.pos = 0            # block * block_size + offset of its BEGIN record
        self.length = 0         # byte length of its stream (see read)
        self._blk = -1          # where the search for the next BEGIN goes on
        self._off = 0

    @property
    def finished(self):
        return self.flags & _F_FINISHED == 0

    @property
    def synced(self):
        return self.flags & _F_SYNCED == 0




def walk(j, w):
    """Put Walk `w` before the oldest sitting; walk_next(w) then steps onto each."""
    w._blk = j._tail
    w._off = _HDR
    w.sid = 0


def walk_next(j, w):
    """Step `w` onto the next sitting (its id, flags, position, length): False after
    the newest. Reads the records from flash; allocates nothing."""
    if not _next_begin(j, w):
        return False
    b = w._blk
    off = w._off
    sid = w.sid
    w.pos = b * j._bs + off
    w.length = 1 + j._rd(b, off + 5)
    off += _BEGIN_FIXED + w.length - 1
    while True:
        end = j._head_off if b == j._head else j._bs
        while off < end:
            k = _kind(j._rd(b, off))
            if k == 0 or k == _K_BEGIN or off + 1 + k > end:
                break
            w.length += 1 + k
            off += 1 + k
        if off < end and _kind(j._rd(b, off)) == _K_BEGIN:
            break
        if b == j._head:
            off = end
            break
        b = (b + 1) % j._n
        off = _HDR
        if j._carry[b] != sid:
            break
    w._blk = b
    w._off = off
    return True


def _next_begin(j, w):
    # Move w to the next BEGIN record at or after its position, and read its id and
    # flags: False when there is none.
    b = w._blk
    if b < 0:
        return False
    off = w._off
    while True:
        end = j._head_off if b == j._head else j._bs
        while off < end:
            k = _kind(j._rd(b, off))
            if k == 0 or off + 1 + k > end:
                break
            if k == _K_BEGIN:
                w._blk = b
                w._off = off
                w.sid = (j._rd(b, off + 2) | j._rd(b, off + 3) << 8
                         | j._rd(b, off + 4) << 16)
                w.flags = j._rd(b, off + 1)
                return True
            off += 1 + k
        if b == j._head:
            w._blk = -1
            return False
        b = (b + 1) % j._n
        off = _HDR


def find(j, sid, w):
    """Step Walk `w` onto sitting `sid`; False if the journal does not hold it. From
    where w is when sid lies ahead of it (a fetch walks the ids upwards), else from
    the block the sitting began in."""
    if not (w._blk >= 0 and w.sid and w.sid < sid):
        if sid < j._lo[j._tail] or sid > j._last:
            return False
        b = j._head
        while b != j._tail and j._lo[b] > sid:
            b = (b - 1) % j._n
        w._blk = b
        w._off = _HDR
        w.sid = 0
    while walk_next(j, w):
        if w.sid >= sid:
            return w.sid == sid
    return False


def _find(j, sid):
    w = j._walk
    if w is None:
        j._walk = w = Walk()
    w._blk = -1
    if not find(j, sid, w):
        raise JournalError("no sitting %d in the journal" % sid)
    return w


def sittings(j):
    """[(id, finished, synced, byte length)], oldest first: for the PC and the tests
    (the device walks them one at a time instead, with walk and walk_next)."""
    out = []
    w = Walk()
    walk(j, w)
    while walk_next(j, w):
        out.append((w.sid, w.finished, w.synced, w.length))
    return out


def cursor(j, sid, cur=None):
    """A cursor at sitting `sid`'s header (pass `cur` to reuse one)."""
    pos = j._last_pos if sid == j._last else _find(j, sid).pos
    if cur is None:
        cur = Cursor()
    cur.sid = sid
    cur.blk = pos // j._bs
    cur.off = pos % j._bs
    cur.header_done = False
    return cur


def _copy(j, b, off, buf, n):
    if len(buf) < n:
        raise JournalError("buffer too small")
    i = 0
    while i < n:
        buf[i] = j._rd(b, off + i)
        i += 1


def next_event(j, cur, buf):
    """Copy the sitting's header, then each event in turn, into buf; returns its
    length, or -1 after the last event. An END record comes as an item of 5 bytes
    (events have 1 to 4): u32 seconds since 2024, the UTC offset in quarter hours."""
    b = cur.blk
    if b < 0:
        return -1
    off = cur.off
    if not cur.header_done:
        n = j._rd(b, off + 5)
        _copy(j, b, off + _BEGIN_FIXED, buf, n)
        cur.off = off + _BEGIN_FIXED + n
        cur.header_done = True
        return n
    while True:
        if b == j._head and off >= j._head_off:
            break
        k = j._rd(b, off) if off < j._bs else 0xFF
        k = _kind(k)
        if 0 < k < _K_BEGIN and off + 1 + k <= j._bs:
            _copy(j, b, off + 1, buf, k)
            cur.blk = b
            cur.off = off + 1 + k
            return k
        if k == _K_BEGIN or b == j._head:
            break
        b = (b + 1) % j._n
        off = _HDR
        if j._carry[b] != cur.sid:
            break
    cur.blk = -1
    return -1


def read(j, sid, offset, buf):
    """Copy bytes of sitting `sid`'s stream from `offset` into buf; returns the count
    (0 at the end). The stream: for the header and then each event (or END), one
    length byte followed by that many bytes."""
    c = j._rcur
    if c is None:
        j._rcur = c = Cursor()
        j._item = bytearray(_MAX_HEADER)
    if c.sid != sid or offset != j._roff or c.blk < 0:
        # Not where the last read stopped (or it hit the end, and events may have
        # come since): start over from the header and skip to offset.
        cursor(j, sid, c)
        j._roff = 0
        j._ilen = -1
        j._ipos = 0
    item = j._item
    got = 0
    want = len(buf)
    while got < want:
        if j._ilen < 0 or j._ipos > j._ilen:
            j._ilen = next_event(j, c, item)
            j._ipos = 0
            if j._ilen < 0:
                break
        if j._roff >= offset:
            buf[got] = j._ilen if j._ipos == 0 else item[j._ipos - 1]
            got += 1
        j._ipos += 1
        j._roff += 1
    return got


# A sitting begun (Journal.begin_sitting: once a sitting) -----------------------

def begin_sitting(j, header):
    """Start a sitting in journal `j` (finishing the open one); returns its id."""
    hlen = len(header)
    if hlen > _MAX_HEADER or _BEGIN_FIXED + hlen > j._bs - _HDR:
        raise JournalError("sitting header too long")
    j._room(_BEGIN_FIXED + hlen)  # first: a refused begin changes nothing
    if j._open:
        j.finish()
    sid = j._next_sid
    if sid > 0xFFFFFF:  # 3 bytes on flash: sixteen million sittings
        raise JournalFull("journal full: no sitting ids left")
    r = bytearray(_BEGIN_FIXED + hlen)     # once a sitting
    r[1] = 0xFF
    r[2] = sid & 0xFF
    r[3] = (sid >> 8) & 0xFF
    r[4] = (sid >> 16) & 0xFF
    r[5] = hlen
    r[_BEGIN_FIXED : _BEGIN_FIXED + hlen] = header
    b = j._head
    off = j._head_off
    # Body first, tag last: the tag is the commit.
    j._prog(b, memoryview(r)[1 : _BEGIN_FIXED + hlen], off + 1)
    j._tag[0] = _T_BEGIN
    j._prog(b, j._tag, off)
    j._head_off = off + _BEGIN_FIXED + hlen
    j._last = j._open = sid
    j._last_pos = b * j._bs + off
    j._last_len = 1 + hlen
    j._last_flags = 0xFF
    j._ended = False
    j._ok[b] = 2
    j._next_sid = sid + 1
    return sid


# Space: a block's reclaim, the free bytes, a sitting marked synced ---------------

def reclaimable(j, b):
    # A block may go when every sitting that has records in it is synced: the one
    # carried into it and each one begun in it. Known once, until a sitting changes.
    if not j._ok[b]:
        j._ok[b] = 1 if _all_synced(j, b) else 2
    return j._ok[b] == 1


def _all_synced(j, b):
    carry = j._carry[b]
    if carry:
        if carry == j._open:
            return False
        # Its BEGIN is in an older block, or gone with it: then it was synced.
        if carry >= j._lo[j._tail] and not _find(j, carry).synced:
            return False
    end = j._head_off if b == j._head else j._bs
    off = _HDR
    while off < end:
        k = _kind(j._rd(b, off))
        if k == 0 or off + 1 + k > end:
            break
        if k < _K_BEGIN:
            off += 1 + k
            continue
        if j._rd(b, off + 1) & _F_SYNCED:  # bit erased: not synced
            return False
        off += _BEGIN_FIXED + j._rd(b, off + 5)
    return True


def free_bytes(j):
    """Bytes of records that fit before the journal is full (synced sittings that
    would be reclaimed count as free)."""
    usable = j._bs - _HDR
    free = 0 if j._head_dirty else j._bs - j._head_off
    free += (j._n - j._count) * usable
    b = j._tail
    while b != j._head and reclaimable(j, b):
        free += usable
        b = (b + 1) % j._n
    return free


def mark_synced(j, sid):
    """Record that the host holds sitting `sid`; it may then be reclaimed."""
    if sid == j._open:
        raise JournalError("finish the sitting before syncing it")
    w = _find(j, sid)
    if w.flags & _F_SYNCED:
        j._set_flag(w.pos, _F_SYNCED)
        _forget_reclaimable(j)


def _forget_reclaimable(j):
    i = 0
    while i < j._n:
        j._ok[i] = 0
        i += 1


# Blocks: a header read, a new head block (erased, and the tail reclaimed when the
# journal is full) ------------------------------------------------------------------

def read_header(j, blk):
    # Sequence number of a valid block header, or -1.
    h = j._hdr
    j._bdev.readblocks(blk, h, 0)
    if h[0:4] != _MAGIC:
        return -1
    if binascii.crc32(memoryview(h)[0:16]) & 0xFFFFFFFF != struct.unpack_from("<I", h, 16)[0]:
        return -1
    return struct.unpack_from("<I", h, 4)[0]


def _blank(j, blk):
    off = 0
    while off < j._bs:
        if j._rd(blk, off) != 0xFF:
            return False
        off += 1
    return True


def start_block(j, b, seq):
    # Erase block b if needed, then give it a header: it becomes the head.
    if not _blank(j, b):
        if read_header(j, b) >= 0:
            # Clear the magic first, so that a torn erase can't leave a valid header
            # over half-erased records.
            j._prog(b, j._zero4, 0)
        j._erase(b)
    h = j._hdr
    h[0:4] = _MAGIC
    carry = j._open
    struct.pack_into("<IIII", h, 4, seq, j._next_sid, carry, 0)
    struct.pack_into("<I", h, 16, binascii.crc32(memoryview(h)[0:16]) & 0xFFFFFFFF)
    j._prog(b, h, 0)
    j._carry[b] = carry
    j._lo[b] = j._next_sid
    j._ok[b] = 0
    j._head = b
    j._seq = seq


def next_block(j):
    nb = (j._head + 1) % j._n
    if nb == j._tail and j._count == j._n:
        if not reclaimable(j, nb):
            raise JournalFull("journal full: sync finished sittings to free space")
        j._tail = (nb + 1) % j._n
        j._count -= 1
    start_block(j, nb, j._seq + 1)
    j._count += 1
    j._head_off = _HDR
    j._head_dirty = False
