# What each load-for-a-while phase gives back to the heap when it ends, on the stock form
# (the .mpy files loaded into RAM, as `make deploy` on a stock flash; the 32-bit build of
# tools/mp32.py: the ESP32's object sizes), on an App booted on a sitting of 50 hands (as
# bench_ui.py's heap figures), the score on screen. A phase is a package or module the
# firmware unloads by its prefix (firmware/transient.py); one that gives back under 1 KB
# is merged back into what loads it, unless its names, interned at boot once resident,
# would take the name table into its next pool (4.5 KB on the 32-bit port, past the
# 630th name): the "loaded" figure beside shows that (the USB line's hello gate).
#   phase.NAME.saved_bytes   gc.mem_alloc() after gc.collect() with the phase loaded
#                            (its entry modules imported as the firmware imports them),
#                            less the same once its own modules are dropped: what its
#                            code would hold if it were resident. The text beside: the
#                            same after transient.unload(prefix), which also lets go of
#                            the load-for-a-while modules only it held (the journal's
#                            reader, the header's code...): those would go as well from
#                            resident code that imports them where it uses them.
# Each phase in a process of its own, so that none finds another's names interned.
import os
import sys
import tempfile

from heapprobe import prepare, sitting
from host_tools.build import sim as simbuild
import mp32

QUICK = os.environ.get("TALLY42_BENCH_QUICK") == "1"

# name, the prefix it is unloaded by, the modules the firmware imports to enter it. The
# house options and what the PC sets for the next sitting (firmware/nextsetup.py) are no
# phase but modules loaded for a while (a setup; a push from the PC, by the sync or the
# radio), measured the same way.
PHASES = (
    ("sync", "firmware.sync", ("firmware.sync.session",)),                 # link.py
    ("radio", "firmware.radio", ("firmware.radio.join", "firmware.radio.air",
                                 "firmware.radio.nexttable", "firmware.radio.sender")),
    ("hello", "firmware.hello", ("firmware.hello",)),                      # link.py
    ("nextsetup", "firmware.nextsetup", ("firmware.nextsetup",)),
    ("options", "engine_core.texas42.options", ("engine_core.texas42.options",)),
)

CODE = """from boards.sim import board as sim
from firmware import app, transient
b = sim.Board(%r)
a = app.App(b.display, b.flash, b.settings_path)
a.boot()
a.render()
gc.collect()
before = gc.mem_alloc()
for name in %r:
    __import__(name)
gc.collect()
loaded = gc.mem_alloc()
prefix = %r
n = len(prefix)
for name in [k for k in sys.modules if k == prefix or k.startswith(prefix + ".")]:
    transient._drop(name)
gc.collect()
own = loaded - gc.mem_alloc()
transient.release()
gc.collect()
print("phase", loaded - gc.mem_alloc(), own, loaded - before)
"""


def measure(out, flash, micropython, prefix, entry):
    import subprocess
    simbuild.write_script(out, "phasemain.py", CODE % (flash, entry, prefix), "files")
    r = subprocess.run(simbuild.command(out, [], simbuild.HEAP, "phasemain.py", "files",
                                        micropython), cwd=out, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit("the phase probe failed (%s)" % prefix)
    line = [x for x in r.stdout.split("\n") if x.startswith("phase ")][-1]
    return [int(x) for x in line.split()[1:]]


def main():
    stock = mp32.path("stock")
    if stock is None:
        print("bench_phases: no 32-bit MicroPython (make mp32): figures left out",
              file=sys.stderr)
        return
    out = prepare()
    with tempfile.TemporaryDirectory() as tmp:
        flash = os.path.join(tmp, "flash.bin")
        sitting(out, flash)     # heapprobe.HANDS hands: the boot resumes it, the score shown
        for name, prefix, entry in PHASES[:1] if QUICK else PHASES:
            saved, own, grew = measure(out, flash, stock, prefix, entry)
            print("phase.%s.saved_bytes: %d bytes (%d with the modules only it held; %d "
                  "loaded, names interned included)" % (name, own, saved, grew))


if __name__ == "__main__":
    main()
