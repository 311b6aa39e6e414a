# Debounced buttons with long press, mapped from physical pins to the logical buttons by
# the board file. poll(now_ms) is called from the main loop; it reads every pin, keeps the
# timing per button and returns the next logical event, or NONE. It allocates nothing.
#
#   from firmware.buttons import Buttons, active_low
#   from firmware.codes import BACK, MENU, NEXT, OK, PREV
#   buttons = Buttons([(Pin(32, Pin.IN), PREV, BACK),   # long press of PREV means BACK
#                      (Pin(33, Pin.IN), NEXT),         # long press: LONG | NEXT
#                      (active_low(Pin(39, Pin.IN)), OK, MENU)])
#   event = buttons.poll(time.ticks_ms())
#
# A reader is a Pin (its value() is read) or any callable returning 0/1; pressed = 1, as
# the boards are wired active-high with pull-downs (ext1 deep-sleep wake needs that).
# Wrap an active-low button in active_low(). A short press is reported on release; a long
# press as soon as the button has been held long_ms (nothing more on release). Its event
# is LONG | code unless the entry names another (3-button boards: a long press of PREV is
# BACK). With repeat_ms set, a button held on keeps repeating LONG | code.
#
# A press that comes and goes while the loop is busy (a flash erase, a screen loading, a
# full refresh) is not lost when the board counts edges: a pin IRQ on both edges calls
# edge(i, ticks_ms()) (boards.device.latch_presses), which logs the level it reads then,
# and the next poll replays the log in order through the same debounce as its own reads.
# On the ESP32 the handler is scheduled (MicroPython's ports/esp32/machine_pin.c,
# machine_pin_isr_handler: mp_sched_schedule): while Python runs it runs at once, but
# after a long C call (a flash erase, a module load) it runs once however many edges came
# (one status bit a pin, ESP-IDF's esp_driver_gpio gpio.c, gpio_isr_loop). A timer calls
# tick() every TICK_MS, scheduled the same way, so a gap in its ticks shows such a stall.
# An edge logged late (more than debounce_ms after the level or the scheduler was last
# seen, or just after a stall) is read so: the level as it was means a tap came and went
# unseen; a press begun is taken to have begun debounce_ms earlier, in the stall. An edge
# logged at once is timed as it came, and noise shorter than debounce_ms is no press.
from micropython import const
from time import ticks_add, ticks_diff

from firmware.codes import LONG     # the logical buttons are firmware/codes.py's

NONE = const(0)     # poll(): no event

_QUEUE = const(8)  # events not yet taken by poll(); more are dropped
_FIRED = const(1)  # this press has given its long event (may repeat)
_SWALLOWED = const(2)  # this press gives nothing (held since skip_held())
_LOG = const(16)  # edges logged by the IRQ, not yet replayed by poll(); more are dropped
TICK_MS = const(10)  # the board's timer calls tick() this often


def active_low(reader):
    # A reader for a button that reads 0 when pressed (pull-up wiring).
    read = reader.value if hasattr(reader, "value") else reader

    def pressed():
        return 0 if read() else 1

    return pressed


class Buttons:
    def __init__(self, entries, debounce_ms=20, long_ms=600, repeat_ms=0):
        n = len(entries)
        self._n = n
        read = []
        code = bytearray(n)
        long_code = bytearray(n)
        repeats = bytearray(n)
        for i in range(n):
            e = entries[i]
            r = e[0]
            read.append(r.value if hasattr(r, "value") else r)
            code[i] = e[1]
            long_code[i] = e[2] if len(e) > 2 and e[2] is not None else LONG | e[1]
            repeats[i] = 1 if repeat_ms and long_code[i] == LONG | e[1] else 0
        self._read = tuple(read)
        self._code = code
        self._long_code = long_code
        self._repeats = repeats
        self._debounce = debounce_ms
        self._long = long_ms
        self._repeat = repeat_ms
        self._raw = bytearray(n)  # last level read
        self._state = bytearray(n)  # debounced level
        self._done = bytearray(n)  # 0, _FIRED or _SWALLOWED for the current press
        self._edge = [0] * n  # when the raw level last changed
        self._down = [0] * n  # when the current press began
        self._next = [0] * n  # when the next repeat is due
        self._seen = [0] * n  # when the level was last read (a poll, or an IRQ)
        self._eb = bytearray(_LOG)  # the IRQ's edge log: button, level read, when
        self._el = bytearray(_LOG)
        self._et = [0] * _LOG
        self._ew = 0  # edges logged (the IRQ's count, mod 256)
        self._er = 0  # edges replayed (poll's count, mod 256)
        self.lost_edges = 0
        self._alive = 0  # the last tick()
        self._stall = 0  # when the last stall (a gap in the ticks) ended...
        self._stall_ms = 0  # ...and how long it was
        self._q = bytearray(_QUEUE)
        self._head = 0
        self._count = 0
        self.dropped = 0

    def _push(self, ev):
        if self._count == _QUEUE:
            self.dropped += 1
            return
        self._q[(self._head + self._count) % _QUEUE] = ev
        self._count += 1

    def edge(self, i, now_ms):
        # From a pin IRQ on either edge of button i: log the level it reads now. Allocates
        # nothing; poll() replays the log.
        w = self._ew
        if (w - self._er) & 0xFF >= _LOG:
            self.lost_edges += 1
            return
        j = w % _LOG
        self._eb[j] = i
        self._el[j] = 1 if self._read[i]() else 0
        self._et[j] = now_ms
        self._ew = (w + 1) & 0xFF

    def tick(self, now_ms):
        # From a timer every TICK_MS (boards.device.latch_presses). Allocates nothing.
        gap = ticks_diff(now_ms, self._alive)
        if gap > 2 * TICK_MS:
            self._stall = now_ms
            self._stall_ms = gap
        self._alive = now_ms

    def poll(self, now_ms):
        last = now_ms
        while self._er != self._ew:
            j = self._er % _LOG
            t = self._et[j]
            for k in range(self._n):
                self._at(k, t)
            self._level(self._eb[j], self._el[j], t, True)
            self._er = (self._er + 1) & 0xFF
            last = t
        if ticks_diff(now_ms, last) < 0:
            now_ms = last  # an edge logged after the caller read the clock
        for i in range(self._n):
            self._level(i, 1 if self._read[i]() else 0, now_ms, False)
            self._at(i, now_ms)
        if not self._count:
            return NONE
        ev = self._q[self._head]
        self._head = (self._head + 1) % _QUEUE
        self._count -= 1
        return ev

    def _level(self, i, r, t, logged):
        # Button i read r at t: a poll's read, or the level an IRQ read at an edge.
        late = logged and self._late(i, t)
        self._seen[i] = t
        if r != self._raw[i]:
            self._raw[i] = r
            self._edge[i] = ticks_add(t, -self._debounce) if late and r else t
        elif (late and not r and not self._state[i]
              and ticks_diff(t, self._edge[i]) >= self._debounce):
            self._push(self._code[i])  # pressed and released unseen: a short press

    def _late(self, i, t):
        # Did the handler of an edge logged at t run late (after a stall)?
        d = self._debounce
        seen = self._seen[i]
        if ticks_diff(self._alive, seen) > 0:
            seen = self._alive
        if ticks_diff(t, seen) >= d:
            return True
        since = ticks_diff(t, self._stall)
        return 0 <= since < TICK_MS and self._stall_ms >= d

    def _at(self, i, now_ms):
        # Time has come to now_ms with button i's raw level unchanged since its last edge.
        r = self._raw[i]
        if r != self._state[i] and ticks_diff(now_ms, self._edge[i]) >= self._debounce:
            self._state[i] = r
            if r:
                self._down[i] = self._edge[i]
                self._done[i] = 0
            elif not self._done[i]:
                self._push(self._code[i])  # released before long_ms: a short press
        if self._state[i]:
            if not self._done[i]:
                # (not while a release is being debounced: that press was short)
                if r and ticks_diff(now_ms, self._down[i]) >= self._long:
                    self._done[i] = _FIRED
                    self._push(self._long_code[i])
                    self._next[i] = ticks_add(self._down[i], self._long + self._repeat)
            elif (self._done[i] == _FIRED and self._repeats[i]
                  and ticks_diff(now_ms, self._next[i]) >= 0):
                self._push(self._long_code[i])
                self._next[i] = ticks_add(self._next[i], self._repeat)

    def skip_held(self, now_ms):
        # Buttons held now give no event until released and pressed again: the press that
        # woke the board from deep sleep only wakes it.
        for i in range(self._n):
            if self._read[i]():
                self._raw[i] = 1
                self._state[i] = 1
                self._edge[i] = now_ms
                self._down[i] = now_ms
                self._done[i] = _SWALLOWED

    def pressed(self):
        # True while any button is down (debounced).
        for i in range(self._n):
            if self._state[i]:
                return True
        return False

    def busy(self):
        # True while any button is down or settling (its level not debounced yet): the
        # firmware stays awake meanwhile, rather than sleep through a press.
        for i in range(self._n):
            if self._state[i] or self._raw[i]:
                return True
        return False

    def held(self):
        # True while any button reads pressed now (no debouncing): safe mode at boot.
        for i in range(self._n):
            if self._read[i]():
                return True
        return False
