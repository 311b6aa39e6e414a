# Fake machine and esp32 modules for bench_ui.py's heap figure on a real board file (the DIY
# build, boards/esp32_epd29.py), faked at the bus: pins that read 0, an SPI that sends
# nowhere, an RTC never set, and the journal partition over a flash image file. As small as
# opening the board and booting it allows (tests/kit/chip/fakes.py's are fuller): their names are
# interned before the firmware's, and each would count in the name table. What they copy
# is MicroPython's ports/esp32: Pin.irq and Timer.init's arguments (machine_pin.c,
# machine_timer.c), RTC.datetime's new tuple at each read (machine_rtc.c), and
# esp32.Partition's extended block protocol (esp32_partition.c).
import sys


class Pin:
    IN = 1
    OUT = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 1
    IRQ_RISING = 2

    def __init__(self, id, mode=0, pull=None, value=0):
        self.v = value

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v

    __call__ = value

    def irq(self, handler=None, trigger=0):
        pass

    def init(self, period=0, mode=0, callback=None):    # as machine.Timer's
        pass

    PERIODIC = 1
    ONE_SHOT = 0


class SPI:
    def __init__(self, id, **kw):
        pass

    def write(self, buf):
        pass


class RTC:
    def datetime(self, t=None):
        return tuple([2000, 1, 1, 5, 0, 0, 0, 0])

    def memory(self, data=None):
        return b""


class Machine:
    Pin = Pin
    SPI = SPI
    RTC = RTC
    Timer = Pin     # Timer(0).init(period=, mode=, callback=): the same nothing
    DEEPSLEEP_RESET = 4

    def freq(self, hz=None):
        return 160000000

    def reset_cause(self):
        return 1

    def unique_id(self):
        return b"\x24\x0a\xc4\x12\x34\x56"


class Partition:
    # The journal partition over the flash image file, read and written in place (so that
    # the image takes no heap): NOR semantics, a program clears bits, an erase sets them.
    # boards/sim/board.py's FileFlash does the same, but importing the sim board would load
    # its modules and intern its names before the firmware's.
    TYPE_DATA = 1
    image = None

    def __init__(self, path):
        import os
        self.f = open(path, "r+b")
        self.n = os.stat(path)[6] // 4096

    @staticmethod
    def find(type=0, subtype=0xFF, label=None):
        return [Partition.image]

    def readblocks(self, blk, buf, off=0):
        self.f.seek(blk * 4096 + off)
        self.f.readinto(buf)

    def writeblocks(self, blk, buf, off=0):
        old = bytearray(len(buf))
        self.readblocks(blk, old, off)
        for i in range(len(buf)):
            old[i] &= buf[i]
        self.f.seek(blk * 4096 + off)
        self.f.write(old)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return 4096
        if op == 6:
            self.f.seek(arg * 4096)
            self.f.write(b"\xff" * 4096)
        return 0


class Esp32:
    Partition = Partition
    WAKEUP_ALL_LOW = False
    WAKEUP_ANY_HIGH = True


def install(flash_path):
    Partition.image = Partition(flash_path)
    sys.modules["machine"] = Machine()
    sys.modules["esp32"] = Esp32()
