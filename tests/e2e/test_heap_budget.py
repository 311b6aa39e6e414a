"""The device's heap budget, measured: a 50-hand sitting booted on the sim board on the
32-bit MicroPython builds (tools/mp32.py: the ESP32's object sizes) with the ESP32's
110K heap, by the probes whose figures `make bench` prints (bench/heapprobe.py,
bench/bench_journal_full.py). KB is 1000 bytes.

    frozen_32 (firmware frozen into the program)   at most 24 KB in use after boot
    romfs_32 (the modules in a ROMFS image)        at most 40 KB
    stock_32 (.mpy files loaded into RAM)          at most 64 KB
    a full-journal sync, stock_32                  at least 20 KB free throughout
    the DIY board's file (boards/esp32_epd29.py on the fake chip, boards/sim/chip/), frozen_32
                                                   at least 80 KB free after boot

Skipped where the 32-bit build is missing, a failure under CI (as the 32-bit suite)."""
import os

import pytest

# Needs the 32-bit builds (make mp32): make test runs it after the builds (pytest-builds).
pytestmark = pytest.mark.builds

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import heapprobe
import mp32  # noqa: E402

KB = 1000
STOCK, FROZEN = mp32.path("stock"), mp32.path("frozen")
# In use after boot: figure name, interpreter, form (host_tools/build/sim.py FORMS), budget.
IN_USE = (("frozen_32", FROZEN, "frozen", 24 * KB),
          ("romfs_32", STOCK, "romfs", 40 * KB),
          ("stock_32", STOCK, "files", 64 * KB))
SYNC_FREE = 20 * KB
BOARD_FREE = 80 * KB


@pytest.fixture(autouse=True)
def _builds_32():
    if STOCK is None or FROZEN is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no 32-bit MicroPython under CI: `make mp32` did not build it")
        pytest.skip("no 32-bit MicroPython (make mp32)")


@pytest.fixture(scope="module")
def booted(tmp_path_factory):
    """The heap figures of each form, booted on one 50-hand sitting."""
    if STOCK is None or FROZEN is None:
        return None
    out = heapprobe.prepare()
    flash = str(tmp_path_factory.mktemp("heap") / "flash.bin")
    heapprobe.sitting(out, flash)
    return {name: heapprobe.heap(out, flash, form, mp, steps=False)
            for name, mp, form, _ in IN_USE}


@pytest.mark.parametrize("name,budget", [(n, b) for n, _, _, b in IN_USE])
def test_the_heap_in_use_after_boot_is_within_its_budget(booted, name, budget):
    mem = booted[name]
    assert int(mem["hands"]) == heapprobe.HANDS
    used = int(mem["heap_after_boot"])
    assert used <= budget, "firmware.heap_after_boot_bytes.%s: %d bytes, budget %d" % (
        name, used, budget)


def test_the_diy_board_frozen_leaves_its_free_heap(booted):
    board = booted["frozen_32"]["board"]
    assert int(board["hands"]) == heapprobe.HANDS
    # The fake machine and esp32 modules (the fake chip, boards/sim/chip/) are .mpy code in this
    # heap; on the chip they are C in flash: what they hold is free on the board.
    free = int(board["heap_free"]) + int(board["fakes"])
    assert free >= BOARD_FREE, (
        "firmware.heap_free_after_boot_bytes.frozen_32.esp32_epd29: %d bytes, at least %d"
        % (free, BOARD_FREE))


def test_a_full_journal_sync_on_stock_keeps_its_free_heap():
    lows, held = heapprobe.full_journal_sync(STOCK, "files")
    assert held >= 200
    assert lows["sync"] >= SYNC_FREE, (
        "firmware.heap_free_min_bytes.full_journal_sync.stock_32: %d bytes, at least %d"
        % (lows["sync"], SYNC_FREE))
