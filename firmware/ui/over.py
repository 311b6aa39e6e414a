# Game over: who won, the final score, and the way on (a new sitting, or BACK to undo
# the last hand and play on).
from engine_core import variants as V
from firmware import fonts
from firmware.app import HISTORY, SETUP
from firmware.display import BLACK
from firmware.ui import BACK, NEXT, OK, PREV
from firmware.ui import draw as D

HELP = "OK new sitting  < history  BACK undo"


def draw(app, fb):
    s = app.s
    w = fb.width
    D.center(fb, "game over", 2)
    win = s.winner()
    name = app.side_name(win)
    D.center(fb, name + (" wins" if not s.row[V.TEAMS] or len(name) > 4 else " win"), 14, 2)
    y = 36
    n = s.sides
    big = 3 if n == 2 else 2
    bw = w // n
    i = 0
    while i < n:
        sc = s.score(i)
        x = i * bw + (bw - fonts.digits_width(sc, big)) // 2
        fonts.number(fb, sc, x, y + 10, big, BLACK)
        t = app.side_name(i)
        fb.text(t, i * bw + (bw - len(t) * 8) // 2, y, BLACK)
        i += 1
    y += 12 + fonts.DIGIT_H * big + 4
    extra = "%d hands" % s.hands()
    if s.games():
        extra = "games %d-%d, " % (s.games_won(0), s.games_won(1)) + extra
    D.center(fb, extra, y)
    D.help(fb, HELP)


def press(app, key):
    if key == OK:
        app.go(SETUP)
    elif key == PREV or key == NEXT:
        app.go(HISTORY)
    elif key == BACK:
        app.undo()
