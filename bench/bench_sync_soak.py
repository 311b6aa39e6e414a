# The sync soaked in line faults (tests/kit/syncsoak.py): 1,000 finished sittings of random
# legal 42 play on a scorer (tests/kit/sync_device.py on the MicroPython unix port, a 384 KB
# journal), synced by the real `tally42 sync` again and again while, at random moments,
# the cable is cut for a while, garbage and stray Ctrl-Cs reach the scorer, replies are
# lost, a second reader on the PC's end takes bytes, and the scorer is restarted; then
# once more on a quiet line. Prints
#   sync.soak.sittings_lost   sittings the database lacks, or holds changed
#   sync.soak.duplicates      rows beyond one a sitting
#   sync.soak.unsynced        sittings the scorer still holds not synced
#   sync.soak.syncs           `tally42 sync` runs it took
#   sync.soak.faults          faults made on the line meanwhile
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import syncsoak as S  # noqa: E402

QUICK = os.environ.get("TALLY42_BENCH_QUICK") == "1"    # bench/run.py --quick
SITTINGS, BLOCKS = (30, 16) if QUICK else (1000, 96)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        lost, duplicates, syncs, left, faults, err = S.soak(tmp, SITTINGS, BLOCKS, seed=42,
                                                            rounds=200)
    if "Traceback" in err:
        sys.stderr.write(err)
        sys.exit(1)
    sys.stderr.write("faults: %r\n" % faults)
    print("sync.soak.sittings_lost: %d sittings" % lost)
    print("sync.soak.duplicates: %d sittings" % duplicates)
    print("sync.soak.unsynced: %d sittings" % left)
    print("sync.soak.syncs: %d" % syncs)
    print("sync.soak.faults: %d" % sum(faults.values()))


main()
