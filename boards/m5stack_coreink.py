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
#   battery           GPIO35, divided by 25.1/5.1 (about 4.92): M5Stack's own
#                     Ink_Core::getBatVoltage (M5Core-Ink src/M5CoreInk.cpp) reads
#                     analogRead(35), 11 dB, and multiplies the calibrated mV by 25.1 / 5.1
#   BM8563 RTC        I2C SDA GPIO21, SCL GPIO22, address 0x51 (its own crystal)
# Wake from deep sleep: the dial press (GPIO38 low, ext0); the latch is held through it.
#
# The latch is set high and held (gpio_hold_en) for the whole run: a pad's hold lasts
# until power down or gpio_hold_dis (ESP-IDF's driver/gpio.h: it keeps the pad "when the
# chip or system is reset (e.g. watchdog time-out, deep-sleep events)"). GPIO12 is an RTC
# pad (RTC_GPIO15), its hold kept in the RTC domain, which only a power-on or an RTC
# reset clears. machine.reset() is esp_restart() (MicroPython's ports/esp32/modmachine.c,
# mp_machine_reset), and on the ESP32 that resets the two CPUs, the radio and the digital
# peripherals (ESP-IDF's esp_system/port/soc/esp32/system_internal.c, esp_restart_noos and
# esp_system_reset_modules_on_exit), not the RTC domain: so a panic reset (the watchdog's
# end of a hang: machine.WDT on the port is the task watchdog, which panics), a
# brown-out's restart or machine.reset() all restart the board with the latch still
# high, instead of letting it go and switching the board off on battery. M5Stack's own
# library holds it likewise through its sleeps. Nothing releases it: the power button's
# long hold (the board's own circuit) switches it off.
#
# No light sleep: the ESP32 wakes from it by ext0 (one pin), ext1 (RTC pins, all low or
# any high: the dial and buttons read 0 when pressed, and GPIO5 is no RTC pin) or a
# GPIO level (esp32.wake_on_gpio, which leaves the pin's interrupt set to that level
# after the wake: ESP-IDF's gpio_wakeup_enable, so the edge IRQ the buttons need would
# fire for as long as the button is held). Only the dial press could wake it, and the
# other buttons' presses would be lost while it sleeps: it stays awake at the low clock
# until it deep-sleeps (firmware/power.py).
# The dial down is on GPIO39: powering the SAR ADC glitches it (ESP32 errata 3.11;
# firmware/buttons.py).
import gc

from machine import SPI, Pin

from boards.device import (Board, RtcClock, UsbSerial, deep_sleep_on, journal_partition,
                           latch_presses)
from firmware.buttons import Buttons, active_low
from firmware.codes import BACK, MENU, NEXT, OK, PREV

NAME = "m5stack_coreink"
BATTERY_GPIO = 35
DIVIDER = (251, 51)     # the cell's volts are GPIO35's x 25.1/5.1
TX_DBM = 8.5            # its small chip antenna on a 390 mAh cell: within a card table's reach


_BM8563 = 0x51


def _bcd(v):
    return (v >> 4) * 10 + (v & 0x0F)


def _to_bcd(v):
    return (v // 10) << 4 | v % 10


class Bm8563Clock(RtcClock):
    # The ESP32's RTC runs through deep sleep on its 150 kHz RC oscillator, a few % off:
    # the BM8563, on its own 32.768 kHz crystal, keeps the time. Set with the ESP32's;
    # read into it at boot (registers 0x02-0x08, BCD: seconds with the VL bit, which says
    # the time was lost, minutes, hours, day, weekday, month with the century bit, year).
    def __init__(self, i2c):
        self._i2c = i2c

    def set(self, unix_seconds, utc_offset_minutes=0):
        RtcClock.set(self, unix_seconds, utc_offset_minutes)
        import machine

        y, mo, d, wd, h, mi, s, _ = machine.RTC().datetime()
        self._i2c.writeto_mem(_BM8563, 0x02, bytes((
            _to_bcd(s), _to_bcd(mi), _to_bcd(h), _to_bcd(d), wd % 7,
            _to_bcd(mo) | (0x80 if y >= 2100 else 0), _to_bcd(y % 100))))

    def load(self):
        """The chip's time into the ESP32's RTC, unless the chip lost it."""
        r = self._i2c.readfrom_mem(_BM8563, 0x02, 7)
        if r[0] & 0x80:
            return False
        import machine

        y = 2000 + _bcd(r[6]) + (100 if r[5] & 0x80 else 0)
        machine.RTC().datetime((y, _bcd(r[5] & 0x1F), _bcd(r[3] & 0x3F), r[4] & 7,
                                _bcd(r[2] & 0x3F), _bcd(r[1] & 0x7F), _bcd(r[0] & 0x7F), 0))
        return True


def restart_keeping(latch):
    # A restart() for a board that powers itself through `latch` (the CoreInk's GPIO12):
    # the latch's hold is set again (should anything have released it since boot), then
    # machine.reset(), which keeps a held pad as it is (see above): the board restarts,
    # powered all the while, and boots as after any reset (not as a wake from sleep).
    def restart():
        import machine

        latch.init(hold=True)
        machine.reset()

    return restart


def open():
    latch = Pin(12, Pin.OUT, value=1)  # first: keep the board powered...
    # ...and held so for the whole run (see above; the ESP32 port's Pin takes `hold`, the
    # stubs do not list it).
    latch.init(hold=True)  # pyright: ignore[reportCallIssue]
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
                       (active_low(power), MENU)], glitchy=(1,))   # dial down: GPIO39
    board = Board(NAME, display, buttons, journal_partition(), serial=UsbSerial(),
                  deep_sleep=deep_sleep_on(display, low=mid, keep=(latch,)),
                  restart=restart_keeping(latch), wake_pins=(mid,), battery=BATTERY_GPIO,
                  battery_ratio=DIVIDER, tx_dbm=TX_DBM)
    latch_presses(board, (up, down, mid, top, power))
    from machine import I2C

    board.rtc = Bm8563Clock(I2C(0, scl=Pin(22), sda=Pin(21), freq=400000))
    try:
        board.rtc.load()
    except OSError:     # no answer on the bus: the ESP32's own clock, as elsewhere
        pass
    return board
