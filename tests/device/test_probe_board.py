# host_tools/deploy/board_probe.py, the script tally42 deploy runs on the board, run here on the
# unix port over fake partitions (a journal on a RAM NOR flash). MicroPython only.
from firmware.journal import Journal
from engine_core.journal.reader import JournalReader
from boards.sim.flash import NorFlash


class _Part(NorFlash):
    def __init__(self, ptype, subtype, addr, size, label):
        NorFlash.__init__(self, size // 4096, 4096)
        self._info = (ptype, subtype, addr, size, label, False)

    def info(self):
        return self._info


def _probe(parts):
    from boards.sim.chip import install
    undo = install(parts)[2]        # the fake chip's esp32 finds these partitions
    lines = []
    try:
        with open("host_tools/deploy/board_probe.py") as f:
            code = f.read()
        exec(code, {"__name__": "probe", "print": lambda *a: lines.append(a)})
    finally:
        undo()
    assert len(lines) == 1 and lines[0][0] == "TALLY42-PROBE"
    return eval(lines[0][1])


def test_the_probe_counts_unsynced_sittings_and_lists_partitions():
    journal = _Part(1, 0x40, 0x3F0000, 0x10000, "journal")
    j = Journal(journal)
    j.mount()
    j.begin_sitting(b"\x00\x00")
    j.begin_sitting(b"\x00\x00")    # the first finished, the second open
    j.finish()
    j.mark_synced(JournalReader(j).sittings()[0][0])
    r = _probe([_Part(0, 0, 0x10000, 0x1000, "factory"), journal])
    assert r["unsynced"] == 1
    assert (1, 0x40, 0x3F0000, 0x10000, "journal") in r["parts"]
    assert r["version"] >= (1, 23, 0), r["version"]
    assert r["orphans"] == 0
    assert "firmware/app.py" in r["files"], r["files"][:3]
    assert not r["frozen"]


def test_the_probe_finds_journal_blocks_under_a_stock_table():
    old = NorFlash(16, 4096)
    j = Journal(old)
    j.mount()
    j.begin_sitting(b"\x00\x00")
    # The end of a stock table's file system, the old journal's blocks in it.
    vfs = _Part(1, 0x81, 0x3F0000, 0x10000, "vfs")
    buf = bytearray(4096)
    for b in range(16):
        old.readblocks(b, buf, 0)
        vfs.writeblocks(b, buf, 0)
    r = _probe([vfs])
    assert r["unsynced"] is None and r["orphans"] >= 1
