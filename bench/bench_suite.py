# The suite's time, as the last `make check` and `make test` recorded it (tools/timed.py:
# build/timings/*.json): a bench that ran the whole suite would be too heavy for every
# `make bench`. Each figure says when it was measured, on how many cores and at what load
# average (the machine's other work). Nothing is printed for a run not recorded yet, nor
# for one that failed (its time is not the suite's).
#   suite.check_s   `make check`: lint, the CPython unit tests, the 64-bit engine and
#                   device suites (no sim): the inner loop
#   suite.test_s    `make test`: the whole suite
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "build", "timings")


def main():
    for name in ("check", "test"):
        path = os.path.join(FOLDER, name + ".json")
        if not os.path.exists(path):
            print("bench_suite: `make %s` has not been timed here yet" % name, file=sys.stderr)
            continue
        with open(path) as f:
            r = json.load(f)
        if r["exit"] != 0:
            print("bench_suite: the last `make %s` failed (exit %d): no figure"
                  % (name, r["exit"]), file=sys.stderr)
            continue
        print("suite.%s_s: %.1f s (measured %s, %d cores, load average %.1f before, "
              "%.1f after)" % (name, r["seconds"], r["when"], r["cores"], r["load_before"],
                               r["load_after"]))


if __name__ == "__main__":
    main()
