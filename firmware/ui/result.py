# The result of a hand. Marks: made and set side by side, each on its arrow's side
# (`< made   set >`, what each gives under it): < saves made, > saves set, held or not
# (a held arrow does what the short one does); OK tracks the tricks instead. The score
# says what was saved until the next press (BACK undoes it).
# Points games: the points the bidders took. Only the players know them: `?` until an
# arrow sets them (the first press at the bid), OK on `?` saves nothing; the verdict
# follows the number once there is one. A hand taken back by BACK: on the points it had.
# Moon: each seat's tricks, `?` until set (the bidder's first press at the bid), the last
# seat's being what is left.
from engine_core.codes import EV_MADE, EV_POINTS, EV_TRICKS, GAME
from engine_core.texas42.variants import MARKS, TEAMS, TOTAL, TRICKS, TRICKS_PER_HAND
from firmware import fonts
from firmware.codes import BACK, BLACK, DIGIT_H, LINE, LONG, NEXT, OK, PREV
from firmware.ui import draw as D

_MADE_LINE = "< made   set >"


def _mode(s):
    # 0 made/set, 1 a number (points, or team tricks), 2 each seat's tricks
    sc = s.rules.scoring
    if sc == MARKS:
        return 0
    if sc == TRICKS and not s.row[TEAMS]:
        return 2
    return 1


def enter(app):
    s = app.scorer.s
    mode = _mode(s)
    undone = app.undone     # a hand taken back (BACK): offered again
    if mode == 0:
        app.cur = 0     # no cursor: made and set are each an arrow away
    elif mode == 1:
        # Only the players know the points taken: unset (`?`) until an arrow sets it,
        # the first press at the bid; an undone hand's points as they were.
        app.cur = _clamp(s, undone & 0xFF) if undone >> 24 == EV_POINTS else UNSET
    else:
        # Each seat's tricks unset (`?`, the tricks tracked so far being known); the first
        # arrow press sets the bidder's to the bid, another seat's to what it tracked.
        f = app.fields
        i = 0
        while i < s.seats:
            f[i] = _UNSET_TRICKS
            i += 1
        app.top = 0


UNSET = -1      # app.cur of the points taken before an arrow sets them: `?`
_UNSET_TRICKS = 0xFF    # a Moon seat's tricks not set yet (app.fields)


def _clamp(s, p):
    # p within what the tricks tracked allow.
    lo = s.side_points(True)
    hi = s.row[TOTAL] - s.side_points(False)
    return lo if p < lo else (hi if p > hi else p)


def _help(mode):
    if mode == 2:
        return "<> tricks  hold >: +5  hold <: -5\nOK next seat  BACK undo  M menu"
    if mode == 1:
        return "<> choose  hold >: +5  hold <: -5\nOK take it  BACK undo  M menu"
    return "< made  > set  OK track tricks\nBACK undo  M menu"


def draw(app, fb):
    s = app.scorer.s
    mode = _mode(s)
    D.top(app, fb)
    y = LINE + 3
    fb.text(D.contract_line(app), 0, y, BLACK)
    y += LINE + 4
    if mode == 0:
        bt = s.side_of(s.bidder())
        who = D.side_label(app, bt)
        D.center(fb, who + ":", y, 2 if len(who) * 16 + 16 <= fb.width else 1)
        y += 22
        D.center(fb, _MADE_LINE, y, 2 if len(_MADE_LINE) * 16 <= fb.width else 1)
        y += 22
        # What each gives, under its word: the bidders' marks, or their opponents'.
        m = s.marks_of(s.high_value())
        gain = " +%d mark%s" % (m, "s" if m > 1 else "")
        x = (fb.width - len(_MADE_LINE) * 16) // 2
        if x < 0:
            x = 0
        fb.text(app.scorer.side_name(bt) + gain, x, y, BLACK)
        D.right(fb, app.scorer.side_name(1 - bt) + gain + " " * (x // 8), y)
    elif mode == 1:
        who = D.side_label(app, s.side_of(s.bidder())) + " took"
        x0 = 0
        if fb.width >= 240:
            fb.text(who, 0, y + 10, BLACK)
            x0 = len(who) * 8 + 4   # the number and its arrows right of the words
        else:
            D.center(fb, who, y)
            y += LINE + 2
        if app.cur == UNSET:
            D.choice(fb, x0, y, "?", 0, 3)
        else:
            D.choice(fb, x0, y, None, app.cur, 3)
        y += DIGIT_H * 3 + 4
        if app.cur == UNSET:
            D.center(fb, "only you know it: set it with < >"[:D.cols(fb)], y)
        else:
            D.center(fb, _verdict(app, app.cur), y)
    else:
        _seats(app, fb, y)
    D.help(fb, _help(mode))


def made(s, points):
    """Whether the bidders taking `points` (team tricks in Partnership Moon) make it."""
    need = D.need(s)
    return points == 0 if need < 0 else points >= need


def _verdict(app, p):
    s = app.scorer.s
    total = s.row[TOTAL]
    v = s.high_value()
    ok = made(s, p)
    bt = s.side_of(s.bidder())
    if s.rules.scoring == TRICKS:
        b = p if ok else -v
        o = s.row[TRICKS_PER_HAND] - p
    elif s.high_bid() == GAME:
        b = p if ok else 0
        o = 0 if ok else total - p
    elif ok:
        b = v if (s.rules.made_scores or v > total) else p
        o = total - p
    else:
        b = 0
        o = v + total - p
    return "bid %s: %s  %s %+d  %s %+d" % (D.bid_words(s, s.high_bid()),
                                          "made" if ok else "set", app.scorer.teams[bt], b,
                                          app.scorer.teams[1 - bt], o)


def _order(s, k):
    # The k-th seat in entry order: the bidder first, then clockwise.
    return (s.bidder() + k) % s.seats


def _rest(app):
    # The tricks left for the last seat in entry order (negative: too many given).
    s = app.scorer.s
    n = s.row[TRICKS_PER_HAND]
    k = 0
    while k < s.seats - 1:
        n -= app.fields[_order(s, k)]
        k += 1
    return n


def _seats(app, fb, y):
    s = app.scorer.s
    n = s.seats
    bw = fb.width // n
    big = 3 if fb.height >= 120 else 2
    k = 0
    while k < n:
        seat = _order(s, k)
        x = k * bw
        label = app.scorer.names[seat] + (" bid" if k == 0 else "")
        fb.text(label, x + 4, y, BLACK)
        v = app.fields[seat] if k < n - 1 else _rest(app)
        if v == _UNSET_TRICKS or v < 0 and _unset(app):
            fonts.text(fb, "?", x + 8, y + 12, big, BLACK)
            v = 0
        else:
            fonts.number(fb, v, x + 8, y + 12, big, BLACK)
        if k == app.top:
            fb.rect(x + 2, y + 9, bw - 4, DIGIT_H * big + 6, BLACK)
        if k == n - 1:
            fb.text("rest", x + 8 + fonts.digits_width(v, big) + 4, y + 12, BLACK)
        k += 1
    y += DIGIT_H * big + 18
    b = s.bidder()
    tricks = app.fields[b]
    if _unset(app):
        D.center(fb, "only you know them: set each with < >"[:D.cols(fb)], y)
    else:
        D.center(fb, "%s %s" % (app.scorer.names[b], "made" if made(s, tricks) else "set"), y)


def _unset(app):
    # Whether a seat keyed in is still unset.
    s = app.scorer.s
    k = 0
    while k < s.seats - 1:
        if app.fields[_order(s, k)] == _UNSET_TRICKS:
            return True
        k += 1
    return False


def press(app, key):
    s = app.scorer.s
    mode = _mode(s)
    step = 0
    if key == NEXT:
        step = 1
    elif key == PREV:
        step = -1
    elif key == LONG | NEXT:
        step = 5
    elif key == LONG | PREV:
        step = -5
    if mode == 0:
        if step:
            # The arrow's side: < made, > set (held, the same).
            if app.take(EV_MADE << 24 | (1 if step < 0 else 0)):
                if not s.over():
                    # The score says what was saved until the next press: BACK undoes
                    # it at once.
                    from firmware.ui import confirm     # unloaded with this screen
                    app.note = confirm.saved(app)
                app.follow()
        elif key == OK:
            app.scorer.hand_mode = 1
            app.follow()
        elif key == BACK:
            app.undo()
        return
    if mode == 1:
        total = s.row[TOTAL]
        if step and app.cur == UNSET:
            # The first press: the bid (held: 5 either side of it).
            v = s.high_value() + (step if step > 1 or step < -1 else 0)
            app.cur = _clamp(s, v if v <= total else total)
        elif step:
            app.cur = (app.cur + step) % (total + 1)
        elif key == OK and app.cur == UNSET:
            app.banner = "not set yet: < > set it"
        elif key == OK:
            if app.take(EV_POINTS << 24 | app.cur):
                app.follow()
        elif key == BACK:
            app.undo()
        return
    seat = _order(s, app.top)
    if step:
        top = s.row[TRICKS_PER_HAND]
        if app.fields[seat] == _UNSET_TRICKS:
            v = s.high_value() if app.top == 0 else s.seat_tricks(seat)
            app.fields[seat] = v if v <= top else top
        else:
            app.fields[seat] = (app.fields[seat] + step) % (top + 1)
    elif key == OK and app.fields[seat] == _UNSET_TRICKS:
        app.banner = "not set yet: < > set it"
    elif key == OK:
        if app.top < s.seats - 2:
            app.top += 1
            return
        rest = _rest(app)
        packed = 0
        k = 0
        while k < s.seats:
            seat = _order(s, k)
            t = app.fields[seat] if k < s.seats - 1 else (rest if rest >= 0 else 0)
            packed |= t << (4 * seat)
            k += 1
        if app.take(EV_TRICKS << 24 | packed):
            app.follow()
    elif key == BACK:
        if app.top:
            app.top -= 1
        else:
            app.undo()
