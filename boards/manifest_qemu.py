# The firmware frozen into MicroPython's qemu port (MPS2-AN385, tools/qemu.py), with the
# board file of that emulated microcontroller.
include("manifest.py", board="sim/qemu_mps2")
