# LilyGO T5 V2.3.1 2.13": ESP32 + DEPG0213BN e-paper (SSD1680, 250x122 visible of a
# 128x250 RAM) + its one user button, plus two buttons added on the header: a 3-button
# board, so long presses stand in for BACK and MENU. Wiring only.
#
# WIRING (e-paper and IO39 on the board; pins per LilyGO's T5 V2.13 pin definitions)
#   e-paper           ESP32               buttons
#   MOSI              GPIO23              OK     IO39 (on board, reads 0 when pressed)
#   SCK               GPIO18              PREV   GPIO32 header: to 3V3, 10k to GND
#   CS                GPIO5               NEXT   GPIO33 header: to 3V3, 10k to GND
#   DC                GPIO17
#   RST               GPIO16
#   BUSY              GPIO4
#   long press: OK -> MENU, PREV -> BACK, NEXT -> LONG|NEXT
# Wake from deep sleep: IO39 low (ext0), GPIO32/33 high (ext1 ANY_HIGH). The SD card
# (13, 15, 2, 14) and LED (19) are not used. The battery: GPIO35, through a 100k/100k
# divider (LilyGO's T5 V2.3 schematic, the BAT_ADC net, read times 2; a board revision
# with other resistors reads wrong here: check the cell with a meter against the
# self-test's reading). The OK button is on GPIO39: powering the SAR ADC (a
# battery read, WiFi starting) glitches it (ESP32 errata 3.11; firmware/buttons.py).
import gc

from machine import SPI, Pin

from boards.device import (Board, UsbSerial, deep_sleep_on, journal_partition,
                           latch_presses, light_sleep_on, restart)
from firmware.buttons import Buttons, active_low
from firmware.codes import BACK, MENU, NEXT, OK, PREV

NAME = "lilygo_t5_213"
BATTERY_GPIO = 35
DIVIDER = (2, 1)        # the cell's volts are GPIO35's x 2/1 (100k over 100k)
TX_DBM = 8.5            # a 2.13" board on its own cell, within a card table's reach


def open():
    spi = SPI(2, baudrate=10000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(23))
    cs = Pin(5, Pin.OUT, value=1)
    dc = Pin(17, Pin.OUT, value=0)
    rst = Pin(16, Pin.OUT, value=1)
    busy = Pin(4, Pin.IN)
    gc.collect()  # the frame buffer wants a contiguous block
    from firmware.display.ssd1680 import SSD1680

    # rotate=180 if the picture comes out upside down on your board
    display = SSD1680(spi, cs, dc, rst, busy, width=250, height=122, rotate=0,
                      full_every=10)
    ok = Pin(39, Pin.IN)  # input only, pulled up on the board
    prev = Pin(32, Pin.IN, Pin.PULL_DOWN)
    nxt = Pin(33, Pin.IN, Pin.PULL_DOWN)
    buttons = Buttons([(active_low(ok), OK, MENU), (prev, PREV, BACK), (nxt, NEXT)],
                      glitchy=(0,))    # OK, on GPIO39
    board = Board(NAME, display, buttons, journal_partition(), serial=UsbSerial(),
                  deep_sleep=deep_sleep_on(display, high=(prev, nxt), low=ok),
                  light_sleep=light_sleep_on(high=(prev, nxt), low=ok),
                  restart=restart, wake_pins=(ok, prev, nxt), battery=BATTERY_GPIO,
                  wakes_on_every_button=True, battery_ratio=DIVIDER, tx_dbm=TX_DBM)
    latch_presses(board, (ok, prev, nxt))
    return board
