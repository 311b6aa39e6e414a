# Fakes of what an ESP32 scorer spends and suffers: a clock that charges each firmware
# step its device cost, the button edges its pin IRQs see meanwhile, a LiPo cell that
# sags under load, and an e-paper BUSY line that sticks.

from fakes import FakeClock, FakePin

# What a firmware step costs on the device, in microseconds, and whether it is Python
# code (False: the pin and timer callbacks run at once), one long C call with the flash
# cache off (FLASH: the ISRs themselves wait for its end, then run once each), or one
# with the interrupts on (IRQ_ON: each edge and each alarm is scheduled as it comes, its
# callback run at the end, MicroPython's queue of SCHED_DEPTH permitting). Estimates for
# MicroPython on a 240 MHz ESP32 (docs/hardware.md "What a step costs" gives the
# sources): about 1 us a simple bytecode op, 20-40 us a call from Python into C.
FLASH = True
IRQ_ON = 2
SCHED_DEPTH = 8     # py/scheduler.c; ports/esp32/mpconfigport.h MICROPY_SCHEDULER_DEPTH
COSTS = {
    # a screen drawn into the frame buffer: a few thousand framebuf calls and loops
    "render": (80000, False),
    # the frame to the panel: 4736 bytes at 4 MHz SPI (the DevKit's bus) is 9.5 ms, one
    # spi.write() call
    "spi_frame": (10000, IRQ_ON),
    # a screen's module imported from a stock flash: the .mpy read from littlefs and
    # loaded (mp_raw_code_load, C), then its body run
    "import": (40000, IRQ_ON),
    # one readblocks() of a journal block: a Python call into esp32.Partition, 30 us
    "journal_read": (30, False),
    # a 4 KB sector erase: 45 ms typical, 300 ms at most (GD25Q32C / W25Q32JV
    # datasheets, tSE), in one C call with the flash cache off
    "erase": (45000, FLASH),
    "erase_max": (300000, FLASH),
    # the boot's replay of a 50-hand sitting: about 12 ms a hand in Python
    "replay": (600000, False),
    # the JD79653A's first full-refresh pass, waited for in Python (epaper._wait, sleep_ms(1)):
    # 1.5 s (the GDEW0154M09 spec's full refresh time, per pass)
    "full_pass": (1500000, False),
}


class CostClock(FakeClock):
    # FakeClock whose firmware steps take time: charge(kind) moves the clock by the step's
    # cost. Presses scripted in `script` (a fakes.FakePresses) reach `irq(i, now)` (a
    # Buttons.edge), and `timer(now)` (a Buttons.tick) comes every TICK_MS, as the chip's
    # scheduled pin and timer IRQs do (MicroPython's ports/esp32 machine_pin.c and
    # machine_timer.c: mp_sched_schedule): at once while Python runs (and while it
    # sleeps: sleep_ms runs the scheduler); when a C call ends, the timer's first (the
    # order the chip may take, and the harder one to read): after a FLASH one, each pin's
    # once; after an IRQ_ON one, each edge's, in order, as many as the queue held (the
    # board's timer is one-shot, armed again by its tick: one tick waits at most,
    # boards/device.py). A light sleep hears no IRQ (the wake pins are the RTC's then).
    # The timer's alarm is one-shot, armed again by its tick: a tick that finds the queue
    # full (SCHED_DEPTH edges scheduled before its alarm in an IRQ_ON call, or
    # drop_tick()) is dropped, as ports/esp32/machine_timer.c drops it (machine_timer_
    # handler ignores what mp_sched_schedule returns), and no tick comes again until
    # rearm() (the board's Timer.init: counting from 0 again).
    TICK_MS = 10

    def __init__(self, t=0):
        FakeClock.__init__(self, t)
        self.irq = None
        self.timer = None
        self.charged = {}   # kind -> microseconds charged
        self._us = 0        # what is left below a millisecond
        self._next_tick = t
        self.dead = False   # the timer's tick was dropped: no alarm until rearm()
        self.ticks_dropped = 0

    def drop_tick(self):
        """The next alarm finds the scheduler's queue full: its tick is lost."""
        self.dead = True
        self.ticks_dropped += 1

    def rearm(self):
        """Timer.init(period=TICK_MS, mode=ONE_SHOT): the next alarm TICK_MS from now."""
        self.dead = False
        self._next_tick = self.t + self.TICK_MS

    def charge(self, kind, n=1):
        us, c_call = COSTS[kind]
        us *= n
        self.charged[kind] = self.charged.get(kind, 0) + us
        self._us += us
        ms = self._us // 1000
        self._us -= ms * 1000
        self.advance(ms, c_call)

    def advance(self, ms, c_call=False):
        end = self.t + ms
        hit = []
        ticks = []
        if self.timer is not None and not self.dead:
            while self._next_tick <= end:
                ticks.append(self._next_tick)
                self._next_tick += self.TICK_MS
        todo = []
        if self.irq is not None and self.script is not None:
            todo = self.script.edges(self.t, end)
        if ticks and (c_call == IRQ_ON and len(
                [1 for t, i in todo if t < ticks[0]]) >= SCHED_DEPTH):
            self.drop_tick()        # the queue was full when its alarm came
        if self.dead and ticks:
            ticks = []
            self._next_tick = 1 << 60
        if c_call:
            room = SCHED_DEPTH - (1 if ticks else 0)
            for t, i in todo:
                if (c_call == IRQ_ON or i not in hit) and len(hit) < room:
                    hit.append(i)
            self.t = end
            if ticks:
                self.timer(end)
            for i in hit:
                self.irq(i, end)
            return
        k = 0
        for t, i in todo:
            while k < len(ticks) and ticks[k] <= t:
                self.t = ticks[k]
                self.timer(self.t)
                k += 1
            self.t = t
            self.irq(i, t)
        while k < len(ticks):
            self.t = ticks[k]
            self.timer(self.t)
            k += 1
        self.t = end

    def sleep_ms(self, ms):
        self.advance(ms)

    def light_sleep(self, ms):
        FakeClock.light_sleep(self, ms)
        self._next_tick = self.t


class FakeCell:
    # A LiPo cell: its open-circuit volts fall with the charge drawn, and under load it
    # sags by current x internal resistance (0.15-0.3 ohm new for a 500-1000 mAh cell, more
    # cold or worn; its protection FETs and connector add 0.05-0.1). load_ma is what the
    # board draws now; volts() is what the ADC sees. Below brownout_v under load the
    # ESP32 resets: its SPI flash needs 2.7 V, and the LDO drops 0.1 V.
    def __init__(self, volts, ohms=0.4, brownout_v=2.8):
        self.ocv = volts
        self.ohms = ohms
        self.brownout_v = brownout_v
        self.load_ma = 30       # the CPU at 80 MHz

    def volts(self):
        return self.ocv - self.load_ma * self.ohms / 1000

    def browned_out(self):
        return self.volts() < self.brownout_v


class StuckBusy(FakePin):
    # An e-paper BUSY line that reads busy for good (a panel unplugged with its pull-up,
    # a controller hung at power-on): busy_level for the SSD1680 is 1, the JD79653A's 0.
    def __init__(self, busy_level=1):
        FakePin.__init__(self, busy_level)

    def value(self, v=None):
        if v is None:
            self.reads += 1
            return self.level
        return None
