# The suites' files on the PC's disk, in a folder of this run's own: two runs at once (the
# 64-bit and the 32-bit port under `make -j2 test`) must not share a settings file, a
# flash image or the radio's air. The unix port has no getpid(); its random module is
# seeded from the system's at start, so the name differs from run to run.
import os
import random
import sys

FOLDER = "/tmp/tally42-mp-%06x" % random.getrandbits(24)
try:
    os.mkdir(FOLDER)
except OSError:
    pass


def path(name):
    """A file or folder `name` in this run's folder."""
    return FOLDER + "/" + name


def _remove(p):
    try:
        for n in os.listdir(p):
            _remove(p + "/" + n)
        os.rmdir(p)
    except OSError:
        try:
            os.remove(p)
        except OSError:
            pass


# Gone when the run ends, however it ends. The bare-metal port (tests/e2e/test_qemu.py) has no
# atexit: its file system is in the board's RAM, gone with the board.
if hasattr(sys, "atexit"):
    sys.atexit(lambda: _remove(FOLDER))
