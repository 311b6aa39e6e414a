# The journal under damage: a 200-sitting flash image damaged one way at a time (a single
# bit flipped, a byte set to 0x00 or 0xFF, at random places among the bytes in use; a
# block erased from a random offset to its end), each read as the scorer's boot and the
# PC's `export --from-image` read it (tests/kit/journaldamage.py). Prints
#   journal.sittings_lost_per_bit_flip.max   the most sittings one flipped bit (or one
#                                             byte set to 0x00 or 0xFF) cost
#   journal.damage_unreported                damaged sittings exported, synced or changed
#                                             without a word, over every damage, the torn
#                                             blocks' included (and crashes, counted as such)
#   journal.good_hands_dropped               hands that ended wholly before a damaged
#                                             record and did not reach the PC (a sync
#                                             fetches a damaged sitting as far as it
#                                             reads), over every damage
#   journal.damage_cases                     how many damages were tried
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import journaldamage as JD  # noqa: E402

CASES = 16 if os.environ.get("TALLY42_BENCH_QUICK") == "1" else 400   # run.py --quick


def main():
    with tempfile.TemporaryDirectory() as tmp:
        data = JD.build(os.path.join(tmp, "flash.img"))
    verdicts = JD.sweep(data, CASES, seed=23)
    flips = [v for v in verdicts if "erased" not in v.damage.what]
    unreported = sum(len(v.unreported) + (1 if v.crashed else 0) for v in verdicts)
    for v in verdicts:
        if v.unreported or v.crashed or v.good_dropped or (v in flips and v.lost > 1):
            sys.stderr.write("%r\n" % v)
    print("journal.sittings_lost_per_bit_flip.max: %d sittings" % max(v.lost for v in flips))
    print("journal.damage_unreported: %d sittings" % unreported)
    print("journal.good_hands_dropped: %d hands" % sum(v.good_dropped for v in verdicts))
    print("journal.damage_cases: %d" % len(verdicts))


main()
