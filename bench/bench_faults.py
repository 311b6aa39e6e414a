# runs on: micropython
# Faults injected into a scorer in play (the firmware from firmware/start.py on, on the
# sim board or a device board on fake hardware, in fake time; tests/kit/fakes.py,
# tests/kit/costclock.py), and whether it recovered: it shows a screen that says what
# happened (a panel that no longer answers cannot: the REPL's message then), keeps
# every event it took, and sleeps instead of spinning.
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
        board.ticks_ms = clock.ticks_ms
        board.sleep_ms = clock.sleep_ms
        board.clock = clock
        board.display.busy_timeout_ms = 30
        m.WDT.now = clock.ticks_ms
        m.ADC.cell = FakeCell(3.9)
        m.deep_ends = True
        device_light = board.light_sleep

        def light(ms):      # the board's own (its pins to the RTC and back), in fake time
            device_light(ms)
            clock.light_sleep(ms)
        board.light_sleep = light
        fp = FakePresses(clock, presses() if play else [])
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
    bad = [r for r in results if not (r[1] and r[2] and r[3])]
    print("faults.injected: %d faults" % len(results))
    print("faults.unrecovered: %d faults" % len(bad))
    for name, screen, kept, asleep in bad:
        print("faults.unrecovered.%s: 1 (screen %s, events kept %s, asleep %s)"
              % (name.replace(" ", "_"), screen, kept, asleep))


main()
