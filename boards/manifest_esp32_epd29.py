# Freeze Tally 42 for the esp32_epd29 board, with its main.py (boards/main/): make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_esp32_epd29.py
include("../manifest.py")
module("boards/esp32_epd29.py", base_path="..")
module("main.py", base_path="main/esp32_epd29")
