# Freeze Tally 42 for the esp32_epd29 board, with its main.py (boards/main/): make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_esp32_epd29.py
include("$(MPY_DIR)/../tally42/manifest.py")
module("boards/esp32_epd29.py", base_path="$(MPY_DIR)/../tally42")
module("main.py", base_path="$(MPY_DIR)/../tally42/boards/main/esp32_epd29")
