# Tally 42 on the m5stack_coreink board: tally42 deploy writes it, frozen builds carry it
# (boards/main/). All of the boot, opening the board included, runs inside the
# firmware's crash handler (firmware/start.py).
from firmware import start
start.main("m5stack_coreink")
