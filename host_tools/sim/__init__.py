# `tally42 sim`: the device firmware on the sim board, under the MicroPython unix port.
