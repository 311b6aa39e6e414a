# Freeze Tally 42 for the lilygo_t5_213 board, with its main.py (boards/main/): make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_lilygo_t5_213.py
include("$(MPY_DIR)/../tally42/manifest.py")
module("boards/lilygo_t5_213.py", base_path="$(MPY_DIR)/../tally42")
module("main.py", base_path="$(MPY_DIR)/../tally42/boards/main/lilygo_t5_213")
