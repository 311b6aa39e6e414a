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
# A press that comes and goes between two polls (the loop busy writing flash or loading
# a screen) is not lost when the board latches edges: a pin IRQ on the press edge calls
# edge(i, ticks_ms()) (boards.device.latch_presses), and the next poll counts a short press
# that no poll saw. Edges within debounce_ms of a release are its bounce, not a press.
from micropython import const
from time import ticks_add, ticks_diff

from firmware.codes import LONG     # the logical buttons are firmware/codes.py's

NONE = const(0)     # poll(): no event

_QUEUE = const(8)  # events not yet taken by poll(); more are dropped
_FIRED = const(1)  # this press has given its long event (may repeat)
_SWALLOWED = const(2)  # this press gives nothing (held since skip_held())


def active_low(reader):
    # A reader for a button that reads 0 when pressed (pull-up wiring).
    read = reader.value if hasattr(reader, "value") else reader

    def pressed():
        return 0 if read() else 1

    return pressed


class Buttons:
    def __init__(self, entries, debounce_ms=30, long_ms=600, repeat_ms=0):
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
        self._latched = bytearray(n)  # a press edge came (pin IRQ) since the last poll
        self._latch_at = [0] * n
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
        # From a pin IRQ: button i began a press at now_ms. Allocates nothing.
        self._latched[i] = 1
        self._latch_at[i] = now_ms

    def poll(self, now_ms):
        for i in range(self._n):
            r = 1 if self._read[i]() else 0
            if self._latched[i]:
                self._latched[i] = 0
                if (not r and not self._raw[i] and not self._state[i]
                        and ticks_diff(self._latch_at[i], self._edge[i]) > self._debounce):
                    self._push(self._code[i])  # pressed and released between two polls
            if r != self._raw[i]:
                self._raw[i] = r
                self._edge[i] = now_ms
            elif r != self._state[i] and ticks_diff(now_ms, self._edge[i]) >= self._debounce:
                self._state[i] = r
                if r:
                    self._down[i] = self._edge[i]
                    self._done[i] = 0
                elif not self._done[i]:
                    self._push(self._code[i])  # released before long_ms: a short press
            if self._state[i]:
                if not self._done[i]:
                    # (not while a release is being debounced: that press was short)
                    if self._raw[i] and ticks_diff(now_ms, self._down[i]) >= self._long:
                        self._done[i] = _FIRED
                        self._push(self._long_code[i])
                        self._next[i] = ticks_add(self._down[i], self._long + self._repeat)
                elif (self._done[i] == _FIRED and self._repeats[i]
                      and ticks_diff(now_ms, self._next[i]) >= 0):
                    self._push(self._long_code[i])
                    self._next[i] = ticks_add(self._next[i], self._repeat)
        if not self._count:
            return NONE
        ev = self._q[self._head]
        self._head = (self._head + 1) % _QUEUE
        self._count -= 1
        return ev

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
