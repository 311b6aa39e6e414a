# The contract: the bid winner (the partner after plunge or splash) names trump among
# the legal names only. The cursor starts on threes every hand. In a marks game the
# likelier result can go with the name: OK held names it and takes the hand as made (more
# of what OK does: the name on show, then made), and the score says so until the next
# press (BACK undoes it); a set is said on the result screen, never by a held key. The
# held arrows step 3 either way. After BACK the cursor is on the trump taken back.
from engine_core.codes import DOUBLES, EV_MADE, EV_TRUMP
from engine_core.texas42.variants import MARKS
from firmware.codes import BACK, BLACK, LINE, LONG, NEXT, OK, PREV
from firmware.ui import draw as D
from firmware.ui import walk

HELP = "<> choose  hold <>: 3 a step\nOK name it  BACK undo  M menu"
MADE = "<> choose  hold <>: 3 a step\nOK name it  hold OK: and made\nBACK undo  M menu"
START = 3   # where the cursor starts: threes, every hand (see enter())
LONG_STEP = 3   # the held arrows' step
HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK


def _made(s):
    # Whether OK held also takes the hand as made: a game scored in marks.
    return s.rules.scoring == MARKS


def enter(app):
    # The same start every hand, so that a trump is always the same presses away (every
    # name within two presses: steps of 1 and 3 either way over nine). Threes: the start
    # that takes the fewest presses over the corpus of ui.presses_per_hand.sitting_mean
    # (tests/kit/probes/mp_ui_search.py: trump_starts()); a start not in the legal names
    # (a special contract's list) falls back to the first.
    s = app.scorer.s
    j = walk.find(s, START)
    if j < 0:
        j = walk.first(s)
    app.cur = walk.again(app, EV_TRUMP, j)


def draw(app, fb):
    s = app.scorer.s
    D.top(app, fb)
    y = LINE + 3
    fb.text(D.contract_line(app), 0, y, BLACK)
    y += LINE + 4
    D.center(fb, app.scorer.names[s.seat()] + " names", y, 2)
    y += 22
    c = s.legal_at(app.cur)
    word = D.contract_words(c)
    D.choice(fb, 0, y, word, 0, 2)
    y += 28
    # Every legal name, the one under the cursor boxed, each drawn on its own so that
    # the box falls between names (scrolled round the cursor when they do not fit).
    n = D.cols(fb)
    total = 0
    at = 0
    j = walk.first(s)
    while j >= 0:
        if j == app.cur:
            at = total
        total += len(_short(s.legal_at(j))) + 1
        j = s.next_legal(j)
    total -= 1
    first = 0
    if total > n:
        first = at - n // 2
        if first < 0:
            first = 0
        if first > total - n:
            first = total - n
    x = (fb.width - (total if total < n else n) * 8) // 2 - first * 8
    j = walk.first(s)
    col = 0
    while j >= 0:
        name = _short(s.legal_at(j))
        k = len(name)
        if col >= first and col + k <= first + n:
            fb.text(name, x + col * 8, y, BLACK)
            if j == app.cur:
                fb.rect(x + col * 8 - 3, y - 2, k * 8 + 5, 12, BLACK)
        col += k + 1
        j = s.next_legal(j)
    D.help(fb, MADE if _made(s) else HELP)


def _short(c):
    if c <= 8:
        return str(c)
    return ("doubles", "follow-me", "nello", "nel-lo", "nel-su", "sevens")[c - DOUBLES]


# Like bidding's press(): a shared one would sit in the resident walk module, which
# measured 2.7 KB more heap after boot (bench/bench_ui.py).
def press(app, key):
    s = app.scorer.s
    if key == NEXT or key == PREV:
        app.cur = walk.step(s, app.cur, 1 if key == NEXT else -1)
    elif key == LONG | NEXT or key == LONG | PREV:
        app.cur = walk.step(s, app.cur, LONG_STEP if key == LONG | NEXT else -LONG_STEP)
    elif key == OK or key == LONG | OK:
        # A marks game: OK held names the trump on show and takes the hand as made.
        if app.take(EV_TRUMP << 24 | s.legal_at(app.cur)):
            if (key != OK and _made(s)
                    and app.take(EV_MADE << 24 | 1)):
                from firmware.ui import confirm     # unloaded with this screen
                app.note = confirm.saved(app)
            app.follow()
    elif key == BACK:
        app.undo()
