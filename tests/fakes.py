# Test doubles of the bus hardware (the unix port's machine has no Pin or SPI): FakePin and
# FakeSPI record what a driver does without allocating, so drivers can run under
# micropython.heap_lock(). Used by tests/mp; the sim board may use them too.


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
