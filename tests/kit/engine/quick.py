# make check's inner loop runs the MicroPython suites quick (TALLY42_QUICK=1): the
# power-cut sweeps take every seventh cut and the last (journalrig.cut_points), the random
# sweeps fewer sittings (scaled), and tests/mp_run.py leaves out the tests a module names
# in its SLOW tuple. make test runs everything on both unix ports; the bare-metal board
# (tests/kit/qemurig.py) runs the suites quick, its runner setting QUICK (the port has no
# environment).
import os

_getenv = getattr(os, "getenv", lambda k: None)
QUICK = _getenv("TALLY42_QUICK") == "1"


def scaled(full, quick):
    """full in make test, quick in make check's inner loop."""
    return quick if QUICK else full


def setting(name, default):
    """An integer from the environment (TALLY42_<name>), else default."""
    return int(_getenv("TALLY42_" + name) or default)
