# The totals of a gin hand: the opponent's unmelded total after a knock or a gin (the
# number that scores), then Sequence Gin's bonus cards; or both totals of a Skarney
# draw-out. Only the players know these: each starts unset, `?`, and OK on `?` saves
# nothing and says so; the first arrow press sets it to where it most often is (25 after
# a knock, 35 after a gin: nothing is laid off on a gin; 50 for the cards left in hand
# in Skarney Gin; no bonus cards), a held one 15 either side of that (the footer says
# where: `<> 25  hold <>: 10/40`). Then arrows step 1, held 5, and the verdict follows
# the number, once there is one. After an undone hand
# the totals start at what they were.
from micropython import const

from engine_core.gin import rules as G
from firmware.codes import BACK, DIGIT_H, HOME, LINE, LONG, NEXT, OK, PREV
from firmware.ui import draw as D
from firmware.ui import gin_draw as GD

_TOTAL = const(0)       # questions: the opponent's total (a draw-out: seat 0's)
_SECOND = const(1)      # seat 1's total in a draw-out
_BONUS0 = const(2)
_BONUS1 = const(3)
_END = const(4)
_START = const(25)
# The steps: measured on the gin corpus (tests/kit/probes/mp_ui_search.py), a first held press 15
# either side of the usual value and held steps of 5 reach a total in fewer presses than
# 10 and 10 (2.8 against 3.6 a knock's total, the first press counted).
_FIRST = const(15)
_HELD = const(5)
HELP = "<> 1  hold <>: 5  OK next\nBACK back  M menu"


def _help(app, step):
    # Unset: where the first press puts the number; then the steps.
    if app.cur != UNSET:
        return HELP
    c = _common(app, step)
    return "<> %d  hold <>: %d/%d  OK next\nBACK back  M menu" % (
        c, c - _FIRST if c > _FIRST else 0, c + _FIRST)
UNSET = -1      # app.cur of a number not set yet: `?`


def _questions(app):
    # The questions of this ending as a bit mask, in order.
    s = app.scorer.s
    f = app.fields
    if f[GD.MODE]:
        return 1 << _TOTAL | 1 << _SECOND
    q = 1 << _TOTAL
    if s.rules.bonus:
        q |= 1 << _BONUS0 | 1 << _BONUS1
    return q


def _first(app, q):
    return _next(q, -1)


def _next(q, i):
    i += 1
    while i < _END and not q >> i & 1:
        i += 1
    return i


def _prev(q, i):
    i -= 1
    while i >= 0 and not q >> i & 1:
        i -= 1
    return i


def enter(app):
    f = app.fields
    f[GD.STEP] = _first(app, _questions(app))
    if f[GD.KEEP] & 2:
        # An undone hand: its totals, as keyed in before, to change or take again.
        f[GD.KEEP] = 0
        app.cur = GD.first_total(app)
        return
    f[GD.B0] = 0
    f[GD.B1] = 0
    GD.set_first_total(app, 0)
    app.cur = UNSET


def _common(app, step):
    # Where the first arrow press puts a number: where it most often is.
    f = app.fields
    if step == _BONUS0 or step == _BONUS1:
        return 0
    if f[GD.MODE] or f[GD.K]:
        return _START
    return _START + 10 if app.scorer.s.row[G.TURNUP] else _START + 25


def _max(app, step):
    if step == _BONUS0 or step == _BONUS1:
        return 10
    # Not the rule's most (100, or 396): a total over it is refused with the reason.
    return 511 if app.fields[GD.MODE] or not app.scorer.s.row[G.TURNUP] else 127


def _store(app, step, v):
    f = app.fields
    if step == _TOTAL:
        GD.set_first_total(app, v)
    elif step == _BONUS0:
        f[GD.B0] = v
    elif step == _BONUS1:
        f[GD.B1] = v


def _load(app, step):
    f = app.fields
    if step == _TOTAL:
        return GD.first_total(app)
    if step == _BONUS0:
        return f[GD.B0]
    return f[GD.B1]


def _question(app, step):
    s = app.scorer.s
    f = app.fields
    opp = app.scorer.names[1 - f[GD.SEAT]]
    if step == _TOTAL:
        if f[GD.MODE]:
            return "%s's unmelded total:" % app.scorer.names[0]
        if not s.row[G.TURNUP]:
            return "%s's cards in hand:" % opp
        return "%s is left with:" % opp
    if step == _SECOND:
        return "%s's unmelded total:" % app.scorer.names[1]
    return "%s's bonus cards:" % app.scorer.names[0 if step == _BONUS0 else 1]


def _event(app):
    # The event as keyed in so far, the number on show standing for its question.
    f = app.fields
    step = f[GD.STEP]
    keep = _load(app, step) if step != _SECOND else 0
    if step != _SECOND:
        _store(app, step, app.cur)
    ev = GD.event(app, app.cur if step == _SECOND else GD.first_total(app))
    if step != _SECOND:
        _store(app, step, keep)
    return ev


def draw(app, fb):
    f = app.fields
    step = f[GD.STEP]
    D.top(app, fb)
    y = LINE + 3
    fb.text(GD.ending_words(app)[:D.cols(fb)], 0, y, 0)
    y += LINE + 2
    D.center(fb, _question(app, step)[:D.cols(fb)], y)
    y += LINE + 2
    if app.cur == UNSET:
        D.choice(fb, 0, y, "?", 0, 3)
    else:
        D.choice(fb, 0, y, None, app.cur, 3)
    y += DIGIT_H * 3 + 4
    if app.cur == UNSET:
        D.center(fb, "only you know it: set it with < >"[:D.cols(fb)], y)
    elif _next(_questions(app), step) >= _END:
        D.center(fb, GD.verdict(app, _event(app))[:D.cols(fb)], y)
    D.help(fb, _help(app, step))


def press(app, key):
    f = app.fields
    step = f[GD.STEP]
    q = _questions(app)
    top = _max(app, step)
    if key & 0xF == NEXT or key & 0xF == PREV:
        up = key & 0xF == NEXT
        if app.cur == UNSET:
            # The first press: where the number most often is (held: 15 either side).
            v = _common(app, step) + ((_FIRST if up else -_FIRST) if key & LONG else 0)
        else:
            d = _HELD if key & LONG else 1
            v = app.cur + (d if up else -d)
        app.cur = 0 if v < 0 else (top if v > top else v)
    elif key & 0xF == OK:
        if app.cur == UNSET:
            app.banner = "not set yet: < > set it"
            return
        nxt = _next(q, step)
        if nxt < _END:
            _store(app, step, app.cur)
            f[GD.STEP] = nxt
            app.cur = UNSET
            return
        if app.take(_event(app)):
            app.follow()
    elif key == BACK:
        back = _prev(q, step)
        if back < 0:
            f[GD.KEEP] = 1
            app.go(HOME)
            return
        f[GD.STEP] = back
        app.cur = _load(app, back)
