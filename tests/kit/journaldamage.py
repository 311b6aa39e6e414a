# The journal under damage: a 200-sitting flash image (tests/kit/syncrig.py's sittings of
# random legal play, as the scorer journals them), damaged one way at a time, then read
# as the scorer's boot and the PC's `--from-image` read it (host_tools/log/image.py, the
# firmware's journal code). Each damage is judged against the undamaged image: how many
# sittings it cost, and whether any sitting was lost, changed or exported without a word.
# Used by tests/e2e/test_journal_damage.py and bench/bench_journal_damage.py.
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import syncrig as R  # noqa: E402
from host_tools.log import image as I  # noqa: E402

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

    def __repr__(self):
        return "%r: lost %d, named %s, unreported %s%s" % (
            self.damage, self.lost, self.named, self.unreported,
            ", crashed: %s" % self.crashed if self.crashed else "")


def judge(baseline, damage):
    """Read the damaged image as the scorer's boot and the PC do; a Verdict."""
    v = Verdict(damage)
    try:
        whole, named = I.scan(damage.data)
    except Exception as e:      # what is judged is that nothing raises
        v.crashed = "%s: %s" % (type(e).__name__, e)
        v.lost = len(baseline)
        return v
    v.named = named
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


def sweep(data, count, seed=1):
    """The Verdicts of `count` damages of the image whose bytes are `data`."""
    baseline, named = I.scan(data)
    assert not named, named
    return [judge(baseline, d) for d in damages(data, count, seed)]
