# A FAKE of the ESP32 port's `esp32` module for MicroPython's unix port: partitions found by
# label, and the wake sources a deep or light sleep arms. What it copies from MicroPython's
# ports/esp32 (the source in ../shared/micropython):
# - esp32_partition.c: Partition.find(type=TYPE_APP, subtype=ANY, label=None) gives a list
#   of the partitions that match, in table order, empty when none does; info() is (type,
#   subtype, address, size, label, encrypted). install()'s partitions are labels of data
#   partitions, or block devices with their own info(). A partition with a flash image
#   behind it (install(image=...)) has the extended block protocol: readblocks(block, buf,
#   off), writeblocks(block, buf, off) writing over what is there as NOR flash does (a
#   program clears bits and never sets one), ioctl 4 (blocks), 5 (block size), 6 (erase
#   one 4 KB block: every bit set). It reads and writes the image file in place, so that
#   the image takes no heap. Without an image a partition is only its label (a board
#   opened on no flash).
# - modesp32.c: wake_on_ext0(pin, level), wake_on_ext1(pins, level), and the levels'
#   names WAKEUP_ALL_LOW (False) and WAKEUP_ANY_HIGH (True).
# The whole partition table (the first boot, the bootloader's check) is
# tests/kit/espboot/esp32.py's, which the emulated boot runs instead.
_SECTOR = 4096


class Partition:
    TYPE_APP = 0
    TYPE_DATA = 1
    made = ()           # the data partitions' labels (install)
    f = None            # the flash image file behind them (opened once), or None
    n = 0               # its blocks

    def __init__(self, label):
        self.label = label

    @staticmethod
    def find(type=0, subtype=0xFF, label=None):
        out = []
        for p in Partition.made:
            if isinstance(p, str):      # a data partition by its label
                if type == 1 and (label is None or label == p):
                    out.append(Partition(p))
            else:                       # a block device with info(), as the port's
                t, st, _, _, lab, _ = p.info()
                if t == type and (subtype == 0xFF or subtype == st) and \
                        (label is None or label == lab):
                    out.append(p)
        return out

    def readblocks(self, blk, buf, off=0):
        self.f.seek(blk * _SECTOR + off)
        self.f.readinto(buf)

    def writeblocks(self, blk, buf, off=0):
        old = bytearray(len(buf))
        self.readblocks(blk, old, off)
        for i in range(len(buf)):
            old[i] &= buf[i]
        self.f.seek(blk * _SECTOR + off)
        self.f.write(old)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return _SECTOR
        if op == 6:
            self.f.seek(arg * _SECTOR)
            self.f.write(b"\xff" * _SECTOR)
        return 0


class FakeEsp32:
    # Stands in for the esp32 module: partitions by label, and the wake sources armed.
    WAKEUP_ALL_LOW = False
    WAKEUP_ANY_HIGH = True

    def __init__(self, partitions=("journal",), image=None):
        Partition.made = tuple(partitions)
        Partition.f = None
        if image is not None:
            import os
            Partition.f = open(image, "r+b")
            Partition.n = os.stat(image)[6] // _SECTOR
        self.Partition = Partition
        self.ext0 = None
        self.ext1 = None

    def wake_on_ext0(self, pin, level):
        self.ext0 = (pin, level)

    def wake_on_ext1(self, pins, level):
        self.ext1 = (tuple(pins), level)
