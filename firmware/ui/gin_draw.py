# Drawing and entry state shared by the gin pads' screens: the ending being keyed in (kept
# in app.fields between the score and totals screens), its words, and the event it makes.
from micropython import const

from engine_core.gin import sitting as Gn
from engine_core.gin import rules as G
from engine_core.gin.codec import EV_DRAWOUT
from firmware import fonts
from firmware.codes import BLACK, DIGIT_H

# app.fields slots while a gin hand is keyed in.
SEAT = const(0)         # who went out
K = const(1)            # the knocker's total, 0: gin
MODE = const(2)         # 0: a seat went out, 1: draw-out
STEP = const(3)         # the totals screen's question being asked
SPADE = const(4)        # the turn-up is a spade
T0 = const(5)           # 2 slots: the first total keyed in (low, high byte)
B0 = const(7)           # bonus cards by seat (Sequence Gin's bonus option)
B1 = const(8)
CONTRACT = const(9)     # Skarney Gin: 1 the opponent had laid down the contract meld
KEEP = const(10)        # 1: keep the ending on the score screen (back from the totals, or
                        # an undone hand); 2: keep the totals keyed in (an undone hand)
STAGE = const(11)       # the score screen during a hand: 0 who went out, 1 how


def ending_words(app):
    """The ending on the cursor: `Bob knocks 6`, `Ann gin`, `draw-out`; Skarney Gin's
    gin with the opponent's contract meld: `Ann gin, Bob melded` (or `no meld`)."""
    f = app.fields
    if f[MODE]:
        return "draw-out"
    who = app.scorer.names[f[SEAT]]
    if f[K]:
        return "%s knocks %d" % (who, f[K])
    if not app.scorer.s.row[G.TURNUP]:
        return "%s gin, %s %s" % (who, app.scorer.names[1 - f[SEAT]],
                                  "melded" if f[CONTRACT] else "no meld")
    return who + " gin"


def first_total(app):
    return app.fields[T0] | app.fields[T0 + 1] << 8


def set_first_total(app, v):
    app.fields[T0] = v & 0xFF
    app.fields[T0 + 1] = v >> 8


def event(app, value):
    """The hand-ending event the entry makes, `value` being the last number keyed in
    (the opponent's total, or seat 1's total in a draw-out)."""
    s = app.scorer.s
    f = app.fields
    bonus = s.rules.bonus
    b0 = f[B0] if bonus else -1
    if f[MODE]:
        if s.row[G.TURNUP]:
            return Gn.drawout()
        return Gn.drawout(first_total(app), value)
    d = first_total(app) if _asks_more(app) else value
    if f[K]:
        return Gn.knock(f[SEAT], f[K], d, b0, f[B1])
    return Gn.gin(f[SEAT], d, f[CONTRACT], b0, f[B1])


def _asks_more(app):
    # Questions after the opponent's total: bonus cards, or Skarney's contract meld.
    return app.scorer.s.rules.bonus or not app.scorer.s.row[G.TURNUP]


def verdict(app, ev):
    """What the ending scores: `knock stands: Bob +23`, or why it cannot be."""
    s = app.scorer.s
    if s.check(ev):
        return "not possible: OK says why"
    o = s.outcome(ev)
    w = Gn.outcome_winner(o)
    end = Gn.END_NAMES[Gn.outcome_end(o)]
    if end == "knock":
        end = "knock stands"
    if w < 0:
        return end + ": nobody scores"
    return "%s: %s +%d" % (end, app.scorer.names[w], Gn.outcome_points(o))


def scores(app, fb, top, bottom):
    """Both totals in big digits, each under its player's name, a rule between."""
    s = app.scorer.s
    w = fb.width
    bw = w // 2
    h = bottom - top
    i = 0
    while i < 2:
        name = app.scorer.names[i]
        x0 = i * bw
        fb.text(name, x0 + (bw - len(name) * 8) // 2, top, BLACK)
        sc = s.score(i)
        ds = (h - 12) // DIGIT_H
        if ds > 5:
            ds = 5
        while ds > 1 and fonts.digits_width(sc, ds) > bw - 8:
            ds -= 1
        fonts.number(fb, sc, x0 + (bw - fonts.digits_width(sc, ds)) // 2,
                     top + 12 + (h - 12 - ds * DIGIT_H) // 2, ds, BLACK)
        i += 1
    fb.vline(bw, top, h, BLACK)


def history_line(app, s, k, ev, rank=0):
    """A finished hand in one line, as said at the table: `3 K Bob knocks 6: Bob +17`,
    `4 5 Bob knocks 5: Ann undercuts +27`, `5 Q Ann gin: Ann +45` (hand, turn-up card,
    who went out and how, who scored), and the running hand points when they fit."""
    names = app.scorer.names
    end = s.last(Gn.LAST_END)
    arg = ev & 0xFFFFFF
    who = names[s.last(Gn.LAST_SEAT)][:5] if end != Gn.END_DRAWOUT else ""
    w = s.last(Gn.LAST_WINNER)
    won = "%s +%d" % (names[w][:5], s.last(Gn.LAST_POINTS)) if w >= 0 else "nobody scores"
    if end == Gn.END_DRAWOUT:
        how = "draw-out: " + won
        if ev >> 24 == EV_DRAWOUT and arg & 1:
            how = "draw-out %d-%d: %s" % (Gn.drawout_total(arg, 0), Gn.drawout_total(arg, 1),
                                          won)
    elif end == Gn.END_GIN:
        how = "%s gin: %s" % (who, won)
    elif end == Gn.END_UNDERCUT:
        how = "%s knocks %d: %s undercuts +%d" % (who, Gn.knocker_total(arg),
                                                  names[w][:5], s.last(Gn.LAST_POINTS))
    else:
        how = "%s knocks %d: %s" % (who, Gn.knocker_total(arg), won)
    up = G.RANK_NAMES[(rank & 15) - 1] if rank & 15 else ""
    line = "%2d %-2s %s" % (k, up, how)
    # The running hand points at the right, where the panel has room for them.
    sc = "%d-%d" % (s.hand_points(0), s.hand_points(1))
    return (line, sc) if len(line) + len(sc) + 1 <= app.fb.width // 8 else line
