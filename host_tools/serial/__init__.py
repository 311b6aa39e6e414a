# The link to a board: sync with a running scorer over serial, and deploy onto one.
