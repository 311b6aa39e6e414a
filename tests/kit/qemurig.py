# The rig of the bare-metal tests (CPython): the qemu port's firmware.elf built by
# tools/qemu.py, a ROMFS image of the project and its device tests for the port's ROMFS
# partition, and the engine and device suites run through the raw REPL, as MicroPython's
# run-tests.py runs tests on a target.
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import qemu as build  # noqa: E402  (tools/qemu.py)

from host_tools.sim import qemu as Q  # noqa: E402

# The suites' image: TALLY42_SUITE_ROM if set (the Makefile gives the bench a folder of
# its own, so that it and qemutest run at once), else beside the qemu build.
OUT = os.path.abspath(os.environ.get("TALLY42_SUITE_ROM") or os.path.join(build.OUT, "tests-rom"))
# What the suites import, compiled with the port's own mpy-cross into the image.
TREES = ("engine_core", "firmware", "boards", "tests/engine", "tests/device", "tests/kit/engine")
FILES = ("tests/kit/chip/fakes.py", "tests/kit/costclock.py",
         "tests/kit/probes/mp_ui_search.py", "tests/kit/apphelp.py",
         "tests/kit/boardrig.py", "tests/kit/journalv1.py", "tests/kit/journalrig.py",
         "tests/kit/scratch.py", "bench/bench_engine.py")
# Kept as source: mp_run.py (its functions are run without its main()), the board probe
# (tests/device/test_probe_board.py reads it as text, as tally42 deploy sends it).
SOURCES = ("tests/mp_run.py", "host_tools/deploy/board_probe.py")


def firmware(form="frozen"):
    """The firmware of `form` (tools/qemu.py), or a skip (a failure under CI) saying why
    it is not there."""
    path = build.path(form)
    if path is None:
        why = "no qemu port build (make qemu; needs gcc-arm-none-eabi, " \
              "libnewlib-arm-none-eabi, qemu-system-arm)"
        if os.environ.get("CI") == "true":
            pytest.fail(why + " under CI")
        pytest.skip(why)
    return path


def _sources():
    for tree in TREES:
        for folder, _, files in os.walk(os.path.join(ROOT, tree)):
            if "__pycache__" in folder:
                continue
            for name in sorted(files):
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(folder, name), ROOT)
    for f in FILES:
        if os.path.exists(os.path.join(ROOT, f)):
            yield f


def suite_rom():
    """The ROMFS image of the suites (made again when a source changed): .mpy files at
    their project paths, so that mp_run.py finds them from /rom as from the project."""
    from mpremote.romfs import VfsRomWriter
    rom = os.path.join(OUT, "tests.rom")
    mpy_cross = build.mpy_cross()
    files = []
    for src in _sources():
        dst = os.path.join(OUT, "mpy", src[:-3] + ".mpy")
        if not os.path.exists(dst) or os.path.getmtime(dst) < os.path.getmtime(
                os.path.join(ROOT, src)):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            r = subprocess.run([mpy_cross, "-o", dst, "-s", src, os.path.join(ROOT, src)],
                               capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
        files.append(src[:-3] + ".mpy")
    paths = [os.path.join(OUT, "mpy", f) for f in files]
    for src in SOURCES:
        files.append(src)
        paths.append(os.path.join(ROOT, src))
    listed = rom + ".list"      # what the image holds: made again when that changes
    same = os.path.exists(listed) and open(listed).read() == "\n".join(files)
    if same and os.path.exists(rom) and all(os.path.getmtime(p) <= os.path.getmtime(rom)
                                            for p in paths):
        return rom
    tree = {}
    for f in files:
        node = tree
        parts = f.split("/")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = f
    w = VfsRomWriter()

    def add(node):
        for name in sorted(node):
            if isinstance(node[name], dict):
                w.opendir(name)
                add(node[name])
                w.closedir()
            else:
                src = node[name]
                src = os.path.join(ROOT, src) if src.endswith(".py") else \
                    os.path.join(OUT, "mpy", src)
                with open(src, "rb") as fh:
                    w.mkfile(name, fh.read())
    add(tree)
    with open(rom + ".tmp", "wb") as fh:
        fh.write(w.finalise())
    os.replace(rom + ".tmp", rom)
    with open(listed, "w") as fh:
        fh.write("\n".join(files))
    return rom


# Run on the board from the raw REPL, one test module at a time after a soft reset (as
# run-tests.py does with a target): the port mounts its ROMFS partition at /rom, which
# goes first on the path (the suites import boards.sim.board, which the frozen boards package
# lacks); tests/mp_run.py's own function runs the module, its tests but those left out.
# Quick, as make check runs them (tests/kit/engine/quick.py: the sweeps shorter, a module's
# SLOW tests left out): the port has no environment to say so, the runner sets it; both
# unix ports run the suites whole.
RUN = """import sys, os, gc
os.chdir("/rom")
sys.path[:] = ["/rom"]
with open("tests/mp_run.py") as f:
    src = f.read()
run = {"__name__": "mp_run"}
exec(src[:src.rindex("main(sys.argv")], run)    # its functions, not its main()
del src
gc.collect()
run["Q"].QUICK = %r
counts = [0, 0, 0, []]
print("-- the suite --")
path = %r
name = path.rpartition("/")[2][:-3]
sys.path.insert(0, path.rpartition("/")[0])     # its folder, as _run_module puts it
mod = __import__(name)
for f in %r:
    delattr(mod, f)
run["_run_module"](path, counts)
run["_durations"](counts)
print("micropython: %%d passed, %%d failed" %% (counts[0], counts[1]))
"""
_COUNTS = re.compile(r"micropython: (\d+) passed, (\d+) failed")


def run_suite(machine, folder, leave_out=(), timeout=120, log=None, quick=True):
    """(passed, failed, output of the failures) of the test modules of folder (and its
    sub-folders, as tests/mp_run.py runs them) on the board. leave_out: "module" or
    "module.test_function" names not to run. quick: as make check runs them (RUN)."""
    passed = failed = 0
    report = []
    for d in sorted(os.listdir(os.path.join(ROOT, folder))):
        if os.path.isdir(os.path.join(ROOT, folder, d)) and d != "__pycache__":
            p, f, r = run_suite(machine, folder + "/" + d, leave_out, timeout, log, quick)
            passed += p
            failed += f
            report += [r] if r else []
    for name in sorted(os.listdir(os.path.join(ROOT, folder))):
        if not (name.startswith("test_") and name.endswith(".py")) or name[:-3] in leave_out:
            continue
        skip = [t.split(".")[1] for t in leave_out if t.split(".")[0] == name[:-3] and "." in t]
        try:
            out = machine.exec(RUN % (quick, folder + "/" + name, skip), timeout=timeout,
                               soft_reset=True)
        except Q.QemuError as e:
            out = str(e)
        out = out.split("-- the suite --", 1)[-1]
        if log is not None:
            log(name, out)
        m = _COUNTS.search(out)
        if m:
            passed += int(m.group(1))
            failed += int(m.group(2))
        else:
            failed += 1
        if not m or int(m.group(2)):
            report.append("%s/%s:\n%s" % (folder, name, out.strip()))
    return passed, failed, "\n".join(report)
