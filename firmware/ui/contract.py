# The contract: the bid winner (the partner after plunge or splash) names trump among
# the legal names only. The cursor starts on the last hand's trump (and says so), else
# on sixes (and says why). In a marks game the hand's result can be said with the name:
# OK held names it and takes the hand as made, ◀ held names it and takes it as set, and
# the score says so until the next press (BACK undoes it); ▶ held steps 3 on. Elsewhere
# the held arrows step 3 either way. After BACK the cursor is on the trump taken back.
from engine_core.codes import DOUBLES, EV_MADE, EV_TRUMP, LAST_CONTRACT, LAST_THROWN
from engine_core.texas42.variants import MARKS
from firmware.codes import BACK, BLACK, LINE, LONG, NEXT, OK, PREV
from firmware.ui import draw as D
from firmware.ui import walk

HELP = "<> choose  hold >: +3  hold <: -3\nOK name it  BACK undo  M menu"
MADE = ("<> choose  hold >: +3\nOK name it  hold OK: and made\n"
        "hold <: and set  BACK undo  M menu")
HOLD_OK = True      # firmware.app: a long press of OK reaches press() as LONG | OK


def _made(s):
    # Whether OK held also takes the hand as made: a game scored in marks.
    return s.rules.scoring == MARKS


def _last(s):
    # The position of the last hand's trump, when it may be named again; else -1.
    if s.hands() and not s.last(LAST_THROWN):
        return walk.find(s, s.last(LAST_CONTRACT))
    return -1


def enter(app):
    s = app.scorer.s
    j = _last(s)
    if j < 0:
        j = walk.find(s, 6)
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
    # Every legal name, the one under the cursor boxed.
    line = ""
    j = walk.first(s)
    at = 0
    while j >= 0:
        if j == app.cur:
            at = len(line)
        line += _short(s.legal_at(j)) + " "
        j = s.next_legal(j)
    n = D.cols(fb)
    if len(line) > n:
        first = at - n // 2
        if first < 0:
            first = 0
        if first > len(line) - n:
            first = len(line) - n
        line = line[first:first + n]
        at -= first
    x = (fb.width - len(line) * 8) // 2
    fb.text(line, x, y, BLACK)
    k = len(_short(c))
    fb.rect(x + at * 8 - 2, y - 2, k * 8 + 3, 12, BLACK)
    if app.cur == _last(s):
        D.center(fb, "the last hand's trump", y + LINE + 3)
    elif not s.hands() and c == 6:
        D.center(fb, "no trump yet: sixes, the top suit", y + LINE + 3)
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
    elif key == LONG | NEXT or (key == LONG | PREV and not _made(s)):
        app.cur = walk.step(s, app.cur, 3 if key == LONG | NEXT else -3)
    elif key == OK or key == LONG | OK or key == LONG | PREV:
        # A marks game's result goes with the name: made (OK held) or set (◀ held).
        if app.take(EV_TRUMP << 24 | s.legal_at(app.cur)):
            if (key != OK and _made(s)
                    and app.take(EV_MADE << 24 | (1 if key == LONG | OK else 0))):
                from firmware.ui import confirm     # unloaded with this screen
                app.note = confirm.saved(app)
            app.follow()
    elif key == BACK:
        app.undo()
