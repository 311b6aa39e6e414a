# Freeze Tally 42 for the lilygo_t5_213 board: make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_lilygo_t5_213.py
include("../manifest.py")
module("boards/lilygo_t5_213.py", base_path="..")
