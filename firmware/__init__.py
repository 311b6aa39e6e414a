# Tally 42 device program (MicroPython only): screens, input, journal, sync, over a board.
