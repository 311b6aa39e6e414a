# The menu: short trips away from the score, and back. A new sitting is set up from
# either family's list: the gin pads' is last, one press back from the top.
from firmware.codes import BACK, BLACK, HISTORY, LINE, MENU, NEXT, OK, PREV, SETUP, SYNC, WHITE
from firmware.ui import draw as D

HELP = "<> choose  OK open  M/BACK close"
_ITEMS = ("back to the game", "hand history", "trick tracker", "sync with the PC",
          "self-test", "new 42 sitting", "new gin pad")


def draw(app, fb):
    D.center(fb, "Menu", 2, 2)
    y = 24
    i = 0
    while i < len(_ITEMS):
        t = _ITEMS[i]
        if i == 2:
            t += ": " + ("on" if app.scorer.tracker else "off")
        if i == app.cur:
            fb.fill_rect(0, y - 2, fb.width, LINE + 2, BLACK)
            fb.text(t, 8, y, WHITE)
        else:
            fb.text(t, 8, y, BLACK)
        y += LINE + 3
        i += 1
    D.help(fb, HELP)


def press(app, key):
    n = len(_ITEMS)
    if key == NEXT:
        app.cur = (app.cur + 1) % n
    elif key == PREV:
        app.cur = (app.cur - 1) % n
    elif key == BACK or key == MENU:
        app.follow()
    elif key == OK:
        i = app.cur
        if i == 0:
            app.follow()
        elif i == 1:
            app.go(HISTORY)
        elif i == 2:
            app.scorer.tracker = 0 if app.scorer.tracker else 1
            app.scorer.save_settings()
        elif i == 3:
            app.go(SYNC)
        elif i == 4:
            app.go("selftest")  # firmware/ui/selftest.py (no name in codes: none at boot)
        else:
            app.go(SETUP)
            app.draft = i - 5       # the family asked for (firmware/ui/setup.py)
