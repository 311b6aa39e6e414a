# The firmware frozen into the 32-bit unix port with the sim board and its NOR flash
# (tools/mp32.py frozen), as a custom device build freezes it: bytecode and names in the
# program, not the heap.
# The DIY board's file too, for bench/bench_ui.py's heap figure on a real board file.
include("../manifest_firmware.py")
module("boards/sim.py", base_path="..")
module("boards/simflash.py", base_path="..")
module("boards/esp32_epd29.py", base_path="..")
