# The menu: short trips away from the score, and back.
from micropython import const

from firmware.ui import draw as D

# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_PREV = const(1)
_WHITE = const(1)
_NEXT = const(2)
_OK = const(3)
_BACK = const(4)
_MENU = const(5)
_HISTORY = const(7)
_SYNC = const(8)
_SETUP = const(9)
_LINE = const(10)

HELP = "<> choose  OK open  M/BACK close"
_ITEMS = ("back to the game", "hand history", "trick tracker", "sync with the PC",
          "new sitting")


def draw(app, fb):
    D.center(fb, "Menu", 2, 2)
    y = 24
    i = 0
    while i < len(_ITEMS):
        t = _ITEMS[i]
        if i == 2:
            t += ": " + ("on" if app.tracker else "off")
        if i == app.cur:
            fb.fill_rect(0, y - 2, fb.width, _LINE + 2, _BLACK)
            fb.text(t, 8, y, _WHITE)
        else:
            fb.text(t, 8, y, _BLACK)
        y += _LINE + 3
        i += 1
    D.help(fb, HELP)


def press(app, key):
    n = len(_ITEMS)
    if key == _NEXT:
        app.cur = (app.cur + 1) % n
    elif key == _PREV:
        app.cur = (app.cur - 1) % n
    elif key == _BACK or key == _MENU:
        app.follow()
    elif key == _OK:
        i = app.cur
        if i == 0:
            app.follow()
        elif i == 1:
            app.go(_HISTORY)
        elif i == 2:
            app.tracker = 0 if app.tracker else 1
            app.save_settings()
        elif i == 3:
            app.go(_SYNC)
        else:
            app.go(_SETUP)
