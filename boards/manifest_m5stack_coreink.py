# Freeze Tally 42 for the m5stack_coreink board, with its main.py (boards/main/): make BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../boards/manifest_m5stack_coreink.py
include("$(MPY_DIR)/../tally42/manifest.py")
module("boards/m5stack_coreink.py", base_path="$(MPY_DIR)/../tally42")
module("main.py", base_path="$(MPY_DIR)/../tally42/boards/main/m5stack_coreink")
module("boot.py", base_path="$(MPY_DIR)/../tally42/boards/main/m5stack_coreink")
