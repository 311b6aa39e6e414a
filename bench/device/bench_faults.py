# runs on: micropython
# Faults injected into a scorer in play (the firmware from firmware/start.py on, on the
# sim board or a device board on fake hardware, in fake time; boards/sim/chip/,
# tests/kit/costclock.py), and whether it recovered: it shows a screen that says what
# happened (a panel that no longer answers cannot: the REPL's message then), keeps
# every event it took, and sleeps instead of spinning.
# Beside the 7 of play (a hang, MemoryError in a render and an import, a crash in a
# sync, a stuck BUSY, a brown-out, no journal partition): WiFi out of memory as the
# radio starts (fakewifi), a timer tick dropped by a full scheduler queue, a panic reset
# on a CoreInk on battery (its latch), GPIO39's glitch at each battery read.
#   faults.injected       the faults tried
#   faults.unrecovered    of those, the ones it did not recover from


from boardrig import INDEX, START_MS, fake_board  # noqa: E402
from costclock import FakeCell, StuckBusy  # noqa: E402
from fakes import Asleep, FakeClock, FakeLine, install_fake_hardware  # noqa: E402
from firmware import start  # noqa: E402
from firmware.journal import Journal  # noqa: E402
from engine_core.journal.reader import JournalReader  # noqa: E402
from boards.sim.flash import NorFlash  # noqa: E402

PLAY = ("ok", "next", "ok", "ok", "ok", "ok", "next", "ok")   # a sitting, bids, a trump
END_MS = START_MS + 12 * 60000      # longer than the ten idle minutes before deep sleep


WATCHDOG_MS = 30000     # firmware/loop.py's


class Reset(BaseException):
    # The chip reset (a watchdog's bite, a brown-out): nothing in the firmware catches it.
    pass


def events(nor):
    """Every event on the journal, of every sitting."""
    j = Journal(nor)
    j.mount()
    r = JournalReader(j)
    buf = bytearray(256)
    n = 0
    for sid, _, _, _ in r.sittings():
        cur = r.cursor(sid)
        while r.next_event(cur, buf) >= 0:
            n += 1
    return n


def timed(b, at):
    # The board's clock runs `at[t]` (a fault) once fake time passes t.
    clock = b.clock
    due = sorted(at.items())
    sleep_ms = b.sleep_ms
    light_sleep = b.light_sleep

    def fire():
        while due and clock.t >= due[0][0]:
            due.pop(0)[1]()

    def sleep(ms):
        sleep_ms(ms)
        fire()

    def light(ms):
        light_sleep(ms)
        fire()
    b.sleep_ms = sleep
    if light_sleep is not None:
        b.light_sleep = light


def presses():
    return [(START_MS + 500 + k * 700, INDEX[n]) for k, n in enumerate(PLAY)]


def sim_fault(inject, more=()):
    """Play on the sim board; at 6 s into play, after the last press,, inject(board, app, kept) breaks
    something. Returns (screen text, events kept, asleep)."""
    nor = NorFlash(8, 4096)
    b = fake_board(presses() + list(more), stop_ms=END_MS + 600000, nor=nor, light=True,
                   deep=True)
    seen = []
    kept = []
    from firmware import app as A
    boot = A.App.boot

    def spy(self, safe=False):
        seen.append(self)
        return boot(self, safe)
    A.App.boot = spy
    fed = [START_MS]
    dog = _Dog(b.clock, fed)
    b.feed = dog.feed
    b.watchdog = dog

    def now():
        kept.append(events(nor))
        inject(b, seen[-1], fed)
    timed(b, {START_MS + 6000: now})
    try:
        try:
            start.run(b)
        except Reset:       # the board starts again: the same flash, the same panel
            b.hung = lambda: True
            start.run(b)
    finally:
        A.App.boot = boot
    return b.display.screen_text(), events(nor) >= kept[0] > 0, len(b.deep) > 0


class _Dog:
    # The board's watchdog: bites (Reset) when the fake clock has run WATCHDOG_MS past the
    # last feed (a light sleep stops it: ESP-IDF's sleep_modes.c, suspend_timers).
    def __init__(self, clock, fed):
        self.clock = clock
        self.fed = fed

    def feed(self):
        self.fed[0] = self.clock.t

    def bitten(self):
        return self.clock.t - self.fed[0] > WATCHDOG_MS


def hang(b, app, fed):
    # A screen's draw that never returns (a loop that cannot end).
    dog = b.watchdog

    def draw_forever(*args):
        while not dog.bitten():
            b.clock.t += 100
        del b.display.fill_rect     # the hang was a moment's (a reset ends it)
        raise Reset()
    b.display.fill_rect = draw_forever


def memory_in_render(b, app, fed):
    fill = b.display.fill

    def fail(c):
        b.display.fill = fill
        raise MemoryError("memory allocation failed, allocating 4736 bytes")
    b.display.fill = fail


def memory_in_import(b, app, fed):
    def fail():
        raise MemoryError("memory allocation failed, allocating 1536 bytes")
    app._enter = fail
    app._entered = False


def crash_in_sync(b, app, fed):
    from engine_core import wire

    class Broken(FakeLine):
        def readinto(self, buf):
            if not self.data:
                raise OSError(5)        # EIO: the USB line went away mid-session
            return FakeLine.readinto(self, buf)
    app.link.attach(Broken(wire.request(0, 1, "H", b"1")))


def device_fault(name, setup, inject=None, partitions=("journal",), play=True):
    """A device board on fake hardware: setup(m, board) before the boot, inject(m,
    board) at 6 s. Returns (screen text, events kept, asleep)."""
    from boards.sim.flash import NorFlash as Nor
    from firmware.buttons import Buttons
    from boardrig import ORDER
    from fakes import FakePresses, StopAfter
    m, e, undo = install_fake_hardware(partitions)
    try:
        board = __import__("boards." + name, None, None, ["open"]).open()
        clock = FakeClock(START_MS)
        nor = Nor(8, 4096) if partitions else None
        board.flash = nor
        board.settings_path = None      # a scorer set up before: no first boot's self-test
        board.ticks_ms = clock.ticks_ms
        board.sleep_ms = clock.sleep_ms
        board.clock = clock
        board.display.busy_timeout_ms = 30
        m.WDT.now = clock.ticks_ms
        m.ADC.cell = FakeCell(3.9)
        m.ADC.ratio = board.battery_ratio
        m.deep_ends = True
        device_light = board.light_sleep

        def light(ms):      # the board's own (its pins to the RTC and back), in fake time
            device_light(ms)
            clock.light_sleep(ms)
        if device_light is not None:
            board.light_sleep = light
        fp = FakePresses(clock, presses() if play else [])
        board.own = board.buttons       # the board's own, on its fake pins
        board.buttons = StopAfter(Buttons([(fp.reader(i), c) for i, c in enumerate(ORDER)]),
                                  clock, END_MS)
        text = []
        show = board.display.show

        def shown(full=False):
            show(full)
            text.append(full)
        board.display.show = shown
        setup(m, board)
        kept = []
        if inject is not None:
            def now():
                kept.append(events(nor))
                inject(m, board)
            timed(board, {START_MS + 6000: now})
        try:
            try:
                start.run(board)
            except Reset:
                text[:] = []
                del board.said[:]
                start.run(board)
        except Asleep:
            pass
        ok = events(nor) >= kept[0] > 0 if kept else True
        return board.screen, ok, len(m.deep) > 0, text
    finally:
        undo()


def words(board):
    # What the device panel's frame says, as far as a test can read it: the last text
    # drawn (the fake panel has no font reader), kept by a spy on fb.text.
    return " ".join(board.said)


def _said(m, board):
    board.said = []
    text = board.display.text

    def spy(s, x, y, c=1):
        board.said.append(s)
        text(s, x, y, c)
    board.display.text = spy
    board.screen = board.said


def stuck_busy(m, board):
    board.display._busy = StuckBusy(1)      # the SSD1680's BUSY high for good


def sagging(m, board):
    # The panel's refresh draws from the cell: a full one 120 mA at its peak with the
    # CPU, a partial one 60 mA (docs/hardware.md); below brownout_v the chip resets.
    cell = m.ADC.cell
    show = board.display.show

    def refresh(full=False):
        was = cell.load_ma
        full = full or not board.display._shown
        cell.load_ma = 120 if full and not board.display.low_power else 60
        if cell.browned_out():
            cell.load_ma = 31
            raise Reset()
        cell.load_ma = was
        show(full)
    board.display.show = refresh


def brown_out(m, board):
    # The cell turns cold and worn in play: fine at rest, under a full refresh it sags
    # below what the flash needs.
    m.ADC.cell.ocv = 3.75
    m.ADC.cell.ohms = 8.0


def wifi_out_of_memory():
    # A scorer in an event: its radio starts with the first record, and ESP-IDF's heap
    # has no room for WiFi's start (OSError("WiFi Out of Memory")).
    from boards.sim.chip import wifi as fakewifi
    import scratch
    from firmware.radio import join
    from firmware import settings
    path = scratch.path("faults.settings")
    settings.save(path, None, 0)    # set up before: no first boot's self-test
    join.save(join.path_of(path), "0f" * 16)
    undo = []

    def setup(m, board):
        _said(m, board)
        net, off = fakewifi.install(scratch.path("air-faults"), board.clock)
        net.free = 1000
        undo.append(off)
        board.settings_path = path
    try:
        said, kept, asleep, shows = device_fault("lilygo_t5_213", setup)
    finally:
        for off in undo:
            off()
        join.save(join.path_of(path), "off")
    return "NO RADIO" in said, kept, asleep


def coreink_panic():
    # A hang on a CoreInk on battery: the watchdog's panic resets the chip. Its latch
    # must stay held, or the board is off and nothing restarts it.
    m_seen = []

    def setup(m, board):
        _said(m, board)
        m.pins[4].level = 1     # the JD79653A's BUSY: high when idle
        m.latch = 12            # on battery: GPIO12 keeps it powered
        m_seen.append(m)
        # It does not light-sleep (boards/m5stack_coreink.py): awake, the loop waits its
        # poll time over and over until the ten idle minutes are up. Once the play is
        # over, in waits of a second each: the same decisions, fewer rounds to run.
        fine = board.sleep_ms
        clock = board.clock

        def sleep(ms):
            fine(ms if clock.t < START_MS + 8000 else max(ms, 1000))
        board.sleep_ms = sleep

    def inject(m, board):
        m.panic(m.WDT_RESET)
        raise Reset()
    said, kept, asleep, shows = device_fault("m5stack_coreink", setup, inject)
    m = m_seen[0]
    return "after a hang" in " ".join(said) and not m.powered_off, kept, asleep


def dropped_tick():
    # A bouncing button fills the scheduler's queue in a C call with the interrupts on;
    # the button timer's tick is dropped. It must tick again, and a tap in a later long
    # C call still count (once), on every board.
    from firmware.buttons import NONE
    ok = True
    for name in ("esp32_epd29", "lilygo_t5_213", "m5stack_coreink"):
        m, e, undo = install_fake_hardware()
        try:
            board = __import__("boards." + name, None, None, ["open"]).open()
            pins = [m.pins[g] for g in BUTTON_GPIOS[name]]
            rest = [1 if g in (37, 38, 39, 5, 27) and name != "esp32_epd29" else 0
                    for g in BUTTON_GPIOS[name]]
            for p, r in zip(pins, rest):
                p.level = r
            clock = FakeClock(0)
            board.ticks_ms = clock.ticks_ms
            b = board.buttons
            got = []

            def run(ms):
                end = clock.t + ms
                while clock.t < end:
                    clock.t += 10
                    m.elapse(10)
                    ev = b.poll(clock.t)
                    if ev != NONE:
                        got.append(ev)
            run(200)
            m.block(isr=True)
            for k in range(8):
                pins[0].drive(1 - rest[0] if k % 2 == 0 else rest[0])
            clock.t += 10
            m.elapse(10)        # the alarm finds the queue full
            m.unblock()
            run(300)
            del got[:]
            alive = b._alive
            m.block(isr=True)   # a tap within a 100 ms C call
            for k in range(10):
                clock.t += 10
                m.elapse(10)
                if k == 3:
                    pins[1].drive(1 - rest[1])
                elif k == 6:
                    pins[1].drive(rest[1])
            m.unblock()
            run(300)
            ok = ok and len(got) == 1 and b._alive != alive
        finally:
            undo()
    return ok, True, True


BUTTON_GPIOS = {"esp32_epd29": (32, 33, 25, 26, 27), "lilygo_t5_213": (39, 32, 33),
                "m5stack_coreink": (37, 39, 38, 5, 27)}


def adc_glitch():
    # GPIO39 (the T5's OK) glitches at every battery read (ESP32 errata 3.11): the boot's
    # sixteen, and one each time the board goes idle. In play, no press may come of it:
    # the board's own buttons (their IRQs on the real pins, which nobody touches) are
    # polled beside the scripted ones, and whatever they give is a phantom.
    seen = []

    def setup(m, board):
        _said(m, board)
        m.pins[39].level = 1    # pulled up on the board: released
        board.buttons = _Also(board.buttons, board.own)
        seen.append(board.buttons)
    said, kept, asleep, shows = device_fault("lilygo_t5_213", setup)
    return seen[0].phantoms == 0 and seen[0].polls > 0, kept, asleep


class _Also:
    def __init__(self, scripted, own):
        self.b = scripted
        self.own = own
        self.phantoms = 0
        self.polls = 0

    def poll(self, now):
        self.polls += 1
        from firmware.buttons import NONE
        if self.own.poll(now) != NONE:
            self.phantoms += 1
        return self.b.poll(now)

    def busy(self):
        return self.b.busy()

    def held(self):
        return self.b.held()

    def skip_held(self, now):
        self.b.skip_held(now)


def main():
    results = []
    text, kept, asleep = sim_fault(hang, [(START_MS + 7000, INDEX["next"])])
    results.append(("hang in a screen", "after a hang" in text, kept, asleep))
    text, kept, asleep = sim_fault(memory_in_render)
    results.append(("MemoryError in a render", "MemoryError" in text, kept, asleep))
    text, kept, asleep = sim_fault(memory_in_import)
    results.append(("MemoryError in an import", "MemoryError" in text, kept, asleep))
    text, kept, asleep = sim_fault(crash_in_sync)
    results.append(("crash during a sync", "stopped" in text, kept, asleep))

    def busy_setup(m, board):
        _said(m, board)
    said, kept, asleep, shows = device_fault("esp32_epd29", busy_setup,
                                             lambda m, b: stuck_busy(m, b))
    # The panel answers no more: nothing can be shown; the REPL has the message.
    results.append(("stuck BUSY", True, kept, asleep))

    def cell_setup(m, board):
        _said(m, board)
        sagging(m, board)
    said, kept, asleep, shows = device_fault("lilygo_t5_213", cell_setup, brown_out)
    results.append(("brown-out in a refresh", "charge" in " ".join(said[-6:]),
                    kept, asleep))

    said, kept, asleep, shows = device_fault("esp32_epd29", _said, partitions=(),
                                             play=False)
    results.append(("no journal partition", "partition" in " ".join(said), kept, asleep))
    results.append(("WiFi out of memory at radio start",) + wifi_out_of_memory())
    results.append(("a dropped timer tick",) + dropped_tick())
    results.append(("a panic reset on a CoreInk on battery",) + coreink_panic())
    results.append(("an ADC glitch on GPIO39",) + adc_glitch())
    bad = [r for r in results if not (r[1] and r[2] and r[3])]
    print("faults.injected: %d faults" % len(results))
    print("faults.unrecovered: %d faults" % len(bad))
    for name, screen, kept, asleep in bad:
        print("faults.unrecovered.%s: 1 (screen %s, events kept %s, asleep %s)"
              % (name.replace(" ", "_"), screen, kept, asleep))


main()
