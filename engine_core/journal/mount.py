# The journal's mount (engine_core/journal/log.py Log.mount): the scan of the
# partition, which finds the ring of blocks, drops a torn tail and follows the newest
# sitting. On the device, run once a boot and unloaded after (firmware/journal/writer.py
# Journal.mount): a stock flash's heap does not keep its code while the scorer plays. It
# sets the ring state, as the Log's own code would.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.journal import blocks as B


def mount(j):
    """Scan the partition, drop a torn tail, find the newest sitting; formats a blank
    or garbage partition. Returns the open sitting's id or None. What it keeps is a
    few numbers a block and the newest sitting, however many sittings the journal
    holds: the others are found by walking the records (walk, find). A damaged open
    sitting (or one followed by damage) is finished: it is not played on."""
    n = j._n
    seqs = [-1] * n
    j._carry = [0] * n
    j._lo = [0] * n
    j._pend = [0] * n
    j._ok = bytearray(n)
    j._last = 0
    j._last_pos = 0
    j._last_flags = 0
    j._ended = False
    j._bad = 0
    j._open = 0
    j._wblk = -1
    if j._walk is not None:
        j._walk.reset()
    next_sid = 1
    head = -1
    try:
        for b in range(n):
            seqs[b] = s = j.read_header(b)   # and the block's fields, if valid
            if s >= 0:
                next_sid = max(next_sid, j._lo[b])
                if head < 0 or s > seqs[head]:
                    head = b
        if head < 0:
            # Blank or garbage: formatted, block 0 the head (the others are erased
            # only when taken).
            j._mounted = True
            j._head = j._tail = 0
            j._count = 1
            j._seq = 1
            j._next_sid = 1
            j.new_block(0, 1, 1, 0, 0)
            j._head_off = B.HDR2
            j._head_dirty = False
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
        j._mode = B.QUICK     # the newest sitting alone is checked, below
        while b != head:
            _scan_block(j, b, j.records_end(b))
            b = (b + 1) % n
        j._mode = B.SCANNING
        end = _scan_block(j, head, j._bs)
        j._mode = B.CHECKED
        j._head_off = end
        j._head_dirty = not j._pend[head] or end < j._bs and not j.blank(head, end)
    except OSError:
        raise B.JournalError("flash read failed")
    finally:
        j._mode = B.CHECKED
    if j._last:
        # A BEGIN lost after the newest sitting (_bad 2): its id is not given again.
        next_sid = max(next_sid, j._last + (2 if j._bad == 2 else 1))
        if j._last_flags & B.F_FINISHED:  # bit still erased: not finished
            j._open = j._last
    j._next_sid = next_sid
    j._mounted = True
    if j._last and not j._bad:
        # The scan took the events' structure only: the newest sitting (the one the
        # scorer plays on) is checked whole.
        w = B.Walk()
        j._bad = 1 if j.find(j._last, w) and w.damaged else 0
    if j._open and j._bad:
        j.finish()       # damage at the log's end: nothing is added after it
    return j.open_sitting()

def _scan_block(j, b, end):
    # Follows the newest sitting through the block (whether its last record is an
    # END, whether it is damaged); returns where the block's records end.
    carry = j._carry[b]
    counting = carry != 0 and j._last == carry  # records before a BEGIN are its
    off = j.records_start(b)
    while True:
        k = j.record(b, off, end)
        if k == 0:
            return off
        if 0 < k < B.K_BEGIN:
            if counting:
                j._ended = k == B.K_END
            off += j.size
            continue
        if k == B.K_BEGIN:
            sid = j.sid_at(b, off)
            if sid > j._last:
                j._last = sid
                j._last_pos = b * j._bs + off
                j._last_flags = j.flags_at(b, off)
                j._ended = False
                j._bad = 0
                counting = True
                off += j.size
                continue
            if not j._pend[b]:
                return off
        # Damage: on to the next sitting that begins in this block.
        from engine_core.journal import damage
        nxt = damage.resync(j, b, off, end, j._last)
        if nxt >= end and j._mode == B.SCANNING and damage.begin_like(
                j, b, off, j._last):
            j._bad = 2       # the next sitting's BEGIN, lost: the newest is whole
            return end
        after = 0 if b == j._head else j._lo[(b + 1) % j._n]
        if counting and damage.blames(j, b, off, nxt, end, j._last, after):
            j._bad = 1
        counting = False
        if nxt >= end:
            return end
        off = nxt
