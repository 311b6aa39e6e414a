# Hand history: one line a finished hand, the latest at the bottom, scrolled with the
# arrows. Built by replaying the journal into a scratch sitting (allocates; only here),
# which also tells a hand bid by a forced dealer and a hand corrected by an undo (the
# journal keeps the undo). The gin pads' lines are gin_draw.history_line's.
from engine_core.codes import BIDDING, EV_BID, EV_UNDO, PASS
from engine_core.texas42.slots import (LAST_BID, LAST_BIDDER, LAST_CONTRACT, LAST_DEALER,
    LAST_MADE, LAST_THROWN)
from engine_core.games import new_sitting
from firmware.codes import BACK, BLACK, LINE, NEXT, OK, PREV
from firmware.ui import draw as D

HELP = "<> scroll  OK/BACK return  M menu"


def _rows(fb):
    return (D.help_top(fb, HELP) - 14) // LINE


def enter(app):
    rows = _rows(app.fb)
    n = app.scorer.s.hands()
    app.top = n - rows if n > rows else 0
    app.lines = collect(app, app.top, rows)


def collect(app, top, rows):
    """The lines of hands top+1 .. top+rows, replayed from the journal."""
    lines = [None] * rows
    j = app.scorer.journal
    sid = j.open_sitting()
    if sid is None:
        return lines
    s = new_sitting(app.scorer.s.rules, app.scorer.first_dealer)
    line_of = line
    if app.scorer.gin:
        from firmware.ui import gin_draw
        line_of = gin_draw.history_line
    from engine_core.journal.reader import JournalReader   # unloaded with the screen
    r = JournalReader(j)
    cur = r.cursor(sid)
    buf = bytearray(256)
    r.next_event(cur, buf)      # the header
    gin = app.scorer.gin
    marks = 0       # 1 the hand's bid was a forced dealer's, 2 it was corrected by an undo
    closed = 0      # the marks of the last hand closed (an undo that reopens it keeps them)
    rank = 0        # a gin hand's turn-up card
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            break
        if n == 5:
            continue            # an END record (when the game ended), not an event
        ev = s.codec.decode_at(buf, 0)
        kind = ev >> 24
        if kind == EV_UNDO:
            pass
        elif (not gin and kind == EV_BID and s.phase() == BIDDING and s.high_bid() < 0
              and s.check(EV_BID << 24 | PASS)):
            marks |= 1          # the dealer, everyone else having passed
        before = s.hands()
        s.apply(ev)
        if kind == EV_UNDO:
            # A corrected hand keeps its tags: a hand reopened by the undo, the ones it
            # had when it closed.
            marks = (closed if s.hands() < before else marks) | 2
        if gin and s.turnup_rank():
            rank = s.turnup_rank() | s.spade() << 4
        k = s.hands()
        if k > before:
            if top < k <= top + rows:
                lines[k - 1 - top] = (line_of(app, s, k, ev, rank) if gin
                                      else line_of(app, s, k, ev, marks))
            closed = marks
            marks = 0
            rank = 0
    return lines


def line(app, s, k, ev=0, marks=0):
    """Hand k as (what was played, the score after it), the score in the order of the
    header's `Us-Them`; marks: 1 the bid was a forced dealer's, 2 an undo corrected it."""
    if s.last(LAST_THROWN):
        out = "%2d %s dealt, all passed" % (k, app.scorer.names[s.last(LAST_DEALER)])
    else:
        out = "%2d %s %s %s %s" % (k, app.scorer.names[s.last(LAST_BIDDER)],
                                   D.bid_words(s, s.last(LAST_BID)),
                                   D.contract_words(s.last(LAST_CONTRACT)),
                                   "made" if s.last(LAST_MADE) == 1 else "set")
    tags = ""
    if marks & 1:
        tags += ", forced"
    if marks & 2:
        tags += ", corrected"
    sc = ""
    i = 0
    while i < s.sides:
        sc += ("-" if i else "") + str(s.score(i))
        i += 1
    if len(out) + len(tags) + len(sc) + 1 > D.cols(app.fb) and not s.last(LAST_THROWN):
        # No room: the trump by its pip number (as on the trump screen's list), so that
        # the tags are not cut.
        c = s.last(LAST_CONTRACT)
        word = D.contract_words(c)
        out = out.replace(" " + word + " ", " %s " % (c if c <= 8 else word))
    return out + tags, sc


def _sides(app):
    out = ""
    i = 0
    while i < app.scorer.s.sides:
        out += ("-" if i else "") + app.scorer.side_name(i)
        i += 1
    return out


def draw(app, fb):
    n = app.scorer.s.hands()
    fb.text("History: %d hand%s" % (n, "" if n == 1 else "s"), 0, 0, BLACK)
    D.right(fb, _sides(app), 0)
    fb.hline(0, LINE, fb.width, BLACK)
    y = 14
    lines = app.lines or ()
    for t in lines:
        if isinstance(t, tuple):
            D.right(fb, t[1], y)
            fb.text(t[0][:D.cols(fb) - len(t[1]) - 1], 0, y, BLACK)
        elif t:
            fb.text(t[:D.cols(fb)], 0, y, BLACK)    # a gin pad's line with no room
                                                    # for the points (gin_draw)
        y += LINE
    if not n:
        fb.text("no hand finished yet", 0, y - len(lines) * LINE, BLACK)
    D.help(fb, HELP)


def press(app, key):
    rows = _rows(app.fb)
    n = app.scorer.s.hands()
    if key == NEXT and app.top + rows < n:
        app.top += 1
    elif key == PREV and app.top > 0:
        app.top -= 1
    elif key == OK or key == BACK:
        app.lines = None
        app.follow()
        return
    app.lines = collect(app, app.top, rows)
