# Freeze Tally 42 for the esp32_epd29 board: make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_esp32_epd29.py
include("../manifest.py")
module("boards/esp32_epd29.py", base_path="..")
