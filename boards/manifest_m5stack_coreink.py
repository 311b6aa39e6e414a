# Freeze Tally 42 for the m5stack_coreink board, with its main.py (boards/main/): make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_m5stack_coreink.py
include("../manifest.py")
module("boards/m5stack_coreink.py", base_path="..")
module("main.py", base_path="main/m5stack_coreink")
module("boot.py", base_path="main/m5stack_coreink")
