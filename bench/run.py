# Runs every bench/bench_*.py with the interpreter it names on its first lines
# (`# runs on: micropython`; CPython otherwise) and prints their `name: value unit` lines.
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")


def interpreter(path):
    with open(path) as f:
        head = f.read(400)
    return MICROPYTHON if "runs on: micropython" in head else sys.executable


def main():
    failed = 0
    for name in sorted(os.listdir(HERE)):
        if not (name.startswith("bench_") and name.endswith(".py")):
            continue
        path = os.path.join("bench", name)
        sys.stdout.flush()
        rc = subprocess.call([interpreter(os.path.join(ROOT, path)), path], cwd=ROOT)
        if rc:
            print("%s: failed (exit %d)" % (path, rc), file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
