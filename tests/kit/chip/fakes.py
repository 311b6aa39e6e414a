# The test kit's board in fake time (a clock, a slow e-paper panel, scripted button
# presses, the REPL's line), over the one fake chip (boards/sim/chip/: machine, esp32,
# network and espnow, as MicroPython's ports/esp32 has them), whose names it gives the
# tests and the bench too.
from boards.sim.chip import install
from boards.sim.chip.machine import (Asleep, FakeMachine, FakePin, FakeSPI,  # noqa: F401
                                     sar_glitch)


def install_fake_hardware(partitions=("journal",)):
    """The fake chip's machine and esp32 in sys.modules (boards/sim/chip install()):
    returns (machine, esp32, undo)."""
    return install(partitions)


# -- a board in fake time: a clock, a slow e-paper panel, scripted button presses --------


class FakeClock:
    # ticks_ms()/sleep_ms() for a board: time moves only when something sleeps or waits,
    # so a test of minutes of play runs in a moment. light_sleep(ms) sleeps until the
    # next scripted press (a button wakes the board) or ms, whichever is first.
    def __init__(self, t=0):
        self.t = t
        self.script = None      # a FakePresses, for light_sleep

    def ticks_ms(self):
        return self.t

    def sleep_ms(self, ms):
        self.t += ms

    def light_sleep(self, ms):
        end = self.t + ms
        if self.script is not None:
            nxt = self.script.next_down(self.t)
            if nxt is not None and nxt < end:
                end = max(nxt, self.t)
        self.t = end


def fake_panel(clock, partial_ms=600, full_ms=2500, width=296, height=128):
    # A fake e-paper panel on the sim's frame buffer: show() starts a refresh that keeps
    # the panel busy for partial_ms (full_ms for a full one); like the real drivers
    # (firmware/display/epaper.py), show() and sleep() first wait for a refresh still
    # running, and ready() says whether one is. busy_ms adds up the refresh time.
    from boards.sim.board import SimDisplay

    class FakePanel(SimDisplay):
        def __init__(self):
            SimDisplay.__init__(self, width, height, record=True)
            self.clock = clock
            self.until = 0
            self.busy_ms = 0
            self.waited_ms = 0      # time the caller was held up by a refresh
            self.sleeps = 0

        def _wait(self):
            left = self.until - clock.t
            if left > 0:
                self.waited_ms += left
                clock.t = self.until

        def show(self, full=False):
            self._wait()
            SimDisplay.show(self, full)
            ms = full_ms if full else partial_ms
            self.until = clock.t + ms
            self.busy_ms += ms

        def ready(self):
            return clock.t >= self.until

        def wait_until_ready(self, timeout_ms=0):
            self._wait()
            return True

        def sleep(self):
            self._wait()
            self.sleeps += 1

    return FakePanel()


class FakePresses:
    # Scripted presses: [(down_ms, button index), ...], each held hold_ms. reader(i) is
    # the pin reader of button i for firmware.buttons.Buttons.
    def __init__(self, clock, presses, hold_ms=70):
        self.clock = clock
        self.presses = presses
        self.hold = hold_ms
        clock.script = self

    def reader(self, i):
        def read():
            t = self.clock.t
            for down, b in self.presses:
                if b == i and down <= t < down + self.hold:
                    return 1
            return 0
        return read

    def next_down(self, t):
        best = None
        for down, b in self.presses:
            if down + self.hold > t and (best is None or down < best):
                best = down
        return best

    def end(self):
        return max(d for d, b in self.presses) + self.hold if self.presses else 0

    def edges(self, t0, t1):
        # [(t, button)]: the press and release edges in (t0, t1], in time order.
        out = []
        for down, b in self.presses:
            for t in (down, down + self.hold):
                if t0 < t <= t1:
                    out.append((t, b))
        out.sort()
        return out


class StopAfter:
    # Buttons that say stop (-1, as the sim's do) once the clock has passed `t_end`.
    def __init__(self, buttons, clock, t_end):
        self.buttons = buttons
        self.clock = clock
        self.t_end = t_end

    def poll(self, now):
        if self.clock.t >= self.t_end:
            return -1
        return self.buttons.poll(now)

    def busy(self):
        return self.buttons.busy()

    def held(self):
        return self.buttons.held()

    def skip_held(self, now):
        self.buttons.skip_held(now)


class FakeLine:
    # The REPL's stdin as the firmware polls it: readinto() takes what has arrived, one
    # byte at a time; pending() says whether a byte waits. arrive() adds bytes.
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.out = bytearray()

    def arrive(self, data):
        self.data.extend(data)

    def pending(self):
        return len(self.data) > 0

    def readinto(self, buf):
        n = 0
        while n < len(buf) and self.data:
            buf[n] = self.data[0]
            self.data = self.data[1:]
            n += 1
        return n

    def write(self, data):
        self.out.extend(data)
        return len(data)
