"""A scorer with a full journal, on the 32-bit MicroPython as a stock flash runs it (the
.mpy files loaded into RAM, 110K of heap): a few hundred synced sittings on flash, then
boot, a whole hand, the history and a sync of the new sitting all work; and a sync on a
heap already tight fails cleanly, with the scorer still scoring."""
import os
import sqlite3

import pytest

import fulljournal as F

import mp32  # noqa: E402

# Needs the 32-bit build (make mp32): make test runs it after the builds (pytest-builds).
pytestmark = pytest.mark.builds

STOCK = mp32.path("stock")


@pytest.fixture(autouse=True)
def _stock_32():
    # `make test` builds the 32-bit port before pytest runs; without it these are
    # skipped, except under CI, where the 32-bit suite must run.
    if STOCK is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no 32-bit MicroPython under CI: `make mp32` did not build it")
        pytest.skip("no 32-bit MicroPython (make mp32)")


def test_a_full_journal_boots_plays_a_hand_and_syncs_on_a_stock_32_bit_heap(tmp_path):
    run = F.Run(tmp_path, STOCK, "files")
    assert run.held >= 200          # a few hundred sittings, and the oldest reclaimed
    (rc, out), (drc, dout) = run.sync()
    assert drc == 0, dout
    assert rc == 0, out
    assert "stored sitting %s-" % F.DEVICE_ID in out and "1 new, 0 updated" in out, out
    assert "status done, 1 sent to the PC" in dout
    lows = F.Run.lows(dout)
    assert set(lows) == {"boot", "hand", "history", "sync", "after"}, dout
    with sqlite3.connect(run.db) as db:
        rows = db.execute("select count(*) from sittings").fetchone()[0]
    assert rows == 1


@pytest.mark.parametrize("hog", [4000, 12000])
def test_a_sync_on_a_tight_heap_fails_cleanly_and_the_scorer_goes_on(tmp_path, hog):
    # All but `hog` bytes of the heap held before the PC speaks: the endpoint cannot
    # load. With 12 KB left the score screen may not load either after the failure, and
    # with 4 KB neither can the line's reader: each is handled (firmware/link.py
    # Link.poll, _failed), the score is drawn once the heap is given back.
    run = F.Run(tmp_path, STOCK, "files", hog=hog)
    (rc, out), (drc, dout) = run.sync()
    assert drc == 0, dout           # no crash: the device went on
    assert rc == 2 and out.startswith("tally42: "), out
    assert "status failed: not enough memory" in dout
    assert "banner sync failed: not enough memory" in dout
    if hog < 8000:
        assert "drawn 0" in dout        # no room for the score: it waited, no crash
    assert "after" in F.Run.lows(dout)      # the score drawn again after the failure
