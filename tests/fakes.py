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


# -- fake machine and esp32 modules, so the board files can be opened on the unix port --


class _FakePinClass(FakePin):
    # machine.Pin: Pin(id, mode, pull, value=..., hold=...). The newest Pin made for an id
    # is kept in FakeMachine.pins, so a test can press the button a board wired.
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2

    registry = None

    def __init__(self, id, mode=-1, pull=-1, value=None, hold=None):
        FakePin.__init__(self, 1 if pull == self.PULL_UP else 0)
        self.id = id
        self.mode = None
        self.pull = None
        self.hold_on = False
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


class _FakeSPIClass:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None,
                 miso=None):
        self.id = id
        self.baudrate = baudrate
        self.mode = (polarity, phase)
        self.sck = sck
        self.mosi = mosi
        self.written = 0

    def write(self, buf):
        self.written += len(buf)


class FakeMachine:
    # Stands in for the machine module (see install_fake_hardware).
    def __init__(self):
        self.pins = {}
        _FakePinClass.registry = self.pins
        self.Pin = _FakePinClass
        self.SPI = _FakeSPIClass
        self.slept = 0
        self.resets = 0

    def deepsleep(self, ms=None):
        self.slept += 1

    def reset(self):
        self.resets += 1


class _FakePartitionClass:
    TYPE_APP = 0
    TYPE_DATA = 1
    made = []

    def __init__(self, label):
        self.label = label

    @staticmethod
    def find(type=0, subtype=0xFF, label=None):
        if type == 1 and label in _FakePartitionClass.made:
            return [_FakePartitionClass(label)]
        return []


class FakeEsp32:
    # Stands in for the esp32 module: partitions by label, and the wake sources armed.
    WAKEUP_ALL_LOW = False
    WAKEUP_ANY_HIGH = True

    def __init__(self, partitions=("journal",)):
        _FakePartitionClass.made = list(partitions)
        self.Partition = _FakePartitionClass
        self.ext0 = None
        self.ext1 = None

    def wake_on_ext0(self, pin, level):
        self.ext0 = (pin, level)

    def wake_on_ext1(self, pins, level):
        self.ext1 = (tuple(pins), level)


def install_fake_hardware(partitions=("journal",)):
    # Put fake machine and esp32 modules in sys.modules (and forget imported boards);
    # returns (machine, esp32, undo) where undo() restores the real ones.
    import sys

    names = ["machine", "esp32"] + [k for k in sys.modules if k.startswith("boards.")]
    saved = {k: sys.modules.get(k) for k in names}
    for k in names:
        sys.modules.pop(k, None)
    m, e = FakeMachine(), FakeEsp32(partitions)
    sys.modules["machine"] = m
    sys.modules["esp32"] = e

    def undo():
        for k in list(sys.modules):
            if k.startswith("boards."):
                del sys.modules[k]
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v

    return m, e, undo
