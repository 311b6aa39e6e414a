# Home: the score, big enough to read across the table. Marks to 7 are drawn as the
# strokes of "ALL" (A: 3 strokes, L: 2, L: 2); other scores as big digits. Below, at a
# fresh deal: who deals, and the first seat's bid, taken here (a hand starts on the
# score without a press to leave it; after BACK, on the bid taken back); in the middle of
# a hand, the bid and contract.
from engine_core.codes import BIDDING, EV_BID, OVER
from engine_core.texas42.variants import MARKS, TEAMS, TRICKS
from firmware import fonts
from firmware.codes import BACK, BID, BLACK, DIGIT_H, HISTORY, LINE, LONG, NEXT, OK, PREV
from firmware.ui import draw as D
from firmware.ui import walk

HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK


def strokes(fb, n, x, y, h):
    """n marks (0..7) as the strokes of ALL in a box h high; returns its width."""
    t = h // 6 if h >= 18 else 3
    aw = h * 3 // 4
    lw = h * 2 // 5
    gap = h // 4
    ax = x + aw // 2
    if n >= 1:
        _thick(fb, x, y + h - 1, ax, y, t)
    if n >= 2:
        _thick(fb, ax, y, x + aw, y + h - 1, t)
    if n >= 3:
        fb.fill_rect(x + aw // 5, y + h * 3 // 5, aw - 2 * (aw // 5), t, BLACK)
    lx = x + aw + gap
    k = 4
    while k <= 6:
        if n >= k:
            fb.fill_rect(lx, y, t, h, BLACK)
        if n >= k + 1:
            fb.fill_rect(lx, y + h - t, lw, t, BLACK)
        lx += lw + gap
        k += 2
    return lx - gap - x


def _thick(fb, x0, y0, x1, y1, t):
    i = 0
    while i < t:
        fb.line(x0 + i, y0, x1 + i, y1, BLACK)
        i += 1


def _side(app, fb, side, x, y, w, h, named):
    # One team (or seat): its name unless the top line has it, then its marks or points.
    s = app.scorer.s
    if named:
        fb.text(D.side_label(app, side), x, y, BLACK)
        y += LINE + 2
        h -= LINE + 2
    score = s.score(side)
    rules = s.rules
    if rules.scoring == MARKS and rules.target == 7:
        n = score if score < 7 else 7
        if w >= h * 5 // 2:
            # A wide box: the strokes, and the count in digits beside them.
            sh = h - 4
            if sh > (w - 10) * 10 // 30:
                sh = (w - 10) * 10 // 30
            sw = strokes(fb, n, x + 2, y, sh)
            fonts.number(fb, score, x + 2 + sw + sh // 3, y, sh // DIGIT_H, BLACK)
            return
        # The strokes, and the count in digits under them.
        ds = 3 if h >= 80 else 2
        sh = h - ds * DIGIT_H - 9
        if sh > w * 10 // 25:
            sh = w * 10 // 25
        strokes(fb, n, x + 2, y, sh)
        fonts.number(fb, score, x + 2, y + sh + 6, ds, BLACK)
        return
    ds = h // DIGIT_H
    if ds > 5:
        ds = 5
    while ds > 1 and fonts.digits_width(score, ds) > w - 4:
        ds -= 1
    fonts.number(fb, score, x + 2, y + (h - ds * DIGIT_H) // 2, ds, BLACK)


def _bidding(app):
    # A fresh deal: the first seat bids here.
    return app.scorer.s.phase() == BIDDING and app.scorer.fresh_deal()


def enter(app):
    if _bidding(app):
        app.cur = walk.again(app, EV_BID, walk.first(app.scorer.s))


def _help(app):
    s = app.scorer.s
    if s.phase() == OVER:
        return "OK game over  <> history\nBACK undo  M menu"
    if _bidding(app):
        return walk.help_text(app)
    return "OK go on  <> history\nBACK undo  M menu"


def draw(app, fb):
    s = app.scorer.s
    w = fb.width
    hp = _help(app)
    bottom = D.help_top(fb, hp)
    bidding = _bidding(app)
    info = 2 * LINE + 2 if not bidding else 18
    n = s.sides
    label = "hand %d" % (s.hands() + 1)
    if s.games():
        label = "game %d, hand %d" % (s.games() + 1, s.hands() + 1)
    if bidding:
        # Who deals goes on the top line, where it fits between the sides' names.
        deals = "%s, %s deals" % (label, app.scorer.names[s.dealer()])
        side = 0
        if n == 2 and w >= 240:
            side = max(len(D.side_label(app, 0)), len(D.side_label(app, 1))) + 1
        if (D.cols(fb) - len(deals)) // 2 >= side:
            label = deals
    D.center(fb, label, 0)
    top = LINE + 2
    area = bottom - info - 2 - top
    note = None
    if app.note:
        # A hand just saved says so in a box between the scores and the line under them,
        # the scores drawn smaller for it, never covered.
        note = D.wrap(app.note, D.cols(fb) - 1)
        area -= len(note) * LINE + 6
    if app.scorer.assign:
        # The table and round pushed from the PC, a line under the scores.
        area -= LINE
        D.table_round(fb, app.scorer.assign, top + area, True)
    if n == 2 and w < 240:
        # A narrow or square panel: the teams one above the other.
        bh = area // 2
        _side(app, fb, 0, 2, top, w - 4, bh - 2, True)
        _side(app, fb, 1, 2, top + bh, w - 4, bh - 2, True)
    elif n == 2:
        fb.text(D.side_label(app, 0), 2, 0, BLACK)
        D.right(fb, D.side_label(app, 1), 0)
        bw = w // 2
        _side(app, fb, 0, 2, top, bw - 4, area, False)
        _side(app, fb, 1, bw + 8, top, bw - 10, area, False)
        fb.vline(bw, top, area, BLACK)
    else:
        bw = w // n
        i = 0
        while i < n:
            _side(app, fb, i, i * bw + 2, top, bw - 4, area, True)
            i += 1
    y = bottom - info
    fb.hline(0, y - 2, w, BLACK)
    seats = s.seats
    if note:
        _note(fb, note, top + area + (LINE if app.scorer.assign else 0))
    if bidding:
        _first_bid(app, fb, y)
        return
    elif app.scorer.fresh_deal():
        line = "%s deals, %s bids first" % (app.scorer.names[s.dealer()],
                                             app.scorer.names[(s.dealer() + 1) % seats])
    else:
        line = D.contract_line(app) or "bidding: %s to bid" % app.scorer.names[s.seat()]
    fb.text(line[:D.cols(fb)], 0, y, BLACK)
    y += LINE
    rules = s.rules
    unit = ("marks", "points", "points")[rules.scoring]
    if rules.scoring == TRICKS and not s.row[TEAMS]:
        unit = "points"
    extra = "%s to %d" % (unit, rules.target)
    if s.row[TEAMS] and rules.scoring == TRICKS:
        extra += ", games %d-%d" % (s.games_won(0), s.games_won(1))
    fb.text(extra[:D.cols(fb)], 0, y, BLACK)
    D.help(fb, hp)


def _note(fb, lines, y):
    # A hand just saved, boxed under the scores until the next press (a refusal's banner
    # is inverted; this is not one).
    h = len(lines) * LINE + 4
    fb.rect(0, y, fb.width, h, BLACK)
    y += 3
    for line in lines:
        D.center(fb, line, y)
        y += LINE


def _first_bid(app, fb, y):
    # The first seat's bid in big type, and where the arrows lead when there is room.
    s = app.scorer.s
    t = "%s bids < %s >" % (app.scorer.names[s.seat()], D.bid_words(s, s.legal_at(app.cur)))
    big = 2 if len(t) * 16 <= fb.width else 1
    fonts.text(fb, t, 0, y, big, BLACK)
    arrows = walk.around(s, app.cur, D.bid_words)
    if (len(t) * 2 + 1 + len(arrows)) * 8 <= fb.width:
        D.right(fb, arrows, y + 4)
    D.help(fb, walk.help_text(app))


def press(app, key):
    if _bidding(app):
        if not walk.bid_press(app, key) and key == BACK:
            app.undo()
        return
    if key == LONG | OK:
        key = OK
    if key == OK:
        s = app.scorer.s
        if s.phase() == BIDDING:
            app.go(BID)
        else:
            app.follow()
    elif key == PREV or key == NEXT:
        app.go(HISTORY)
    elif key == BACK:
        app.undo()
