"""The 32-bit MicroPython unix port, built from source: the closest stand-in for the
ESP32 on a PC (32-bit objects, 31-bit small ints, modules frozen out of the heap).

    python tools/mp32.py [--ci] FORM...     FORM: stock or frozen

stock   like a plain MicroPython flash: modules are imported from the file system
        (the sim's ROMFS image mounts on it too: the standard variant has VfsRom)
frozen  the firmware frozen in by boards/manifest_sim.py, as a custom device build

Builds into build/mp32/ and prints the path of each program. A second run rebuilds
nothing that has not changed (make's own dependencies; the frozen form follows the
firmware's sources). The source is MICROPY_DIR when set, else the tarball in
../shared/micropython/ beside the project. Without a source or a 32-bit compiler it
prints one line saying what is missing and exits 3 (1 with --ci: CI must run it)."""
import contextlib
import fcntl
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "mp32")
SKIPPED = 3
MAKE_FLAGS = ["CFLAGS_EXTRA=-m32", "LDFLAGS_EXTRA=-m32",
              "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0", "MICROPY_PY_FFI=0"]
MANIFESTS = {"stock": os.path.join(ROOT, "boards", "manifest_none.py"),
             "frozen": os.path.join(ROOT, "boards", "manifest_sim.py")}


class Missing(Exception):
    """Something the build needs is not on this machine: a one-line reason."""


def jobs():
    return str(min(4, os.cpu_count() or 1))


def source():
    """The MicroPython source tree: MICROPY_DIR, else the shared tarball unpacked once."""
    given = os.environ.get("MICROPY_DIR")
    if given:
        if not os.path.isfile(os.path.join(given, "ports", "unix", "Makefile")):
            raise Missing("MICROPY_DIR=%s is not a MicroPython source tree" % given)
        return os.path.abspath(given)
    tarballs = sorted(glob.glob(os.path.join(ROOT, "..", "shared", "micropython",
                                             "micropython-*.tar.gz")))
    if not tarballs:
        raise Missing("no MicroPython source (set MICROPY_DIR, or put the tarball in "
                      "../shared/micropython/)")
    tarball = tarballs[-1]
    tree = os.path.join(OUT, "src", os.path.basename(tarball)[:-7])
    if not os.path.exists(os.path.join(tree, ".unpacked")):
        with locked("source"):
            if not os.path.exists(os.path.join(tree, ".unpacked")):
                os.makedirs(tree, exist_ok=True)
                subprocess.run(["tar", "-xzf", tarball, "-C", tree, "--strip-components=1"],
                               check=True)
                open(os.path.join(tree, ".unpacked"), "w").close()
    return tree


@contextlib.contextmanager
def locked(name):
    """One process at a time (the 32-bit and the qemu builds run side by side under
    make -j, and share the source's unpacking and its mpy-cross)."""
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, ".lock-" + name), "w") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        yield


def build_mpy_cross(tree, make, log, what=None):
    """The source's mpy-cross, built on its own (a port's make would build it with the
    port's flags), one build at a time."""
    with locked("mpy-cross"):
        if what is None:
            run(make + ["-C", os.path.join(tree, "mpy-cross")], log)
        else:
            run(make + ["-C", os.path.join(tree, "mpy-cross")], log, what)


def check_compiler():
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "t.c")
        with open(c, "w") as f:
            f.write("#include <stdio.h>\nint main(void) { return sizeof(void *) != 4; }\n")
        try:
            r = subprocess.run(["gcc", "-m32", "-o", os.path.join(tmp, "t"), c],
                               capture_output=True)
        except OSError:
            raise Missing("no gcc")
        if r.returncode or subprocess.run([os.path.join(tmp, "t")]).returncode:
            raise Missing("gcc cannot make 32-bit programs (apt-get install gcc-multilib)")


def run(cmd, log, what="32-bit MicroPython"):
    """Run one build step, its output appended to `log`; on failure, exit with its tail."""
    with open(log, "a") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode:
        with open(log) as f:
            tail = f.read()[-3000:]
        raise SystemExit("%s\n%s: the build failed (log: %s)" % (tail, what, log))


def install(built, dest):
    """Copy the program a build made to `dest` when it is newer (atomically); its path."""
    if not os.path.exists(dest) or os.path.getmtime(dest) < os.path.getmtime(built):
        tmp = dest + ".tmp"
        subprocess.run(["cp", built, tmp], check=True)
        os.replace(tmp, dest)
    return dest


def build(form):
    """The program of `form`, built or brought up to date; returns its path."""
    tree = source()
    check_compiler()
    os.makedirs(OUT, exist_ok=True)
    log = os.path.join(OUT, "build-%s.log" % form)
    open(log, "w").close()
    make = ["make", "-s", "-j", jobs()]
    build_mpy_cross(tree, make, log)
    build_dir = os.path.join(OUT, "build-" + form)
    run(make + ["-C", os.path.join(tree, "ports", "unix"), "BUILD=" + build_dir,
                "FROZEN_MANIFEST=" + MANIFESTS[form]] + MAKE_FLAGS, log)
    return install(os.path.join(build_dir, "micropython"),
                   os.path.join(OUT, "micropython-" + form))


def path(form):
    """The program of `form` if it was built, else None (for tests and benches)."""
    prog = os.path.join(OUT, "micropython-" + form)
    return prog if os.path.exists(prog) else None


def cli(argv, tool, what, forms, build):
    """A build script's main: the forms named in argv (else the first of `forms`) built
    and their paths printed; a missing tool is one line and SKIPPED (1 with --ci)."""
    ci = "--ci" in argv
    asked = [a for a in argv if a != "--ci"] or [forms[0]]
    for form in asked:
        if form not in forms:
            raise SystemExit("%s: unknown form %s (%s)" % (tool, form, ", ".join(forms)))
    try:
        for form in asked:
            print(build(form))
    except Missing as e:
        print("%s: not built: %s" % (what, e), file=sys.stderr)
        return 1 if ci else SKIPPED
    return 0


def main(argv):
    return cli(argv, "mp32", "32-bit MicroPython", tuple(MANIFESTS), build)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
