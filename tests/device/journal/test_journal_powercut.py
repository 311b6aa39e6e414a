# Power-cut tests of the flash journal: whole sittings driven through the journal on a NOR
# flash that cuts power after operation k, for every k, with the cut operation applied
# whole, not at all, or in part; then a reboot must recover every acknowledged event and
# flag, nothing else but the operation in flight, and take new events.
from firmware.journal import Journal
from engine_core.journal.reader import JournalReader
from boards.sim.flash import NorFlash, PowerCut
from randsit import RandomPlayer
from journalrig import (CUT_FORMS, Model, append_again, check_model, cut_points, drive,
                        new_image)

_WRAP_VARIANTS = CUT_FORMS[:3] + ((200, 0x11, True),)


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


def _every_cut(steps, nblocks, bs, variants):
    model = Model()
    whole = NorFlash(nblocks, bs)
    drive(whole, steps, model)
    total = whole.ops
    cuts = 0
    points = cut_points(total)
    for k in points:
        seen = []
        for keep, bits, from_end in variants:
            flash = NorFlash(nblocks, bs)
            flash.cut_after(k, keep, bits, from_end)
            model = Model()
            try:
                drive(flash, steps, model)
            except PowerCut:
                pass
            else:
                assert False, "op %d of %d did not cut power" % (k, total)
            flash.power_on()
            cuts += 1
            if not new_image(seen, flash):
                continue
            where = "cut after op %d (keep %d, bits %02x)" % (k, keep, bits)
            j = Journal(flash)
            j.mount()
            check_model(j, model, where)
            append_again(flash, j, where)
    return total, cuts, whole


def test_scenario_sizes():
    # The scenarios do what their comments claim, so that the cut tests cover it.
    steps = _scenario_wraparound()
    model = Model()
    flash = NorFlash(3, 256)
    j = drive(flash, steps, model)
    assert model.refused > 0  # the journal was full for a while
    assert flash.erases >= 2  # blocks were reclaimed, the ring wrapped
    assert JournalReader(j).sittings()[0][0] > 1  # the oldest synced sittings went
    ends = [e for sitting in model.sittings for e in sitting[2] if len(e) == 5]
    assert len(ends) >= 2  # END records were written (and not when ended already)
    one = _scenario_one_sitting()
    model = Model()
    drive(NorFlash(4, 4096), one, model)
    assert [len(e) for e in model.sittings[0][2][-3:]] == [5, 1, 5]
    assert 12 * 6 < sum(1 for s in one if s[0] == "ev") < 12 * 12 + 3 * 12


def test_power_cut_at_every_point_of_a_sitting():
    total, cuts, whole = _every_cut(_scenario_one_sitting(), 4, 4096, CUT_FORMS)
    assert total > 200 and cuts == len(cut_points(total)) * len(CUT_FORMS)


def test_power_cut_at_every_point_with_wraparound_and_full_journal():
    total, cuts, whole = _every_cut(_scenario_wraparound(), 3, 256, _WRAP_VARIANTS)
    assert total > 500 and cuts == len(cut_points(total)) * len(_WRAP_VARIANTS)
