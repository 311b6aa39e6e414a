# Boards: one module per board, holding its wiring and nothing else (esp32_epd29,
# lilygo_t5_213, m5stack_coreink; sim runs the firmware on the unix port). A device board
# module offers
#
#     open() -> Board
#
# and the firmware uses every board, the sim included, through these attributes only:
#
#   display        a firmware.display driver (framebuf.FrameBuffer subclass): width,
#                  height, the drawing methods, show(full=False), ready(),
#                  wait_until_ready(timeout_ms) -> bool, sleep()
#   buttons        poll(now_ms) -> a firmware.buttons code (LONG or-ed in for a long
#                  press), 0 when nothing happened; the sim may return -1: stop.
#                  skip_held(now_ms): ignore the press that woke the board
#   flash          the journal's block device: readblocks(block, buf, offset=0),
#                  writeblocks(block, buf, offset), ioctl(op, arg) (4 block count,
#                  5 block size, 6 erase). On a device the esp32.Partition labelled
#                  "journal"; None if the partition table has none (say so on screen).
#   settings_path  the file firmware.settings keeps
#   serial         the USB serial link: .rx (read/readinto) and .tx (write) byte streams
#                  (sys.stdin.buffer / sys.stdout.buffer; see UsbSerial)
#   ticks_ms(), sleep_ms(ms)   the clock: compare ticks only with time.ticks_diff
#   deep_sleep()   the panel to sleep, the buttons armed to wake the ESP32, then
#                  machine.deepsleep(): the program starts again from main.py on a press
#   light_sleep(ms)  the buttons armed, then machine.lightsleep(ms): returns on a press
#                  or after ms, RAM and program kept (firmware/power.py)
#   cpu_freq(hz)   machine.freq(hz)
#   woke()         True when this boot is a wake from deep sleep (the wake press is
#                  still held: no safe mode)
#   restart()      machine.reset()
#   rtc            the time of day kept in the ESP32's RTC, which runs through deep
#                  sleep: set(unix_seconds, utc_offset_minutes), now() -> (unix seconds,
#                  offset), unix 0 when never set (see RtcClock)
#   name, wake_pins
#
# main.py on a device is two lines (the board is opened inside the crash handler):
#     from firmware import start
#     start.main("esp32_epd29")
#
# Nothing here imports machine or esp32 at import time: the sim imports this package on
# the unix port, where they do not exist.
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


class UsbSerial:
    # The USB serial port as the REPL sees it. Before binary traffic the sync endpoint
    # must call micropython.kbd_intr(-1), or a 0x03 byte raises KeyboardInterrupt; a read
    # blocks until its count arrives.
    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer


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
