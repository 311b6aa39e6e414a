# Freezing Tally 42 into a custom MicroPython image: from the MicroPython tree, build the
# ESP32 port with  make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/tally42/manifest.py
# (boards/manifest_<board>.py adds the board file and its main.py).
include("$(PORT_DIR)/boards/manifest.py")
package("engine_core", base_path="$(MPY_DIR)/../tally42")
package("firmware", base_path="$(MPY_DIR)/../tally42", opt=3)
module("boards/__init__.py", base_path="$(MPY_DIR)/../tally42")
