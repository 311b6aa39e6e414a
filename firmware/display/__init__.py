# E-paper display drivers. Every driver is a framebuf.FrameBuffer subclass that the UI draws
# into, then hands to the panel:
#
#   disp.width, disp.height     drawing area in pixels (landscape for the 2.9" and 2.13")
#   disp.fill(WHITE); disp.text("US", 0, 0, BLACK)     any framebuf drawing method
#   disp.show(full=False)       send the frame; partial refresh, or full when full=True,
#                               on the first show, and after every `full_every` partials
#   disp.ready()                True when the panel is idle (or asleep)
#   disp.wait_until_ready(ms)   block until idle; False on timeout
#   disp.sleep()                deep-sleep the panel; the next show() wakes it (reset)
#   disp.note                   None; the sim's display: note(x, y, words, height,
#                               colour) is told what firmware.fonts draws in big type
#
# show() does not wait for the refresh to finish: it returns once the panel has started,
# so buttons can be polled meanwhile. The next show() or sleep() waits for it. A frame is
# drawn from fill() to show(), best once ready() is True (the main loop's way): ready()
# is when the driver hands the controller the image on the panel, the old one of the next
# partial refresh. A frame drawn before that is still shown right, by a full refresh.
#
# Drivers: ssd1680.SSD1680 (2.9" 296x128 DIY build, LilyGO T5 2.13" 250x122),
# jd79653a.JD79653A (M5Stack CoreInk 200x200). Wiring lives in boards/, never here.
#
#   from firmware.display.ssd1680 import SSD1680
#   disp = SSD1680(spi, cs, dc, rst, busy)          # buses made by the board file
#   disp.fill(WHITE); disp.text("hand 6", 0, 0, BLACK); disp.show(full=True)

# Colours (firmware/codes.py: WHITE 1, BLACK 0): a set bit is white paper on every panel
# here (the controllers' RAM convention).


class DisplayError(Exception):
    # The panel did not answer (BUSY stuck): a wiring or power fault, not a drawing error.
    pass
