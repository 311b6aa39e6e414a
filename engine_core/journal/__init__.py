# The flash journal's on-flash format: blocks, records, the reader and damage checks (the device writes it, the PC reads images with the same reader).
