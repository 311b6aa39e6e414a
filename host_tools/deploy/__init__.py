# Putting the device code on a board: the copy over the REPL, the board probe and the board file check.
