# The journal's record checks on MicroPython (the firmware's interpreter): the CRC-8 of a
# record, a journal written by firmware before the checks (format 1, tests/kit/journalv1.py)
# read and written on after the update, and damage that costs one sitting, is named,
# and never stops the scorer from booting. MicroPython and CPython: tests/mp_run.py.
from firmware.journal import Journal, JournalFull
from engine_core.journal.reader import JournalReader
from engine_core.journal.blocks import crc8
from boards.sim.flash import NorFlash
from quick import scaled
from journalrig import event_stream, read_all, sitting_events

import journalv1


def _crc(data):
    c = 0
    for b in data:
        c = crc8(c, b)
    return c


def test_crc8_is_smbus_crc8():
    # CRC-8/SMBUS: polynomial 0x07, initial 0: its check value, and one bit at a time.
    assert _crc(b"123456789") == 0xF4
    for data in (b"\x00", b"\x96\x01", b"\xc3\xff\x01\x00\x00\x02hi", bytes(range(40))):
        c = 0
        for b in data:
            c ^= b
            for _ in range(8):
                c = ((c << 1) ^ 0x107) if c & 0x80 else c << 1
        assert _crc(data) == c & 0xFF, data


def _old_journal(f):
    # A scorer before the update: sittings synced and not, one across blocks, one open.
    j = journalv1.Journal(f)
    j.mount()
    made = {}
    for s in range(6):
        sid = j.begin_sitting(b"old%d" % s)
        evs = [bytes([s, i & 0xFF])[: 1 + i % 2] for i in range(40 + 30 * (s == 2))]
        for e in evs:
            j.append(e)
        if s < 5:
            j.end(1000 + s, 60)
            j.finish()
            evs.append(bytes([(1000 + s) & 0xFF, (1000 + s) >> 8, 0, 0, 4]))
        if s < 2:
            j.mark_synced(sid)
        made[sid] = [b"old%d" % s] + evs
    return made


def test_a_journal_of_the_old_format_is_read_and_written_on():
    f = NorFlash(4, 256)
    made = _old_journal(f)
    j = Journal(f)
    assert j.mount() == 6           # the open sitting is still open
    r = JournalReader(j)
    listed = r.sittings()
    assert [s[0] for s in listed] == sorted(made)[-len(listed):] and r.damaged() == []
    for sid, finished, synced, length in listed:
        assert sitting_events(j, sid) == made[sid], sid
        assert read_all(j, sid, 7) == event_stream(made[sid]) and length == len(event_stream(made[sid]))
        assert finished == (sid != 6) and synced == (sid < 3)
    # Play goes on in a new block of the new format; syncing marks the old sittings.
    j.append(b"\x2a")
    made[6].append(b"\x2a")
    j.finish()
    for sid, _, _, _ in JournalReader(j).sittings():
        j.mark_synced(sid)
    k = Journal(f)
    k.mount()
    assert [(s[0], s[2]) for s in JournalReader(k).sittings()][-3:] == [
        (4, True), (5, True), (6, True)]
    assert sitting_events(k, 6) == made[6]
    # The old blocks are reclaimed like any other.
    for s in range(8):
        try:
            sid = k.begin_sitting(b"new")
        except JournalFull:
            raise AssertionError("the synced old blocks were not reclaimed")
        for i in range(30):
            k.append(bytes([i]))
        k.finish()
        k.mark_synced(sid)
    assert all(s[0] > 6 for s in JournalReader(k).sittings())


def _journal(nblocks=8):
    f = NorFlash(nblocks, 256)
    j = Journal(f)
    j.mount()
    made = {}
    for s in range(12):
        sid = j.begin_sitting(b"h%d" % s)
        evs = [bytes([s + i & 0xFF]) * (1 + i % 4) for i in range(25)]
        for e in evs:
            j.append(e)
        j.finish()
        made[sid] = [b"h%d" % s] + evs
    return f, made


def _copy(f, nblocks=8):
    g = NorFlash(nblocks, 256)
    buf = bytearray(256)
    for b in range(nblocks):
        f.readblocks(b, buf, 0)
        g.writeblocks(b, buf, 0)
    return g


def test_every_single_bit_flip_costs_one_sitting_at_most_and_is_named():
    f, made = _journal()
    buf = bytearray(1)
    flips = 0
    partial = 0
    pos = 3
    # Every seventh bit of the image; every 31st in a quick run (tests/kit/engine/quick.py).
    step = scaled(7, 31)
    while pos < 8 * 256:
        g = _copy(f)
        b, off = pos // 256, pos % 256
        g.readblocks(b, buf, off)
        if buf[0] != 0xFF or off < 40:     # bytes in use (an erased byte's flip is noise)
            g._mv[pos] ^= 1 << (pos % 8)   # the fake's memory: a bit that decayed
            j = Journal(g)
            j.mount()                       # never raises
            r = JournalReader(j)
            whole = [s[0] for s in r.sittings()]
            named = r.damaged()
            lost = [sid for sid in made if sid not in whole]
            assert len(lost) <= 1 and all(sid in named for sid in lost), (pos, lost, named)
            for sid in whole:
                assert sitting_events(j, sid) == made[sid], (pos, sid)
            # A damaged sitting lists the length of its records before the damage, and
            # reads that far: the beginning of its stream, whole items (what a sync
            # sends the PC of it).
            for sid, _, _, length, bad in r.all_sittings():
                if bad and sid in made and length:
                    got = read_all(j, sid, 13)
                    assert len(got) == length, (pos, sid, len(got), length)
                    assert event_stream(made[sid]).startswith(got), (pos, sid)
                    partial += 1
            flips += 1
        pos += step
    assert flips > 1050 // step and partial > 140 // step, (flips, partial)


def test_a_damaged_open_sitting_does_not_stop_the_boot():
    try:
        from apphelp import boot, flash, press
    except ImportError:
        return      # CPython: no framebuf, no app
    from firmware.codes import SETUP
    nor = flash()
    a = boot(nor)
    press(a, "ok", "ok", "ok", "ok")    # a sitting begun, a hand being bid
    j = a.scorer.journal
    sid = j.open_sitting()
    assert sid is not None and len(sitting_events(j, sid)) > 2
    # A bit of its last event decays: the sitting is named damaged, and the scorer
    # boots to a new setup (it is not played on with an event missing).
    end = j.records_end(j._head)
    nor._mv[j._head * 4096 + end - 2] ^= 0x10
    b = boot(nor)
    assert b.screen == SETUP and b.scorer.journal.open_sitting() is None
    assert JournalReader(b.scorer.journal).damaged() == [sid]


def test_the_sync_screen_counts_the_damaged_sittings():
    try:
        from apphelp import boot, flash, press, text
    except ImportError:
        return      # CPython: no framebuf, no app
    from firmware.codes import SYNC
    nor = flash()
    a = boot(nor)
    press(a, "ok", "ok", "ok", "ok")
    j = a.scorer.journal
    end = j.records_end(j._head)
    nor._mv[j._head * 4096 + end - 2] ^= 0x10     # the open sitting's last event decays
    b = boot(nor)
    b.go(SYNC)
    b.render()
    assert "damaged on flash: 1" in text(b) and "sittings not yet on the PC: 1" in text(b)
