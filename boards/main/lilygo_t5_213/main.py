# Tally 42 on the lilygo_t5_213 board: tally42 deploy writes it, frozen builds carry it
# (boards/main/). All of the boot, opening the board included, runs inside the
# firmware's crash handler (firmware/start.py).
from firmware import start
start.main("lilygo_t5_213")
