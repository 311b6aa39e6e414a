# Hand history: one line a finished hand, the latest at the bottom, scrolled with the
# arrows. Built by replaying the journal into a scratch sitting (allocates; only here).
# The gin pads' lines are gin_draw.history_line's.
from micropython import const

from engine_core.games import new_sitting
from firmware.ui import draw as D

# Copies of engine_core/codes.py (private: no heap on the device; tests/test_private_codes.py)
_LAST_DEALER = const(17)
_LAST_THROWN = const(18)
_LAST_BIDDER = const(19)
_LAST_BID = const(20)
_LAST_CONTRACT = const(22)
_LAST_MADE = const(23)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_PREV = const(1)
_NEXT = const(2)
_OK = const(3)
_BACK = const(4)
_LINE = const(10)

HELP = "<> scroll  OK/BACK return"


def _rows(fb):
    return (D.help_top(fb, HELP) - 14) // _LINE


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
    s = new_sitting(app.s.rules, app.first_dealer)
    line_of = line
    if app.gin:
        from firmware.ui import gin_draw
        line_of = gin_draw.history_line
    from firmware.journal.reader import JournalReader   # unloaded with the screen
    r = JournalReader(j)
    cur = r.cursor(sid)
    buf = bytearray(256)
    r.next_event(cur, buf)      # the header
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            break
        if n == 5:
            continue            # an END record (when the game ended), not an event
        ev = s.codec.decode_at(buf, 0)
        before = s.hands()
        s.apply(ev)
        k = s.hands()
        if k > before and top < k <= top + rows:
            lines[k - 1 - top] = line_of(app, s, k, ev)
    return lines


def line(app, s, k, ev=0):
    """Hand k as (what was played, the score after it), the score in the order of the
    header's `Us-Them`."""
    if s.last(_LAST_THROWN):
        out = "%2d %s dealt, all passed" % (k, app.names[s.last(_LAST_DEALER)])
    else:
        out = "%2d %s %s %s %s" % (k, app.names[s.last(_LAST_BIDDER)],
                                   D.bid_words(s, s.last(_LAST_BID)),
                                   D.contract_words(s.last(_LAST_CONTRACT)),
                                   "made" if s.last(_LAST_MADE) == 1 else "set")
    sc = ""
    i = 0
    while i < s.sides:
        sc += ("-" if i else "") + str(s.score(i))
        i += 1
    return out, sc


def _sides(app):
    out = ""
    i = 0
    while i < app.s.sides:
        out += ("-" if i else "") + app.side_name(i)
        i += 1
    return out


def draw(app, fb):
    n = app.s.hands()
    fb.text("History: %d hand%s" % (n, "" if n == 1 else "s"), 0, 0, _BLACK)
    if not app.gin:
        D.right(fb, _sides(app), 0)
    fb.hline(0, _LINE, fb.width, _BLACK)
    y = 14
    lines = app.lines or ()
    for t in lines:
        if isinstance(t, tuple):
            D.right(fb, t[1], y)
            fb.text(t[0][:D.cols(fb) - len(t[1]) - 1], 0, y, _BLACK)
        elif t:
            fb.text(t[:D.cols(fb)], 0, y, _BLACK)    # a gin pad's line (gin_draw)
        y += _LINE
    if not n:
        fb.text("no hand finished yet", 0, y - len(lines) * _LINE, _BLACK)
    D.help(fb, HELP)


def press(app, key):
    rows = _rows(app.fb)
    n = app.s.hands()
    if key == _NEXT and app.top + rows < n:
        app.top += 1
    elif key == _PREV and app.top > 0:
        app.top -= 1
    elif key == _OK or key == _BACK:
        app.lines = None
        app.follow()
        return
    app.lines = collect(app, app.top, rows)
