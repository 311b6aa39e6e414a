# The firmware frozen into the 32-bit unix port with the sim board and its NOR flash
# (tools/mp32.py frozen), as a custom device build freezes it: bytecode and names in the
# program, not the heap. The DIY board's file too, for the heap figures on a real board
# file (bench/bench_ui.py).
include("manifest.py", board="sim/board")
module("boards/sim/flash.py", base_path="..", opt=3)
module("boards/sim/main.py", base_path="..", opt=3)
module("boards/esp32_epd29.py", base_path="..")
module("boards/sim/radio.py", base_path="..", opt=3)
# The fake chip (machine, esp32, network and espnow) that the sim's id= and the DIY board's
# heap figure open on: on a device these are the port's C modules, in flash.
package("boards/sim/chip", base_path="..", opt=3)
