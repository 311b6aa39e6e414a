# The journal under damage: a 200-sitting flash image (tests/kit/syncrig.py's sittings of
# random legal play, as the scorer journals them), damaged one way at a time, then read
# as the scorer's boot and the PC's `--from-image` read it (host_tools/log/image.py, the
# firmware's journal code). Each damage is judged against the undamaged image: how many
# sittings it cost, and whether any sitting was lost, changed or exported without a word.
# Used by tests/e2e/test_journal_damage.py and bench/bench_journal_damage.py.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import syncrig as R  # noqa: E402
from firmware import journal as J  # noqa: E402
from engine_core import wire  # noqa: E402
from engine_core.compat import const  # noqa: E402
from engine_core.journal.reader import JournalReader  # noqa: E402

# The scorer's sync code (firmware/sync/journal.py) imports MicroPython's const; on
# CPython it gets engine_core.compat's, for its import only (nothing else may take
# this process for MicroPython).
_had = sys.modules.get("micropython")
sys.modules["micropython"] = type(sys)("micropython")
sys.modules["micropython"].const = const
try:
    from firmware.sync.journal import KIND_ERROR, SyncJournal  # noqa: E402
finally:
    if _had is None:
        del sys.modules["micropython"]
    else:
        sys.modules["micropython"] = _had
from host_tools.serial.sync import sitting_lines  # noqa: E402
from host_tools.log import image as I  # noqa: E402
from host_tools.log import sittinglog as L  # noqa: E402
from host_tools.log.device import END_ITEM, from_device  # noqa: E402
from host_tools.log.lines import Meta, dump_log  # noqa: E402

BLOCK = 4096
HDR2 = 40       # engine_core/journal/blocks.py: a format-2 block's records start here


def build(path, sittings=200, blocks=R.BLOCKS):
    """A journal image of `sittings` finished, unsynced sittings; its bytes."""
    if os.path.exists(path):
        os.remove(path)
    R.build_image(path, sittings, open_events=0, blocks=blocks)
    with open(path, "rb") as f:
        return f.read()


def used(data):
    """[(start, end)] of the bytes of each block in use (through its last non-0xFF byte)."""
    out = []
    for b in range(len(data) // BLOCK):
        blk = data[b * BLOCK:(b + 1) * BLOCK]
        if blk[:3] != b"T42":
            continue
        end = len(blk.rstrip(b"\xff"))
        out.append((b * BLOCK, b * BLOCK + end))
    return out


class Damage:
    """One way to damage an image: what, where, and the damaged bytes."""

    def __init__(self, what, where, data):
        self.what = what
        self.where = where
        self.data = data

    def __repr__(self):
        return "%s at byte %d" % (self.what, self.where)


def flip(data, pos, bit):
    d = bytearray(data)
    d[pos] ^= 1 << bit
    return Damage("bit %d flipped" % bit, pos, bytes(d))


def set_byte(data, pos, value):
    d = bytearray(data)
    d[pos] = value
    return Damage("byte set to 0x%02X" % value, pos, bytes(d))


def torn_block(data, pos):
    # An erase cut short, as NorFlash.cut_after leaves one: from pos to the end of its
    # block the flash reads erased (the block header before it survives).
    d = bytearray(data)
    end = (pos // BLOCK + 1) * BLOCK
    d[pos:end] = b"\xff" * (end - pos)
    return Damage("block erased from", pos, bytes(d))


def damages(data, count, seed):
    """`count` damages of the image, at random places among the bytes in use: single-bit
    flips mostly, bytes set to 0x00 and to 0xFF, and torn blocks (not the newest block,
    whose torn end is a power cut's, which the power-cut tests cover)."""
    rnd = R.RandomPlayer(seed).rand
    spans = used(data)
    total = sum(e - s for s, e in spans)
    heads = [s for s, e in spans]
    newest = max(spans, key=lambda se: data[se[0] + 4:se[0] + 8][::-1])[0]
    out = []
    for i in range(count):
        k = rnd(total)
        for s, e in spans:
            if k < e - s:
                pos = s + k
                break
            k -= e - s
        kind = i % 8
        if kind < 5:
            out.append(flip(data, pos, rnd(8)))
        elif kind == 5:
            out.append(set_byte(data, pos, 0x00))
        elif kind == 6:
            out.append(set_byte(data, pos, 0xFF))
        else:
            start = [h for h in heads if h != newest][rnd(len(heads) - 1)]
            out.append(torn_block(data, start + HDR2 + rnd(BLOCK - HDR2)))
    return out


class Verdict:
    """What one damage did: lost (sittings neither exported whole nor named: they count
    too), named (the damaged ones the reader named), unreported (sittings lost, changed
    or exported without a word), crashed (the read raised)."""

    def __init__(self, damage):
        self.damage = damage
        self.lost = 0
        self.named = []
        self.unreported = []
        self.crashed = None
        self.good_dropped = 0   # hands that ended wholly before the damage, not read

    def __repr__(self):
        return "%r: lost %d, named %s, unreported %s, good hands dropped %d%s" % (
            self.damage, self.lost, self.named, self.unreported, self.good_dropped,
            ", crashed: %s" % self.crashed if self.crashed else "")


def _mounted(data):
    # The scorer's journal on the image, mounted as its boot mounts it, without the
    # module unloading that costs a CPython test process seconds (syncrig.mounted).
    return R.mounted(I.RamFlash(data))


def records(data, sid):
    """[(start, end, item)] of sitting sid's records in the image (byte offsets in it):
    its BEGIN (item: the header), then each event (and END), as the journal reader walks
    them on the undamaged image."""
    j = _mounted(data)
    r = JournalReader(j)
    cur = r.cursor(sid)
    buf = bytearray(256)
    out = []
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            return out
        end = cur.blk * BLOCK + cur.off
        out.append((end - j.size, end, bytes(buf[:n])))


def hands_of(header, items):
    """How many deals have ended in a sitting of this header whose stream items (events
    and END) are these."""
    events = b"".join(it for it in items if len(it) != END_ITEM)
    lines = from_device(header, events)
    return len(L.report(L.replay(dump_log(lines).encode("utf-8")))["hands"])


def good_hands(data, damage, sid):
    """The hands of sitting sid that ended wholly before the first of its records the
    damage touched (all of them when none is), judged on the undamaged image."""
    recs = records(data, sid)
    lo = damage.where
    hi = (lo // BLOCK + 1) * BLOCK if "erased" in damage.what else lo + 1
    k = 0
    while k < len(recs) and not (recs[k][0] < hi and lo < recs[k][1]):
        k += 1
    if k == 0:
        return 0            # its BEGIN: nothing of it reads
    return hands_of(recs[0][2], [it for _, _, it in recs[1:k]])


def partial_read(data, sid):
    """What a sync fetches of damaged sitting sid: the scorer's answer to "F" (its
    firmware/sync/journal.py, on the mounted damaged image, the transport left out) up
    to the length its list gives, turned into log lines by the PC
    (host_tools/serial/sync.py); None when the scorer sends nothing of it."""
    j = _mounted(data)
    w = J.Walk()
    if not j.find(sid, w) or not w.length:
        return None
    length = w.length
    chunk = 512
    tx = bytearray(wire.HEAD + 6 + chunk + wire.TAIL)
    sj = SyncJournal(j, memoryview(tx), chunk)
    out = bytearray()
    while len(out) < length:
        req = b"%d %d:%d" % (length - len(out), sid, len(out)) if out else b"%d %d" % (
            length, sid)
        if sj.start_fetch(req, 0, len(req)):
            return None     # refused: nothing of it reaches the PC
        before = len(out)
        while True:
            kind = sj.next_frame()
            if kind == KIND_ERROR:
                return None
            p = wire.HEAD
            if sj.n > 6 and wire.get_u24(tx, p) == sid:
                out.extend(tx[p + 6:p + sj.n])
            if kind == 0x44:
                break
        if len(out) == before:
            break
    return sitting_lines("T42-BENCH", Entry(sid, length), bytes(out[:length]))


class Entry:
    """The list entry the PC has of a damaged sitting (host_tools/serial/client.py)."""

    def __init__(self, sid, length):
        self.sid = sid
        self.length = length
        self.damaged = True
        self.finished = True
        self.synced = False


def judge(baseline, damage, data=None):
    """Read the damaged image as the scorer's boot and the PC do; a Verdict. data: the
    undamaged image, to judge the damaged sittings' partial reads by."""
    v = Verdict(damage)
    try:
        whole, named = I.scan(damage.data)
    except Exception as e:      # what is judged is that nothing raises
        v.crashed = "%s: %s" % (type(e).__name__, e)
        v.lost = len(baseline)
        return v
    v.named = named
    if data is not None:
        _partials(v, baseline, damage, named, data)
    got = {s[0]: s for s in whole}
    for s in baseline:
        sid = s[0]
        if sid in got:
            if got[sid] != s:
                v.unreported.append(sid)    # changed, and exported as if whole
                v.lost += 1
        else:
            v.lost += 1
            if sid not in named:
                v.unreported.append(sid)    # gone without a word
    for sid in got:
        if sid not in {s[0] for s in baseline}:
            v.unreported.append(sid)        # a sitting that was never there
    return v


def _partials(v, baseline, damage, named, data):
    # Each damaged sitting's hands before the damage must reach the PC, unchanged.
    before = {s[0]: s for s in baseline}
    for sid in named:
        if sid not in before:
            continue
        want = good_hands(data, damage, sid)
        try:
            lines = partial_read(damage.data, sid)
        except Exception as e:
            v.crashed = "sitting %d's partial read: %s: %s" % (sid, type(e).__name__, e)
            v.good_dropped += want
            continue
        got = 0
        if lines is not None:
            header, events = before[sid][1], before[sid][2]
            mine = _events(from_device(header, events))
            if _events(lines) != mine[:len(_events(lines))]:
                v.unreported.append(sid)    # the partial is not the sitting's beginning
            got = len(L.report(L.replay(dump_log(lines).encode("utf-8")))["hands"])
        v.good_dropped += max(0, want - got)


def sweep(data, count, seed=1):
    """The Verdicts of `count` damages of the image whose bytes are `data`."""
    baseline, named = I.scan(data)
    assert not named, named
    return [judge(baseline, d, data) for d in damages(data, count, seed)]


def _events(lines):
    return [x for x in lines[1:] if not isinstance(x, Meta)]
