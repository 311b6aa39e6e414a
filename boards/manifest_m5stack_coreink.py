# Freeze Tally 42 for the m5stack_coreink board: make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_m5stack_coreink.py
include("../manifest.py")
module("boards/m5stack_coreink.py", base_path="..")
