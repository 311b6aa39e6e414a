# Freeze Tally 42 for the lilygo_t5_213 board, with its scripts (boards/main/lilygo_t5_213/), into an
# ESP32 image: make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_lilygo_t5_213.py
include("$(PORT_DIR)/boards/manifest.py")
include("manifest.py", board="lilygo_t5_213")
