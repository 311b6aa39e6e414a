# Tally 42 rules engine: pure Python shared by the device (MicroPython) and the PC (CPython).
