# What the main loop's own modules (firmware/start.py, loop.py, power.py) keep
# in the heap on top of a booted App, measured on the sim as bench_ui.py measures the
# boot (the firmware from the ROMFS image, a 110K heap, 64-bit unix port: about twice an
# ESP32's object sizes).
#   firmware.heap_bytes.main_loop    gc.mem_alloc() after gc.collect(), with the Loop,
#                                    its Power and the USB line attached
import os
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
from heapprobe import probe  # noqa: E402
from host_tools.build import sim as simbuild  # noqa: E402

CODE = """from boards.sim import board as sim
from firmware import app
b = sim.Board(%r)
a = app.App(b.display, b.flash, None)
a.boot()
a.render()
gc.collect()
before = gc.mem_alloc()
from firmware import start, loop, power
lp = loop.Loop(b, a, power.Power(b, 10))
a.link.attach(None)    # the line (its gate loads when bytes arrive)
gc.collect()
print("main_loop", gc.mem_alloc() - before)
"""


def main():
    out = simbuild.build()
    with tempfile.TemporaryDirectory() as tmp:
        # bench_ui's probe runs probemain.py: here, this measure.
        simbuild.write_script(out, "probemain.py", CODE % os.path.join(tmp, "flash.bin"))
        got = probe(out, [], simbuild.HEAP)
    print("firmware.heap_bytes.main_loop: %s bytes" % got["main_loop"].strip())

if __name__ == "__main__":
    main()
