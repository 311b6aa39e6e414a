# Power-cut tests of the flash journal: whole sittings driven through the journal on a NOR
# flash that cuts power after operation k, for every k, with the cut operation applied
# whole, not at all, or in part; then a reboot must recover every acknowledged event and
# flag, nothing else but the operation in flight, and take new events.
from firmware.journal import Journal, JournalFull
from engine_core.journal.reader import JournalReader
from boards.sim.flash import NorFlash, PowerCut
from randsit import RandomPlayer
from test_journal import _events, _read_all, _stream

# (keep, bits, from_end) for the cut operation: whole; nothing; some bits of its first
# byte; the first byte and some bits of the second; the first 9 bytes (a block header,
# half-made); an erase that reached only the end of the block (its header survives).
_VARIANTS = ((-1, 0, False), (0, 0, False), (0, 0x3C, False), (1, 0xC3, False), (9, 0x0F, False))
_WRAP_VARIANTS = _VARIANTS[:3] + ((200, 0x11, True),)


def _lcg(seed):
    # The tests' deterministic generator (the same on MicroPython and CPython).
    return RandomPlayer(seed).rand


def _hand(rnd, steps):
    # A Texas 42 hand as the engine would journal it: four bids (one byte each, an
    # occasional undo and re-bid), the trump call, then the result, sometimes with the
    # points made (2 to 4 bytes).
    for _ in range(4):
        steps.append(("ev", bytes([rnd(256)])))
        if rnd(10) == 0:
            steps.append(("ev", b"\xfe"))  # undo is an event like any other
            steps.append(("ev", bytes([rnd(256)])))
    steps.append(("ev", bytes([rnd(256)])))
    n = 1 + rnd(4)
    steps.append(("ev", bytes(rnd(256) for _ in range(n))))
    if rnd(3) == 0:
        steps.append(("ev", bytes([0xFF])))


def _header(rnd, n):
    return bytes(rnd(256) for _ in range(n))


def _scenario_one_sitting():
    # A realistic evening on a real 4 KB-block partition: a 12-hand sitting, finished and
    # synced, and the next sitting three hands in.
    rnd = _lcg(42)
    steps = [("begin", _header(rnd, 48))]
    for _ in range(12):
        _hand(rnd, steps)
    # The game ends (an END record), an undo reopens it, it ends again; a second end
    # while ended writes nothing.
    steps += [("end", 5000000, -360), ("ev", b"\xfe"), ("end", 5000600, -360),
              ("end", 5000700, -360)]
    steps += [("finish",), ("sync", 0), ("begin", _header(rnd, 40))]
    for _ in range(3):
        _hand(rnd, steps)
    return steps


def _scenario_wraparound():
    # Small 256-byte blocks, so the same few sittings cross blocks, wrap the ring,
    # reclaim synced sittings, and hit a full journal: sitting 1 stays unsynced for a
    # while, sitting 4 grows until the journal is full, is finished and synced, and
    # sitting 5 reclaims the space.
    rnd = _lcg(7)
    steps = []
    for s, hands in enumerate((3, 3, 4, 3)):
        steps.append(("begin", _header(rnd, 12 + 4 * s)))
        for _ in range(hands):
            _hand(rnd, steps)
        if s % 2 == 0:
            steps.append(("end", 1000 * s + 7, 120))
        steps.append(("finish",))
        if s != 1:
            steps.append(("sync", s))
        if s == 2:
            steps.append(("sync", 1))
    steps.append(("begin", _header(rnd, 20)))
    for i in range(360):
        steps.append(("ev", bytes([i & 0xFF])))
    steps += [("finish",), ("sync", 4), ("begin", _header(rnd, 30))]
    for _ in range(2):
        _hand(rnd, steps)
    return steps


def _end_bytes(seconds, offset_minutes):
    # An END record as next_event returns it.
    q = (offset_minutes // 15) & 0xFF
    return bytes([seconds & 0xFF, seconds >> 8 & 0xFF, seconds >> 16 & 0xFF,
                  seconds >> 24 & 0xFF, q])


class _Model:
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


def _drive(flash, steps, model):
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
                    model.sittings[-1][2].append(_end_bytes(step[1], step[2]))
        elif op == "finish":
            j.finish()
            model.sittings[-1][3] = True
        else:
            j.mark_synced(model.sittings[step[1]][0])
            model.sittings[step[1]][4] = True
    model.inflight = None
    return j


def _check(j, model, where):
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
        evs = _events(j, sid)
        assert evs[0] == header, where
        if op == "ev" and s is last and len(evs) == len(events) + 2:
            assert evs[-1] == fl[1], where  # the event in flight made it
            evs.pop()
        if op == "end" and s is last and len(evs) == len(events) + 2:
            assert evs[-1] == _end_bytes(fl[1], fl[2]), where  # the END in flight made it
            evs.pop()
        assert evs[1:] == events, "%s: sitting %d events differ" % (where, sid)
        may_finish = s is last and op in ("begin", "finish")
        assert info[1] == finished or (may_finish and info[1]), where
        may_sync = op == "sync" and model.sittings[fl[1]] is s
        assert info[2] == synced or (may_sync and info[2]), where
        assert info[3] == len(_stream(_events(j, sid))), where
    for info in got:
        if model.by_id(info[0]) is None:
            # Only the sitting being begun when power went may appear, empty and open.
            assert op == "begin" and info[0] == ids[-1], "%s: extra sitting" % where
            assert _events(j, info[0]) == [fl[1]] and not info[1], where
    op_sid = j.open_sitting()
    if last is not None and not last[3]:
        assert op_sid == last[0] or op in ("begin", "finish"), where
    elif op != "begin":
        assert op_sid is None, where
    if op_sid is not None:
        assert _read_all(j, op_sid, 40) == _stream(_events(j, op_sid)), where


def _append_again(flash, j, where):
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
    assert _events(k, sid)[-1] == b"\x2a", where


def _every_cut(steps, nblocks, bs, variants):
    model = _Model()
    whole = NorFlash(nblocks, bs)
    _drive(whole, steps, model)
    total = whole.ops
    cuts = 0
    for k in range(1, total + 1):
        for keep, bits, from_end in variants:
            flash = NorFlash(nblocks, bs)
            flash.cut_after(k, keep, bits, from_end)
            model = _Model()
            try:
                _drive(flash, steps, model)
            except PowerCut:
                pass
            else:
                assert False, "op %d of %d did not cut power" % (k, total)
            flash.power_on()
            where = "cut after op %d (keep %d, bits %02x)" % (k, keep, bits)
            j = Journal(flash)
            j.mount()
            _check(j, model, where)
            _append_again(flash, j, where)
            cuts += 1
    return total, cuts, whole


def test_scenario_sizes():
    # The scenarios do what their comments claim, so that the cut tests cover it.
    steps = _scenario_wraparound()
    model = _Model()
    flash = NorFlash(3, 256)
    j = _drive(flash, steps, model)
    assert model.refused > 0  # the journal was full for a while
    assert flash.erases >= 2  # blocks were reclaimed, the ring wrapped
    assert JournalReader(j).sittings()[0][0] > 1  # the oldest synced sittings went
    ends = [e for sitting in model.sittings for e in sitting[2] if len(e) == 5]
    assert len(ends) >= 2  # END records were written (and not when ended already)
    one = _scenario_one_sitting()
    model = _Model()
    _drive(NorFlash(4, 4096), one, model)
    assert [len(e) for e in model.sittings[0][2][-3:]] == [5, 1, 5]
    assert 12 * 6 < sum(1 for s in one if s[0] == "ev") < 12 * 12 + 3 * 12


def test_power_cut_at_every_point_of_a_sitting():
    total, cuts, whole = _every_cut(_scenario_one_sitting(), 4, 4096, _VARIANTS)
    assert total > 200 and cuts == total * len(_VARIANTS)


def test_power_cut_at_every_point_with_wraparound_and_full_journal():
    total, cuts, whole = _every_cut(_scenario_wraparound(), 3, 256, _WRAP_VARIANTS)
    assert total > 500 and cuts == total * len(_WRAP_VARIANTS)
