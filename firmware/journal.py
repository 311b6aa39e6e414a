# The flash journal: every accepted event of every sitting, as an append-only log over
# the blocks of its own partition, durable when append() returns. Format in docs/journal.md.
# This is the writing, which stays in the heap; the reading (the sittings walked, one
# read back, marked synced, the free bytes) is firmware/journalread.py's functions,
# imported by the few that read (the boot's replay, the history screen, a sync):
#   from firmware import journalread
#   journalread.sittings(j), cursor(j, sid), next_event(j, cur, buf), read(j, sid, off, buf)
# The block tables are made by the mount and the reading (firmware/journalscan.py,
# journalread.py), loaded when needed, out of the checker's sight:
# pyright: reportAttributeAccessIssue=false
from engine_core.compat import const

_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_BLOCK_ERASE = const(6)

# Block header: magic "T42" + format version, seq, next sitting id, carried sitting id,
# CRC-32 of the first 16 bytes.
_HDR = const(20)

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
# BEGIN in its sitting), or _K_BEGIN.
_K_END = const(5)
_K_BEGIN = const(6)

# Flag bits of a BEGIN record, cleared in place (a NOR program clears bits only).
_F_FINISHED = const(0x01)
_F_SYNCED = const(0x02)


def _unload(name):
    import sys
    sys.modules.pop(name, None)
    pkg = sys.modules.get("firmware")
    if pkg is not None and hasattr(pkg, name[9:]):
        delattr(pkg, name[9:])


class JournalError(Exception):
    pass


class JournalFull(JournalError):
    pass


def _kind(t):
    # Payload length of an event or END tag, _K_BEGIN for a sitting header, 0 if not a tag.
    if t == _T_EV1:
        return 1
    if t == _T_EV2:
        return 2
    if t == _T_EV3:
        return 3
    if t == _T_EV4:
        return 4
    if t == _T_END:
        return _K_END
    if t == _T_BEGIN:
        return _K_BEGIN
    return 0


_REC_TAGS = (0, _T_EV1, _T_EV2, _T_EV3, _T_EV4, _T_END)


class Journal:
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
        self._end = bytearray(_K_END)  # an END record's payload (end())
        self._flag = bytearray(1)
        self._zero4 = bytearray(4)
        self._hdr = bytearray(_HDR)
        self._item = None       # read(): the logical item being copied, and where
        self._rcur = None       # (made at the first read: a sync)
        self._walk = None       # journalread's lookups by id (cursor, mark_synced, reclaim)
        self._roff = 0
        self._ilen = -1
        self._ipos = 0
        self._mounted = False
        self._carry = []        # by block, set by the mount (journalscan.py)
        self._lo = []
        self._ok = bytearray(0)

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

    # Mount -----------------------------------------------------------------------

    def mount(self):
        """Scan the partition, drop a torn tail, find the newest sitting; formats a blank
        or garbage partition. Returns the open sitting's id or None. What it keeps is a
        few numbers a block and the newest sitting, however many sittings the journal
        holds: the others are found by walking the records (walk, cursor)."""
        # The scan is boot-only code: firmware/journalscan.py, unloaded once done.
        import firmware.journalscan as scan
        try:
            return scan.mount(self)
        finally:
            scan = None
            _unload("firmware.journalscan")

    # Space -----------------------------------------------------------------------

    def _room(self, size):
        if not self._mounted:
            raise JournalError("journal not mounted")
        if self._head_dirty or self._head_off + size > self._bs:
            try:
                r = _read()     # a new head block, now and then: journalread.py
            except MemoryError:
                raise JournalError("no memory for a new journal block: try again")
            r.next_block(self)

    # Writing ---------------------------------------------------------------------

    def begin_sitting(self, header):
        """Start a sitting (finishing the open one); returns its id. Once a sitting: the
        code is firmware/journalread.py's (begin_sitting), out of a hand's heap."""
        try:
            r = _read()
        except MemoryError:
            raise JournalError("no memory to begin a sitting: try again")
        return r.begin_sitting(self, header)

    def end(self, t, offset):
        """Record that the open sitting ended (game over, abandoned for a new one) at
        `t`, seconds since 2024-01-01T00:00Z on the scorer's clock (0: not set), `offset`
        its UTC offset in minutes: an END record, durable on return. Does nothing when the sitting's last
        record is an END already (its first end stands until an event reopens it), when
        no sitting is open, or when there is no room (the sitting keeps no end time; the
        events are all there): then False. Allocates nothing."""
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
        self._last_len += 1 + n
        self._ended = n == _K_END
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

    def open_sitting(self):
        return self._open or None


def _read():
    # The reading code (firmware/journalread.py): imported once, then found loaded
    # until the app unloads it (with the screens, after a sync, after the boot).
    import firmware.journalread as r
    return r
