# The journal's mount (firmware/journal.py Journal.mount): the partition scanned, a torn
# tail dropped, the newest sitting found; a blank or garbage partition formatted.
# Boot-only code: loaded by mount() and unloaded once it returns.
import struct

from engine_core.compat import const
from firmware import journal as J
from firmware import journalread as R

_HDR = const(20)            # journal.py: the block header's size, the record tags' kinds,
_K_END = const(5)           # a BEGIN record's fixed part and its flag bits
_K_BEGIN = const(6)
_BEGIN_FIXED = const(6)
_F_FINISHED = const(0x01)


def mount(j):
    """Journal.mount() of journal `j`."""
    n = j._n
    seqs = [-1] * n
    j._carry = [0] * n  # the sitting open when each block was started (0: none)
    j._lo = [0] * n  # the next sitting id then: those begun in the block are >= it
    j._ok = bytearray(n)  # reclaimable: 0 not known yet, 1 yes, 2 no
    j._last = 0  # the newest sitting: id, BEGIN position, stream length, flags
    j._last_pos = 0
    j._last_len = 0
    j._last_flags = 0
    j._ended = False  # the newest sitting's last record is an END
    j._open = 0  # id of the open sitting, 0 when none (it is always the newest)
    j._wblk = -1
    j._rcur = None
    if j._walk is not None:
        j._walk._blk = -1
    next_sid = 1
    head = -1
    try:
        for b in range(n):
            seqs[b] = s = R.read_header(j, b)
            if s >= 0:
                j._carry[b] = struct.unpack_from("<I", j._hdr, 12)[0]
                j._lo[b] = struct.unpack_from("<I", j._hdr, 8)[0]
                next_sid = max(next_sid, j._lo[b])
                if head < 0 or s > seqs[head]:
                    head = b
        if head < 0:
            j._mounted = True
            _format(j)
            return None
        tail = head
        count = 1
        while count < n:
            p = (tail - 1) % n
            if seqs[p] != seqs[tail] - 1:
                break
            tail = p
            count += 1
        j._head = head
        j._tail = tail
        j._count = count
        j._seq = seqs[head]
        b = tail
        while True:
            end = _scan_block(j, b)
            if b == head:
                break
            b = (b + 1) % n
        j._head_off = end
        j._head_dirty = end < j._bs and not _blank_from(j, head, end)
    except OSError:
        raise J.JournalError("flash read failed")
    if j._last:
        next_sid = max(next_sid, j._last + 1)
        if j._last_flags & _F_FINISHED:  # bit still erased: not finished
            j._open = j._last
    j._next_sid = next_sid
    j._mounted = True
    return j.open_sitting()


def _blank_from(j, blk, off):
    while off < j._bs:
        if j._rd(blk, off) != 0xFF:
            return False
        off += 1
    return True


def _scan_block(j, b):
    # Follows the newest sitting through the block; returns where its records end.
    bs = j._bs
    carry = j._carry[b]
    counting = carry != 0 and j._last == carry  # records before a BEGIN are its
    off = _HDR
    while off < bs:
        k = J._kind(j._rd(b, off))
        if k == 0:
            break  # erased: the end; anything else: a torn record
        if k < _K_BEGIN:
            if off + 1 + k > bs:
                break
            if counting:
                j._last_len += 1 + k
                j._ended = k == _K_END
            off += 1 + k
            continue
        if off + _BEGIN_FIXED > bs:
            break
        sid = j._rd(b, off + 2) | j._rd(b, off + 3) << 8 | j._rd(b, off + 4) << 16
        hlen = j._rd(b, off + 5)
        if off + _BEGIN_FIXED + hlen > bs or sid <= j._last:
            break
        j._last = sid
        j._last_pos = b * bs + off
        j._last_len = 1 + hlen
        j._last_flags = j._rd(b, off + 1)
        j._ended = False
        counting = True
        off += _BEGIN_FIXED + hlen
    return off


def _format(j):
    j._head = j._tail = 0
    j._count = 1
    j._seq = 0
    j._next_sid = 1
    R.start_block(j, 0, 1)
    j._head_off = _HDR
    j._head_dirty = False
