# The firmware frozen into the 32-bit unix port with the sim board (tools/mp32.py frozen),
# as a custom device build freezes it: bytecode and names in the program, not the heap.
include("../manifest_firmware.py")
module("boards/sim.py", base_path="..")
