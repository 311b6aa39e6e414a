# Freezing Tally 42 into a custom MicroPython image: from the MicroPython tree, build the
# ESP32 port with  make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/project/manifest.py
# (boards/manifest_<board>.py adds the board file and its main.py).
include("$(PORT_DIR)/boards/manifest.py")
include("boards")
