# NOR-flash emulation, the sim board's and the tests' flash (no device loads it): a RAM or
# file-backed partition with the block protocol of esp32.Partition, wear counters, and
# power cuts injected after any program or erase.
#
# NOR rules, as on the ESP32's SPI flash: an erase sets a whole block to 0xFF; a program
# can only clear bits (the new byte is old AND data), so programming over bytes that are
# not erased is simply ANDed in. The extended block protocol of `esp32.Partition`:
#   readblocks(block, buf, offset=0)   read len(buf) bytes at block*block_size+offset
#   writeblocks(block, buf, offset)    program without erasing
#   writeblocks(block, buf)            basic protocol: erase the blocks covered, program
#   ioctl(4, 0) block count, ioctl(5, 0) block size, ioctl(6, block) erase one block
from engine_core.compat import const

_IOCTL_INIT = const(1)
_IOCTL_DEINIT = const(2)
_IOCTL_SYNC = const(3)
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_BLOCK_ERASE = const(6)


class PowerCut(Exception):
    """The emulated supply went away: raised by the cut operation and every later one."""


class NorFlash:
    """`NorFlash(nblocks, block_size=4096, path=None, file_offset=0)`.

    With `path`, the partition lives at `file_offset` in that file (made and erased if
    shorter) and every program or erase is written through, so a killed sim keeps it.
    Counters: `bytes_programmed`, `programs`, `erases`, `ops` (programs + erases).
    """

    def __init__(self, nblocks, block_size=4096, path=None, file_offset=0):
        self.nblocks = nblocks
        self.block_size = block_size
        size = nblocks * block_size
        self._mem = bytearray(size)
        self._mv = memoryview(self._mem)
        ff = b"\xff" * block_size
        for b in range(nblocks):  # erased, without a second image-sized buffer
            self._mv[b * block_size : (b + 1) * block_size] = ff
        self._file = None
        self._file_offset = file_offset
        if path is not None:
            self._open_file(path, size)
        self.bytes_programmed = 0
        self.programs = 0
        self.erases = 0
        self.ops = 0
        self.dead = False
        self._cut_at = 0
        self._keep = -1
        self._bits = 0
        self._from_end = False

    def _open_file(self, path, size):
        try:
            f = open(path, "r+b")
        except OSError:
            f = open(path, "w+b")
        f.seek(self._file_offset)
        got = f.readinto(self._mv)
        if got is None or got < size:
            # Missing part of the partition reads as erased flash.
            got = got or 0
            f.seek(self._file_offset + got)
            f.write(self._mv[got:])
            f.flush()
        self._file = f

    def _write_through(self, addr, n):
        if self._file is not None:
            self._file.seek(self._file_offset + addr)
            self._file.write(self._mv[addr : addr + n])
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    # Fault injection -------------------------------------------------------------

    def cut_after(self, n, keep=-1, bits=0, from_end=False):
        """Cut power after the n-th program or erase from now (n >= 1).

        keep = -1 applies the n-th operation whole. keep = k applies only its first k
        bytes (an erase: the block's first k bytes, or its last k with from_end), and the
        byte after them only in the bit positions set in `bits`. Every later operation,
        reads included, raises PowerCut until power_on().
        """
        self._cut_at = self.ops + n
        self._keep = keep
        self._bits = bits
        self._from_end = from_end

    def power_on(self):
        """Reboot: faults off, the flash keeps whatever the cut left."""
        self.dead = False
        self._cut_at = 0

    def _begin_op(self):
        if self.dead:
            raise PowerCut("power cut")
        self.ops += 1
        return self.ops == self._cut_at

    def _check(self, block, offset, n):
        if block < 0 or offset < 0 or (block * self.block_size + offset + n) > len(self._mem):
            raise OSError(22)  # EINVAL, as esp32.Partition reports a bad address

    # Block protocol --------------------------------------------------------------

    def readblocks(self, block, buf, offset=0):
        if self.dead:
            raise PowerCut("power cut")
        n = len(buf)
        self._check(block, offset, n)
        a = block * self.block_size + offset
        try:
            buf[0:n] = self._mv[a : a + n]
        except MemoryError:
            # The chip reads in C into the buffer given (MicroPython's ports/esp32
            # esp32_partition.c, esp32_partition_readblocks: esp_partition_read), on no
            # heap: under heap_lock (or a heap too full for the view) byte by byte.
            mem = self._mem
            i = 0
            while i < n:
                buf[i] = mem[a + i]
                i += 1

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            n = len(buf)
            self._check(block, 0, n)
            last = block + (n + self.block_size - 1) // self.block_size
            b = block
            while b < last:
                self.ioctl(_IOCTL_BLOCK_ERASE, b)
                b += 1
            offset = 0
        n = len(buf)
        self._check(block, offset, n)
        cut = self._begin_op()
        a = block * self.block_size + offset
        self.programs += 1
        self.bytes_programmed += n
        mem = self._mem
        m = n
        if cut and self._keep >= 0 and self._keep < n:
            m = self._keep
            mem[a + m] &= buf[m] | (~self._bits & 0xFF)
        i = 0
        while i < m:
            mem[a + i] &= buf[i]
            i += 1
        if self._file is not None:
            self._write_through(a, n)
        if cut:
            self.dead = True
            raise PowerCut("power cut after program")

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.nblocks
        if op == _IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == _IOCTL_BLOCK_ERASE:
            self._check(arg, 0, self.block_size)
            cut = self._begin_op()
            self.erases += 1
            bs = self.block_size
            a = arg * bs
            m = bs
            if cut and self._keep >= 0 and self._keep < bs:
                m = self._keep
                if self._from_end:
                    a += bs - m
                    self._mem[a - 1] |= self._bits
                else:
                    self._mem[a + m] |= self._bits
            mem = self._mem
            i = 0
            while i < m:
                mem[a + i] = 0xFF
                i += 1
            self._write_through(arg * bs, bs)
            if cut:
                self.dead = True
                raise PowerCut("power cut after erase")
            return 0
        if op == _IOCTL_INIT or op == _IOCTL_DEINIT or op == _IOCTL_SYNC:
            return 0
        return None
