"""Run a command and record how long it took, for bench/bench_suite.py (suite.check_s,
suite.test_s): build/timings/NAME.json holds the seconds, the exit status, the load
average before and after, the cores, and when.
usage: python tools/timed.py NAME -- COMMAND...   (exits with the command's status)"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "build", "timings")


def main(argv):
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write(__doc__.split("usage: ", 1)[1])
        return 2
    name, cmd = argv[0], argv[2:]
    load_before = os.getloadavg()[0]
    t0 = time.monotonic()
    # close_fds=False: a make under it keeps the jobserver (the pipe whose fds MAKEFLAGS
    # names), else it warns and runs one job at a time
    rc = subprocess.call(cmd, close_fds=False)
    seconds = time.monotonic() - t0
    record = {"seconds": round(seconds, 1), "exit": rc, "load_before": load_before,
              "load_after": os.getloadavg()[0], "cores": os.cpu_count(),
              "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "command": " ".join(cmd)}
    os.makedirs(FOLDER, exist_ok=True)
    with open(os.path.join(FOLDER, name + ".json"), "w") as f:
        json.dump(record, f, indent=1)
    print("%s: %.1f s (load average %.1f before, %.1f after)"
          % (name, seconds, load_before, record["load_after"]), file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
