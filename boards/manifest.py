# The device code: the engine, the firmware and what every board file shares; with
# include(..., board=NAME), that board's file and its scripts, boards/main/NAME/*.py
# (main.py, and boot.py where the board needs one). `tally42 deploy` copies these files;
# boards/manifest_NAME.py freezes them into a firmware image.
import os

options.defaults(board=None)
include("../engine_core")
include("../firmware")
module("boards/__init__.py", base_path="..")
module("boards/device.py", base_path="..")
if options.board:
    # An emulated board is boards/sim/NAME.py, named "sim/NAME": its package too.
    if "/" in options.board:
        module("boards/%s/__init__.py" % options.board.split("/")[0], base_path="..")
    module("boards/%s.py" % options.board, base_path="..")
    scripts = os.path.join("main", options.board)
    for name in sorted(os.listdir(scripts)) if os.path.isdir(scripts) else ():
        if name.endswith(".py"):
            module(name, base_path=scripts)
