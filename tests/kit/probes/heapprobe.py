"""The heap probes' driver: the sim's build with the probes compiled in, a sitting of HANDS
hands on a flash image, and the firmware booted on it in a process of its own, in each
form (host_tools/build/sim.py FORMS), its heap measured; and a full journal's sync. The
bench prints the figures (bench/bench_ui.py, bench_journal_full.py, bench_mainloop_heap.py),
the heap budget's test checks them (tests/e2e/test_heap_budget.py)."""
import os
import shutil
import subprocess
import sys
import tempfile

import fulljournal as F
from host_tools.build import sim as simbuild

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HERE = os.path.dirname(os.path.abspath(__file__))


HANDS = 50


def probe(out, args, heap):
    r = subprocess.run(simbuild.command(out, args, heap, "probemain.py"), cwd=out,
                       capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit("the UI probe failed")
    return dict(line.split(" ", 1) for line in r.stdout.split("\n") if " " in line)


HEAP_MAIN = """from boards.sim import board as sim
from firmware import app
b = sim.Board(%r)
a = app.App(b.display, b.flash, b.settings_path)
a.boot()
a.render()
gc.collect()
print("heap_after_boot", gc.mem_alloc() - FIRMWARE_BASE)
print("heap_free", gc.mem_free())
print("hands", a.scorer.s.hands())
print("frame_buffer", len(b.display._buf))
import micropython
micropython.qstr_info()     # qstr pool: n_pool=.., n_qstr=.., n_str_data_bytes=.., ..
"""


# The same boot on a real board file, boards/esp32_epd29.py (the DIY build: the SSD1680
# driver, the buttons, the power and main-loop modules), with machine and esp32 faked at
# the bus (the fake chip, boards/sim/chip/, loaded first), booted as firmware/start.py
# boots it, up to its main loop. The fakes' own names are interned before the firmware's:
# the figure leaves out the first pools of the name table; the fake chip's code and the
# objects it made for the board (pins, timers: C objects outside the heap on the chip)
# are counted apart ("fakes"). The journal partition is a copy of the sitting's flash
# image, read and written in place.
HEAP_BOARD = """import micropython
from boards.sim import chip
chip.install(image=%r)
gc.collect()
micropython.qstr_info()
base = gc.mem_alloc()
from firmware import start
board = __import__("boards.esp32_epd29", None, None, ("open",)).open()
from firmware import app, loop, power
a = app.App(board.display, board.flash, board.settings_path, board.serial,
            start.device_id(), board.rtc)
a.boot()
a.render()
gc.collect()
used = gc.mem_alloc() - base
free = gc.mem_free()
# The fake chip's pins, buses and timers the board made: C objects outside the heap on
# the chip, objects of the fake's classes here. What they hold is measured by making as
# many again, each with the same attributes.
m = sys.modules["machine"]
made = list(m.pins.values()) + m.SPI.made + m.Timer.made
again = [None] * len(made)
gc.collect()
x = gc.mem_alloc()
for i in range(len(made)):
    o = object.__new__(type(made[i]))
    d = made[i].__dict__
    for k in d:
        setattr(o, k, d[k])
    again[i] = o
o = d = None
gc.collect()
objects = gc.mem_alloc() - x
print("heap_after_boot", used - objects)
print("heap_free", free)
print("fakes", base - FIRMWARE_BASE + objects)
print("hands", a.scorer.s.hands())
micropython.qstr_info()
"""


# The same boot one step at a time, to show where the heap goes: each module with what it
# imports that was not loaded yet, then the sim board with its frame buffer, and the App
# booted on the sitting. A step that passes the 630th interned name also pays for the
# name table's next pool (4.5 KB on the 32-bit port, 7 KB on the 64-bit one).
STEPS = ("engine_core.texas42.rules", "engine_core.codec", "engine_core.texas42.sitting", "firmware.journal",
         "firmware.ui.draw", "boards.sim.board", "firmware.app")


HEAP_STEPS = """last = FIRMWARE_BASE
def step(name):
    global last
    gc.collect()
    print("step." + name, gc.mem_alloc() - last)
    last = gc.mem_alloc()
for name in %r:
    __import__(name)
    step(name)
from boards.sim import board as sim
from firmware import app
b = sim.Board(%r)
step("sim.Board")
a = app.App(b.display, b.flash, b.settings_path)
a.boot()
a.render()
step("App.boot")
"""


def prepare():
    """The sim's build with the probes (tests/kit/probes/mp_*.py) compiled in; returns
    its folder."""
    out = simbuild.build()
    for name in ("mp_ui_probe", "mp_ui_search", "mp_ui_hidden", "mp_ui_fit"):
        simbuild.compile_extra(out, os.path.join(HERE, name + ".py"), name)
    simbuild.write_script(out, "probemain.py", "import mp_ui_probe\nmp_ui_probe.main(sys.argv[1:])\n")
    return out


def sitting(out, flash):
    """A sitting of HANDS hands in a new flash image at `flash`."""
    probe(out, ["make", flash, HANDS], "2M")


def heap(out, flash, form="romfs", micropython=None, steps=True):
    # In a process of its own, started as the sim starts (boards/sim/board.py's main), with
    # nothing else loaded: the firmware's heap after boot, the score on screen. The heap
    # budget's test (tests/e2e/test_heap_budget.py) reads these figures too.
    simbuild.write_script(out, "heapmain.py", HEAP_MAIN % flash, form)
    r = subprocess.run(simbuild.command(out, [], simbuild.HEAP, "heapmain.py", form, micropython),
                       cwd=out, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit("the heap probe failed (%s)" % form)
    got = dict(line.split(" ", 1) for line in r.stdout.split("\n") if " " in line)
    # The interned-name table: its pools are in the heap; the names' text is in the
    # ROMFS image (names made at run time are few and short).
    pools = dict(kv.split("=") for kv in got["qstr"].split(": ", 1)[1].split(", "))
    got["names"] = pools["n_qstr"]
    got["name_table"] = int(pools["n_total_bytes"]) - int(pools["n_str_data_bytes"])
    got["steps"] = []
    if steps:
        simbuild.write_script(out, "heapsteps.py", HEAP_STEPS % (STEPS, flash), form)
        r = subprocess.run(simbuild.command(out, [], simbuild.HEAP, "heapsteps.py", form, micropython),
                           cwd=out, capture_output=True, text=True, check=True)
        got["steps"] = [line.split(" ") for line in r.stdout.split("\n") if line]
    shutil.copyfile(flash, flash + ".board")
    simbuild.write_script(out, "heapboard.py", HEAP_BOARD % (flash + ".board"), form)
    r = subprocess.run(simbuild.command(out, [], simbuild.HEAP, "heapboard.py", form, micropython),
                       cwd=out, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit("the board's heap probe failed (%s)" % form)
    board = dict(line.split(" ", 1) for line in r.stdout.split("\n") if " " in line)
    assert int(board["hands"]) == HANDS, board
    counts = [int(line.split("n_qstr=")[1].split(",")[0]) for line in r.stdout.split("\n")
              if line.startswith("qstr pool")]
    board["names"] = counts[1] - counts[0]
    got["board"] = board
    return got


def full_journal_sync(micropython, form):
    """The lowest free heap at each step of a sync of a new sitting on a full journal
    (tests/kit/fulljournal.py), and the sittings then on flash. The heap budget's test
    (tests/e2e/test_heap_budget.py) reads it too."""
    tmp = tempfile.mkdtemp(prefix="tally42-full-")
    try:
        run = F.Run(tmp, micropython, form)
        (rc, out), (drc, dout) = run.sync()
    finally:
        shutil.rmtree(tmp)
    if rc != 0 or drc != 0:
        sys.stderr.write("%s\n%s\n" % (out, dout))
        raise SystemExit("the full journal's sync failed (%s)" % form)
    return F.Run.lows(dout), run.held
