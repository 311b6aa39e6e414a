# The menu: short trips away from the score, and back; only what applies to the game in
# play (no trick tracker on a gin pad). A new sitting of the same game opens its rows on
# start; another game (the last item, one press back from the top) asks what we play.
from firmware.codes import BACK, BLACK, HISTORY, LINE, MENU, NEXT, OK, PREV, SETUP, SYNC, WHITE
from firmware.ui import draw as D

HELP = "<> choose OK open M/BACK close"     # one line on the T5's 250 pixels too
# The items, each for the games it applies to: 0 every game, 1 the 42 family only.
_ITEMS = (("back to the game", 0), ("hand history", 0), ("trick tracker", 1),
          ("sync with the PC", 0), ("self-test", 0), ("new sitting, same game", 0),
          ("another game", 0))


def _items(app):
    # The items that apply to the game in play, as indexes into _ITEMS.
    gin = app.scorer.gin
    return [i for i in range(len(_ITEMS)) if not (gin and _ITEMS[i][1])]


def draw(app, fb):
    D.center(fb, "Menu", 2, 2)
    y = 20
    items = _items(app)
    pitch = min(LINE + 3, (D.help_top(fb, HELP) - y) // len(items))
    k = 0
    while k < len(items):
        i = items[k]
        t = _ITEMS[i][0]
        if i == 2:
            t += ": " + ("on" if app.scorer.tracker else "off")
        if k == app.cur:
            fb.fill_rect(0, y - 2, fb.width, LINE + 2, BLACK)
            fb.text(t, 8, y, WHITE)
        else:
            fb.text(t, 8, y, BLACK)
        y += pitch
        k += 1
    D.help(fb, HELP)


def press(app, key):
    items = _items(app)
    n = len(items)
    if key == NEXT:
        app.cur = (app.cur + 1) % n
    elif key == PREV:
        app.cur = (app.cur - 1) % n
    elif key == BACK or key == MENU:
        app.follow()
    elif key == OK:
        i = items[app.cur]
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
            gin = app.scorer.gin
            app.go(SETUP)
            # The rows of the family in play (firmware/ui/setup.py), or what we play.
            app.draft = (1 if gin else 0) if i == 5 else 2
