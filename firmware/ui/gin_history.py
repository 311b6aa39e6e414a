# The gin pad's hand history: one line a finished hand (dealer, turn-up, how it ended with
# the totals, the running score), the latest at the bottom, scrolled with the arrows.
# Built by replaying the journal into a scratch sitting (allocates; only here).
from engine_core import gin as Gn
from engine_core.codes import EV_DRAWOUT
from firmware.display import BLACK
from firmware.ui import BACK, NEXT, OK, PREV
from firmware.ui import draw as D

HELP = "<> scroll  OK/BACK return"


def _rows(fb):
    return (D.help_top(fb, HELP) - 14) // D.LINE


def enter(app):
    rows = _rows(app.fb)
    n = app.s.hands()
    app.top = n - rows if n > rows else 0
    app.lines = collect(app, app.top, rows)


def collect(app, top, rows):
    """The lines of hands top+1 .. top+rows, replayed from the journal."""
    lines = [None] * rows
    j = app.journal
    sid = j.open_sitting()
    if sid is None:
        return lines
    s = Gn.GinSitting(app.s.rules, app.first_dealer)
    cur = j.cursor(sid)
    buf = bytearray(256)
    j.next_event(cur, buf)      # the header
    while True:
        n = j.next_event(cur, buf)
        if n < 0:
            break
        ev = s.codec.decode_at(buf, 0)
        before = s.hands()
        s.apply(ev)
        k = s.hands()
        if k > before and top < k <= top + rows:
            lines[k - 1 - top] = line(app, s, k, ev)
    return lines


def line(app, s, k, ev):
    names = app.names
    end = s.last(Gn.LAST_END)
    arg = ev & 0xFFFFFF
    if end == Gn.END_DRAWOUT:
        how = "draw-out"
        if ev >> 24 == EV_DRAWOUT and arg & 1:
            how += " %d-%d" % (Gn.drawout_total(arg, 0), Gn.drawout_total(arg, 1))
    elif end == Gn.END_GIN:
        how = "%s gin %d" % (names[s.last(Gn.LAST_SEAT)][:5], Gn.gin_opponent(arg))
    else:
        how = "%s kn %d v %d" % (names[s.last(Gn.LAST_SEAT)][:5], Gn.knocker_total(arg),
                                 Gn.knock_opponent(arg))
    up = s.last(Gn.LAST_LIMIT)
    return "%2d %s %s  %d-%d" % (k, ("%2d" % up) if up >= 0 else "", how,
                                 s.hand_points(0), s.hand_points(1))


def draw(app, fb):
    n = app.s.hands()
    fb.text("Hands: %d  %s-%s" % (n, app.names[0][:6], app.names[1][:6]), 0, 0, BLACK)
    fb.hline(0, D.LINE, fb.width, BLACK)
    y = 14
    lines = app.lines or ()
    for t in lines:
        if t:
            fb.text(t[:D.cols(fb)], 0, y, BLACK)
        y += D.LINE
    if not n:
        fb.text("no hand finished yet", 0, 14, BLACK)
    D.help(fb, HELP)


def press(app, key):
    rows = _rows(app.fb)
    n = app.s.hands()
    if key == NEXT and app.top + rows < n:
        app.top += 1
    elif key == PREV and app.top > 0:
        app.top -= 1
    elif key == OK or key == BACK:
        app.lines = None
        app.follow()
        return
    app.lines = collect(app, app.top, rows)
