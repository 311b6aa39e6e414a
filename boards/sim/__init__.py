# The emulated boards, never deployed to a chip: the sim board (board.py) with its flash, radio and program (main.py), the fake ESP32 chip (chip/), and the qemu board.
