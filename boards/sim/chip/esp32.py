# A FAKE of the ESP32 port's `esp32` module for MicroPython's unix port, at the block
# device: partitions over a flash image file, and the wake sources a sleep arms. What it
# copies, and from where (MicroPython's ports/esp32, the source in ../shared/micropython):
# - the partition table (use(IMAGE), a whole 4 MB flash as an ESP32-WROOM-32's): read
#   from the image at 0x8000 as ESP-IDF's esp_partition does (32-byte entries of magic
#   0x50AA, ended by the MD5 entry 0xEBEB or an erased one). A table whose MD5 does not
#   match stops the boot here, as the bootloader refuses it.
# - main.c boardctrl_startup(): when the table has no "vfs" or "ffat" partition, a "vfs"
#   (data, fat) is registered from the end of the last partition to the end of flash.
# - esp32_partition.c: find(type=TYPE_APP, subtype=ANY, label=None, block_size=4096) in
#   table order; Partition(label) by label, APP before DATA, OSError(ENOENT) if none;
#   info() (type, subtype, address, size, label, encrypted); readblocks(block, buf[,
#   off]); writeblocks(block, buf) erasing what it writes first, writeblocks(block, buf,
#   off) writing over what is there; ioctl() with 1-3 -> 0, 4 -> size // block_size,
#   5 -> block_size, 6 -> erase one 4 KB block (-EINVAL for another block size), None
#   otherwise.
# - NOR flash as esp_partition_read/_write/_erase_range treat it: a write clears bits and
#   never sets one (only an erase does, 4 KB at a time, on 4 KB boundaries); reads and
#   writes past the partition's end fail (ESP_ERR_INVALID_SIZE, an OSError). The image is
#   read and written in place, so that it takes no heap.
# - modesp32.c: wake_on_ext0(pin, level), wake_on_ext1(pins, level), and the levels'
#   names WAKEUP_ALL_LOW (False) and WAKEUP_ANY_HIGH (True).
# Besides a whole image, setup() (boards/sim/chip install()) lays out data partitions by
# label: over a file that is the partition alone (the DIY board's journal in the heap
# probe), or over nothing (a board opened on no flash: found, never read), and takes
# block devices that give their own info() (a board probe over RAM flash).
FLASH_SIZE = 4 * 1024 * 1024
SECTOR = 4096
TABLE_AT = 0x8000
TYPE_APP = 0
TYPE_DATA = 1
_ANY = 0xFF
_EINVAL = 22
_ENOENT = 2
_JOURNAL = 0x40         # a data subtype of the application's own (boards/device.py's table)

WAKEUP_ALL_LOW = False
WAKEUP_ANY_HIGH = True

_flash = None       # the image file
_table = []         # [(type, subtype, address, size, label)] or block devices with info()
ext0 = None         # the wake sources armed: (pin, level)
ext1 = None         # (pins, level)


class BootRefused(Exception):
    """The image would not boot on the chip (the bootloader refuses its table)."""


def use(path):
    """Boot from the image at path: read its partition table as the chip would."""
    global _flash, _table
    _flash = open(path, "r+b")
    _table = _read_table()


def setup(partitions=("journal",), image=None):
    """Data partitions by label (the first over the file `image`, which is that partition
    alone, when given) and block devices with info(); the wake sources disarmed."""
    global _flash, _table, ext0, ext1
    _flash = None
    size = 0
    if image is not None:
        import os
        _flash = open(image, "r+b")
        size = os.stat(image)[6]
    _table = []
    for p in partitions:
        if isinstance(p, str):
            _table.append((TYPE_DATA, _JOURNAL, 0, size if not _table else 0, p))
        else:
            _table.append(p)
    ext0 = ext1 = None


def wake_on_ext0(pin, level):
    global ext0
    ext0 = (pin, level)


def wake_on_ext1(pins, level):
    global ext1
    ext1 = (tuple(pins), level)


def _read(addr, n):
    _flash.seek(addr)
    return _flash.read(n)


def _read_table():
    import hashlib
    import struct
    raw = _read(TABLE_AT, 0xC00)
    parts = []
    pos = 0
    while True:
        magic = raw[pos] | raw[pos + 1] << 8
        if magic == 0x50AA:
            t, st, addr, size, label = struct.unpack("<BBII16s", raw[pos + 2:pos + 28])
            label = label.split(b"\0")[0].decode()
            parts.append((t, st, addr, size, label))
            pos += 32
        elif magic == 0xEBEB:
            if hashlib.md5(raw[:pos]).digest() != raw[pos + 16:pos + 32]:
                raise BootRefused("partition table MD5 does not match")
            break
        elif magic == 0xFFFF:
            break
        else:
            raise BootRefused("partition table entry %d has magic 0x%x" % (pos // 32, magic))
    if not parts:
        raise BootRefused("no partition table at 0x8000")
    # main.c boardctrl_startup(): no "vfs" or "ffat": one from the end of the last
    # partition to the end of flash.
    if not [p for p in parts if p[0] == TYPE_DATA and p[4] in ("vfs", "ffat")]:
        end = 0
        for p in parts:
            end = max(end, p[2] + p[3])
        if 0 < end < FLASH_SIZE:
            parts.append((TYPE_DATA, 0x81, end, FLASH_SIZE - end, "vfs"))
    return parts


def _check(part, offset, n):
    if offset < 0 or offset + n > part[3]:
        raise OSError(_EINVAL)      # esp_partition_*: ESP_ERR_INVALID_SIZE


def _erase(part, offset, n):
    _check(part, offset, n)
    if offset % SECTOR or n % SECTOR:
        raise OSError(_EINVAL)      # esp_partition_erase_range: ESP_ERR_INVALID_ARG
    _flash.seek(part[2] + offset)
    _flash.write(b"\xff" * n)


def _program(part, offset, buf):
    _check(part, offset, len(buf))
    old = _read(part[2] + offset, len(buf))
    new = bytearray(len(buf))
    for i in range(len(buf)):
        new[i] = old[i] & buf[i]
    _flash.seek(part[2] + offset)
    _flash.write(new)


def _info(p):
    return p[:5] if isinstance(p, tuple) else p.info()[:5]


class Partition:
    BOOT = 0
    RUNNING = 1
    TYPE_APP = TYPE_APP
    TYPE_DATA = TYPE_DATA

    def __init__(self, which, block_size=SECTOR, _part=None):
        if _part is None:
            if not isinstance(which, str):
                raise ValueError("the fake finds partitions by label only")
            found = ([p for p in _table if _info(p)[0] == TYPE_APP and _info(p)[4] == which]
                     + [p for p in _table if _info(p)[0] == TYPE_DATA and _info(p)[4] == which])
            if not found:
                raise OSError(_ENOENT)
            _part = found[0]
        self._p = _part
        self._bs = block_size

    @staticmethod
    def find(type=TYPE_APP, subtype=_ANY, label=None, block_size=SECTOR):
        out = []
        for p in _table:
            t, st, _, _, lab = _info(p)
            if t == type and (subtype == _ANY or st == subtype) and \
                    (label is None or lab == label):
                out.append(p if not isinstance(p, tuple) else Partition(None, block_size, p))
        return out

    def info(self):
        t, st, addr, size, label = self._p
        return (t, st, addr, size, label, False)

    def readblocks(self, block, buf, offset=0):
        off = block * self._bs + offset
        _check(self._p, off, len(buf))
        _flash.seek(self._p[2] + off)
        _flash.readinto(buf)

    def writeblocks(self, block, buf, offset=None):
        off = block * self._bs
        if offset is None:
            if self._bs < SECTOR:
                raise OSError(_EINVAL)      # not needed by the boot: not faked
            _erase(self._p, off, len(buf))
        else:
            off += offset
        _program(self._p, off, buf)

    def ioctl(self, cmd, arg):
        if cmd in (1, 2, 3):
            return 0
        if cmd == 4:
            return self._p[3] // self._bs
        if cmd == 5:
            return self._bs
        if cmd == 6:
            if self._bs != SECTOR:
                return -_EINVAL
            _erase(self._p, arg * SECTOR, SECTOR)
            return 0
        return None

    def __repr__(self):
        return "<Partition type=%u, subtype=%u, address=%u, size=%u, label=%s, encrypted=0>" % self._p
