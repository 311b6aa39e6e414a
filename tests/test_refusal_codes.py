"""The engine modules on the device path keep private copies of the refusal codes of
engine_core/errors.py (a private const costs no heap under MicroPython, a module's names
do): every copy must be the code errors.py gives. CPython only (MicroPython folds the
private constants away)."""
import importlib

from engine_core import errors

MODULES = ("engine_core.sitting", "engine_core.history", "engine_core.gin.sitting",
           "engine_core.messages", "engine_core.gin.messages", "engine_core.scoring")


def test_every_private_refusal_code_is_the_one_errors_py_gives():
    seen = 0
    for name in MODULES:
        m = importlib.import_module(name)
        for attr in dir(m):
            if attr == "_OK" or attr.startswith("_E_"):
                assert getattr(m, attr) == getattr(errors, attr[1:]), (name, attr)
                seen += 1
    assert seen >= 80       # sitting and messages copy nearly all of them


def test_the_device_path_does_not_load_errors_py():
    # Neither module imports it: its names stay out of the device's heap.
    for name in MODULES:
        with open(importlib.import_module(name).__file__) as f:
            assert "engine_core.errors" not in f.read().replace(
                "engine_core/errors.py", ""), name


def test_the_scoring_modules_state_slots_are_the_sittings():
    # engine_core/scoring.py reads and writes the sitting's state by private copies of
    # its slot numbers: each must be the slot sitting.py has under that name.
    from engine_core import scoring, sitting
    seen = 0
    for attr in dir(scoring):
        if attr.startswith("_") and attr[1:2].isupper() and not attr.startswith("_E_") \
                and attr != "_OK":
            assert getattr(scoring, attr) == getattr(sitting, attr), attr
            seen += 1
    assert seen >= 8
