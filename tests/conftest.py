# tests/mp holds MicroPython-only tests (framebuf, heap_lock): run by tests/mp_run.py.
collect_ignore = ["mp", "mp_run.py"]
