# A scorer whose journal is as full as it gets, on the sim board: a flash image made on the
# PC (every block in use, a few hundred finished and synced sittings, the oldest already
# reclaimed once) and a sitting in progress, one hand from game over. The device side
# (DEVICE, run by MicroPython in any form of host_tools/build/sim.py) boots on it, plays the
# last hand, shows the history, then serves a sync from the real `tally42 sync` over the
# sim's serial line, and reports the lowest free heap it saw at each step on stderr.
# Used by tests/e2e/test_full_journal.py and bench/bench_journal_full.py.
import os
import subprocess
import sys
import time
from array import array
from engine_core.codes import MAX_EVENT_BYTES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine_core import codec  # noqa: E402
from engine_core.header import encode_header  # noqa: E402
from engine_core import codes as C  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402
from engine_core.texas42.sitting import Sitting  # noqa: E402
from firmware.journal import Journal  # noqa: E402
from engine_core.journal.reader import JournalReader  # noqa: E402
from boards.sim.flash import NorFlash  # noqa: E402
from host_tools.build import sim as simbuild  # noqa: E402
from host_tools.sim import run as sim  # noqa: E402
from randsit import RandomPlayer, play  # noqa: E402

BLOCKS = 16         # boards/sim/board.py: a 64 KB partition of 4 KB blocks
NAMES = ("Ann", "Bob", "Cy", "Di")
DEVICE_ID = "T42-FULL"


def _hand(s):
    # One marks hand: the first seat bids 30, the others pass, blanks, made.
    out = []
    for ev in [C.event(C.EV_BID, 30)] + [C.event(C.EV_BID, C.PASS)] * 3 + [
            C.event(C.EV_TRUMP, 0), C.event(C.EV_MADE, 1)]:
        assert not s.apply(ev), ev
        out.append(ev)
    return out


def fill(path, limit=60):
    """Write a full journal to the image at path: random legal sittings of 42 cut at
    `limit` events, each finished and synced, until the oldest has been reclaimed (every
    block in use); then an open sitting of 42 for marks one hand from game over. Returns
    the number of sittings the journal holds, the open one included."""
    flash = NorFlash(BLOCKS, 4096, path=path)
    j = Journal(flash)
    j.mount()
    rules = O.resolve("42")
    s = Sitting(rules)
    evs = array("l", [0] * limit)
    ebuf = bytearray(MAX_EVENT_BYTES)
    k = 0
    while JournalReader(j).sittings()[0][0] == 1 if k else True:
        s.restart(k % 4)
        n = play(s, RandomPlayer(k * 7 + 5), evs, limit)
        j.begin_sitting(encode_header(rules, k % 4, NAMES))
        for i in range(n):
            j.append(ebuf[:codec.encode_into(evs[i], ebuf, 0)])
        sid = j.open_sitting()
        j.finish()
        j.mark_synced(sid)
        k += 1
    s.restart(0)
    j.begin_sitting(encode_header(rules, 0, NAMES))
    while max(s.score(0), s.score(1)) < rules.target - 1:
        for ev in _hand(s):
            j.append(ebuf[:codec.encode_into(ev, ebuf, 0)])
    held = len(JournalReader(j).sittings())
    flash.close()
    return held


# The device's side, after the prelude of its form (host_tools/build/sim.py). argv: FLASH TTY
# NAME HOG. HOG > 0: before the sync, hold on to all but HOG bytes of the free heap, as
# a heap already tight would.
DEVICE = """import gc, sys
from boards.sim import board as sim
from firmware import app as A
from time import ticks_diff, ticks_ms
low = {}
def mark(step):
    gc.collect()
    free = gc.mem_free()
    if free < low.get(step, 1 << 29):
        low[step] = free
flash, tty, name, hog = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
from boards.sim.main import SimSerial
b = sim.Board(flash, serial=SimSerial(tty, name))
a = A.App(b.display, b.flash, b.settings_path, b.serial, %r)
a.boot()
a.render()
mark("boot")
s = a.scorer.s
hands = s.hands()
while not s.over():
    a.take(0x100001E)               # a bid of 30 (EV_BID << 24 | 30)
    while s.phase() == 0:
        a.take(0x1000000)           # a pass
        mark("hand")
    for ev in (0x2000000, 0x4000001):   # blanks are trump; made
        a.take(ev)
        a.render()
        mark("hand")
assert s.hands() > hands, (hands, s.hands())
a.go("history")
a.render()
mark("history")
a.press(4)
a.render()
held = []
gc.collect()
size = 2048
while hog and size >= 256 and gc.mem_free() > hog + size:
    try:
        held.append(bytearray(size))
    except MemoryError:
        size //= 2
print("ready", file=sys.stderr)
t0 = ticks_ms()
opened = False
while ticks_diff(ticks_ms(), t0) < 60000:
    busy = a.poll_link()
    opened = opened or a.link.sync is not None or a.screen == "sync"
    if a.link.sync is not None:
        mark("sync")
    if opened and not busy or a.link.status.startswith("failed"):
        break       # the session is over, or failed (the PC's sync then times out)
    if not busy:
        b.sleep_ms(5)
print("drawn", int("firmware.ui.score" in sys.modules), file=sys.stderr)  # with the heap held
held = None
a.go("score")
a.render()
mark("after")
print("status", a.link.status, file=sys.stderr)
print("banner", a.banner, file=sys.stderr)
print("open", a.scorer.journal.open_sitting(), file=sys.stderr)
for step in low:
    print("low", step, low[step], file=sys.stderr)
b.close()
""" % DEVICE_ID


class Run:
    """The device process on a full journal, and the PC's `tally42 sync` against it."""

    def __init__(self, tmp, micropython=None, form="romfs", hog=0):
        self.flash = os.path.join(str(tmp), "flash.bin")
        self.held = fill(self.flash)
        self.db = os.path.join(str(tmp), "t.db")
        out = simbuild.build()
        simbuild.write_script(out, "fullmain.py", DEVICE, form)
        self.link = sim.PtyRelay()
        cmd = simbuild.command(out, [self.flash, self.link.path, self.link.name, hog], simbuild.HEAP,
                          "fullmain.py", form, micropython)
        # Its report on stderr; a traceback would come on stdout (the unix port's way).
        self.proc = subprocess.Popen(cmd, cwd=out, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)

    def sync(self):
        """Wait for the device to be ready, run the PC's sync; (sync, device) results as
        (exit status, output) pairs, the device's output being its stderr."""
        try:
            line = self.proc.stdout.readline()
            if line.strip() != "ready":
                return None, (self.proc.wait(30), line + self.proc.stdout.read())
            r = subprocess.run([sys.executable, "-m", "host_tools", "sync", "--port",
                                self.link.name, "--db", self.db, "--wait", "20"],
                               cwd=ROOT, capture_output=True, text=True, timeout=120)
            deadline = time.time() + 90
            while self.proc.poll() is None and time.time() < deadline:
                time.sleep(0.05)
            if self.proc.poll() is None:
                self.proc.kill()
            return (r.returncode, r.stdout + r.stderr), (self.proc.wait(),
                                                          self.proc.stdout.read())
        finally:
            self.link.close()

    @staticmethod
    def lows(device_out):
        """{step: lowest free heap} from the device's report."""
        out = {}
        for line in device_out.split("\n"):
            if line.startswith("low "):
                _, step, value = line.split()
                out[step] = int(value)
        return out
