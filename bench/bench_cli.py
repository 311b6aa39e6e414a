# The PC tool's start, installed as people install it: this checkout's wheel with [sim] in a
# virtual environment of its own (tests/kit/wheelrig.py cached_venv, the one the wheel's
# tests use), run from another folder. Prints
#   pc.cli_start_ms.version   the time from starting `tally42 --version` to its exit: the
#                             median over 20 runs (5 with TALLY42_BENCH_QUICK), after one
#                             run that warms the file cache
#   pc.cli_start_ms.replay    the same for `tally42 replay LOG` of a 4-hand log: a command
#                             that loads the engine, not the sim's or the server's modules
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from wheelrig import cached_venv  # noqa: E402

QUICK = os.environ.get("TALLY42_BENCH_QUICK") == "1"
RUNS = 5 if QUICK else 20


def median_ms(cmd, cwd, env):
    subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True)
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tally = os.path.join(cached_venv(), "tally42")
        here = os.path.join(tmp, "elsewhere")
        os.makedirs(os.path.join(here, "home"))
        env = {"HOME": os.path.join(here, "home"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        with open(os.path.join(ROOT, "tests", "logs", "spec_marks_sitting.jsonl")) as f, \
                open(os.path.join(here, "s.jsonl"), "w") as g:
            g.write(f.read())
        print("pc.cli_start_ms.version: %.0f ms" % median_ms([tally, "--version"], here, env))
        print("pc.cli_start_ms.replay: %.0f ms" % median_ms([tally, "replay", "s.jsonl"],
                                                            here, env))


if __name__ == "__main__":
    main()
