# Tests of the flash journal (firmware/journal/) and its NOR-flash emulation
# (boards/sim/flash.py): append and recover, sittings and flags, reclamation, a full journal,
# reads by offset, garbage partitions, wear, and an allocation-free append path.
import os

from firmware.journal import Journal, JournalError, JournalFull
from engine_core.journal.reader import Cursor, JournalReader
from boards.sim.flash import NorFlash, PowerCut
from randsit import RandomPlayer
import scratch
from journalrig import event_stream, read_all, sitting_events


def _lcg(seed):
    # The tests' deterministic generator (the same on MicroPython and CPython).
    return RandomPlayer(seed).rand


def _fresh(nblocks=4, bs=4096):
    f = NorFlash(nblocks, bs)
    j = Journal(f)
    j.mount()
    return f, j


def _remount(f):
    j = Journal(f)
    j.mount()
    return j


def _info(j, sid):
    for s in JournalReader(j).sittings():
        if s[0] == sid:
            return s
    return None


# NOR emulation ----------------------------------------------------------------------


def test_nor_programs_only_clear_bits_and_erase_sets_ff():
    f = NorFlash(2, 256)
    assert f.ioctl(4, 0) == 2 and f.ioctl(5, 0) == 256
    f.writeblocks(1, b"\xf0\x0f", 10)
    f.writeblocks(1, b"\x3c\xff", 10)
    buf = bytearray(3)
    f.readblocks(1, buf, 10)
    assert bytes(buf) == b"\x30\x0f\xff"
    assert f.bytes_programmed == 4 and f.programs == 2
    f.ioctl(6, 1)
    f.readblocks(1, buf, 10)
    assert bytes(buf) == b"\xff\xff\xff" and f.erases == 1
    # The basic protocol (no offset) erases first.
    f.writeblocks(0, b"\x00" * 256)
    f.writeblocks(0, b"\x55" * 256)
    f.readblocks(0, buf, 0)
    assert bytes(buf) == b"\x55\x55\x55" and f.erases == 3


def test_nor_power_cut_applies_a_prefix_then_everything_fails():
    f = NorFlash(1, 64)
    f.cut_after(2, keep=1, bits=0x0F)
    f.writeblocks(0, b"\x00\x00\x00", 0)
    try:
        f.writeblocks(0, b"\x00\x00\x00", 8)
    except PowerCut:
        pass
    else:
        assert False, "the second program should cut power"
    for op in (lambda: f.readblocks(0, bytearray(1), 0), lambda: f.ioctl(6, 0)):
        try:
            op()
        except PowerCut:
            pass
        else:
            assert False, "operations after the cut must fail"
    f.power_on()
    buf = bytearray(4)
    f.readblocks(0, buf, 8)
    assert bytes(buf) == b"\x00\xf0\xff\xff"


def test_nor_torn_erase_keeps_the_rest():
    f = NorFlash(1, 64)
    f.writeblocks(0, b"\x00" * 64, 0)
    f.cut_after(1, keep=10, bits=0x01)
    try:
        f.ioctl(6, 0)
    except PowerCut:
        pass
    f.power_on()
    buf = bytearray(12)
    f.readblocks(0, buf, 0)
    assert bytes(buf) == b"\xff" * 10 + b"\x01\x00"
    f.writeblocks(0, b"\x00" * 64, 0)
    f.cut_after(1, keep=4, bits=0x80, from_end=True)
    try:
        f.ioctl(6, 0)
    except PowerCut:
        pass
    f.power_on()
    f.readblocks(0, buf, 52)
    assert bytes(buf) == b"\x00" * 7 + b"\x80" + b"\xff" * 4


def test_nor_file_backed_keeps_contents():
    path = scratch.path("nor.bin")
    try:
        os.remove(path)
    except OSError:
        pass
    f = NorFlash(2, 256, path=path, file_offset=512)
    j = Journal(f)
    j.mount()
    sid = j.begin_sitting(b"file")
    j.append(b"\x07")
    f.close()
    g = NorFlash(2, 256, path=path, file_offset=512)
    k = _remount(g)
    assert sitting_events(k, sid) == [b"file", b"\x07"]
    g.close()
    assert os.stat(path)[6] == 512 + 512
    os.remove(path)


# Append and recover -------------------------------------------------------------------


def test_append_and_recover_open_sitting():
    f, j = _fresh()
    assert j.open_sitting() is None and JournalReader(j).sittings() == []
    sid = j.begin_sitting(b"v42 dealer=2 names")
    evs = [b"\x01", b"\x02\x03", b"\x04\x05\x06", b"\x07\x08\x09\x0a", b"\xff", b"\x00"]
    for e in evs:
        j.append(e)
    k = _remount(f)
    assert k.open_sitting() == sid
    assert sitting_events(k, sid) == [b"v42 dealer=2 names"] + evs
    k.append(b"\x11")
    assert sitting_events(_remount(f), sid)[-2:] == [b"\x00", b"\x11"]


def test_empty_header_and_cursor_reuse():
    f, j = _fresh()
    a = j.begin_sitting(b"")
    j.append(b"\x01")
    b = j.begin_sitting(b"h")
    j.append(b"\x02")
    cur = Cursor()
    buf = bytearray(8)
    r = JournalReader(j)
    r.cursor(a, cur)
    assert r.next_event(cur, buf) == 0
    assert r.next_event(cur, buf) == 1 and buf[0] == 1
    assert r.next_event(cur, buf) == -1
    assert r.next_event(cur, buf) == -1
    r.cursor(b, cur)
    assert r.next_event(cur, buf) == 1 and buf[0] == ord("h")
    assert r.next_event(cur, buf) == 1 and buf[0] == 2


def test_multiple_sittings_finish_and_sync_flags_survive():
    f, j = _fresh()
    ids = []
    for s in range(3):
        ids.append(j.begin_sitting(b"sitting %d" % s))
        for e in range(s + 2):
            j.append(bytes([s * 16 + e]))
        if s < 2:
            j.finish()
    j.mark_synced(ids[0])
    assert ids == [ids[0], ids[0] + 1, ids[0] + 2]
    k = _remount(f)
    got = JournalReader(k).sittings()
    assert [s[0] for s in got] == ids
    assert [(s[1], s[2]) for s in got] == [(True, True), (True, False), (False, False)]
    assert k.open_sitting() == ids[2]
    assert sitting_events(k, ids[1]) == [b"sitting 1", b"\x10", b"\x11", b"\x12"]
    assert [s[3] for s in got] == [len(event_stream(sitting_events(k, i))) for i in ids]


def test_begin_finishes_the_open_sitting():
    f, j = _fresh()
    a = j.begin_sitting(b"a")
    j.append(b"\x01")
    b = j.begin_sitting(b"b")
    assert _info(j, a)[1] and not _info(j, b)[1]
    k = _remount(f)
    assert _info(k, a)[1] and k.open_sitting() == b
    assert sitting_events(k, a) == [b"a", b"\x01"]


def test_refusals_are_journal_errors():
    f, j = _fresh()

    def refused(fn):
        try:
            fn()
        except JournalError:
            return True
        return False

    assert refused(lambda: j.append(b"\x01"))  # no sitting open
    assert refused(j.finish)
    sid = j.begin_sitting(b"x")
    assert refused(lambda: j.append(b""))
    assert refused(lambda: j.append(b"12345"))
    assert refused(lambda: j.mark_synced(sid))  # still open
    assert refused(lambda: j.mark_synced(sid + 7))
    assert refused(lambda: j.begin_sitting(bytes(256)))
    assert refused(lambda: JournalReader(j).cursor(sid + 1))
    j.append(b"\x01")
    assert sitting_events(j, sid) == [b"x", b"\x01"]


def test_mark_synced_twice_programs_once():
    f, j = _fresh()
    sid = j.begin_sitting(b"x")
    j.finish()
    j.mark_synced(sid)
    before = f.bytes_programmed
    j.mark_synced(sid)
    assert f.bytes_programmed == before
    assert _info(_remount(f), sid)[2]


# Reading by offset --------------------------------------------------------------------


def test_read_by_offset_matches_the_events():
    f, j = _fresh(4, 256)
    rnd = _lcg(7)
    a = j.begin_sitting(b"header of a")
    evs = [b"header of a"]
    for _ in range(150):  # about 300 bytes: the sitting spans blocks
        e = bytes(rnd(256) for _ in range(1 + rnd(4)))
        j.append(e)
        evs.append(e)
    want = event_stream(evs)
    assert _info(j, a)[3] == len(want)
    for chunk in (1, 5, 64, 1000):
        assert read_all(j, a, chunk) == want
    buf = bytearray(9)
    r = JournalReader(j)
    for off in (len(want) - 3, 0, 17, 200, len(want)):
        n = r.read(a, off, buf)
        assert bytes(buf[:n]) == want[off : off + 9]
    # An open sitting read to its end, then appended to, reads on.
    j.append(b"\x42")
    assert r.read(a, len(want), buf) == 2 and bytes(buf[:2]) == b"\x01\x42"
    assert read_all(_remount(f), a, 32) == want + b"\x01\x42"


# Space: reclamation and a full journal ------------------------------------------------


def _fill_sitting(j, n, seed):
    sid = j.begin_sitting(b"s%d" % seed)
    for i in range(n):
        j.append(bytes([(seed + i) & 0xFF]))
    j.finish()
    return sid


def test_reclaims_only_synced_sittings_oldest_first():
    f, j = _fresh(4, 256)
    made = []
    for s in range(12):
        made.append(_fill_sitting(j, 40, s))  # about 90 bytes each
        if s < 10:
            j.mark_synced(made[-1])
    ids = [s[0] for s in JournalReader(j).sittings()]
    assert len(ids) < 12 and ids == made[-len(ids) :]  # the oldest went first
    assert [s[2] for s in JournalReader(j).sittings()][-2:] == [False, False]
    k = _remount(f)
    assert JournalReader(k).sittings() == JournalReader(j).sittings()
    for s in JournalReader(k).sittings():
        assert sitting_events(k, s[0]) == [b"s%d" % (s[0] - 1)] + [bytes([s[0] - 1 + i]) for i in range(40)]


def test_full_journal_refuses_and_keeps_everything():
    f, j = _fresh(3, 256)
    a = _fill_sitting(j, 30, 0)
    b = j.begin_sitting(b"big")
    n = 0
    try:
        while True:
            j.append(bytes([n & 0xFF]))
            n += 1
    except JournalFull:
        pass
    assert 130 < n < 3 * 256 // 3
    assert j.free_bytes() < 2
    k = _remount(f)
    assert [s[0] for s in JournalReader(k).sittings()] == [a, b]
    assert len(sitting_events(k, b)) == 1 + n
    try:
        k.begin_sitting(b"next")
    except JournalFull:
        pass
    else:
        assert False, "a full journal must refuse a new sitting"
    # The refused begin changed nothing; finishing and syncing need no space, and free it.
    assert k.open_sitting() == b
    k.finish()
    k.mark_synced(a)
    k.mark_synced(b)
    assert k.free_bytes() > 400
    c = k.begin_sitting(b"next")
    k.append(b"\x01")
    assert [s[0] for s in JournalReader(_remount(f)).sittings()][-1] == c
    assert c == b + 1


def test_unsynced_oldest_sitting_blocks_reclamation():
    f, j = _fresh(3, 256)
    a = _fill_sitting(j, 60, 0)  # never synced
    for s in range(1, 10):
        try:
            sid = _fill_sitting(j, 30, s)
        except JournalFull:
            break
        j.mark_synced(sid)
    else:
        assert False, "expected JournalFull while the oldest sitting is unsynced"
    assert _info(j, a) == (a, True, False, 3 + 60 * 2)
    j.mark_synced(a)
    d = _fill_sitting(j, 30, 20)
    assert _info(j, a) is None and _info(j, d) is not None


def test_sitting_ids_never_repeat_after_reclamation():
    f, j = _fresh(2, 256)
    last = 0
    for s in range(8):
        sid = _fill_sitting(j, 60, s)
        assert sid > last
        last = sid
        j.mark_synced(sid)
    assert len(JournalReader(j).sittings()) < 8
    k = _remount(f)
    assert k.begin_sitting(b"n") == last + 1


# Torn records and garbage partitions ---------------------------------------------------


def test_torn_tail_is_dropped_and_the_next_append_survives():
    # Cut in the payload program (nothing, all, some bits), in the check value's, or in
    # the tag program.
    for op, keep, bits in ((1, 0, 0), (1, -1, 0), (1, 0, 0x0F), (2, 0, 0x0F), (2, -1, 0),
                           (3, 0, 0x81), (3, 0, 0x10)):
        f, j = _fresh(3, 256)
        sid = j.begin_sitting(b"t")
        j.append(b"\x01")
        f.cut_after(op, keep=keep, bits=bits)
        try:
            j.append(b"\x02")
        except PowerCut:
            pass
        f.power_on()
        k = _remount(f)
        got = sitting_events(k, sid)
        # A tag torn over a whole body (its check value holds): the event may land.
        landed = got[2:]
        assert got[:2] == [b"t", b"\x01"] and landed in ([], [b"\x02"]), (op, keep, bits, got)
        assert op == 3 or not landed
        k.append(b"\x03")
        k.append(b"\x04")
        assert sitting_events(_remount(f), sid) == [b"t", b"\x01"] + landed + [b"\x03", b"\x04"]


def test_garbage_partition_is_formatted():
    rnd = _lcg(3)
    f = NorFlash(4, 256)
    for b in range(4):
        f.writeblocks(b, bytes(rnd(256) for _ in range(256)), 0)
    j = Journal(f)
    assert j.mount() is None and JournalReader(j).sittings() == []
    sid = j.begin_sitting(b"g")
    j.append(b"\x05")
    assert sitting_events(_remount(f), sid) == [b"g", b"\x05"]


def test_valid_block_with_garbage_records_mounts():
    f, j = _fresh(2, 256)
    sid = j.begin_sitting(b"ok")
    j.append(b"\x01")
    pos = 40 + 6 + 2 + 1 + 3   # block header twice, BEGIN, check value, an event
    rnd = _lcg(11)
    for trial in range(20):
        g = NorFlash(2, 256)
        buf = bytearray(256)
        f.readblocks(0, buf, 0)
        g.writeblocks(0, buf, 0)
        g.writeblocks(0, bytes(rnd(256) for _ in range(256 - pos)), pos)
        k = _remount(g)
        # Garbage after the last record is damage: the sitting is named damaged (and no
        # longer played on), or the next one (a BEGIN lost), or the garbage reads as a
        # torn record.
        assert sitting_events(k, sid)[:2] == [b"ok", b"\x01"]
        r = JournalReader(k)
        assert r.damaged() in ([sid], [sid + 1]) and k.open_sitting() is None or (
            r.damaged() == [] and k.open_sitting() == sid)
        if k.open_sitting() is None:
            k.begin_sitting(b"next")
        k.append(b"\x09")  # the next append goes to a fresh block
        assert sitting_events(_remount(g), k.open_sitting())[-1] == b"\x09"


# Wear and allocation -------------------------------------------------------------------


def test_wear_three_bytes_per_one_byte_event_one_erase_per_block():
    f, j = _fresh(2, 4096)
    j.begin_sitting(b"")
    start = f.bytes_programmed
    for i in range(1000):
        j.append(b"\x01")
    assert f.bytes_programmed - start == 3 * 1000     # tag, event, check value
    j.finish()
    j.mark_synced(1)
    events = 1000
    for s in range(12):  # about 24 KB over two blocks: they must be reused
        j.begin_sitting(b"")
        for i in range(1000):
            j.append(b"\x01")
        j.finish()
        j.mark_synced(JournalReader(j).sittings()[-1][0])
        events += 1000
    # Per sitting: a 7-byte BEGIN, a flag byte twice; per block a 40-byte header (and
    # 8 bytes of its magics cleared before it is erased again).
    assert 3 * events < f.bytes_programmed < 3.05 * events
    # Both blocks came erased; every later block switch reclaims one with one erase.
    assert 4 <= f.erases <= f.bytes_programmed // 4096


def test_append_allocates_nothing():
    try:
        import micropython
    except ImportError:
        return  # CPython: nothing to measure
    f, j = _fresh(2, 4096)
    j.begin_sitting(b"h")
    ev1 = b"\x01"
    ev3 = b"\x01\x02\x03"
    j.append(ev1)
    micropython.heap_lock()
    try:
        for _ in range(50):
            j.append(ev1)
            j.append(ev3)
    finally:
        micropython.heap_unlock()
    assert len(sitting_events(j, 1)) == 1 + 1 + 100


def test_an_append_that_takes_a_new_block_allocates_nothing_full_journal_or_not():
    # Every few KB an event takes a new block (erased, its header and CRC-32 written),
    # and on a full journal reclaims the tail (its header read first): still the event
    # path, and on a 32-bit port a CRC-32 of 2**30 or more is a heap object.
    try:
        import micropython
    except ImportError:
        return  # CPython: nothing to measure
    for full in (False, True):
        f, j = _fresh(3, 1024)
        sid = j.begin_sitting(b"h" * 20)
        if full:
            while j.free_bytes() > 5:
                j.append(b"\x01\x02\x03")
            j.finish()
            j.mark_synced(sid)
            sid = j.begin_sitting(b"h" * 20)
        erases = f.erases
        head = j._head
        n = 0
        micropython.heap_lock()
        try:
            while j._head == head:
                j.append(b"\x01\x02\x03")
                n += 1
            j.append(b"\x07")
        finally:
            micropython.heap_unlock()
        assert f.erases == erases + (1 if full else 0), (full, f.erases - erases)
        got = sitting_events(j, sid)
        assert len(got) == 1 + n + 1 and got[-1] == b"\x07", (full, len(got), n)
        k = Journal(f)      # the new block's header reads back
        assert k.mount() == sid and sitting_events(k, sid) == got


# ---- END records: when a sitting ended, on the scorer's clock ----

def _end_item(seconds, offset_minutes):
    q = (offset_minutes // 15) & 0xFF
    return bytes([seconds & 0xFF, seconds >> 8 & 0xFF, seconds >> 16 & 0xFF,
                  seconds >> 24 & 0xFF, q])


def test_end_record_is_a_five_byte_item_that_survives_a_reboot():
    f, j = _fresh(2, 256)
    sid = j.begin_sitting(b"hdr")
    j.append(b"\x1e")
    assert not j._ended
    assert j.end(70000000, -360) is True
    assert j._ended
    assert sitting_events(j, sid) == [b"hdr", b"\x1e", _end_item(70000000, -360)]
    assert JournalReader(j).sittings()[0][3] == len(event_stream(sitting_events(j, sid)))
    assert read_all(j, sid, 3) == event_stream(sitting_events(j, sid))
    k = Journal(f)
    assert k.mount() == sid
    assert k._ended
    # A second end while the last record is an END changes nothing: the first stands.
    assert k.end(70000999, 0) is False
    assert sitting_events(k, sid)[-1] == _end_item(70000000, -360)
    k.finish()
    assert sitting_events(k, sid) == [b"hdr", b"\x1e", _end_item(70000000, -360)]


def test_an_event_after_an_end_reopens_it_and_the_next_end_is_written():
    f, j = _fresh(2, 256)
    sid = j.begin_sitting(b"hdr")
    j.append(b"\x01")
    j.end(100, 60)
    j.append(b"\xfe")           # undo after game over: play goes on
    assert not j._ended
    k = Journal(f)
    k.mount()
    assert not k._ended
    assert k.end(200, 60) is True
    assert sitting_events(k, sid) == [b"hdr", b"\x01", _end_item(100, 60), b"\xfe",
                               _end_item(200, 60)]


def test_end_crosses_blocks_and_needs_an_open_sitting():
    f, j = _fresh(3, 64)
    assert j.end(1, 0) is False     # no sitting open: nothing to end
    sid = j.begin_sitting(b"h" * 10)
    for i in range(12):             # past the first 64-byte block
        j.append(bytes([i]))
    j.end(0x01020304, -90)
    evs = sitting_events(j, sid)
    assert evs[-1] == _end_item(0x01020304, -90)
    assert len(evs) == 1 + 12 + 1
    k = Journal(f)
    assert k.mount() == sid and k._ended
    assert JournalReader(k).sittings()[0][3] == len(event_stream(evs))


def test_end_allocates_nothing():
    try:
        import micropython
    except ImportError:
        return  # CPython: nothing to measure
    f, j = _fresh(2, 4096)
    j.begin_sitting(b"h")
    j.append(b"\x01")
    micropython.heap_lock()
    try:
        for i in range(20):
            j.append(b"\x01")
            j.end(123456 + i, 60)
    finally:
        micropython.heap_unlock()
    assert sitting_events(j, 1)[-1] == _end_item(123456 + 19, 60)


def test_end_on_a_full_journal_writes_nothing_and_says_so():
    f, j = _fresh(2, 64)
    sid = j.begin_sitting(b"h" * 10)
    n = 0
    while True:
        try:
            j.append(b"\x01\x02\x03\x04")
        except JournalFull:
            break
        n += 1
    before = sitting_events(j, sid)
    assert j.end(5, 0) is False
    assert sitting_events(j, sid) == before and len(before) == 1 + n
