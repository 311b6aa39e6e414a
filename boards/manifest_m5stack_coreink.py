# Freeze Tally 42 for the m5stack_coreink board, with its scripts (boards/main/m5stack_coreink/), into an
# ESP32 image: make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_m5stack_coreink.py
include("$(PORT_DIR)/boards/manifest.py")
include("manifest.py", board="m5stack_coreink")
