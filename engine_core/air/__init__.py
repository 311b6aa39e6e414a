# The radio's frames and their MAC, spoken by the scorers and the base station (firmware/radio/) and the PC (host_tools/events/radio.py).
