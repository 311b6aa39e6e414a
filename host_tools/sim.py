"""`tally42 sim`: the device firmware on the sim board, under the MicroPython unix port with
an ESP32's heap. The device modules are compiled with mpy-cross into a build directory
and run from .mpy files, as on a device; the flash is a file; the USB serial port is a
pseudo-terminal; --screens saves every refresh as a 1-bit PNG."""
import os
import struct
import subprocess
import sys
import threading
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE_DIRS = ("engine_core", "firmware", "boards")
HEAP = "110K"
LAUNCHER = "import sys\nfrom boards import sim\nsim.main(sys.argv[1:])\n"


class SimError(Exception):
    """The sim cannot start: a message to act on."""


def tool(name):
    """A tool of the virtual environment this Python runs in, else one on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    venv = os.path.join(ROOT, ".venv", "bin", name)
    return venv if os.path.exists(venv) else name


def build_dir():
    venv = os.path.join(ROOT, ".venv")
    if os.path.isdir(venv):
        return os.path.join(venv, "tally42-sim")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "tally42", "sim")


def default_flash():
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "tally42", "sim-flash.bin")


def build(out=None):
    """Compile the device modules to .mpy under `out` (only those changed); returns it."""
    out = out or build_dir()
    mpy_cross = tool("mpy-cross")
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
                if os.path.exists(dst) and os.path.getmtime(dst) >= os.path.getmtime(src):
                    continue
                try:
                    r = subprocess.run([mpy_cross, "-o", dst, src], capture_output=True,
                                       text=True)
                except OSError as e:
                    raise SimError("cannot run mpy-cross (%s): run `make setup`" % e)
                if r.returncode:
                    raise SimError("mpy-cross %s: %s" % (os.path.relpath(src, ROOT),
                                                         r.stderr.strip()))
    # Modules deleted from the tree must not linger as .mpy files.
    for top in DEVICE_DIRS:
        for folder, _, files in os.walk(os.path.join(out, top)):
            for name in files:
                src = os.path.join(ROOT, os.path.relpath(folder, out), name[:-4] + ".py")
                if name.endswith(".mpy") and not os.path.exists(src):
                    os.remove(os.path.join(folder, name))
    with open(os.path.join(out, "simmain.py"), "w") as f:
        f.write(LAUNCHER)
    return out


def command(out, args, heap=HEAP):
    """The micropython command line that runs the sim board with `args`."""
    return [tool("micropython"), "-X", "heapsize=" + heap, os.path.join(out, "simmain.py")] + args


# ---- the USB serial port: a pseudo-terminal for the PC, relayed to the firmware's ----

class SerialLink:
    """Two pseudo-terminals: `name` is the PC's end (tally42 sync --port NAME), `path`
    the firmware's; a thread copies bytes between them while the sim runs."""

    def __init__(self):
        import tty
        self.pc_master, pc_slave = os.openpty()
        self.fw_master, fw_slave = os.openpty()
        self.name = os.ttyname(pc_slave)
        self.path = os.ttyname(fw_slave)
        for fd in (pc_slave, fw_slave):
            tty.setraw(fd)
        self._slaves = (pc_slave, fw_slave)
        self._stop = False
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _relay(self):
        import select
        pair = {self.pc_master: self.fw_master, self.fw_master: self.pc_master}
        while not self._stop:
            try:
                ready, _, _ = select.select(list(pair), [], [], 0.2)
                for fd in ready:
                    data = os.read(fd, 4096)
                    if data:
                        os.write(pair[fd], data)
            except OSError:
                # A side closed (EIO on a master with no slave open): wait for it.
                threading.Event().wait(0.05)

    def close(self):
        self._stop = True
        self._thread.join(1)
        for fd in (self.pc_master, self.fw_master) + self._slaves:
            try:
                os.close(fd)
            except OSError:
                pass


# ---- screens: 1-bit PBM frames from the board, written as PNG ----

def png_1bit(width, height, rows):
    """A 1-bit greyscale PNG (0 black, 1 white) from rows of packed bits, 1 = black."""
    raw = bytearray()
    for row in rows:
        raw.append(0)
        raw.extend(b ^ 0xFF for b in row)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))


def read_pbm(data):
    """(width, height, rows) of a binary (P4) PBM."""
    parts = data.split(maxsplit=3)
    if len(parts) < 4 or parts[0] != b"P4":
        raise ValueError("not a binary PBM")
    w, h = int(parts[1]), int(parts[2])
    body = parts[3]
    stride = (w + 7) // 8
    if len(body) < stride * h:
        raise ValueError("PBM shorter than %dx%d" % (w, h))
    return w, h, [body[i * stride:(i + 1) * stride] for i in range(h)]


def convert_screens(folder):
    """Every .pbm frame in folder becomes a .png of the same name; returns the count."""
    n = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".pbm"):
            continue
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            w, h, rows = read_pbm(f.read())
        with open(path[:-4] + ".png", "wb") as f:
            f.write(png_1bit(w, h, rows))
        os.remove(path)
        n += 1
    return n


def run(script=None, screens=None, flash=None, hold=False, panel=None, text=False,
        heap=HEAP, stdout=None):
    """Run the sim; returns the firmware's exit status."""
    flash = os.path.abspath(flash or default_flash())
    os.makedirs(os.path.dirname(flash), exist_ok=True)
    args = ["--flash", flash]
    if script:
        if not os.path.exists(script):
            raise SimError("%s: no such script" % script)
        args += ["--script", os.path.abspath(script)]
    if screens:
        screens = os.path.abspath(screens)
        os.makedirs(screens, exist_ok=True)
        args += ["--screens", screens]
    if hold:
        args.append("--hold")
    if panel:
        args += ["--panel", panel]
    if text:
        args.append("--text")
    out = build()
    link = SerialLink()
    args += ["--serial", link.name, "--link", link.path]
    headless = script and not hold
    stdout = stdout or sys.stdout
    try:
        if headless:
            stdout.write("serial: %s\n" % link.name)
            stdout.flush()
        r = subprocess.run(command(out, args, heap), cwd=out,
                           stdin=subprocess.DEVNULL if headless else None)
    finally:
        link.close()
        if screens:
            convert_screens(screens)
    return r.returncode
