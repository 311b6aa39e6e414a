# Test runner for the MicroPython unix port: runs the plain `test_*` functions of test
# modules (the same ones pytest collects on CPython) and prints `N passed, N failed`.
# Usage: micropython tests/mp_run.py DIR_OR_MODULE.py ...   (run from the project root)
import os
import sys

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # a port with no clock: no durations
    ticks_ms = None

# The import path: the checkout and the test kit (as tests/conftest.py sets it for pytest).
for _p in ("tests/kit/probes", "tests/kit/engine", "tests/kit/chip", "tests/kit", "."):
    sys.path.insert(0, _p)

import quick as Q  # noqa: E402


def _modules(arg):
    """The test modules of a file or a folder, its sub-folders' too (tests/device/journal)."""
    if arg.endswith(".py"):
        return [arg]
    arg = arg.rstrip("/")
    out = []
    for n in sorted(os.listdir(arg)):
        if n.startswith("test_") and n.endswith(".py"):
            out.append(arg + "/" + n)
    for n in sorted(os.listdir(arg)):
        if "." not in n and n != "__pycache__" and os.stat(arg + "/" + n)[0] & 0x4000:
            out += _modules(arg + "/" + n)
    return out


def _run_module(path, counts):
    d, _, f = path.rpartition("/")
    if d and d not in sys.path:
        sys.path.insert(0, d)
    name = f[:-3]
    try:
        mod = __import__(name)
    except Exception as e:
        print("ERROR importing", path)
        sys.print_exception(e)
        counts[1] += 1
        return
    # make check's quick run leaves a module's SLOW tests to make test (tests/kit/engine/quick.py).
    slow = getattr(mod, "SLOW", ()) if Q.QUICK else ()
    for attr in sorted(dir(mod)):
        if not attr.startswith("test_"):
            continue
        if attr in slow:
            counts[2] += 1
            continue
        fn = getattr(mod, attr)
        if not callable(fn):
            continue
        t0 = ticks_ms() if ticks_ms else 0
        try:
            fn()
        except Exception as e:
            counts[1] += 1
            print("FAIL", path, attr)
            sys.print_exception(e)
        else:
            counts[0] += 1
        if ticks_ms:
            _note(counts[3], ticks_diff(ticks_ms(), t0), f[:-3] + "." + attr)
    # The module's code and what its tests left out of the heap before the next: on the
    # 32-bit build's 1 MB heap, what stays scattered would split the room a later
    # suite's large buffers want in one piece.
    mod = fn = None
    sys.modules.pop(name, None)
    import gc
    gc.collect()


SLOWEST = 5


def _note(slowest, ms, name):
    """Keep the SLOWEST tests' durations, as pytest's --durations names them."""
    slowest.append((ms, name))
    slowest.sort()
    if len(slowest) > SLOWEST:
        slowest.pop(0)


def _durations(counts):
    """Print the slowest tests of a run, the slowest first."""
    for ms, name in reversed(counts[3]):
        print("%7.2fs %s" % (ms / 1000, name))


def main(args):
    counts = [0, 0, 0, []]
    for arg in args:
        for path in _modules(arg):
            _run_module(path, counts)
    left = ", %d left to make test" % counts[2] if counts[2] else ""
    _durations(counts)
    print("micropython: %d passed, %d failed%s" % (counts[0], counts[1], left))
    if counts[1] or not counts[0]:
        if not counts[0]:
            print("no test ran")
        sys.exit(1)


main(sys.argv[1:])
