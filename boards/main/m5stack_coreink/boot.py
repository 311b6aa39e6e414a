# M5Stack CoreInk (tally42 deploy writes it, frozen builds carry it): on battery the
# board stays on only while its power latch, GPIO12, is high. Set here, before any
# import can take time or fail.
from machine import Pin
Pin(12, Pin.OUT, value=1)
