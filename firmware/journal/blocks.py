# The flash journal's partition as blocks of records (docs/journal.md): reading through a
# window, programming, erasing, the block headers, and each record read and checked, of
# either format (1: before check values; 2: a check value on each record, the header
# twice). Journal (firmware/journal/writer.py) is built on it; JournalReader reads
# through its public methods.
import binascii
import struct

from engine_core.compat import const
from firmware.journal.records import (BEGIN_FIXED, CRC4, F_FINISHED, F_SYNCED, K_BEGIN,
                                      T_BEGIN, TAGS, crc8, kind)

_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_BLOCK_ERASE = const(6)

# Block header of format 1: magic "T42" + format version, seq, next sitting id, carried
# sitting id (u32 each), CRC-32 of the first 16 bytes; the first record follows it.
HDR = const(20)
MAGIC1 = b"T42\x01"
# Format 2: magic, seq (u32), next sitting id and carried sitting id (u24 each), where
# the previous block's records end (u16), CRC-32; twice, so that one damaged byte does
# not lose the block. The first record follows at HDR2.
HDR2 = const(40)
MAGIC2 = b"T42\x02"
_RESYNC = const(64)     # a BEGIN found after damage is taken only if its id is this close

# Flag bits of a format-2 BEGIN, in pairs (one flipped bit sets no flag), and the high
# four bits always 1.
F2_FINISHED = const(0x05)
F2_SYNCED = const(0x0A)


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
        self._wsize = 256 if bs % 256 == 0 else 64
        self._win = bytearray(self._wsize)  # read window, aligned within one block
        self._wblk = -1
        self._woff = 0
        self._hdr = bytearray(HDR2)
        self._hv = 0            # the header _read_header read: format, next id,
        self._hlo = 0           # carried sitting, previous block's end
        self._hcarry = 0
        self._hpend = 0
        self.size = 0           # bytes on flash of the record record() looked at
        self._rtag = 0          # the tag a repair found
        self._mounted = False
        self._scanning = False  # mount is scanning the head: its end is not known yet
        self._quick = False     # events' checks skipped (a walk of the structure only)
        self._carry = []        # by block: the sitting open when it was taken (0: none)
        self._lo = []           # by block: the next sitting id then
        self._pend = []         # by block: where the previous block's records end (0: unknown)
        self._ver = bytearray(0)  # by block: its format
        self._last = 0          # the newest sitting's id
        self._lost = 0          # a sitting whose BEGIN was lost at the log's end
        self._head = 0          # the head block, and where its next record goes
        self._head_off = HDR2

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
        # Sequence number of a valid block header (its fields in self._h*), or -1.
        h = self._hdr
        self._bdev.readblocks(blk, h, 0)
        at = 0
        while at < HDR2:
            m = h[at:at + 4]
            if ((m == MAGIC2 or m == MAGIC1 and not at) and binascii.crc32(
                    memoryview(h)[at:at + 16]) & 0xFFFFFFFF == struct.unpack_from("<I", h, at + 16)[0]):
                if m == MAGIC1:
                    self._hv = 1
                    self._hlo, self._hcarry = struct.unpack_from("<II", h, 8)
                    self._hpend = 0
                else:
                    self._hv = 2
                    self._hlo = _u24(h, at + 8)
                    self._hcarry = _u24(h, at + 11)
                    self._hpend = h[at + 14] | h[at + 15] << 8
                return struct.unpack_from("<I", h, at + 4)[0]
            at += HDR
        return -1

    # Records ---------------------------------------------------------------------

    def _checks(self, b, off, end, t, k, repair):
        # Does a record of tag t (kind k) at off fit before end, with its check value?
        # (A repair takes no body that is all 0xFF: that is erased flash.)
        if k == K_BEGIN:
            if off + BEGIN_FIXED > end:
                return False
            size = BEGIN_FIXED + self._rd(b, off + 5) + 1
        else:
            size = k + 2
        if off + size > end:
            return False
        c = crc8(0, t)
        i = 2 if k == K_BEGIN else 1    # a BEGIN's flags change after: not checked
        last = self._rd(b, off + size - 1)      # the check; the window now ends past it
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
                c = ((c << 4) & 0xFF) ^ CRC4[c >> 4]
                c = ((c << 4) & 0xFF) ^ CRC4[c >> 4]
                i += 1
        else:
            while i < size - 1:
                x = self._rd(b, off + i)
                if x != 0xFF:
                    blank = False
                c = crc8(c, x)
                i += 1
        if c != last or repair and blank and c == 0xFF:
            return False
        self.size = size
        return True

    def _repair(self, b, off, end, t, within):
        # The record at off whose tag byte t is damaged (or torn): the one kind whose
        # check value holds, when within is False; within: only tags whose programmed
        # bits include t's (a torn tag program). 0 when none holds, -1 when several do.
        found = 0
        size = 0
        i = 0
        while i < 6:
            tag = TAGS[i]
            i += 1
            if within and t & tag != tag:
                continue
            k = kind(tag)
            if self._checks(b, off, end, tag, k, True):
                if found:
                    return -1
                found = k
                size = self.size
                self._rtag = tag
        self.size = size
        return found

    def record(self, b, off):
        """The record at `off` in block `b`, checked: its kind (1 to 4 an event, 5 an
        END, 6 a BEGIN), its bytes on flash in `size`; 0 where the block's records end,
        -1 where a record is damaged (then resync() finds the next sitting)."""
        self._quick = False
        return self._record(b, off, self.records_end(b))

    def _record(self, b, off, end):
        if off >= end:
            return 0
        t = self._rd(b, off)
        k = kind(t)
        if self._ver[b] != 2:
            # Format 1: no check values; a record that is not whole ends the block.
            if not k or k == K_BEGIN and off + BEGIN_FIXED > end:
                return 0
            self.size = BEGIN_FIXED + self._rd(b, off + 5) if k == K_BEGIN else 1 + k
            return k if off + self.size <= end else 0
        if k:
            if self._quick and k < K_BEGIN:
                # Only the records' structure is wanted: an event's tag is whole (so is
                # its body: the tag is written last); its check is left for the reader.
                self.size = k + 2
                return k if off + k + 2 <= end else -1
            return k if self._checks(b, off, end, t, k, False) else -1
        if not (self._scanning and b == self._head):
            # Before where the records end, every tag was programmed: a tag that is not
            # one is damaged (or torn over a whole body), and the check value says what
            # it was.
            return self._repair(b, off, end, t, _partial(t)) or -1
        # The end of the log, found by mount: erased flash, or a record torn by a power
        # cut (its body programmed first, then its tag), or damage.
        if t == 0xFF:
            if self._blank(b, off):
                return 0
            k = self._repair(b, off, end, t, False)
            if k > 0:
                size = self.size
                if self._exact(b, off + size, end):
                    self.size = size        # a record follows: committed, tag damaged
                    return self._retag(b, off, k)
        elif _partial(t):
            k = self._repair(b, off, end, t, True)
            if k > 0:
                return self._retag(b, off, k)   # a torn tag over a whole body: it landed
        else:
            return self._repair(b, off, end, t, False) or -1
        # Torn, unless a sitting begins after it: then it is damage.
        return -1 if self.resync(b, off, end, self._last) < end else 0

    def _retag(self, b, off, k):
        # Program the tag the check value found (NOR clears the bits it lacks), so that
        # records written after it cannot make it read otherwise; returns k.
        size = self.size
        self._prog(b, bytes((self._rtag,)), off)
        self.size = size
        return k

    def _exact(self, b, off, end):
        # A whole record with its own tag at off?
        t = self._rd(b, off) if off < end else 0xFF
        k = kind(t)
        return k and self._checks(b, off, end, t, k, False)

    def resync(self, b, off, end, after):
        """Where the first whole BEGIN after the damaged record at `off` is, of a sitting
        numbered above `after` (and close to it), or `end`."""
        off += 1
        while off < end:
            if (self._rd(b, off) == T_BEGIN and self._checks(b, off, end, T_BEGIN, K_BEGIN, False)
                    and after < self._sid_at(b, off) <= after + _RESYNC):
                return off
            off += 1
        return end

    def blames(self, b, off, nxt, end, sid):
        """After the damaged record at off in block b, with the next sitting at nxt (end:
        none in b): is it sitting `sid`'s records that are damaged (else the next
        sitting's BEGIN is)?"""
        if nxt < end:
            return self._sid_at(b, nxt) == sid + 1
        if b != self._head and self._lo[(b + 1) % self._n] <= sid + 1:
            return True     # no sitting began after it in b
        return not self.begin_like(b, off, sid)

    def begin_like(self, b, off, sid):
        """Does the damaged record at off look like the BEGIN of sitting sid + 1 (its tag
        two bits from a BEGIN's at most, or its id bytes whole)?"""
        return bits(self._rd(b, off) ^ T_BEGIN) <= 2 or self._sid_at(b, off) == sid + 1

    def _sid_at(self, b, off):
        return self._rd(b, off + 2) | self._rd(b, off + 3) << 8 | self._rd(b, off + 4) << 16

    def flags_at(self, b, off):
        """The flags of the BEGIN at off, as Walk.flags: bit 0 clear finished, bit 1 clear
        synced. A format-2 flag counts as set only when both of its bits are (a torn
        finish counts as done); damaged flags read finished and not synced."""
        raw = self._rd(b, off + 1)
        if self._ver[b] != 2:
            return raw
        if raw & 0xF0 != 0xF0:
            return 0xFF ^ F_FINISHED
        f = 0xFF
        if raw & F2_FINISHED != F2_FINISHED:
            f ^= F_FINISHED
        if raw & F2_SYNCED == 0:
            f ^= F_SYNCED
        return f

    # Where a block's records are (for the Journal and JournalReader) --------------

    @property
    def block_size(self):
        return self._bs

    def byte(self, blk, off):
        """The byte at `off` in block `blk` (through a read window: allocates nothing)."""
        return self._rd(blk, off)

    def records_start(self, blk):
        """Where block `blk`'s first record is."""
        return HDR2 if self._ver[blk] == 2 else HDR

    def records_end(self, blk):
        """Where block `blk`'s records end (the head block's, where the next goes)."""
        if blk == self._head:
            return self._head_off
        nb = (blk + 1) % self._n
        pend = self._pend[nb]
        return pend if self._ver[nb] == 2 and HDR < pend <= self._bs else self._bs

    def following(self, blk, sid):
        """The block after `blk` when sitting `sid`'s records go on in it, else -1."""
        if blk == self._head:
            return -1
        blk = (blk + 1) % self._n
        return blk if self._carry[blk] == sid else -1


def _u24(b, at):
    return b[at] | b[at + 1] << 8 | b[at + 2] << 16


def bits(x):
    """The number of bits set in x."""
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


def _partial(t):
    # Is t a tag with some of its bits not programmed (a torn tag program)?
    for tag in TAGS:
        if t & tag == tag:
            return True
    return False
