# Figures on the bare-metal MicroPython (the qemu port, MPS2-AN385, tools/qemu.py), driven
# over its UARTs (host_tools/sim/qemu.py). Prints `name: value unit` lines:
#   firmware.heap_after_boot_bytes.qemu_frozen   gc.mem_alloc() after gc.collect(), the
#                          App booted on a 50-hand sitting with the score on screen, on
#                          the board file boards/sim/qemu_mps2.py, firmware frozen, 110 KB heap
#                          (goal: at most 24 KB)
#   firmware.heap_free_min_bytes.full_journal_sync.qemu_frozen   the lowest free heap
#                          (after a collection, at each poll of the line) while the scorer,
#                          started as its main.py would, serves `tally42 sync` of a sitting
#                          just finished by presses, its journal full of synced sittings
#                          (tests/kit/fulljournal.py) (goal: at least 60 KB)
#   engine.events_per_s.qemu   bench_engine's events/s on the emulated Cortex-M3 (the
#                          emulator's speed on this PC, not a chip's)
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import fulljournal as F  # noqa: E402
import qemurig as R  # noqa: E402
from engine_core import codec  # noqa: E402
from engine_core import codes as C  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402
from engine_core.codes import MAX_EVENT_BYTES  # noqa: E402
from engine_core.header import encode_header  # noqa: E402
from engine_core.texas42.sitting import Sitting  # noqa: E402
from firmware.journal import Journal  # noqa: E402
from boards.sim.flash import NorFlash  # noqa: E402
from host_tools.sim import qemu as Q  # noqa: E402

HANDS = 50
PREV, NEXT, OK, LONG = 1, 2, 3, 0x10

BOOT = """import gc
gc.collect()
base = gc.mem_alloc()
from boards.sim import qemu_mps2
from firmware import app
board = qemu_mps2.open()
a = app.App(board.display, board.flash, None, board.serial, board.device_id, None)
a.boot()
a.render()
gc.collect()
print("heap_after_boot", gc.mem_alloc() - base, gc.mem_free(), a.scorer.s.hands())
"""

# The scorer as main.py starts it, its App's line polls watched for the free heap.
WATCHED = """import gc
from firmware import link as L
low = [1 << 29]
_poll = L.Link.poll
def poll(self):
    busy = _poll(self)
    if self.sync is not None or busy:
        gc.collect()
        free = gc.mem_free()
        if free < low[0]:
            low[0] = free
    return busy
L.Link.poll = poll
from firmware import start
start.main(%r)
"""


def sitting_image(path, hands=HANDS):
    """A flash image holding one open sitting of `hands` hands of 42 for points."""
    flash = NorFlash(16, 4096, path=path)
    j = Journal(flash)
    j.mount()
    rules = O.resolve("42", {"scoring": "points", "target": 9999})
    s = Sitting(rules)
    ebuf = bytearray(MAX_EVENT_BYTES)
    j.begin_sitting(encode_header(rules, 0, F.NAMES, 123456789, 1000, 0))
    k = 0
    while s.hands() < hands:
        k += 1
        for ev in ([C.event(C.EV_BID, 30 + k % 12)] + [C.event(C.EV_BID, C.PASS)] * 3
                   + [C.event(C.EV_TRUMP, k % 7), C.event(C.EV_POINTS, 20 + k % 22)]):
            assert not s.apply(ev)
            j.append(ebuf[:codec.encode_into(ev, ebuf, 0)])
    flash.close()


def heap_after_boot(elf, tmp):
    img = os.path.join(tmp, "fifty.bin")
    sitting_image(img)
    with Q.Machine(elf, flash=img) as m:
        out = m.exec(BOOT, soft_reset=True).split()
    used, free, hands = int(out[1]), int(out[2]), int(out[3])
    assert hands == HANDS, hands
    return used, free


def full_journal_sync(elf, tmp):
    img = os.path.join(tmp, "full.bin")
    held = F.fill(img)
    with Q.Machine(elf, flash=img) as m:
        Q.START, start = WATCHED, Q.START
        try:
            m.start_scorer()
        finally:
            Q.START = start
        m.wait_for("score")
        for _ in range(13):     # hands of 30, the rest pass, trump, made: to game over
            m.press([NEXT, LONG | OK, OK, PREV])     # < made
            m.wait_idle()
            if m.frames[-1][1] == "over":
                break
        r = subprocess.run([sys.executable, "-m", "host_tools", "sync", "--port", m.repl,
                            "--db", os.path.join(tmp, "t.db"), "--wait", "60",
                            "--timeout", "10"], capture_output=True, text=True, cwd=ROOT)
        if r.returncode:
            raise SystemExit("bench_qemu: the sync failed: %s" % r.stderr)
        low = int(m.exec("print(low[0])").split()[-1])
    return low, held


def events_per_s(elf):
    code = ("import sys\nsys.path[:] = ['/rom', '/rom/bench', '/rom/tests/kit/engine']\n"
            "import bench_engine as B\n"
            "print('events_per_s', B.events_per_s(*B.corpus('42', 40)))\n")
    with Q.Machine(elf, rom=R.suite_rom()) as m:
        out = m.exec(code, timeout=600, soft_reset=True)
    return int(out.split()[-1])


def main():
    try:
        elf = Q.elf()
        tests_elf = R.build.path("tests")
    except Q.QemuError as e:
        print("bench_qemu: %s" % e, file=sys.stderr)
        return
    tmp = tempfile.mkdtemp(prefix="tally42-qemu-bench-")
    used, free = heap_after_boot(elf, tmp)
    print("firmware.heap_after_boot_bytes.qemu_frozen: %d bytes (%d free)" % (used, free))
    if os.environ.get("TALLY42_BENCH_QUICK") == "1":
        return      # bench/run.py --quick: the boot shows that it runs
    low, held = full_journal_sync(elf, tmp)
    print("firmware.heap_free_min_bytes.full_journal_sync.qemu_frozen: %d bytes (%d "
          "sittings on flash)" % (low, held))
    if tests_elf:
        print("engine.events_per_s.qemu: %d events/s" % events_per_s(tests_elf))


if __name__ == "__main__":
    main()
