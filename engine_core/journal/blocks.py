# The flash journal's partition as blocks of records (docs/journal.md): the record
# format (tags, the check value, Walk), reading through a window, programming, erasing,
# the block headers, and each record's check, of either format (1: before check
# values; 2: a check value on each record, the header twice). Log
# (engine_core/journal/log.py) reads the sittings through it, Journal
# (firmware/journal/writer.py) writes them.
from engine_core.compat import const

# Record tags: the 4-of-8 constant-weight codes (exactly four bits programmed). A torn
# program of a tag clears only some of its four bits, which is never a valid tag, and
# 0xFF (erased) is never one either. The six in use are >= 4 bit flips apart.
_T_EV1 = const(0x96)
_T_EV2 = const(0x69)
_T_EV3 = const(0xA5)
_T_EV4 = const(0x5A)
_T_END = const(0x3C)
T_BEGIN = const(0xC3)
TAGS = b"\x96\x69\xa5\x5a\x3c\xc3"    # by kind: TAGS[k - 1]
# A record's kind is its payload length (events 1..4, END 5: the records that follow a
# BEGIN in its sitting), or K_BEGIN.
K_END = const(5)
K_BEGIN = const(6)
# A BEGIN record: tag, flags, sitting id (3 bytes), header length, then the header (and,
# in a format-2 block, the check byte).
BEGIN_FIXED = const(6)
MAX_HEADER = const(255)

# Flag bits of a BEGIN record as Walk.flags gives them (whatever the block's format),
# cleared when finished, synced.
F_FINISHED = const(0x01)
F_SYNCED = const(0x02)

# CRC-32 (zlib's) of a block header's first 16 bytes, four bits at a time in 16-bit halves
# (the table's 16 entries as low halves, then high halves, little-endian), so that no
# value reaches 2**30: binascii.crc32's result would, and allocate on a 32-bit port, and
# a new block is taken on the event path (Journal.append).
_C32LO = (b"\x00\x00\x64\x10\xc8\x20\xac\x30\x90\x41\xf4\x51\x58\x61\x3c\x71"
          b"\x20\x83\x44\x93\xe8\xa3\x8c\xb3\xb0\xc2\xd4\xd2\x78\xe2\x1c\xf2")
_C32HI = (b"\x00\x00\xb7\x1d\x6e\x3b\xd9\x26\xdc\x76\x6b\x6b\xb2\x4d\x05\x50"
          b"\xb8\xed\x0f\xf0\xd6\xd6\x61\xcb\x64\x9b\xd3\x86\x0a\xa0\xbd\xbd")


def header_crc(h, at, put):
    """The CRC-32 of h[at:at + 16], a block header's: put, write it after them (little-
    endian) and return True; else, whether it is the one there. Allocates nothing."""
    hi = 0xFFFF
    lo = 0xFFFF
    i = at
    while i < at + 16:
        lo ^= h[i]
        k = 0
        while k < 2:
            n = (lo & 0xF) << 1
            lo = (lo >> 4 | (hi & 0xF) << 12) ^ (_C32LO[n] | _C32LO[n + 1] << 8)
            hi = hi >> 4 ^ (_C32HI[n] | _C32HI[n + 1] << 8)
            k += 1
        i += 1
    lo ^= 0xFFFF
    hi ^= 0xFFFF
    if put:
        put_u32(h, i, lo, hi)
        return True
    return (h[i] == lo & 0xFF and h[i + 1] == lo >> 8 and h[i + 2] == hi & 0xFF
            and h[i + 3] == hi >> 8)


def put_u32(h, at, lo, hi):
    """A u32 given as 16-bit halves, little-endian, at h[at:at + 4]."""
    h[at] = lo & 0xFF
    h[at + 1] = lo >> 8
    h[at + 2] = hi & 0xFF
    h[at + 3] = hi >> 8


def get_u32(h, at):
    """The u32 at h[at:at + 4], little-endian (a small int while below 2**30: the
    header's numbers are)."""
    return h[at] | h[at + 1] << 8 | h[at + 2] << 16 | h[at + 3] << 24


# CRC-8 (polynomial 0x07, as SMBus's PEC) four bits at a time: 16 bytes of table, small-int
# arithmetic only, so the check of a record allocates nothing, on any port. (binascii.crc32
# would return an int of 2**30 or more, which allocates on a 32-bit port.)
_CRC4 = b"\x00\x07\x0e\x09\x1c\x1b\x12\x15\x38\x3f\x36\x31\x24\x23\x2a\x2d"


def crc8(crc, b):
    """The CRC-8 `crc` carried on over the byte b."""
    crc ^= b
    crc = ((crc << 4) & 0xFF) ^ _CRC4[crc >> 4]
    return ((crc << 4) & 0xFF) ^ _CRC4[crc >> 4]


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
    if t == T_BEGIN:
        return K_BEGIN
    return 0


class Walk:
    """A position among the journal's sittings, oldest first, for Journal.walk,
    walk_next and find (reusable): the fields describe the sitting last stepped onto.
    A damaged sitting (a record of it fails its check, or its BEGIN is lost: then pos is
    -1 and length 0) is stepped onto like the others, with damaged True."""

    def __init__(self, checked=True):
        self.checked = checked  # False: each event's check is skipped (a count, a lookup;
                                # damage then shows only where a tag or a BEGIN is hit)
        self.sid = 0
        self.flags = 0xFF       # bits cleared when finished, synced (F_FINISHED, F_SYNCED)
        self.finished = False   # the same, as booleans
        self.synced = False
        self.pos = 0            # block * block_size + offset of its BEGIN record
        self.length = 0         # byte length of its stream (JournalReader.read)
        self.damaged = False
        self._blk = -1          # where the search for the next BEGIN goes on
        self._off = 0
        self._want = 0          # the id the next sitting should have

    def reset(self):
        """Forget the position: the next find searches from the sitting's block (after
        the journal changed)."""
        self._blk = -1


_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_BLOCK_ERASE = const(6)
# How records are read (Blocks._mode): CHECKED, each whole with its check; QUICK, the
# events' checks skipped (a walk of the structure only); SCANNING, the mount scans the
# head block, whose end is not known yet.
CHECKED = const(0)
QUICK = const(1)
SCANNING = const(2)

# Block header of format 1: magic "T42" + format version, seq, next sitting id, carried
# sitting id (u32 each), CRC-32 of the first 16 bytes; the first record follows it.
_HDR = const(20)
# Format 2: magic, seq (u32), next sitting id and carried sitting id (u24 each), where
# the previous block's records end (u16), CRC-32; twice, so that one damaged byte does
# not lose the block. The first record follows at HDR2.
HDR2 = const(40)
_MAGIC2 = b"T42\x02"

# Flag bits of a format-2 BEGIN, in pairs (one flipped bit sets no flag), and the high
# four bits always 1.
_F2_FINISHED = const(0x05)
_F2_SYNCED = const(0x0A)


class JournalError(Exception):
    pass


class JournalFull(JournalError):
    pass


class Blocks:
    """The partition on `bdev` (the extended block protocol of esp32.Partition) as blocks
    of records; the ring's state that reading a record needs is kept here, set by the
    Journal's mount and writes."""

    def __init__(self, bdev):
        self._bdev = bdev
        self._n = bdev.ioctl(_IOCTL_BLOCK_COUNT, 0)
        self._bs = bs = bdev.ioctl(_IOCTL_BLOCK_SIZE, 0)
        if self._n < 2 or bs < 64 or bs % 64:
            raise JournalError("journal partition too small")
        self._win = bytearray(256 if bs % 256 == 0 else 64)  # read window, within a block
        self._hdr = memoryview(self._win)[0:HDR2]   # a new block's header is built in it
        self._wblk = -1
        self._woff = 0
        self._one = bytearray(1)    # a byte to program: a tag, a check, a flag
        self.size = 0           # bytes on flash of the record record() looked at
        self._mounted = False
        self._mode = CHECKED    # how records are read (CHECKED, QUICK, SCANNING)
        self._carry = []        # by block: the sitting open when it was taken (0: none)
        self._lo = []           # by block: the next sitting id then
        self._pend = []         # by block: where the previous block's records end; 0:
                                # format 1 (none kept), else format 2
        self._last = 0          # the newest sitting's id
        self._head = 0          # the head block, and where its next record goes
        self._head_off = HDR2
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

    # Flash access ----------------------------------------------------------------

    def byte(self, blk, off):
        """The byte at `off` in block `blk` (through a read window: allocates nothing)."""
        w = off - self._woff
        if blk != self._wblk or w < 0 or w >= len(self._win):
            self._woff = off - off % len(self._win)
            self._bdev.readblocks(blk, self._win, self._woff)
            self._wblk = blk
            w = off - self._woff
        return self._win[w]

    def program(self, blk, buf, off):
        """Program buf at off in block blk (NOR: bits only cleared)."""
        self._wblk = -1
        try:
            self._bdev.writeblocks(blk, buf, off)
        except OSError:
            self._mounted = False
            raise JournalError("flash write failed: restart the scorer")

    def blank(self, blk, off):
        """Is block blk erased from off to its end?"""
        while off < self._bs:
            if self.byte(blk, off) != 0xFF:
                return False
            off += 1
        return True

    def read_header(self, blk):
        """The sequence number of block blk's header (either copy), its fields kept for
        the block (format, next id, carried sitting, previous block's end); -1 if it has
        no valid header."""
        h = self._win       # (at least 64 bytes) the header is read through the window
        self._wblk = -1
        self._bdev.readblocks(blk, h, 0)
        at = 0
        while at < HDR2:
            v = h[at + 3] if h[at] == 0x54 and h[at + 1] == 0x34 and h[at + 2] == 0x32 else 0
            if (v == 2 or v == 1 and not at) and header_crc(h, at, False):  # "T42", version
                if v == 1:
                    self._lo[blk] = get_u32(h, 8)
                    self._carry[blk] = get_u32(h, 12)
                    self._pend[blk] = 0
                else:
                    self._lo[blk] = h[at + 8] | h[at + 9] << 8 | h[at + 10] << 16
                    self._carry[blk] = h[at + 11] | h[at + 12] << 8 | h[at + 13] << 16
                    self._pend[blk] = h[at + 14] | h[at + 15] << 8 or 1
                return get_u32(h, at + 4)
            at += _HDR
        return -1

    def new_block(self, b, seq, lo, carry, pend):
        """Erase block b if it is not blank, then give it a header of format 2 (twice):
        sequence number, next sitting id, carried sitting, where the block before ends."""
        if not self.blank(b, 0):
            if self.read_header(b) >= 0:
                # Clear the magic first (the second copy's, then the first's), so that a
                # torn erase can't leave a valid header over half-erased records.
                z = self._one
                z[0] = 0
                if self._pend[b]:
                    self.program(b, z, _HDR)
                self.program(b, z, 0)
            self._wblk = -1
            try:
                self._bdev.ioctl(_IOCTL_BLOCK_ERASE, b)
            except OSError:
                self._mounted = False
                raise JournalError("flash erase failed: restart the scorer")
        h = self._win       # built in the read window, which forgets its block
        self._wblk = -1
        i = 0
        while i < 4:
            h[i] = _MAGIC2[i]
            i += 1
        put_u32(h, 4, seq & 0xFFFF, seq >> 16)
        i = 0
        while i < 3:
            h[8 + i] = (lo >> 8 * i) & 0xFF
            h[11 + i] = (carry >> 8 * i) & 0xFF
            i += 1
        h[14] = pend & 0xFF
        h[15] = pend >> 8
        header_crc(h, 0, True)
        i = 0
        while i < _HDR:
            h[_HDR + i] = h[i]
            i += 1
        self.program(b, self._hdr, 0)
        self._carry[b] = carry
        self._lo[b] = lo
        self._pend[b] = pend or 1     # (never 0: that is format 1's)

    def program_flag(self, pos, bit):
        """Set flag `bit` (F_FINISHED, F_SYNCED) of the BEGIN at pos, in place (in format
        2 as its pair of bits)."""
        b = pos // self._bs
        self._one[0] = 0xFF ^ (bit if not self._pend[b] else
                               _F2_FINISHED if bit == F_FINISHED else _F2_SYNCED)
        self.program(b, self._one, pos % self._bs + 1)

    def checks(self, b, off, end, t, k, repair=False):
        """Does a record of tag t (kind k) at off fit before end, with its check value?
        (its bytes on flash then in `size`; a repair takes no body that is all 0xFF: that
        is erased flash)."""
        if k == K_BEGIN:
            if off + BEGIN_FIXED > end:
                return False
            size = BEGIN_FIXED + self.byte(b, off + 5) + 1
        else:
            size = k + 2
        if off + size > end:
            return False
        c = crc8(0, t)
        i = 2 if k == K_BEGIN else 1    # a BEGIN's flags change after: not checked
        last = self.byte(b, off + size - 1)      # the check; the window now ends past it
        win = self._win
        w = off - self._woff
        blank = True
        if b == self._wblk and w >= 0:
            # The whole record is in the read window (it is, but where it crosses one):
            # the CRC over the window's bytes, inlined (a call a byte costs more).
            i += w
            top = w + size - 1
            while i < top:
                x = win[i]
                if x != 0xFF:
                    blank = False
                c ^= x
                c = ((c << 4) & 0xFF) ^ _CRC4[c >> 4]
                c = ((c << 4) & 0xFF) ^ _CRC4[c >> 4]
                i += 1
        else:
            while i < size - 1:
                x = self.byte(b, off + i)
                if x != 0xFF:
                    blank = False
                c = crc8(c, x)
                i += 1
        if c != last or repair and blank and c == 0xFF:
            return False
        self.size = size
        return True

    def sid_at(self, b, off):
        """The sitting id of the BEGIN record at off."""
        return self.byte(b, off + 2) | self.byte(b, off + 3) << 8 | self.byte(b, off + 4) << 16

    def flags_at(self, b, off):
        """The flags of the BEGIN at off, as Walk.flags: bit 0 clear finished, bit 1 clear
        synced. A format-2 flag counts as set only when both of its bits are (a torn
        finish counts as done); damaged flags read finished and not synced."""
        raw = self.byte(b, off + 1)
        if not self._pend[b]:
            return raw
        if raw & 0xF0 != 0xF0:
            return 0xFF ^ F_FINISHED
        f = 0xFF
        if raw & _F2_FINISHED != _F2_FINISHED:
            f ^= F_FINISHED
        if raw & _F2_SYNCED == 0:
            f ^= F_SYNCED
        return f

    # Where a block's records are (for the Journal and JournalReader) --------------

    @property
    def block_size(self):
        return self._bs

    def records_start(self, blk):
        """Where block `blk`'s first record is."""
        return HDR2 if self._pend[blk] else _HDR

    def records_end(self, blk):
        """Where block `blk`'s records end (the head block's, where the next goes)."""
        if blk == self._head:
            return self._head_off
        nb = (blk + 1) % self._n
        pend = self._pend[nb]
        return pend if self._pend[nb] and _HDR < pend <= self._bs else self._bs

    def following(self, blk, sid):
        """The block after `blk` when sitting `sid`'s records go on in it, else -1."""
        if blk == self._head:
            return -1
        blk = (blk + 1) % self._n
        return blk if self._carry[blk] == sid else -1
