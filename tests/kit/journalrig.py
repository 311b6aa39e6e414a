# The journal's test rig, shared by the journal's device suites (tests/device/journal/):
# a sitting's events read back, a stream of them, and the power-cut drive with its model of
# what must survive.
import quick as Q

from engine_core.journal.reader import JournalReader
from firmware.journal import Journal, JournalFull


def sitting_events(j, sid):
    r = JournalReader(j)
    cur = r.cursor(sid)
    buf = bytearray(256)
    out = []
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            return out
        out.append(bytes(buf[:n]))


def event_stream(items):
    out = bytearray()
    for it in items:
        out.append(len(it))
        out.extend(it)
    return bytes(out)


def read_all(j, sid, chunk):
    r = JournalReader(j)
    buf = bytearray(chunk)
    out = bytearray()
    while True:
        n = r.read(sid, len(out), buf)
        if n == 0:
            return bytes(out)
        out.extend(buf[:n])


# (keep, bits, from_end) for the cut operation: whole; nothing; some bits of its first
# byte; the first byte and some bits of the second; the first 9 bytes (a block header,
# half-made); an erase that reached only the end of the block (its header survives).
CUT_FORMS = ((-1, 0, False), (0, 0, False), (0, 0x3C, False), (1, 0xC3, False), (9, 0x0F, False))


def new_image(seen, flash):
    """False when, after this cut, the flash holds an image already checked after the same
    cut point under another form (keep 9 of a 3-byte program is the program whole): what
    a reboot finds depends on the image and the model alone, and the model is the same
    for every form of one cut point, so those checks would repeat exactly. seen: the
    images of this cut point so far (a list, emptied for the next)."""
    img = bytearray(flash.nblocks * flash.block_size)
    flash.readblocks(0, img)
    if img in seen:
        return False
    seen.append(img)
    return True


class Model:
    # What the journal has acknowledged: each sitting's id, header, events and flags.
    def __init__(self):
        self.sittings = []  # [id, header, events, finished, synced], in begin order
        self.inflight = None
        self.refused = 0

    def by_id(self, sid):
        for s in self.sittings:
            if s[0] == sid:
                return s
        return None


def drive(flash, steps, model):
    j = Journal(flash)
    j.mount()
    for step in steps:
        model.inflight = step
        op = step[0]
        if op == "begin":
            sid = j.begin_sitting(step[1])
            if model.sittings:
                model.sittings[-1][3] = True
            model.sittings.append([sid, step[1], [], False, False])
        elif op == "ev":
            try:
                j.append(step[1])
            except JournalFull:
                model.refused += 1
            else:
                model.sittings[-1][2].append(step[1])
        elif op == "end":
            try:
                wrote = j.end(step[1], step[2])
            except JournalFull:
                model.refused += 1
            else:
                if wrote:
                    model.sittings[-1][2].append(end_bytes(step[1], step[2]))
        elif op == "finish":
            j.finish()
            model.sittings[-1][3] = True
        else:
            j.mark_synced(model.sittings[step[1]][0])
            model.sittings[step[1]][4] = True
    model.inflight = None
    return j


def check_model(j, model, where):
    fl = model.inflight
    op = fl[0] if fl else None
    got = JournalReader(j).sittings()
    ids = [s[0] for s in got]
    assert ids == sorted(ids), where
    last = model.sittings[-1] if model.sittings else None
    for s in model.sittings:
        sid, header, events, finished, synced = s
        if sid not in ids:
            assert synced, "%s: unsynced sitting %d lost" % (where, sid)
            continue
        info = got[ids.index(sid)]
        evs = sitting_events(j, sid)
        assert evs[0] == header, where
        if op == "ev" and s is last and len(evs) == len(events) + 2:
            assert evs[-1] == fl[1], where  # the event in flight made it
            evs.pop()
        if op == "end" and s is last and len(evs) == len(events) + 2:
            assert evs[-1] == end_bytes(fl[1], fl[2]), where  # the END in flight made it
            evs.pop()
        assert evs[1:] == events, "%s: sitting %d events differ" % (where, sid)
        may_finish = s is last and op in ("begin", "finish")
        assert info[1] == finished or (may_finish and info[1]), where
        may_sync = op == "sync" and model.sittings[fl[1]] is s
        assert info[2] == synced or (may_sync and info[2]), where
        assert info[3] == len(event_stream(sitting_events(j, sid))), where
    for info in got:
        if model.by_id(info[0]) is None:
            # Only the sitting being begun when power went may appear, empty and open.
            assert op == "begin" and info[0] == ids[-1], "%s: extra sitting" % where
            assert sitting_events(j, info[0]) == [fl[1]] and not info[1], where
    op_sid = j.open_sitting()
    if last is not None and not last[3]:
        assert op_sid == last[0] or op in ("begin", "finish"), where
    elif op != "begin":
        assert op_sid is None, where
    if op_sid is not None:
        assert read_all(j, op_sid, 40) == event_stream(sitting_events(j, op_sid)), where


def append_again(flash, j, where):
    # Play goes on after the reboot; if the journal is full, the player syncs first.
    try:
        sid = j.open_sitting()
        if sid is None:
            sid = j.begin_sitting(b"after")
        j.append(b"\x2a")
    except JournalFull:
        if j.open_sitting() is not None:
            j.finish()
        for s in JournalReader(j).sittings():
            j.mark_synced(s[0])
        sid = j.begin_sitting(b"after")
        j.append(b"\x2a")
    k = Journal(flash)
    k.mount()
    assert k.open_sitting() == sid, where
    assert sitting_events(k, sid)[-1] == b"\x2a", where


def end_bytes(seconds, offset_minutes):
    # An END record as next_event returns it.
    q = (offset_minutes // 15) & 0xFF
    return bytes([seconds & 0xFF, seconds >> 8 & 0xFF, seconds >> 16 & 0xFF,
                  seconds >> 24 & 0xFF, q])


# Every cut point, or every STRIDE-th one and the last: make check's quick run sweeps a
# seventh of them (tests/kit/engine/quick.py), as does the 64-bit port's run in make test when the
# 32-bit one (the ESP32's stand-in) sweeps every one (TALLY42_CUT_STRIDE).
STRIDE = Q.setting("CUT_STRIDE", Q.scaled(1, 7))


def cut_points(total):
    """The operations after which the power is cut: 1 to total, every STRIDE-th."""
    points = list(range(1, total + 1, STRIDE))
    if points[-1] != total:
        points.append(total)
    return points
