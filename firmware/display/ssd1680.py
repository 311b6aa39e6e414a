# Solomon Systech SSD1680 e-paper controller: the 2.9" 296x128 panel of the DIY build
# (GDEM029T94 class) and the LilyGO T5 2.13" DEPG0213BN (250x122 visible, 128x250 RAM).
# Command bytes per the SSD1680 datasheet (Rev 0.14) as used by GxEPD2's GDEM029T94 and
# DEPG0213BN drivers.
#
# Landscape without transposing. The UI draws a width x height landscape frame (x along
# the panel's gates, y across its sources). The frame is MONO_VLSB: each byte holds 8
# vertically stacked pixels, bit 0 on top, bytes running along x, then the next 8 rows.
# With data entry "Y first" (AM=1) each byte lands in one RAM byte (8 sources) at one gate,
# in buffer order, so the buffer streams to the panel as it is:
#   rotate=0:   X (source bytes) decrementing, Y (gates) incrementing: gate = x and
#               source = 127 - y (128-source RAM); the LSB-on-top bit order is exactly
#               what RAM's MSB-first order becomes when X runs backwards. For a panel
#               narrower than its RAM (122 of 128 sources on the 2.13") the rows are
#               shifted down by the difference on the way out, so the frame still
#               covers sources 0..121.
#   rotate=180: X incrementing, Y decrementing: gate = width-1-x, source = y; each byte is
#               bit-reversed on the way out.
from micropython import const

import framebuf
from firmware.display.epaper import EPaper

_MODE_1 = const(0xF7)  # 0x22: clock+analog on, load temp+LUT, display mode 1, all off
_MODE_2 = const(0xFF)  # 0x22: the same with display mode 2 (differential, OTP waveform)
_MODE_2_LUT = const(0xCF)  # 0x22: clock+analog on, display mode 2 with the loaded LUT, off


def _bit_reverse_table():
    t = bytearray(256)
    for i in range(256):
        r = 0
        for b in range(8):
            if i & (1 << b):
                r |= 0x80 >> b
        t[i] = r
    return t


class SSD1680(EPaper):
    def __init__(self, spi, cs, dc, rst, busy, width=296, height=128, rotate=0,
                 full_every=10, partial_lut=None):
        if rotate not in (0, 180):
            raise ValueError("rotate must be 0 or 180")
        if not (0 < width <= 296 and 0 < height <= 176):
            raise ValueError("SSD1680 drives at most 296 gates x 176 sources")
        pages = (height + 7) // 8  # RAM bytes across the sources
        super().__init__(spi, cs, dc, rst, busy, width, height, framebuf.MONO_VLSB,
                         pages * width, 1, full_every)  # BUSY high = busy
        self._rotate = rotate
        self._pages = pages
        self._shift = pages * 8 - height  # unused source rows at the RAM's far end
        self._lut = partial_lut  # 153-byte waveform for 0x32, or None: the OTP's mode 2
        # Raw streaming (rotate=0, no shift) needs no scratch; the other paths convert one
        # page at a time into a scratch row.
        self._row = bytearray(width) if (rotate or self._shift) else None
        self._rev = _bit_reverse_table() if rotate else None
        g = width - 1  # the last gate
        # Driver output control (0x01): MUX = gates - 1, GD=SM=TB=0.
        self._p_output = bytes((g & 0xFF, g >> 8, 0x00))
        last = pages - 1
        if rotate:
            self._p_entry = b"\x05"  # 0x11: AM=1 (Y first), Y decrement, X increment
            self._p_xwin = bytes((0, last))
            self._p_ywin = bytes((g & 0xFF, g >> 8, 0, 0))
            self._p_xcnt = bytes((0,))
            self._p_ycnt = bytes((g & 0xFF, g >> 8))
        else:
            self._p_entry = b"\x06"  # 0x11: AM=1 (Y first), Y increment, X decrement
            self._p_xwin = bytes((last, 0))
            self._p_ywin = bytes((0, 0, g & 0xFF, g >> 8))
            self._p_xcnt = bytes((last,))
            self._p_ycnt = b"\x00\x00"

    def _wake(self):
        self._cmd(0x12)  # SWRESET: registers to defaults, RAM kept; BUSY high meanwhile
        self._wait()
        self._cmd(0x01, self._p_output)  # driver output control: gate count
        self._cmd(0x11, self._p_entry)  # data entry mode
        self._cmd(0x3C, b"\x05")  # border waveform: follow LUT, LUT1 (white)
        self._cmd(0x21, b"\x00\x80")  # display update control 1: RAM normal, S8..S167
        self._cmd(0x18, b"\x80")  # temperature sensor: internal

    def _write_ram(self, cmd, src):
        # RAM window and address counters first: each write starts at the window's corner.
        self._cmd(0x44, self._p_xwin)  # RAM X start/end (source bytes)
        self._cmd(0x45, self._p_ywin)  # RAM Y start/end (gates), 9-bit, low byte first
        self._cmd(0x4E, self._p_xcnt)  # RAM X address counter
        self._cmd(0x4F, self._p_ycnt)  # RAM Y address counter
        self._begin_data(cmd)
        row = self._row
        if row is None:
            self._spi.write(src)
        else:
            w = self.width
            if self._rotate:
                rev = self._rev
                base = 0
                for _ in range(self._pages):
                    for x in range(w):
                        row[x] = rev[src[base + x]]
                    self._spi.write(row)
                    base += w
            else:
                s = self._shift
                t = 8 - s
                # Page 0: its low rows fall on the unused sources; nothing comes from above.
                for x in range(w):
                    row[x] = (src[x] << s) & 0xFF
                self._spi.write(row)
                base = w
                for _ in range(1, self._pages):
                    for x in range(w):
                        row[x] = ((src[base + x] << s) | (src[base - w + x] >> t)) & 0xFF
                    self._spi.write(row)
                    base += w
        self._end_data()

    def _refresh(self, full):
        # Mode 2 compares 0x24, the new image, with 0x26, the one on the panel (_keep wrote
        # it when the last refresh was done); a full refresh gets the new image in both.
        if full:
            self._write_ram(0x26, self._buf)
        self._write_ram(0x24, self._buf)
        if full:
            self._cmd1(0x22, _MODE_1)  # display update control 2
        elif self._lut is None:
            self._cmd1(0x22, _MODE_2)
        else:
            self._cmd(0x32, self._lut)  # write LUT register (a full refresh reloads OTP)
            self._cmd1(0x22, _MODE_2_LUT)
        self._cmd(0x20)  # master activation: BUSY high until the refresh is done
        return full

    def _keep(self):
        # The frame on the panel into 0x26, where it stays through the deep sleep (mode 1
        # keeps RAM) until the next partial refresh: no copy of it in the ESP32's heap.
        self._write_ram(0x26, self._buf)

    def _power_down(self):
        self._cmd(0x10, b"\x01")  # deep sleep mode 1 (RAM kept); only RES# wakes it
