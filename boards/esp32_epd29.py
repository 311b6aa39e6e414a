# The DIY reference build: ESP32 DevKit + 2.9" 296x128 SSD1680 e-paper module + five push
# buttons. Wiring only: the pins, the buses, the display, the button map, the wake pins.
#
# WIRING
#   e-paper module    ESP32               buttons: one leg to 3V3, the other to the pin
#   VCC               3V3                 and a 10k resistor to GND (pull-down)
#   GND               GND                 PREV (left)     GPIO32
#   DIN (MOSI/SDA)    GPIO23              NEXT (right)    GPIO33
#   CLK (SCK/SCL)     GPIO18              OK              GPIO25
#   CS                GPIO5               BACK            GPIO26
#   DC                GPIO22              MENU            GPIO27
#   RST (RES)         GPIO21
#   BUSY              GPIO4
#   battery (optional, a LiPo build): the cell's + through 100k to GPIO35, GPIO35
#   through 100k to GND (a 2:1 divider; GPIO35 is an input-only ADC1 pin, free of the
#   WiFi's ADC2 and of the boot straps). Unwired, GPIO35 floats: build without it by
#   setting BATTERY_GPIO = None.
# Pins 16/17 are avoided (PSRAM on WROVER DevKits). The buttons sit on RTC-capable pins
# and read 1 when pressed, so any of them wakes the ESP32 from deep sleep (ext1 ANY_HIGH).
import gc

from machine import SPI, Pin

from boards.device import (Board, UsbSerial, deep_sleep_on, journal_partition, latch_presses,
                           light_sleep_on, restart)
from firmware.buttons import Buttons
from firmware.codes import BACK, MENU, NEXT, OK, PREV

NAME = "esp32_epd29"
BUTTON_PINS = (32, 33, 25, 26, 27)  # PREV, NEXT, OK, BACK, MENU
BATTERY_GPIO = 35
DIVIDER = (2, 1)        # the cell's volts are GPIO35's x 2/1 (100k over 100k)
TX_DBM = 11             # a DevKit's PCB antenna, on its USB supply or a regulated cell


def open():
    spi = SPI(2, baudrate=4000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(23))
    cs = Pin(5, Pin.OUT, value=1)
    dc = Pin(22, Pin.OUT, value=0)
    rst = Pin(21, Pin.OUT, value=1)
    busy = Pin(4, Pin.IN)
    gc.collect()  # the frame buffer wants a contiguous block
    from firmware.display.ssd1680 import SSD1680

    display = SSD1680(spi, cs, dc, rst, busy, width=296, height=128, rotate=0,
                      full_every=10)
    prev, nxt, ok, back, menu = [Pin(n, Pin.IN, Pin.PULL_DOWN) for n in BUTTON_PINS]
    buttons = Buttons([(prev, PREV), (nxt, NEXT), (ok, OK), (back, BACK), (menu, MENU)])
    wake = (prev, nxt, ok, back, menu)
    board = Board(NAME, display, buttons, journal_partition(), serial=UsbSerial(),
                  deep_sleep=deep_sleep_on(display, high=wake), restart=restart,
                  light_sleep=light_sleep_on(high=wake),
                  wake_pins=wake, wakes_on_every_button=True, battery=BATTERY_GPIO,
                  battery_ratio=DIVIDER, tx_dbm=TX_DBM)
    latch_presses(board, wake)
    return board
