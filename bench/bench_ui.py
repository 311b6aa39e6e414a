# The device's figures, measured on the sim board: the firmware compiled to .mpy and run
# on the MicroPython unix port with the sim's 110K heap (tests/kit/probes/mp_ui_probe.py does the
# measuring there). Prints `name: value unit` lines; nothing is assumed, all is measured.
#   ui.presses_per_hand.typical      a marks hand: one bid, three passes, trump, made
#   ui.presses_per_hand.sitting_mean a corpus of realistic sittings (mp_ui_search.py);
#                                    each hand's fewest presses found by a search over
#                                    the screens
#   ui.presses_per_hand.gin_typical  Oklahoma Gin: turn-up 8, a knock with 6 against 23
#   ui.presses_per_hand.gin_sitting_mean  two sittings of each gin game (mp_ui_search.py
#                                    gin_hand_events), each hand's fewest presses found
#                                    by the same search
#   ui.presses.setup_gin             from the score of a 42 sitting to the first turn-up
#                                    of a new Oklahoma Gin pad, by a search of the presses
#   ui.hidden_actions                actions reachable from a screen that its text does
#                                    not name (mp_ui_hidden.py: every screen of both
#                                    families, each button short and held)
#   firmware.heap_after_boot_bytes.FORM   gc.mem_alloc() after gc.collect(), booted on
#                                    a 50-hand sitting, the score on screen, in a process
#                                    started as the sim starts (sim board included), less
#                                    what the prelude of the form used (host_tools/build/sim.py:
#                                    the ROMFS image and its mount). FORM: romfs_64 (the
#                                    PyPI 64-bit port), stock_32 (.mpy files loaded into
#                                    RAM, as `make deploy` on a stock flash), romfs_32,
#                                    frozen_32 (the 32-bit builds of tools/mp32.py: the
#                                    ESP32's object sizes); .name_table and .frame_buffer
#                                    are two parts of it, .step.* the boot step by step,
#                                    .esp32_epd29 the same boot on the DIY board's file
#                                    (HEAP_BOARD)
#   firmware.heap_free_after_boot_bytes.FORM   gc.mem_free() then
#   firmware.boot_ms.50_hands        journal scan + replay of 50 hands + first screen
#   render.ms_per_screen             drawing one screen into the frame buffer
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from host_tools.build import sim as simbuild  # noqa: E402

HANDS = 50
# The corpus of ui.presses_per_hand.sitting_mean (about 45 hands; bench/run.py --quick: 1)
QUICK = os.environ.get("TALLY42_BENCH_QUICK") == "1"
SITTINGS = 1 if QUICK else 4
SEED = 7
# The gin corpus (ui.presses_per_hand.gin_sitting_mean): two sittings of each gin game,
# played out (0); --quick: the first hand of one of each.
GIN_HANDS = 1 if QUICK else 0


def probe(out, args, heap):
    r = subprocess.run(simbuild.command(out, args, heap, "probemain.py"), cwd=out,
                       capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit("bench_ui: the probe failed")
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
# the bus (tests/kit/board_fakes.py, loaded first), booted as firmware/start.py boots it,
# up to its main loop. The fakes' own names are interned before the firmware's: the
# figure leaves out the first pools of the name table, a few hundred bytes. The journal partition is a copy of the sitting's flash image, read and
# written in place.
HEAP_BOARD = """import micropython
import mp_board_fakes
mp_board_fakes.install(%r)
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
print("heap_after_boot", gc.mem_alloc() - base)
print("heap_free", gc.mem_free())
print("fakes", base - FIRMWARE_BASE)
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
    """The sim's build with the probes (bench/mp_*.py) compiled in; returns its folder."""
    out = simbuild.build()
    for name in ("mp_ui_probe", "mp_ui_search", "mp_ui_hidden", "mp_board_fakes"):
        simbuild.compile_extra(out, os.path.join(ROOT, "bench", name + ".py"), name)
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
        raise SystemExit("bench_ui: the heap probe failed (%s)" % form)
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
        raise SystemExit("bench_ui: the board's heap probe failed (%s)" % form)
    board = dict(line.split(" ", 1) for line in r.stdout.split("\n") if " " in line)
    assert int(board["hands"]) == HANDS, board
    counts = [int(line.split("n_qstr=")[1].split(",")[0]) for line in r.stdout.split("\n")
              if line.startswith("qstr pool")]
    board["names"] = counts[1] - counts[0]
    got["board"] = board
    return got


# The heap after boot in each form the firmware can run in (host_tools/build/sim.py FORMS), on
# the 64-bit PyPI port and on the 32-bit builds of tools/mp32.py (the ESP32's object
# sizes): name suffix, interpreter, form.
def builds():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mp32
    out = [("romfs_64", None, "romfs")]
    stock, frozen = mp32.path("stock"), mp32.path("frozen")
    if stock:
        out += [("stock_32", stock, "files"), ("romfs_32", stock, "romfs")]
    if frozen:
        out.append(("frozen_32", frozen, "frozen"))
    if not (stock and frozen):
        print("bench_ui: no 32-bit MicroPython (make mp32): 32-bit figures left out",
              file=sys.stderr)
    return out


def print_heap(suffix, mem):
    print("firmware.heap_after_boot_bytes.%s: %s bytes" % (suffix, mem["heap_after_boot"]))
    print("firmware.heap_free_after_boot_bytes.%s: %s bytes" % (suffix, mem["heap_free"]))
    print("firmware.heap_after_boot_bytes.%s.name_table: %s bytes (%s names)"
          % (suffix, mem["name_table"], mem["names"]))
    print("firmware.heap_after_boot_bytes.%s.frame_buffer: %s bytes"
          % (suffix, mem["frame_buffer"]))
    print("firmware.heap_after_boot_bytes.%s.esp32_epd29: %s bytes (%s names interned)"
          % (suffix, mem["board"]["heap_after_boot"], mem["board"]["names"]))
    # The fake machine and esp32 modules' code is in this heap, in flash on the chip.
    print("firmware.heap_free_after_boot_bytes.%s.esp32_epd29: %d bytes (%s free here, and "
          "the fake machine and esp32 hold %s that the chip's C modules do not)"
          % (suffix, int(mem["board"]["heap_free"]) + int(mem["board"]["fakes"]),
             mem["board"]["heap_free"], mem["board"]["fakes"]))
    for name, size in mem["steps"]:
        print("firmware.heap_after_boot_bytes.%s.%s: %s bytes" % (suffix, name, size))


def main():
    out = prepare()
    tmp = tempfile.mkdtemp(prefix="tally42-bench-")
    try:
        flash = os.path.join(tmp, "flash.bin")
        sitting(out, flash)
        # --quick: the 64-bit port's form only (tests/e2e/test_heap_budget.py boots the others).
        forms = builds()[:1] if QUICK else builds()
        mems = [(suffix, heap(out, flash, form, mp)) for suffix, mp, form in forms]
        got = probe(out, ["measure", flash], simbuild.HEAP)
        # The search keeps every screen state it has seen: a PC's heap, not the device's.
        got.update(probe(out, ["presses", SITTINGS, SEED, GIN_HANDS], "64M"))
    finally:
        shutil.rmtree(tmp)
    for suffix, mem in mems:
        assert int(mem["hands"]) == HANDS, (suffix, mem)
        print_heap(suffix, mem)
    assert int(got["hands"]) == HANDS, got
    print("ui.presses_per_hand.typical: %s presses" % got["presses_typical"])
    print("ui.presses_per_hand.any_trump_mean: %.1f presses"
          % (int(got["presses_any_trump_x100"]) / 100))
    print("ui.presses_per_hand.sitting_mean: %.2f presses (%s hands in %d sittings, "
          "at most %s)" % (int(got["corpus_presses"]) / int(got["corpus_hands"]),
                           got["corpus_hands"], SITTINGS, got["corpus_most"]))
    print("ui.presses_per_hand.gin_typical: %s presses" % got["presses_gin_typical"])
    print("ui.presses_per_hand.gin_sitting_mean: %.2f presses (%s hands in %d sittings of "
          "each gin game, at most %s)" % (int(got["gin_presses"]) / int(got["gin_hands"]),
                                          got["gin_hands"], 1 if GIN_HANDS else 2,
                                          got["gin_most"]))
    print("ui.presses.setup_gin: %s presses" % got["setup_gin"])
    print("ui.hidden_actions: %s actions" % got["hidden_actions"])
    if int(got["hidden_screens_missed"]):
        raise SystemExit("bench_ui: the hidden-action check missed a screen")
    print("firmware.boot_ms.50_hands: %.1f ms" % (int(got["boot_us"]) / 1000))
    print("firmware.boot_ms.50_hands_cold: %.1f ms" % (int(got["boot_us_first"]) / 1000))
    print("firmware.import_ms: %s ms" % got["imports_ms"])
    print("render.ms_per_screen: %.1f ms" % (int(got["render_us"]) / 1000))


if __name__ == "__main__":
    main()
