"""MicroPython's qemu port, built from source: a bare-metal MicroPython on an emulated
Cortex-M3 (MPS2-AN385, qemu-system-arm), the rung below the unix port and above a real
board. Its REPL is a UART that QEMU puts on a pseudo-terminal.

    python tools/qemu.py [--ci] [FORM...]     FORM: frozen (the default) or tests

frozen  the port (board MPS2_AN385) with an ESP32's 110 KB heap and the firmware and
        the board file boards/sim/qemu_mps2.py frozen in (boards/manifest_qemu.py):
        build/qemu/firmware.elf, the scorer's
tests   the same with a 1 MB heap: build/qemu/firmware-tests.elf, for the device test
        suites, whose fakes (a 64 KB flash, NOR images) want more room than a scorer
        has, as the unix port's default heap gives them

Builds into build/qemu/ and prints the path of each firmware. A second run rebuilds
nothing that has not changed (make's own dependencies); the tests form's first build
starts from the frozen form's objects (the heap's size is main.c's alone), so a fresh
checkout compiles the port once. The source is MICROPY_DIR when set, else the tarball in
../shared/micropython/ beside the project (unpacked once, shared with tools/mp32.py).
Without a source, arm-none-eabi-gcc with newlib, or qemu-system-arm it prints one line
saying what is missing and exits 3 (1 with --ci: CI must run it)."""
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

import mp32

ROOT = mp32.ROOT
OUT = os.path.join(ROOT, "build", "qemu")
SKIPPED = 3
BOARD = "MPS2_AN385"
HEAPS = {"frozen": 112640,    # 110 KB, an ESP32's heap without PSRAM
         "tests": 1048576}
ELF = {"frozen": "firmware.elf", "tests": "firmware-tests.elf"}
# os.urandom, as an ESP32 build has it (the firmware draws sitting ids from it): the port's
# mp_hal_get_random, an LCG that the harness stirs at each start (host_tools/sim/qemu.py).
CFLAGS = "-DMICROPY_PY_OS_URANDOM=1"
MANIFEST = os.path.join(ROOT, "boards", "manifest_qemu.py")
QEMU = "qemu-system-arm"
Missing = mp32.Missing


def check_tools():
    """Missing unless the cross compiler, its C library and QEMU are here."""
    if shutil.which("arm-none-eabi-gcc") is None:
        raise Missing("no arm-none-eabi-gcc (apt-get install gcc-arm-none-eabi "
                      "libnewlib-arm-none-eabi)")
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "t.c")
        with open(c, "w") as f:
            f.write("#include <string.h>\nint f(char *s) { return strlen(s); }\n")
        r = subprocess.run(["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m3", "-c",
                            "-o", os.path.join(tmp, "t.o"), c], capture_output=True)
        if r.returncode:
            raise Missing("arm-none-eabi-gcc has no C library (apt-get install "
                          "libnewlib-arm-none-eabi)")
    if shutil.which(QEMU) is None:
        raise Missing("no %s (apt-get install qemu-system-arm)" % QEMU)


def mpy_cross():
    """The mpy-cross of the tree the port was built from (its .mpy version)."""
    return os.path.join(mp32.source(), "mpy-cross", "build", "mpy-cross")


def _build_dir(form):
    # make does not see flags change: a build folder for each set of them
    flags = "%d %s %s" % (HEAPS[form], CFLAGS, BOARD)
    return os.path.join(OUT, "build-%08x" % (zlib.crc32(flags.encode()) & 0xFFFFFFFF))


def _seed(first, build_dir):
    """A form's first build starts from the frozen form's objects, when they are built:
    the forms differ only in the heap's size, which main.c alone reads (ports/qemu/
    main.c: gc_heap[MICROPY_HEAP_SIZE / 4]). The folder is copied with its times, its
    dependency files (.P) and generated C made to name the new folder, and main.o and
    what is linked from it removed: make then compiles main.c and links, and follows the
    sources from there as in any build folder."""
    if not os.path.exists(os.path.join(first, "firmware.elf")):
        return
    tmp = build_dir + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(first, tmp, symlinks=True)
    old, new = first.encode(), build_dir.encode()
    for folder, _, files in os.walk(tmp):
        for f in files:
            if f.endswith((".P", ".c")):
                path = os.path.join(folder, f)
                with open(path, "rb") as fh:
                    text = fh.read()
                if old in text:
                    st = os.stat(path)
                    with open(path, "wb") as fh:
                        fh.write(text.replace(old, new))
                    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    for f in ("main.o", "main.P", "firmware.elf", "firmware.bin", "firmware.map"):
        if os.path.exists(os.path.join(tmp, f)):
            os.remove(os.path.join(tmp, f))
    try:
        os.rename(tmp, build_dir)
    except OSError:         # another build seeded it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)


def build(form="frozen"):
    """The firmware of `form`, built or brought up to date; returns its path."""
    tree = mp32.source()
    check_tools()
    os.makedirs(OUT, exist_ok=True)
    log = os.path.join(OUT, "build-%s.log" % form)
    open(log, "w").close()
    make = ["make", "-s", "-j", mp32.jobs()]
    mp32.build_mpy_cross(tree, make, log, "qemu port")
    build_dir = _build_dir(form)
    if form != "frozen" and not os.path.exists(build_dir):
        _seed(_build_dir("frozen"), build_dir)
    mp32.run(make + ["-C", os.path.join(tree, "ports", "qemu"), "BOARD=" + BOARD,
                "BUILD=" + build_dir, "MICROPY_HEAP_SIZE=%d" % HEAPS[form], "CFLAGS_EXTRA=" + CFLAGS,
                "FROZEN_MANIFEST=" + MANIFEST], log, "qemu port")
    return mp32.install(os.path.join(build_dir, "firmware.elf"), os.path.join(OUT, ELF[form]))


def path(form="frozen"):
    """The firmware of `form` if it was built and QEMU is here, else None (for tests and
    benches)."""
    elf = os.path.join(OUT, ELF[form])
    return elf if os.path.exists(elf) and shutil.which(QEMU) else None


def main(argv):
    return mp32.cli(argv, "qemu", "qemu port", tuple(HEAPS), build)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
