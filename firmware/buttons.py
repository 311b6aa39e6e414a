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
# only after a long C call: once however many edges came when the flash cache was off
# (a flash erase: one status bit a pin, ESP-IDF's esp_driver_gpio gpio.c, gpio_isr_loop),
# once an edge, all reading the level as it is then, when the interrupts were on (a
# module load, the radio coming on). A timer calls tick() every _TICK_MS, scheduled the
# same way, so a gap in its ticks shows such a stall.
# An edge logged late (more than debounce_ms after the level or the scheduler was last
# seen, or just after a stall) is read so: the level as it was means a tap came and went
# unseen; a press begun is taken to have begun debounce_ms earlier, in the stall. An edge
# logged at once is timed as it came, and noise shorter than debounce_ms is no press.
#
# The timer is one-shot, armed again by its tick (boards/device.py says why), and the
# port drops a tick that finds the scheduler's queue full (machine_timer.c ignores what
# mp_sched_schedule returns): then no tick comes again. So poll() calls `rearm` (set by
# the board) when no tick has come for _DEAD_MS.
#
# The buttons on GPIO36 and GPIO39 (`glitchy`, by index): powering the SAR ADC (a
# battery read, WiFi starting) pulls them low for about 80 ns (ESP32 errata 3.11). Their
# IRQ's handler runs after, reading the level as it was: a tap that came and went
# unseen, to the log. While the board says so (hush(True, now) ... hush(False, now)) and
# _TICK_MS after, an edge of theirs that reads what the button last read is not logged;
# one that reads a new level is (a real press begun meanwhile).
from micropython import const
from time import ticks_add, ticks_diff

from firmware.codes import LONG     # the logical buttons are firmware/codes.py's

NONE = const(0)     # poll(): no event

_QUEUE = const(8)  # events not yet taken by poll(); more are dropped
_FIRED = const(1)  # this press has given its long event (may repeat)
_SWALLOWED = const(2)  # this press gives nothing (held since skip_held())
_LOG = const(8)  # edges logged by the IRQ, not yet replayed by poll(); more are dropped
_TICK_MS = const(10)  # the board's timer calls tick() this often (boards/device.py)
_STATE = const(1)  # fields of Buttons._b (_RAW is 0)
_DONE = const(2)
_CODE = const(3)
_LONGC = const(4)
_REP = const(5)
_SEEN = const(1)  # fields of Buttons._t (_EDGE is 0)
_DOWN = const(2)
_NEXT = const(3)
_DEAD_MS = const(50)    # no tick for this long: the timer's tick was dropped, arm it again


def active_low(reader):
    # A reader for a button that reads 0 when pressed (pull-up wiring).
    read = reader.value if hasattr(reader, "value") else reader

    def pressed():
        return 0 if read() else 1

    return pressed


class Buttons:
    # Per button i (n of them), in one bytearray `_b` at i + n * field: the last level read
    # (_RAW), the debounced one (_STATE), _FIRED or _SWALLOWED (_DONE), its codes (_CODE,
    # _LONGC) and whether it repeats (_REP); in one list `_t` of ticks: when its raw level
    # last changed (_EDGE), was last read (_SEEN), its press began (_DOWN), its next
    # repeat is due (_NEXT). The IRQ's edge log follows each: button and level in `_b`
    # from 6n, when in `_t` from 4n. Few objects: the heap a board boots with is small.
    def __init__(self, entries, debounce_ms=20, long_ms=600, repeat_ms=0, glitchy=()):
        n = len(entries)
        self._n = n
        read = []
        b = bytearray(6 * n + 2 * _LOG)
        for i in range(n):
            e = entries[i]
            r = e[0]
            read.append(r.value if hasattr(r, "value") else r)
            b[_CODE * n + i] = e[1]
            long_code = e[2] if len(e) > 2 and e[2] is not None else LONG | e[1]
            b[_LONGC * n + i] = long_code
            b[_REP * n + i] = 1 if repeat_ms and long_code == LONG | e[1] else 0
        self._read = tuple(read)
        self._b = b
        self._t = [0] * (4 * n + _LOG)
        self._debounce = debounce_ms
        self._long = long_ms
        self._repeat = repeat_ms
        self._ew = 0  # edges logged (the IRQ's count, mod 256)
        self._er = 0  # edges replayed (poll's count, mod 256)
        self._alive = 0  # the last tick()
        self._stall = 0  # when the last stall (a gap in the ticks) ended...
        self._stall_ms = 0  # ...and how long it was
        self._q = bytearray(_QUEUE)
        self._head = 0
        self._count = 0
        self.dropped = 0  # events, or edges, that found no room
        self.rearm = None  # the board's: arm the timer again (its tick was dropped)
        self._armed = 0  # when rearm() was last called
        self._glitchy = 0  # the buttons on GPIO36/39, a bit each
        for i in glitchy:
            self._glitchy |= 1 << i
        self._hushed = False  # a battery read or WiFi's start is under way...
        self._quiet = 0  # ...or ended then
        self.hushed = 0  # edges not logged, for the tests

    def _push(self, ev):
        if self._count == _QUEUE:
            self.dropped += 1
            return
        self._q[(self._head + self._count) % _QUEUE] = ev
        self._count += 1

    def edge(self, i, now_ms):
        # From a pin IRQ on either edge of button i: log the level it reads now. Allocates
        # nothing; poll() replays the log.
        if self._glitchy >> i & 1 and (self._hushed or ticks_diff(
                now_ms, self._quiet) < _TICK_MS):
            if (1 if self._read[i]() else 0) == self._b[i]:
                self.hushed += 1
                return
        w = self._ew
        if (w - self._er) & 0xFF >= _LOG:
            self.dropped += 1
            return
        j = w % _LOG
        n6 = 6 * self._n
        self._b[n6 + j] = i
        self._b[n6 + _LOG + j] = 1 if self._read[i]() else 0
        self._t[4 * self._n + j] = now_ms
        self._ew = (w + 1) & 0xFF

    def tick(self, now_ms):
        # From a timer every _TICK_MS (boards.device.latch_presses). Allocates nothing.
        gap = ticks_diff(now_ms, self._alive)
        if gap > 2 * _TICK_MS:
            self._stall = now_ms
            self._stall_ms = gap
        self._alive = now_ms

    def hush(self, on, now_ms):
        # The board powers the SAR ADC (on: True) or has done (False): see above.
        self._hushed = on
        if not on:
            self._quiet = now_ms

    def poll(self, now_ms):
        n = self._n
        if (self.rearm is not None and ticks_diff(now_ms, self._alive) > _DEAD_MS
                and ticks_diff(now_ms, self._armed) > _DEAD_MS):
            self._armed = now_ms    # (not _alive: the tick that comes shows the stall)
            self.rearm()
        last = now_ms
        while self._er != self._ew:
            j = self._er % _LOG
            t = self._t[4 * n + j]
            for k in range(n):
                self._at(k, t)
            self._level(self._b[6 * n + j], self._b[6 * n + _LOG + j], t, True)
            self._er = (self._er + 1) & 0xFF
            last = t
        if ticks_diff(now_ms, last) < 0:
            now_ms = last  # an edge logged after the caller read the clock
        for i in range(n):
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
        n = self._n
        b = self._b
        tt = self._t
        late = False
        if logged:  # did its handler run late (after a stall)?
            seen = tt[_SEEN * n + i]
            if ticks_diff(self._alive, seen) > 0:
                seen = self._alive
            since = ticks_diff(t, self._stall)
            late = (ticks_diff(t, seen) >= self._debounce
                    or (0 <= since < _TICK_MS and self._stall_ms >= self._debounce))
        tt[_SEEN * n + i] = t
        if r != b[i]:
            b[i] = r
            tt[i] = ticks_add(t, -self._debounce) if late and r else t
        elif (late and not r and not b[_STATE * n + i]
              and ticks_diff(t, tt[i]) >= self._debounce):
            self._push(b[_CODE * n + i])  # pressed and released unseen: a short press
            # ... whose release is dated now: the handlers of its other edges, run late
            # with it (each edge is its own callback when the interrupts were on during
            # the stall), read the same level and count no second press.
            tt[i] = t

    def _at(self, i, now_ms):
        # Time has come to now_ms with button i's raw level unchanged since its last edge.
        n = self._n
        b = self._b
        tt = self._t
        r = b[i]
        st = _STATE * n + i
        done = _DONE * n + i
        down = _DOWN * n + i
        nxt = _NEXT * n + i
        if r != b[st] and ticks_diff(now_ms, tt[i]) >= self._debounce:
            b[st] = r
            if r:
                tt[down] = tt[i]
                b[done] = 0
            elif not b[done]:
                self._push(b[_CODE * n + i])  # released before long_ms: a short press
        if b[st]:
            if not b[done]:
                # (not while a release is being debounced: that press was short)
                if r and ticks_diff(now_ms, tt[down]) >= self._long:
                    b[done] = _FIRED
                    self._push(b[_LONGC * n + i])
                    tt[nxt] = ticks_add(tt[down], self._long + self._repeat)
            elif (b[done] == _FIRED and b[_REP * n + i]
                  and ticks_diff(now_ms, tt[nxt]) >= 0):
                self._push(b[_LONGC * n + i])
                tt[nxt] = ticks_add(tt[nxt], self._repeat)

    def skip_held(self, now_ms):
        # Buttons held now give no event until released and pressed again: the press that
        # woke the board from deep sleep only wakes it.
        n = self._n
        for i in range(n):
            if self._read[i]():
                self._b[i] = 1
                self._b[_STATE * n + i] = 1
                self._t[i] = now_ms
                self._t[_DOWN * n + i] = now_ms
                self._b[_DONE * n + i] = _SWALLOWED

    def pressed(self):
        # True while any button is down (debounced).
        n = self._n
        for i in range(n):
            if self._b[_STATE * n + i]:
                return True
        return False

    def busy(self):
        # True while any button is down or settling (its level not debounced yet): the
        # firmware stays awake meanwhile, rather than sleep through a press.
        n = self._n
        for i in range(n):
            if self._b[_STATE * n + i] or self._b[i]:
                return True
        return False

    def held(self):
        # True while any button reads pressed now (no debouncing): safe mode at boot.
        for i in range(self._n):
            if self._read[i]():
                return True
        return False
