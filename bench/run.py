# Runs every bench/bench_*.py with the interpreter it names on its first lines
# (`# runs on: micropython`; CPython otherwise) and prints their `name: value unit` lines.
#   python bench/run.py [--quick] [NAME...]
# --quick: each bench with small counts (TALLY42_BENCH_QUICK=1 in its environment), to
# show that every bench still runs (`make test`); its figures are not the measured ones.
# Exits 1 when a bench fails, or prints a line on stdout that is not a figure.
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
KIT = ("tests/kit", "tests/kit/chip", "tests/kit/engine", "tests/kit/probes", "tests/kit/web", "tools")
FIGURE = re.compile(r"[A-Za-z0-9_.+-]+: -?[0-9][0-9.]*( .*)?$")


def interpreter(path):
    with open(path) as f:
        head = f.read(400)
    return MICROPYTHON if "runs on: micropython" in head else sys.executable


def run(path, env):
    """Run one bench, its figures through to stdout; returns what went wrong, or None."""
    proc = subprocess.Popen([interpreter(os.path.join(ROOT, path)), path], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, text=True)
    bad = None
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        if not FIGURE.match(line.rstrip("\n")) and bad is None:
            bad = "printed %r, not a `name: value unit` figure" % line.rstrip("\n")
    rc = proc.wait()
    return "exit %d" % rc if rc else bad


def main(argv):
    # A bench run in the background inherits SIGINT ignored, and its benches' sims would
    # never see the Ctrl-C that stops them: each child starts with SIGINT's default.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    quick = "--quick" in argv
    only = [a for a in argv if a != "--quick"]
    env = dict(os.environ)
    # The one place the bench's import path is set: the checkout, the test kit (rigs,
    # fakes, probes, the engine's sittings) and tools/, for CPython and MicroPython.
    path = [ROOT] + [os.path.join(ROOT, p) for p in KIT]
    env["PYTHONPATH"] = os.pathsep.join(path + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["MICROPYPATH"] = ":".join([".frozen"] + path)
    if quick:
        env["TALLY42_BENCH_QUICK"] = "1"
    failed = []
    # bench/ and its folders (bench/device/: the benches that run on MicroPython).
    found = [(name, os.path.join("bench", name)) for name in os.listdir(HERE)]
    found += [(name, os.path.join("bench", d, name)) for d in os.listdir(HERE)
              if os.path.isdir(os.path.join(HERE, d)) and not d.startswith(("_", "."))
              for name in os.listdir(os.path.join(HERE, d))]
    for name, path in sorted(found):
        if not (name.startswith("bench_") and name.endswith(".py")):
            continue
        if only and name[:-3] not in only and name not in only:
            continue
        t0 = time.time()
        why = run(path, env)
        print("%s: %.1f s%s" % (path, time.time() - t0, ", failed: " + why if why else ""),
              file=sys.stderr)
        if why:
            failed.append(path)
    if failed:
        print("bench: %d failed: %s" % (len(failed), ", ".join(failed)), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
