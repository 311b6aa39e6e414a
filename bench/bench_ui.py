# The device's figures, measured on the sim board: the firmware compiled to .mpy and run
# on the MicroPython unix port with the sim's 110K heap (tests/kit/probes/mp_ui_probe.py does the
# measuring there). Prints `name: value unit` lines; nothing is assumed, all is measured.
#   ui.presses_per_hand.typical      a marks hand: one bid, three passes, the trump the
#                                    cursor starts on, made
#   ui.presses_per_hand.sitting_mean a corpus of realistic sittings (mp_ui_search.py);
#                                    each hand's fewest presses found by a search over
#                                    the screens
#   ui.presses_per_hand.gin_typical  Oklahoma Gin: turn-up 8, a knock with 6 against 23
#   ui.presses_per_hand.sitting_floor    the least any design could take on that corpus
#                                    (mp_ui_search.py corpus_floor)
#   ui.presses_per_hand.gin_sitting_mean  two sittings of each gin game (mp_ui_search.py
#                                    gin_hand_events), each hand's fewest presses found
#                                    by the same search
#   ui.presses.setup_gin             from the score of a 42 sitting to the first turn-up
#                                    of a new Oklahoma Gin pad, by a search of the presses
#   ui.presses.setup_gin_from_power_on  the same from a fresh scorer's first power-on
#   ui.text_overlaps                 texts over a rule or another text, or cut, on every
#                                    screen at both panel sizes (mp_ui_fit.py)
#   ui.hidden_actions                actions reachable from a screen that its text does
#                                    not name (mp_ui_hidden.py: every screen of both
#                                    families, each button short and held)
#   ui.opposite_holds                held keys that do something other than more of what
#                                    the short press does (mp_ui_hidden.py more_of)
#   ui.preset_unknowns               counts only the players know that a plain OK saves
#                                    untouched (mp_ui_hidden.py UNKNOWNS)
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
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from heapprobe import HANDS, heap, prepare, probe, sitting  # noqa: F401 (HANDS: the figures')
from host_tools.build import sim as simbuild
import mp32

# The corpus of ui.presses_per_hand.sitting_mean (about 45 hands; bench/run.py --quick:
# the first hand of one sitting)
QUICK = os.environ.get("TALLY42_BENCH_QUICK") == "1"
SITTINGS = 1 if QUICK else 4
HANDS_42 = 1 if QUICK else 0
SEED = 7
# The gin corpus (ui.presses_per_hand.gin_sitting_mean): two sittings of each gin game,
# played out (0); --quick: the first hand of one of each.
GIN_HANDS = 1 if QUICK else 0


# The heap after boot in each form the firmware can run in (host_tools/build/sim.py FORMS), on
# the 64-bit PyPI port and on the 32-bit builds of tools/mp32.py (the ESP32's object
# sizes): name suffix, interpreter, form.
def builds():
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
        got.update(probe(out, ["presses", SITTINGS, SEED, GIN_HANDS, HANDS_42], "64M"))
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
    print("ui.presses_per_hand.sitting_floor: %.2f presses (the same corpus: no design on "
          "these buttons, keeping the rule, goes below it)"
          % (int(got["corpus_floor_x100"]) / 100))
    print("ui.presses_per_hand.gin_typical: %s presses" % got["presses_gin_typical"])
    print("ui.presses_per_hand.gin_sitting_mean: %.2f presses (%s hands in %d sittings of "
          "each gin game, at most %s)" % (int(got["gin_presses"]) / int(got["gin_hands"]),
                                          got["gin_hands"], 1 if GIN_HANDS else 2,
                                          got["gin_most"]))
    print("ui.presses.setup_gin: %s presses" % got["setup_gin"])
    print("ui.presses.setup_gin_from_power_on: %s presses" % got["setup_gin_from_power_on"])
    print("ui.hidden_actions: %s actions" % got["hidden_actions"])
    print("ui.opposite_holds: %s held keys" % got["opposite_holds"])
    print("ui.preset_unknowns: %s values" % got["preset_unknowns"])
    print("ui.text_overlaps: %s texts (every screen at 296x128 and 250x122)"
          % got["text_overlaps"])
    if int(got["hidden_screens_missed"]):
        raise SystemExit("bench_ui: the hidden-action check missed a screen")
    print("firmware.boot_ms.50_hands: %.1f ms" % (int(got["boot_us"]) / 1000))
    print("firmware.boot_ms.50_hands_cold: %.1f ms" % (int(got["boot_us_first"]) / 1000))
    print("firmware.import_ms: %s ms" % got["imports_ms"])
    print("render.ms_per_screen: %.1f ms" % (int(got["render_us"]) / 1000))


if __name__ == "__main__":
    main()
