# Fitipower JD79653A e-paper controller (UC8151-style command set): the M5Stack CoreInk's
# 200x200 GDEW0154M09 panel. The sequence follows M5Stack's own driver for this panel
# (M5GFX/LovyanGFX Panel_GDEW0154M09), with GxEPD2's GxEPD2_154_M09 as a cross-check:
# the waveform is loaded into the LUT registers and every refresh is differential
# (DTM1 = old image, DTM2 = new). A full refresh drives every pixel through its inverse
# and back, which clears ghosting with the same waveform.
#
# RAM is row-major, 8 pixels a byte, MSB leftmost: the frame is MONO_HLSB as it stands.
# rotate=180 flips both scan directions in the panel setting register (UD and SHL).
from micropython import const
from time import sleep_ms

import framebuf
from firmware.display.epaper import EPaper

_PSR_OTP = const(0xDF)  # 0x00 byte 1: RES=200x200 class, LUT from OTP, B/W, UD, SHL, on
_PSR_REG = const(0xFF)  # 0x00 byte 1: the same with the LUT from the registers
_UD_SHL = const(0x0C)  # gate scan up (bit 3) and source shift right (bit 2)
_CDI_RUN = const(0xD7)  # 0x50 VCOM and data interval: border, data polarity (1 = white)
_CDI_OFF = const(0xF7)  # 0x50 before power off: without old data


def _lut(size, level, vcom=False):
    # One drive phase of 4+4+3 frames (repeat 1) at `level` (0x00 GND, 0x40 or 0x80 the
    # two drive voltages); the rest of the table is zero.
    t = bytearray(size)
    t[0] = 0x01
    t[1] = level | 4
    t[2] = level | 4
    t[3] = level | 3
    t[4] = t[5] = t[6] = 0x01
    if vcom:
        t[12] = 0x01
    return t


class JD79653A(EPaper):
    def __init__(self, spi, cs, dc, rst, busy, width=200, height=200, rotate=0,
                 full_every=10):
        if rotate not in (0, 180):
            raise ValueError("rotate must be 0 or 180")
        stride = (width + 7) // 8
        super().__init__(spi, cs, dc, rst, busy, width, height, framebuf.MONO_HLSB,
                         stride * height, 0, full_every)  # BUSY low = busy
        self._stride = stride
        flip = _UD_SHL if rotate else 0
        self._p_psr_otp = bytes((_PSR_OTP ^ flip, 0x0E))
        self._p_psr_reg = bytes((_PSR_REG ^ flip, 0x0E))
        self._p_tres = bytes((width, height >> 8, height & 0xFF))
        self._row = bytearray(stride)
        # What the panel shows: DTM1 is sent again with every refresh (the controller's
        # RAM is not trusted through its deep sleep).
        self._old = bytearray(self._buf)
        # The partial waveform of the panel maker's demo (as loaded by M5GFX and GxEPD2):
        # pixels changing one way are driven at one level, the other way at the other,
        # unchanged pixels and VCOM stay at GND.
        self._luts = (
            (0x20, _lut(56, 0x00, vcom=True)),  # VCOM
            (0x21, _lut(42, 0x00)),  # white to white
            (0x22, _lut(56, 0x80)),  # black to white
            (0x23, _lut(56, 0x40)),  # white to black
            (0x24, _lut(56, 0x00)),  # black to black
        )

    def _wake(self):
        self._cmd(0x00, self._p_psr_otp)  # panel setting (PSR)
        self._cmd(0x4D, b"\x55")  # vendor ("FITI internal") codes of the panel's init flow
        self._cmd(0xAA, b"\x0F")
        self._cmd(0xE9, b"\x02")
        self._cmd(0xB6, b"\x11")
        self._cmd(0xF3, b"\x0A")
        self._cmd(0x61, self._p_tres)  # resolution setting (TRES): 200 x 200
        self._cmd(0x60, b"\x00")  # TCON setting
        self._cmd(0xE3, b"\x00")  # power saving (PWS)
        self._cmd(0x04)  # power on (PON): BUSY low until the charge pumps are up
        self._wait()
        self._cmd(0x00, self._p_psr_reg)  # panel setting: LUT from the registers
        for reg, table in self._luts:
            self._cmd(reg, table)  # LUTC, LUTWW, LUTBW, LUTWB, LUTBB
        self._cmd1(0x50, _CDI_RUN)  # VCOM and data interval setting (CDI)

    def _send(self, cmd, src, invert):
        self._begin_data(cmd)
        if invert:
            row = self._row
            n = self._stride
            base = 0
            for _ in range(self.height):
                for i in range(n):
                    row[i] = src[base + i] ^ 0xFF
                self._spi.write(row)
                base += n
        else:
            self._spi.write(src)
        self._end_data()

    def _refresh(self, full):
        new = self._buf
        if full:
            # First pass: every pixel to the inverse of its new colour.
            self._send(0x10, self._old, False)  # DTM1: old data
            self._send(0x13, new, True)  # DTM2: new data
            self._cmd(0x12)  # display refresh (DRF)
            sleep_ms(1)
            self._wait()
            self._send(0x10, new, True)
        else:
            self._send(0x10, self._old, False)
        self._send(0x13, new, False)
        self._cmd(0x12)  # display refresh: BUSY low until done
        self._old[:] = new  # the old image of the next refresh, kept at once
        return True

    def _power_down(self):
        self._cmd1(0x50, _CDI_OFF)
        self._cmd(0x02)  # power off (POF)
        self._wait()
        self._cmd(0x07, b"\xA5")  # deep sleep (DSLP), check code 0xA5; only RES# wakes it
