# What every ESP32 board file shares: the Board with the attributes boards/__init__.py
# lists, the USB serial, the journal partition, the RTC clock, the button edge counters,
# the light and deep sleeps, the watchdog and the battery.
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
                 light_sleep=None, battery=None, wakes_on_every_button=False,
                 battery_ratio=None, tx_dbm=8):
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
        self.battery = battery      # the GPIO of the cell's ADC (firmware/battery.py)
        self.battery_ratio = battery_ratio  # (num, den): the cell is the pin's volts x num/den
        self.tx_dbm = tx_dbm        # the radio's transmit power (WLAN.config(txpower=))
        self.wakes_on_every_button = wakes_on_every_button   # may nap in a refresh
        self._wdt = None
        self.self_test_first = True     # the self-test at the first boot (firmware/ui)
        display.feed = self.feed    # the panel's waits feed the watchdog too
        self.rtc = RtcClock()
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms

    def radio(self):
        # The ESP32's radio for ESP-NOW (firmware/radio/air.py): the station interface,
        # not joined to any network, and ESP-NOW on it; see BoardWlan.
        import espnow
        import network

        return BoardWlan(self, network.WLAN(network.STA_IF)), espnow.ESPNow()

    def cpu_freq(self, hz):
        import machine

        machine.freq(hz)

    def woke(self):
        import machine

        return machine.reset_cause() == machine.DEEPSLEEP_RESET

    def hung(self):
        # This boot follows a watchdog reset (MicroPython's ports/esp32/modmachine.c maps
        # ESP_RST_TASK_WDT and the other watchdogs to WDT_RESET).
        import machine

        return machine.reset_cause() == machine.WDT_RESET

    # The watchdog: machine.WDT, started by the main loop (firmware/loop.py); feed() does
    # nothing before. The ESP32's cannot be stopped: MicroPython's ports/esp32/
    # machine_wdt.c makes WDT(timeout=) reconfigure the one task watchdog
    # (esp_task_wdt_reconfigure), so the REPL is handed the longest timeout
    # (firmware/link.py). It stands still in light sleep (ESP-IDF's esp_hw_support/
    # sleep_modes.c, suspend_timers); a deep sleep ends it.
    def start_watchdog(self, ms):
        import machine

        self._wdt = machine.WDT(timeout=ms)

    def feed(self):
        if self._wdt is not None:
            self._wdt.feed()


class UsbSerial:
    # The USB serial port as the REPL sees it. Before binary traffic the sync endpoint
    # must call micropython.kbd_intr(-1), or a 0x03 byte raises KeyboardInterrupt; a read
    # blocks until its count arrives.
    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer


class BoardWlan:
    # The station interface as the board starts it (firmware/radio/air.py calls active,
    # config):
    # - not below the cell's low mark (firmware/battery.py LOW_MV): a transmit's
    #   current on a weak cell browns the board out. OSError("battery low"), as the
    #   port's own errors come (ports/esp32/network_common.c, esp_exceptions: ESP_ERR_
    #   NO_MEM is OSError("WiFi Out of Memory")); the sender backs off on either.
    # - the buttons on GPIO36/39 hushed while it starts: powering the SAR ADC (which
    #   WiFi does) pulls them low for about 80 ns (ESP32 errata 3.11), which their IRQ
    #   would log as a tap (firmware/buttons.py, hush).
    # - at the board's transmit power (txpower in dBm, set once the interface is started:
    #   network_wlan.c, esp_wifi_set_max_tx_power).
    def __init__(self, board, wlan):
        self._board = board
        self._wlan = wlan

    def active(self, *on):
        w = self._wlan
        if not on or not on[0]:
            return w.active(*on)
        b = self._board
        if b.battery is not None:
            from firmware import battery
            if battery.millivolts(b) < battery.LOW_MV:
                raise OSError("battery low")
        hush = getattr(b, "hush", None)
        if hush is not None:
            hush(True, b.ticks_ms())
        try:
            w.active(True)
            w.config(txpower=b.tx_dbm)
        finally:
            if hush is not None:
                hush(False, b.ticks_ms())
        return True

    def config(self, *args, **kw):
        return self._wlan.config(*args, **kw)


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
    #
    # What the chip does (MicroPython's ports/esp32/machine_rtc.c and modtime.c read
    # gettimeofday, whose seconds count from 2000-01-01, the port's epoch): ESP-IDF's
    # system time is 0 at power-on, so the date reads 2000-01-01 00:00:00 then; it runs on
    # the RTC timer through deep sleep and every reset but a power-on, and the RTC slow
    # clock it counts by in deep sleep is the 150 kHz RC oscillator, off by several %
    # with temperature. The RTC's user memory is RTC_NOINIT (machine_rtc.c): kept through
    # deep sleep and resets, lost at power-on (its magic no longer matches). So until a
    # sync sets the clock, the date is the seconds since power-on, and the power-on's
    # tag (engine_core.stamp), drawn at random and kept in that memory as b"u<tag>",
    # tells this power-on's count from an earlier one's.
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

    def count(self):
        # (seconds since power-on, the power-on's tag) of a clock not set: the RTC's
        # date is 2000-01-01 plus that count. The tag is drawn at the first call after a
        # power-on and kept in the RTC's memory.
        import os
        import time

        import machine

        from engine_core import stamp

        rtc = machine.RTC()
        y, mo, d, wd, h, mi, s, _ = rtc.datetime()
        secs = time.mktime((y, mo, d, h, mi, s, 0, 0)) - time.mktime((2000, 1, 1, 0, 0, 0, 0, 0))
        mem = rtc.memory()
        if mem[:1] == b"u" and mem[1:].isdigit():
            tag = int(mem[1:]) % stamp.TAGS
        else:
            tag = os.urandom(1)[0] % stamp.TAGS
            rtc.memory(b"u%d" % tag)
        return max(secs, 0), tag


def latch_presses(board, pins):
    # A pin IRQ on both edges of each button (pins[i] is the Pin of the i-th entry of
    # board.buttons), and the timer whose ticks show when the scheduler stalled: a tap
    # shorter than the main loop's busiest moment is still counted (firmware/buttons.py
    # says how).
    #
    # Both are scheduled callbacks, in MicroPython's queue of 8 (py/scheduler.c; ports/
    # esp32/mpconfigport.h MICROPY_SCHEDULER_DEPTH), and a periodic timer's alarm would
    # add a tick to it every 10 ms of a long C call with the interrupts on (the radio
    # coming on: wlan.active), filling it in 80 ms; then the buttons' edges are lost.
    # So the timer is one-shot, armed again by its tick: one tick waits at most.
    from machine import Timer

    buttons = board.buttons
    for i in range(len(pins)):
        def edge(p, i=i):
            buttons.edge(i, board.ticks_ms())

        pins[i].irq(handler=edge, trigger=3)    # Pin.IRQ_FALLING | Pin.IRQ_RISING

    def tick(t):    # every 10 ms: firmware/buttons.py's _TICK_MS
        buttons.tick(board.ticks_ms())
        t.init(period=10, mode=Timer.ONE_SHOT, callback=tick)

    board.ticker = Timer(0)     # kept: a Timer collected while it runs is a crash
    board.ticker.init(period=10, mode=Timer.ONE_SHOT, callback=tick)

    def rearm():
        # A tick that found the scheduler's queue full was dropped (ports/esp32/
        # machine_timer.c, machine_timer_handler: mp_sched_schedule's result ignored),
        # and with it the re-arming: the main loop's poll arms it again.
        board.ticker.init(period=10, mode=Timer.ONE_SHOT, callback=tick)

    buttons.rearm = rearm
    board.hush = buttons.hush   # a battery read and WiFi's start hush GPIO36/39's buttons


def _arm(high, low):
    # ext0/ext1 wake the ESP32 from light sleep as from deep sleep (MicroPython's ESP32
    # port arms them for both).
    import esp32

    if high:
        esp32.wake_on_ext1(high, esp32.WAKEUP_ANY_HIGH)
    if low is not None:
        esp32.wake_on_ext0(low, esp32.WAKEUP_ALL_LOW)


def light_sleep_on(high=(), low=None):
    # A light_sleep(ms) for a board: the same wake buttons as deep_sleep_on. The sleep
    # routes them to the RTC domain (ESP-IDF's sleep_modes.c, ext0_wakeup_prepare and
    # ext1_wakeup_prepare: rtcio_hal_function_select(.., RTCIO_LL_FUNC_RTC), and ext1
    # holds them) and nothing routes them back: they would read 0 and lose their IRQs.
    # A mode-setting Pin.init() does (MicroPython's machine_pin.c, rtc_gpio_deinit), and
    # hold=False releases the ext1 hold.
    def enter(ms):
        import machine

        _arm(high, low)
        machine.lightsleep(ms)
        for pin in high:
            pin.init(machine.Pin.IN, machine.Pin.PULL_DOWN, hold=False)
        if low is not None:
            low.init(machine.Pin.IN)

    return enter


def deep_sleep_on(display, high=(), low=None, keep=()):
    # A deep_sleep(ms=None) for a board: wake when any pin of `high` reads 1 (ext1,
    # active-high buttons with pull-downs) or when `low` reads 0 (ext0, one active-low
    # button), or after ms; the output pins in `keep` (a power latch) hold their level
    # while the ESP32 sleeps. All of them must be RTC-capable: GPIO 0, 2, 4, 12-15, 25-27,
    # 32-39. A panel that no longer answers (its BUSY stuck) does not keep the board awake.
    def enter(ms=None):
        import machine

        try:
            display.sleep()
        except Exception:   # firmware.display.DisplayError, or the bus itself
            pass
        _arm(high, low)
        for pin in keep:
            pin.init(hold=True)
        if ms:
            machine.deepsleep(ms)
        else:
            machine.deepsleep()

    return enter
