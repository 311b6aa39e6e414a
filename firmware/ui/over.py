# Game over: who won, the final score, and the way on: BACK undoes the last hand (and
# the game plays on); a new sitting of the same game, which ends this one for good, is
# OK held down, at once (MENU for another game), never the OK pressed out of habit.
from engine_core.texas42.variants import TEAMS
from firmware import fonts
from firmware import transient
from firmware.codes import BACK, BLACK, DIGIT_H, HISTORY, LINE, LONG, NEXT, OK, PREV
from firmware.ui import draw as D

HELP = "hold OK: new sitting, same game\nBACK undo  <> history  M menu"
HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK


def draw(app, fb):
    s = app.scorer.s
    w = fb.width
    D.center(fb, "game over", 2)
    win = s.winner()
    name = app.scorer.side_name(win)
    line = name + (" wins" if not s.row[TEAMS] or len(name) > 4 else " win")
    D.center(fb, line, 14, 2 if len(line) * 16 <= w else 1)
    y = 36
    n = s.sides
    big = 3 if n == 2 else 2
    bw = w // n
    i = 0
    while i < n:
        sc = s.score(i)
        x = i * bw + (bw - fonts.digits_width(sc, big)) // 2
        fonts.number(fb, sc, x, y + 10, big, BLACK)
        t = D.side_label(app, i)
        fb.text(t, i * bw + (bw - len(t) * 8) // 2, y, BLACK)
        i += 1
    y += 12 + DIGIT_H * big + 4
    extra = "%d hands" % s.hands()
    if s.games():
        extra = "games %d-%d, " % (s.games_won(0), s.games_won(1)) + extra
    nt = app.next_table     # the next table the radio brought (firmware/radio/nexttable.py)
    if nt:
        bottom = fb.height - 3 * LINE
        for t in D.wrap(nt, D.cols(fb)):
            if y > bottom:
                break
            D.center(fb, t, y)
            y += LINE
    else:
        D.center(fb, extra, y)
    D.help(fb, HELP)


def press(app, key):
    if key == LONG | OK:
        from firmware.ui import setup
        setup.again(app)
        transient.unload("firmware.ui.setup")
    elif key == OK:
        app.banner = ("a new sitting ends this one (no more undo): hold OK, or MENU "
                      "and another game")
    elif key == PREV or key == NEXT:
        app.go(HISTORY)
    elif key == BACK:
        app.undo()
