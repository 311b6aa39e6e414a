# The journal at its fullest, and the heap a scorer has left then. Prints
#   journal.sittings_capacity               sittings of 20 hands of 42 (a bid, three
#                                           passes, trump, points; names in the header)
#                                           that fit the 64 KB partition before it is full
#   firmware.heap_free_min_bytes.full_journal_sync.FORM   the lowest free heap (after a
#                                           collection, at each poll) while the scorer
#                                           serves `tally42 sync` of a new sitting, its
#                                           journal full of synced sittings (a few hundred:
#                                           tests/kit/fulljournal.py); also .boot, .hand and
#                                           .history for the steps before. FORM: stock_32
#                                           (the 32-bit build, .mpy files in RAM, 110K),
#                                           romfs_64 (the sim as it runs)
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import fulljournal as F  # noqa: E402
from heapprobe import full_journal_sync  # noqa: E402
import mp32  # noqa: E402
from engine_core import codec  # noqa: E402
from engine_core.header import encode_header  # noqa: E402
from engine_core import codes as C  # noqa: E402
from engine_core.codes import MAX_EVENT_BYTES  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402
from engine_core.texas42.sitting import Sitting  # noqa: E402
from firmware.journal import Journal, JournalFull  # noqa: E402
from boards.sim.flash import NorFlash  # noqa: E402

HANDS = 20


def capacity():
    j = Journal(NorFlash(F.BLOCKS, 4096))
    j.mount()
    rules = O.resolve("42", {"scoring": "points", "target": 9999})
    s = Sitting(rules)
    ebuf = bytearray(MAX_EVENT_BYTES)
    n = 0
    try:
        while True:
            s.restart(n % 4)
            j.begin_sitting(encode_header(rules, n % 4, F.NAMES, 123456789, 1000, 0))
            k = 0
            while s.hands() < HANDS:
                k += 1
                evs = ([C.event(C.EV_BID, 30 + k % 12)] + [C.event(C.EV_BID, C.PASS)] * 3
                       + [C.event(C.EV_TRUMP, k % 7), C.event(C.EV_POINTS, 20 + k % 22)])
                for ev in evs:
                    assert not s.apply(ev)
                    j.append(ebuf[:codec.encode_into(ev, ebuf, 0)])
            j.finish()
            n += 1
    except JournalFull:
        return n


def main():
    print("journal.sittings_capacity: %d sittings (%d hands each, 64 KB)"
          % (capacity(), HANDS))
    forms = [("romfs_64", None, "romfs")]
    if mp32.path("stock"):
        forms.insert(0, ("stock_32", mp32.path("stock"), "files"))
    else:
        print("bench_journal_full: no 32-bit MicroPython (make mp32)", file=sys.stderr)
    if os.environ.get("TALLY42_BENCH_QUICK") == "1":
        # bench/run.py --quick: the 64-bit port's form (tests/e2e/test_heap_budget.py: stock_32).
        forms = forms[-1:]
    for suffix, mp, form in forms:
        lows, held = full_journal_sync(mp, form)
        print("firmware.heap_free_min_bytes.full_journal_sync.%s: %d bytes (%d sittings "
              "on flash)" % (suffix, lows["sync"], held))
        for step in ("boot", "hand", "history"):
            print("firmware.heap_free_min_bytes.full_journal_sync.%s.%s: %d bytes"
                  % (suffix, step, lows[step]))


if __name__ == "__main__":
    main()
