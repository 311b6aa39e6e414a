# What every ESP32 board file shares: the Board with the attributes boards/__init__.py
# lists, the USB serial, the journal partition, the RTC clock, the button latches, the
# light and deep sleeps.
#
# Nothing here imports machine or esp32 at import time, so that host tests can import it
# with fakes of them in place.
import sys
from time import sleep_ms, ticks_ms

JOURNAL_LABEL = "journal"
SETTINGS_PATH = "/tally42.settings"


class Board:
    def __init__(self, name, display, buttons, flash, serial=None,
                 settings_path=SETTINGS_PATH, deep_sleep=None, restart=None, wake_pins=(),
                 light_sleep=None):
        self.name = name
        self.display = display
        self.buttons = buttons
        self.flash = flash
        self.serial = serial
        self.settings_path = settings_path
        self.deep_sleep = deep_sleep
        self.restart = restart
        self.wake_pins = wake_pins
        self.light_sleep = light_sleep
        self.cpu_freq = cpu_freq
        self.woke = woke
        self.rtc = RtcClock()
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms
        self.radio = radio


class UsbSerial:
    # The USB serial port as the REPL sees it. Before binary traffic the sync endpoint
    # must call micropython.kbd_intr(-1), or a 0x03 byte raises KeyboardInterrupt; a read
    # blocks until its count arrives.
    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer


def radio():
    # The ESP32's radio for ESP-NOW (firmware/radio/air.py): the station interface, not
    # joined to any network, and ESP-NOW on it.
    import espnow
    import network

    return network.WLAN(network.STA_IF), espnow.ESPNow()


def journal_partition():
    # The data partition labelled "journal" (made by the deploy step's partition table).
    import esp32

    found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label=JOURNAL_LABEL)
    return found[0] if found else None


def restart():
    import machine

    machine.reset()


_SET_AFTER = 1600000000     # an RTC earlier than Sept. 2020 was never set (it starts at 2000)


class RtcClock:
    # The PC's time (tally42 sync sets it) kept in machine.RTC: it runs on through deep
    # sleep, so sittings begun after a wake still carry their date. The UTC offset sits
    # in the RTC's memory, which deep sleep keeps too.
    def _epoch(self):
        import time

        return time.mktime((1970, 1, 1, 0, 0, 0, 0, 0))    # 0, or -946684800 (2000 epoch)

    def set(self, unix_seconds, utc_offset_minutes=0):
        import time

        import machine

        t = time.gmtime(unix_seconds + self._epoch())
        rtc = machine.RTC()
        rtc.datetime((t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0))
        rtc.memory(b"%d" % utc_offset_minutes)

    def now(self):
        import time

        import machine

        rtc = machine.RTC()
        y, mo, d, wd, h, mi, s, _ = rtc.datetime()
        unix = time.mktime((y, mo, d, h, mi, s, 0, 0)) - self._epoch()
        if unix < _SET_AFTER:
            return 0, 0
        try:
            offset = int(rtc.memory() or b"0")
        except ValueError:
            offset = 0
        return unix, offset


def latch_presses(buttons, pins):
    # Arm a pin IRQ on each button's press edge: pins[i] = (Pin, trigger) for the i-th
    # entry of `buttons` (Pin.IRQ_RISING for active-high, Pin.IRQ_FALLING for active-low).
    # A press shorter than the main loop's busiest moment is then still counted.
    from time import ticks_ms

    for i in range(len(pins)):
        pin, trigger = pins[i]

        def pressed(p, i=i):
            buttons.edge(i, ticks_ms())

        pin.irq(handler=pressed, trigger=trigger)


def cpu_freq(hz):
    import machine

    machine.freq(hz)


def woke():
    import machine

    return machine.reset_cause() == machine.DEEPSLEEP_RESET


def _arm(high, low):
    # ext0/ext1 wake the ESP32 from light sleep as from deep sleep (MicroPython's ESP32
    # port arms them for both).
    import esp32

    if high:
        esp32.wake_on_ext1(high, esp32.WAKEUP_ANY_HIGH)
    if low is not None:
        esp32.wake_on_ext0(low, esp32.WAKEUP_ALL_LOW)


def light_sleep_on(high=(), low=None):
    # A light_sleep(ms) for a board: the same wake buttons as deep_sleep_on.
    def enter(ms):
        import machine

        _arm(high, low)
        machine.lightsleep(ms)

    return enter


def deep_sleep_on(display, high=(), low=None, keep=()):
    # A deep_sleep() for a board: wake when any pin of `high` reads 1 (ext1, active-high
    # buttons with pull-downs) or when `low` reads 0 (ext0, one active-low button); the
    # output pins in `keep` (a power latch) hold their level while the ESP32 sleeps.
    # All of them must be RTC-capable: GPIO 0, 2, 4, 12-15, 25-27, 32-39.
    def enter():
        import machine

        display.sleep()
        _arm(high, low)
        for pin in keep:
            pin.init(hold=True)
        machine.deepsleep()

    return enter
