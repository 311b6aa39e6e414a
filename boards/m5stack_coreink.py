# M5Stack CoreInk: ESP32-PICO-D4 + 1.54" 200x200 GDEW0154M09 e-paper (JD79653A), a
# 3-way dial, a top button and the power button. Wiring only. Pins per M5Stack's
# CoreInk library (M5Core-Ink src/utility/config.h).
#
# WIRING (all on the board)
#   e-paper           ESP32               buttons (all read 0 when pressed)
#   MOSI              GPIO23              PREV   dial up        GPIO37
#   SCK               GPIO18              NEXT   dial down      GPIO39
#   CS                GPIO9               OK     dial press     GPIO38
#   DC                GPIO15              BACK   top button     GPIO5
#   RST               GPIO0               MENU   power button   GPIO27
#   BUSY              GPIO4 (low = busy)
#   power latch       GPIO12: held high, or the board switches itself off on battery
#   battery           GPIO35, through a 1:1 divider
# Wake from deep sleep: the dial press (GPIO38 low, ext0); the latch is held through it,
# and through a restart (a deep sleep of a moment: machine.reset() would release it).
import gc

from machine import SPI, Pin

from boards.device import (Board, UsbSerial, deep_sleep_on, journal_partition,
                           latch_presses, light_sleep_on)
from firmware.buttons import Buttons, active_low
from firmware.codes import BACK, MENU, NEXT, OK, PREV

NAME = "m5stack_coreink"
EXT0_WAKE_PIN = 38  # level 0


def restart_keeping(latch):
    # A restart() for a board that powers itself through `latch` (the CoreInk's GPIO12):
    # machine.reset() would release it, and on battery the board would switch off. A
    # deep sleep of a moment holds it (as deep_sleep_on does) and boots again.
    def restart():
        import machine

        latch.init(hold=True)
        machine.deepsleep(10)

    return restart


def open():
    latch = Pin(12, Pin.OUT, value=1)  # first: keep the board powered
    # Released after a deep sleep that held it (the ESP32 port's Pin takes `hold`; the
    # stubs do not list it).
    latch.init(hold=False)  # pyright: ignore[reportCallIssue]
    spi = SPI(2, baudrate=10000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(23))
    cs = Pin(9, Pin.OUT, value=1)
    dc = Pin(15, Pin.OUT, value=0)
    rst = Pin(0, Pin.OUT, value=1)
    busy = Pin(4, Pin.IN)
    gc.collect()  # the two frame buffers want contiguous blocks
    from firmware.display.jd79653a import JD79653A

    display = JD79653A(spi, cs, dc, rst, busy, rotate=0, full_every=10)
    up = Pin(37, Pin.IN)  # 37-39: input only, pulled up on the board
    down = Pin(39, Pin.IN)
    mid = Pin(38, Pin.IN)
    top = Pin(5, Pin.IN, Pin.PULL_UP)
    power = Pin(27, Pin.IN, Pin.PULL_UP)
    buttons = Buttons([(active_low(up), PREV), (active_low(down), NEXT),
                       (active_low(mid), OK), (active_low(top), BACK),
                       (active_low(power), MENU)])
    board = Board(NAME, display, buttons, journal_partition(), serial=UsbSerial(),
                  deep_sleep=deep_sleep_on(display, low=mid, keep=(latch,)),
                  light_sleep=light_sleep_on(low=mid),
                  restart=restart_keeping(latch), wake_pins=(mid,), battery=35)
    latch_presses(board, (up, down, mid, top, power))
    return board
