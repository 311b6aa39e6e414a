# A FAKE of the ESP32 port's `machine` module for MicroPython's unix port (which has no
# Pin, SPI or RTC), faked at the bus: the board files open on it, drivers run on it under
# micropython.heap_lock(), and a test or the bench drives it (a pin's level, a timer's
# time, a C call that holds the interrupts back). Each class names what it copies from
# MicroPython's ports/esp32 (the source in ../shared/micropython) or ESP-IDF. One fake
# chip for the tests, the bench and the sim (boards/sim/chip/__init__.py install()).
from micropython import const

from boards.sim.chip.bm8563 import FakeBM8563

_TYPING = const(0)      # true for pyright only (pyproject.toml's defineConstant)
if _TYPING:
    from typing import Any


class FakePin:
    # An output records its level and counts edges; an input returns `level`, or is
    # scripted with hold(): the next n reads return a value, then it goes back to `level`.
    def __init__(self, level=0):
        self.level = level
        self.reads = 0
        self.rises = 0
        self.falls = 0
        self._held = 0
        self._held_level = 0

    def __call__(self, v=None):
        if v is None:
            return self.value()
        self.value(v)

    def value(self, v=None):
        if v is None:
            self.reads += 1
            if self._held > 0:
                self._held -= 1
                return self._held_level
            return self.level
        v = 1 if v else 0
        if v and not self.level:
            self.rises += 1
        elif self.level and not v:
            self.falls += 1
        self.level = v

    def hold(self, level, reads):
        # Simulate BUSY: `reads` more reads return `level`, then the resting level again.
        self._held_level = level
        self._held = reads

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class FakeSPI:
    # Records every byte written with the D/C level at that moment (0 = command, 1 =
    # data), into buffers made once. Bytes written while CS is high are counted as stray.
    # busy/busy_on/busy_reads: after a command byte in busy_on, the busy pin reads
    # `busy_level` for busy_reads reads, as a panel does while it refreshes.
    def __init__(self, dc, cs=None, capacity=65536, busy=None, busy_on=b"", busy_level=1,
                 busy_reads=0):
        self.dc = dc
        self.cs = cs
        self.out = bytearray(capacity)
        self.kind = bytearray(capacity)
        self.n = 0
        self.stray = 0
        self.overflow = 0
        self.busy = busy
        self.busy_on = busy_on
        self.busy_level = busy_level
        self.busy_reads = busy_reads

    def write(self, buf):
        dc = self.dc.level
        selected = self.cs is None or self.cs.level == 0
        for i in range(len(buf)):
            b = buf[i]
            if not selected:
                self.stray += 1
            elif self.n >= len(self.out):
                self.overflow += 1
            else:
                self.out[self.n] = b
                self.kind[self.n] = dc
                self.n += 1
            if dc == 0 and self.busy is not None and b in self.busy_on:
                self.busy.hold(self.busy_level, self.busy_reads)

    def clear(self):
        self.n = 0
        self.stray = 0
        self.overflow = 0

    def commands(self):
        # The stream as [(command, parameter bytes)], for comparing with a datasheet flow.
        cmds = []
        i = 0
        while i < self.n:
            if self.kind[i] != 0:
                raise AssertionError("data byte 0x%02x before any command" % self.out[i])
            j = i + 1
            while j < self.n and self.kind[j] == 1:
                j += 1
            cmds.append((self.out[i], bytes(self.out[i + 1:j])))
            i = j
        return cmds


# -- the machine module's classes, as the port's --


class _FakePinClass(FakePin):
    # machine.Pin: Pin(id, mode, pull, value=..., hold=...). The newest Pin made for an id
    # is kept in FakeMachine.pins, so a test can press the button a board wired; drive()
    # is the outside world changing an input's level (a finger, noise).
    #
    # As on the chip (MicroPython's ports/esp32/machine_pin.c and ESP-IDF):
    # - an IRQ handler is scheduled (machine_pin_isr_handler: mp_sched_schedule), so it
    #   runs at once only while Python code runs; FakeMachine.block() stands for a long
    #   C call (see there);
    # - a sleep's ext0/ext1 wake routes the pin to the RTC domain (esp_hw_support
    #   sleep_modes.c, ext0/ext1_wakeup_prepare) and ext1 holds it: it then reads 0 and
    #   raises no IRQ until a mode-setting init() (machine_pin_obj_init_helper:
    #   rtc_gpio_deinit), which a held pad only obeys once init(hold=False) frees it.
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 1
    IRQ_RISING = 2

    registry: "dict | None" = None
    machine: "FakeMachine | None" = None
    irq_handler = None
    irq_trigger = 0

    def irq(self, handler=None, trigger=3):
        self.irq_handler = handler
        self.irq_trigger = trigger

    def __init__(self, id, mode=-1, pull=-1, value=None, hold=None):
        FakePin.__init__(self, 1 if pull == self.PULL_UP else 0)
        self.id = id
        self.mode = None
        self.pull = None
        self.hold_on = False
        self.rtc = False        # routed to the RTC domain by a sleep's wake
        self.init(mode, pull, value=value, hold=hold)
        _FakePinClass.registry[id] = self

    def init(self, mode=-1, pull=-1, value=None, hold=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)
        if hold is not None:
            self.hold_on = hold
        if mode not in (-1, None) and not self.hold_on:
            self.rtc = False

    def value(self, v=None):
        if v is None and self.rtc:
            self.reads += 1
            return 0
        return FakePin.value(self, v)

    def drive(self, level):
        old = self.level
        self.level = level
        if self.rtc or self.irq_handler is None or level == old:
            return
        if self.irq_trigger & (self.IRQ_RISING if level else self.IRQ_FALLING):
            _FakePinClass.machine.schedule(self)


class _FakeSPIClass:
    made = []

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None,
                 miso=None):
        _FakeSPIClass.made.append(self)
        self.id = id
        self.baudrate = baudrate
        self.mode = (polarity, phase)
        self.sck = sck
        self.mosi = mosi
        self.written = 0

    def write(self, buf):
        self.written += len(buf)


class _FakeRTCClass:
    # machine.RTC(): every instance is the one clock (as on the chip), starting at
    # 2000-01-01 as an ESP32's does at power-on; memory() is the RTC's user memory. Each
    # read of the date is a new tuple on the heap, as MicroPython's ports/esp32
    # machine_rtc.c makes it (machine_rtc_datetime_helper: mp_obj_new_tuple).
    state: "dict | None" = None

    def datetime(self, t=None):
        if t is None:
            return tuple([x for x in _FakeRTCClass.state["datetime"]])
        _FakeRTCClass.state["datetime"] = tuple(t)

    def memory(self, data=None):
        if data is None:
            return _FakeRTCClass.state["memory"]
        _FakeRTCClass.state["memory"] = bytes(data)


class _FakeWDTClass:
    # machine.WDT(id, timeout): one watchdog, reconfigured by each new WDT (MicroPython's
    # ports/esp32/machine_wdt.c: esp_task_wdt_reconfigure). expired(now) says whether it
    # has bitten; the clock that owns the time asks (light sleep stops it: ESP-IDF's
    # sleep_modes.c, suspend_timers).
    timeout = None
    fed_at = None
    feeds = 0
    now = None      # the clock: a callable, set by the test

    def __init__(self, id=0, timeout=5000):     # (the port takes both by keyword too)
        _FakeWDTClass.timeout = timeout
        self.feed()

    def feed(self):
        _FakeWDTClass.feeds += 1
        _FakeWDTClass.fed_at = _FakeWDTClass.now() if _FakeWDTClass.now else 0


def sar_glitch(clock=None, ms=0):
    # ESP32 errata 3.11: powering the SAR ADC (an ADC read, WiFi's start) pulls GPIO36
    # and GPIO39 low for about 80 ns. In a C call with the interrupts on, of ms (clock: a
    # FakeClock, moved on by it): each edge's handler is scheduled and runs after,
    # reading the level as it is then.
    m = _FakePinClass.machine
    pins = [m.pins[g] for g in (36, 39) if g in m.pins and m.pins[g].level]
    m.block(isr=True)
    for p in pins:
        p.drive(0)
        p.drive(1)
    if clock is not None:
        clock.t += ms
    m.unblock()


class _FakeADCClass:
    # machine.ADC(Pin(gpio), atten=...): read_uv() of the cell (FakeMachine.ADC.cell, a
    # FakeCell; 0 with none) behind the board's divider (ADC.ratio: the board file's
    # (num, den), the cell's volts being the pin's x num/den; set by the test from the
    # board it opened). As the esp32 port reads it (ports/esp32/adc.c,
    # madcblock_read_uv_helper): a 12-bit raw step (adc_oneshot_read, the block's width
    # ADC_WIDTH_MAX), turned into whole millivolts by the calibration scheme
    # (adc_cali_raw_to_voltage), x 1000. At 11 dB the ESP32's ADC spans about 0-3.1 V
    # (ESP-IDF's ADC docs: 150-2450 mV within its best accuracy, saturating near 3.1 V):
    # a step is FULL_MV / 4095, and a pin above FULL_MV reads 4095.
    ATTN_11DB = 3
    FULL_MV = 3100
    cell: "Any" = None
    ratio: "Any" = None
    reads = 0

    def __init__(self, pin, atten=None):
        self.pin = pin

    def read_uv(self):
        _FakeADCClass.reads += 1
        sar_glitch()
        c = _FakeADCClass.cell
        if c is None:
            return 0
        num, den = _FakeADCClass.ratio      # (None: the test did not wire the board's)
        pin_mv = c.volts() * 1000 * den / num
        raw = min(4095, max(0, int(pin_mv * 4095 / self.FULL_MV + 0.5)))
        return raw * self.FULL_MV // 4095 * 1000


class _FakeTimerClass:
    # machine.Timer(id): init(period=, mode=, callback=) (MicroPython's ports/esp32
    # machine_timer.c: init deinits first, then starts it counting from 0). Its alarm
    # schedules the callback with the timer as argument (machine_timer_handler:
    # mp_sched_schedule); a PERIODIC one again every period, a ONE_SHOT one once, until
    # init again. FakeMachine.elapse(ms) moves its time on.
    PERIODIC = 1
    ONE_SHOT = 0
    made = []

    def __init__(self, id):
        self.id = id
        self.callback = None
        self.left = 0       # ms to the next alarm
        _FakeTimerClass.made.append(self)

    def init(self, period=0, mode=1, callback=None):
        self.period = period
        self.mode = mode
        self.callback = callback
        self.left = period

    def deinit(self):
        self.callback = None


class Asleep(BaseException):
    # machine.deepsleep() ended the program (MicroPython's modmachine.c: the chip resets
    # on waking); the firmware catches no BaseException.
    pass


class FakeMachine:
    # Stands in for the machine module (boards/sim/chip/__init__.py install()). uid: what
    # unique_id() gives (the chip's: its WiFi MAC, 6 bytes; esp32 port machine.c,
    # machine_unique_id: esp_efuse_mac_get_default).
    esp32: "Any"        # the fake esp32 module, whose wake sources a sleep routes
    def __init__(self, uid=b"\x24\x0a\xc4\x12\x34\x56"):
        self.uid = uid
        self.pins = {}
        _FakePinClass.registry = self.pins
        _FakePinClass.machine = self
        self.Pin = _FakePinClass
        _FakeWDTClass.timeout = None
        _FakeWDTClass.feeds = 0
        self.WDT = _FakeWDTClass
        _FakeADCClass.cell = None
        _FakeADCClass.ratio = None
        _FakeADCClass.reads = 0
        self.ADC = _FakeADCClass
        _FakeTimerClass.made = []
        self.Timer = _FakeTimerClass
        self.I2C = FakeBM8563().i2c_class()     # the CoreInk's clock chip, time unset
        self.esp32 = None
        self.blocked = 0
        self.isr = False
        self.pending = []       # (callback, argument) waiting for the C call to end
        self.deep = []          # the ms of each deepsleep (None: until a wake pin)
        _FakeSPIClass.made = []
        self.SPI = _FakeSPIClass
        _FakeRTCClass.state = {"datetime": (2000, 1, 1, 5, 0, 0, 0, 0), "memory": b""}
        self.RTC = _FakeRTCClass
        self.slept = 0
        self.resets = 0
        self.light = []     # the ms of each lightsleep
        self.hz = None
        self.cause = 1      # PWRON_RESET

    PWRON_RESET = 1
    WDT_RESET = 3
    DEEPSLEEP_RESET = 4
    TIMER_WAKE = 4      # ESP_SLEEP_WAKEUP_TIMER
    wake = 0

    def wake_reason(self):
        return self.wake

    # MicroPython's scheduler (py/scheduler.c, mp_sched_schedule): a queue of
    # MICROPY_SCHEDULER_DEPTH entries, 8 on the esp32 port (ports/esp32/mpconfigport.h),
    # shared by the pins' and the timers' callbacks; an entry that finds it full is lost.
    SCHED_DEPTH = 8

    def schedule(self, pin):
        self._schedule(pin.irq_handler, pin)

    def _schedule(self, fn, arg):
        if not self.blocked:
            fn(arg)                 # Python runs: at once
            return
        if not self.isr:
            # The flash cache off: the ISRs wait, and run once each after (one status
            # bit a pin, esp_driver_gpio gpio.c, gpio_isr_loop; the timer's alarm bit).
            for f, a in self.pending:
                if a is arg:
                    return
        if len(self.pending) < self.SCHED_DEPTH:
            self.pending.append((fn, arg))

    def elapse(self, ms):
        """Time goes on by ms for the timers: each alarm schedules its callback."""
        for t in _FakeTimerClass.made:
            left = ms
            while t.callback is not None and left >= t.left:
                left -= t.left
                if t.mode == _FakeTimerClass.PERIODIC:
                    t.left = t.period
                else:
                    t.left = 1 << 20        # a one-shot alarm is spent until init
                self._schedule(t.callback, t)
            if t.callback is not None:
                t.left -= left

    def block(self, isr=False):
        """A long C call begins. isr False: a flash operation (the cache off, so the
        GPIO and timer ISRs wait for its end, then run once each); True: one with the
        interrupts on (wlan.active(True), gc.collect, an import's load): every edge and
        every alarm schedules its callback meanwhile, SCHED_DEPTH of them at most."""
        self.blocked += 1
        self.isr = isr

    def unblock(self):
        self.blocked -= 1
        if not self.blocked:
            pending, self.pending = self.pending, []
            for fn, arg in pending:
                fn(arg)

    def _route_wake_pins(self):
        e = self.esp32
        if e is None:
            return
        if e.ext0 is not None:
            e.ext0[0].rtc = True
        if e.ext1 is not None:
            for pin in e.ext1[0]:
                pin.rtc = True
                pin.hold_on = True

    deep_ends = False   # deepsleep() raises Asleep: it never returns on the chip

    def deepsleep(self, ms=None):
        self.slept += 1
        self.deep.append(ms)
        self._route_wake_pins()
        self._latch_lost()
        if self.deep_ends:
            raise Asleep()

    def lightsleep(self, ms=None):
        self.light.append(ms)
        self._route_wake_pins()

    # What the ESP32 draws at each clock, radio off (its datasheet's upper figures), for a
    # FakeCell on the ADC to sag by.
    _MA = {80000000: 31, 160000000: 44, 240000000: 68}

    def freq(self, hz=None):
        if hz is None:
            return self.hz or 160000000
        self.hz = hz
        if _FakeADCClass.cell is not None:
            _FakeADCClass.cell.load_ma = self._MA.get(hz, 44)

    def reset_cause(self):
        return self.cause

    def unique_id(self):
        return self.uid

    # A board powered on battery through a latch pin (the CoreInk's GPIO12): a reset puts
    # every pad back to an input, so the latch lets go unless its pad is held (ESP-IDF's
    # driver/gpio.h, gpio_hold_en: held "until power down or gpio_hold_dis"), and the
    # board is off; a deep sleep likewise.
    latch = None
    powered_off = False

    def _latch_lost(self):
        p = self.pins.get(self.latch) if self.latch is not None else None
        if p is not None and not (p.hold_on and p.level):
            self.powered_off = True

    def reset(self):
        self.resets += 1
        self._latch_lost()

    def panic(self, cause=3):
        """A panic reset (the task watchdog's end of a hang: ports/esp32/machine_wdt.c
        sets ESP-IDF's task watchdog to panic) or a brown-out: a reset like any other to
        the pads, held or not; the next boot's reset_cause() says which."""
        self.cause = cause
        self.reset()
