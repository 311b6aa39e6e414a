# Big digits for numbers read across a card table, and the 8x8 framebuf font scaled up.
# Digits are drawn from 8x12 bitmaps (one byte a row, leftmost pixel in the top bit):
# scale 2 is 16x24 px, scale 3 is 24x36 px. Drawing allocates nothing.
import framebuf
from micropython import const

from firmware.codes import DIGIT_H, DIGIT_W

_GAP = const(2)       # font pixels between digits
_MINUS = const(10)

_GLYPHS = (
    b"\x3c\x7e\xe7\xc3\xc3\xc3\xc3\xc3\xc3\xe7\x7e\x3c"  # 0
    b"\x18\x38\x78\xd8\x18\x18\x18\x18\x18\x18\xff\xff"  # 1
    b"\x3c\x7e\xc3\x03\x03\x06\x0c\x18\x30\x60\xff\xff"  # 2
    b"\x7c\xfe\x07\x03\x06\x3c\x3e\x03\x03\x07\xfe\x7c"  # 3
    b"\x06\x0e\x1e\x36\x66\xc6\xff\xff\x06\x06\x06\x06"  # 4
    b"\xff\xff\xc0\xc0\xfc\xfe\x07\x03\x03\xc7\xfe\x7c"  # 5
    b"\x3e\x7e\xe0\xc0\xdc\xfe\xe7\xc3\xc3\xe7\x7e\x3c"  # 6
    b"\xff\xff\x03\x06\x06\x0c\x0c\x18\x18\x30\x30\x30"  # 7
    b"\x3c\x7e\xc3\xc3\x66\x3c\x7e\xc3\xc3\xc3\x7e\x3c"  # 8
    b"\x3c\x7e\xe7\xc3\xc3\xe7\x7f\x3b\x03\x07\x7e\x7c"  # 9
    b"\x00\x00\x00\x00\x00\x7e\x7e\x00\x00\x00\x00\x00"  # minus
)

# One 8x8 cell for scaling the built-in font, made once.
_cell_buf = bytearray(8)
_cell = framebuf.FrameBuffer(_cell_buf, 8, 8, framebuf.MONO_HLSB)


def _row(fb, bits, x, y, s, c):
    # One row of 8 pixels, left bit first, each pixel s x s: a rectangle a run of ink.
    col = 0
    while bits:
        if bits & 0x80:
            run = 0
            while bits & 0x80:
                run += 1
                bits = (bits << 1) & 0xFF
            fb.fill_rect(x + col * s, y, run * s, s, c)
            col += run
        else:
            bits = (bits << 1) & 0xFF
            col += 1


def _glyph(fb, g, x, y, s, c):
    base = g * DIGIT_H
    row = 0
    while row < DIGIT_H:
        _row(fb, _GLYPHS[base + row], x, y + row * s, s, c)
        row += 1


def digits_width(n, s):
    """Width in pixels of number n drawn with number() at scale s."""
    k = 1
    if n < 0:
        k += 1
        n = -n
    while n >= 10:
        n //= 10
        k += 1
    return (k * (DIGIT_W + _GAP) - _GAP) * s


def number(fb, n, x, y, s, c):
    """Draw integer n with its left edge at x; returns the x after it."""
    if fb.note is not None:
        fb.note(x, y, n, DIGIT_H * s, c)
    w = digits_width(n, s)
    if n < 0:
        _glyph(fb, _MINUS, x, y, s, c)
        n = -n
    step = (DIGIT_W + _GAP) * s
    right = x + w - DIGIT_W * s
    while True:
        _glyph(fb, n % 10, right, y, s, c)
        n //= 10
        if not n:
            break
        right -= step
    return x + w


def text(fb, t, x, y, s, c):
    """Draw string t with the 8x8 font at scale s (s = 1 draws it directly)."""
    if s == 1:
        fb.text(t, x, y, c)
        return
    if fb.note is not None:
        fb.note(x, y, t, 8 * s, c)
    i = 0
    n = len(t)
    while i < n:
        _cell.fill(0)
        _cell.text(t[i], 0, 0, 1)
        row = 0
        while row < 8:
            _row(fb, _cell_buf[row], x, y + row * s, s, c)
            row += 1
        x += 8 * s
        i += 1
