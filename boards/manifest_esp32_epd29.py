# Freeze Tally 42 for the esp32_epd29 board, with its scripts (boards/main/esp32_epd29/), into an
# ESP32 image: make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_esp32_epd29.py
include("$(PORT_DIR)/boards/manifest.py")
include("manifest.py", board="esp32_epd29")
