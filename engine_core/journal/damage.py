# What the journal does where a record is damaged (docs/journal.md, Damage): the one tag
# whose check value holds over a damaged or torn tag, the next sitting to read on from,
# and whose loss the damage is. Loaded the first time damage (or a torn tag) is met: a
# journal without any never loads it. It reads through the Blocks' public methods.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.compat import const
from engine_core.journal.blocks import K_BEGIN, T_BEGIN, TAGS, kind

_RESYNC = const(64)     # a BEGIN found after damage is taken only if its id is this close


def tag(j, b, off, end, t, at_end, last):
    """The record at off in block b of Blocks j, whose tag byte t is no tag: its kind
    when the check value says which tag it was (its size in j.size), else -1 (damaged)
    or 0. at_end: mount is scanning the head block, whose end is not known yet: there a
    record torn by a power cut (body first, tag last) is the end (0), not damage, unless
    a sitting numbered above `last` begins after it."""
    if not at_end:
        # Before where the records end, every tag was programmed: damaged, or torn over
        # a whole body; the check value says what it was.
        return repair(j, b, off, end, t, partial(t)) or -1
    if t == 0xFF:
        k = repair(j, b, off, end, t, False)
        if k > 0:
            size = j.size
            if exact(j, b, off + size, end):
                j.size = size           # a record follows: committed, its tag damaged
                return _retag(j, b, off, k)
    elif partial(t):
        k = repair(j, b, off, end, t, True)
        if k > 0:
            return _retag(j, b, off, k)     # a torn tag over a whole body: it landed
    else:
        return repair(j, b, off, end, t, False) or -1
    # Torn, unless a sitting begins after it: then it is damage.
    return -1 if resync(j, b, off, end, last) < end else 0


def repair(j, b, off, end, t, within):
    """The kind of the record at off whose tag byte t is damaged (or torn): the one tag
    whose check value holds (within: only tags whose programmed bits include t's, a torn
    tag program); 0 when none holds, -1 when several do."""
    found = 0
    size = 0
    for tg in TAGS:
        if within and t & tg != tg:
            continue
        k = kind(tg)
        if j.checks(b, off, end, tg, k, True):
            if found:
                return -1
            found = k
            size = j.size
    j.size = size
    return found


def _retag(j, b, off, k):
    # Program the tag the check value found over the damaged or torn one (NOR clears
    # the bits it lacks), so that what is written later cannot make it read otherwise.
    j.program(b, bytes((TAGS[k - 1],)), off)
    return k


def exact(j, b, off, end):
    """A whole record with its own tag at off?"""
    t = j.byte(b, off) if off < end else 0xFF
    k = kind(t)
    return k and j.checks(b, off, end, t, k)


def resync(j, b, off, end, after):
    """Where the first whole BEGIN after the damaged record at off is, of a sitting
    numbered above `after` (and close to it), or end."""
    off += 1
    while off < end:
        if (j.byte(b, off) == T_BEGIN and j.checks(b, off, end, T_BEGIN, K_BEGIN)
                and after < j.sid_at(b, off) <= after + _RESYNC):
            return off
        off += 1
    return end


def blames(j, b, off, nxt, end, sid, nid):
    """After the damaged record at off in block b, with the next sitting at nxt (end:
    none in b): is it sitting `sid`'s records that are damaged (else the next sitting's
    BEGIN is)? nid: the next sitting id when the block after b was taken (0: b is the
    head)."""
    if nxt < end:
        return j.sid_at(b, nxt) == sid + 1
    if nid and nid <= sid + 1:
        return True     # no sitting began after it in b
    return not begin_like(j, b, off, sid)


def begin_like(j, b, off, sid):
    """Does the damaged record at off look like the BEGIN of sitting sid + 1 (its tag
    two bits from a BEGIN's at most, or its id bytes whole)?"""
    x = j.byte(b, off) ^ T_BEGIN
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n <= 2 or j.sid_at(b, off) == sid + 1


def partial(t):
    """Is t a tag with some of its bits not programmed (a torn tag program)?"""
    for tg in TAGS:
        if t & tg == tg:
            return True
    return False
