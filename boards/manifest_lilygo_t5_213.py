# Freeze Tally 42 for the lilygo_t5_213 board, with its main.py (boards/main/): make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_lilygo_t5_213.py
include("../manifest.py")
module("boards/lilygo_t5_213.py", base_path="..")
module("main.py", base_path="main/lilygo_t5_213")
