# The one place where CPython and MicroPython differ for engine_core.
try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython

    def const(x):
        return x
