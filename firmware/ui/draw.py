# Drawing shared by the screens: the top line, the help strip, the refusal banner, a
# choice between arrows, and the names of bids and contracts as a player says them.
from engine_core.codes import DOUBLES, GAME, PASS, PLUNGE, SPLASH
from engine_core.texas42.variants import TEAMS
from firmware import fonts
from firmware.codes import BLACK, DIGIT_H, LINE, WHITE

SUITS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights")
_SPECIAL = ("doubles", "follow-me", "nello", "nello lo", "nello su", "sevens")


def cols(fb):
    return fb.width // 8


def center(fb, t, y, s=1, c=BLACK):
    fonts.text(fb, t, (fb.width - len(t) * 8 * s) // 2, y, s, c)


def right(fb, t, y, c=BLACK):
    fb.text(t, fb.width - len(t) * 8, y, c)


def table_round(fb, assign, y, center=False, c=BLACK):
    """`Table 3 · Round 2` at the right (or the middle) of line y (the font has no
    middle dot: a 2x2 square); False when it does not fit beside 12 columns."""
    t = "Table %d" % assign[2]
    r = "Round %d" % assign[1]
    n = len(t) + 3 + len(r)
    if n + (0 if center else 12) > cols(fb):
        return False
    x = (fb.width - n * 8) // (2 if center else 1)
    fb.text(t, x, y, c)
    fb.fill_rect(x + (len(t) + 1) * 8 + 3, y + 3, 2, 2, c)
    fb.text(r, x + (len(t) + 3) * 8, y, c)
    return True


def help_lines(fb, t):
    """The lines of a help strip: t split at its newlines, else at a double space near
    its middle when it is too long for one line; where a line is still too long for the
    panel, all its phrases packed again (never cut inside a phrase)."""
    n = cols(fb)
    if "\n" in t:
        parts = t.split("\n")
    elif len(t) <= n:
        return (t,)
    else:
        cut = t.find("  ", len(t) // 2 - 4)
        if cut < 0:
            cut = n
        parts = (t[:cut], t[cut:])
    out = []
    for p in parts:
        if len(p.strip()) > n:
            break
        out.append(p.strip())
    else:
        return out
    # A line too long: every phrase (split at double spaces) packed into as few lines as
    # fit, so that a `hold <: 42/84` is never cut in two; a phrase longer than a line is
    # wrapped.
    out = []
    line = ""
    for p in parts:
        for ph in p.strip().split("  "):
            if line and len(line) + 2 + len(ph) <= n:
                line += "  " + ph
                continue
            if line:
                out.append(line)
            line = ph
            if len(line) > n:
                more = wrap(line, n)
                out.extend(more[:-1])
                line = more[-1]
    out.append(line)
    return out


def help(fb, t, lift=0):
    """The help strip: what the buttons do, on the bottom lines, a rule above them; its
    text `lift` pixels up (off a frame drawn on the panel's last row)."""
    lines = help_lines(fb, t)
    w = fb.width
    h = fb.height
    fb.hline(0, h - len(lines) * LINE - 1, w, BLACK)
    y = h - len(lines) * LINE + 2 - lift
    for line in lines:
        fb.text(line, (w - len(line) * 8) // 2, y, BLACK)
        y += LINE


def help_top(fb, t):
    """The y just above the help strip that help(fb, t) draws."""
    return fb.height - len(help_lines(fb, t)) * LINE - 2


def banner(fb, msg):
    """A refusal: the engine's reason, white on black across the middle of the screen."""
    w = fb.width
    n = (w - 12) // 8
    lines = wrap(msg, n)
    bh = len(lines) * LINE + 8
    y = (fb.height - bh) // 2
    fb.fill_rect(0, y, w, bh, BLACK)
    fb.rect(2, y + 2, w - 4, bh - 4, WHITE)
    y += 5
    for line in lines:
        fb.text(line, (w - len(line) * 8) // 2, y, WHITE)
        y += LINE


def wrap(msg, n):
    out = []
    while len(msg) > n:
        cut = msg.rfind(" ", 0, n + 1)
        if cut <= 0:
            cut = n
        out.append(msg[:cut])
        msg = msg[cut:].lstrip()
    out.append(msg)
    return out


def score_text(app):
    """The score in one short line: `Us 4-1 Them`, or each seat's in Moon."""
    s = app.scorer.s
    if s.row[TEAMS]:
        return "%s %d-%d %s" % (app.scorer.teams[0], s.score(0), s.score(1), app.scorer.teams[1])
    out = ""
    for i in range(s.sides):
        out += "%s%s %d" % (" " if i else "", app.scorer.names[i], s.score(i))
    return out


def seats_of(app, side):
    """A team's seats, `N/S`; "" where each seat plays alone, or where the team is named
    after its players already."""
    s = app.scorer.s
    if not s.row[TEAMS] or "/" in app.scorer.teams[side]:
        return ""
    out = ""
    i = side
    while i < s.seats:
        out += ("/" if out else "") + app.scorer.names[i]
        i += 2
    return out


def side_label(app, side):
    """A side's name with its seats, `Us N/S`, so that nobody wonders which team is Us."""
    seats = seats_of(app, side)
    name = app.scorer.side_name(side)
    return name + " " + seats if seats else name


def top(app, fb):
    """The first line: the hand, the dealer, and the score at the right."""
    s = app.scorer.s
    left = "hand %d  %s deals" % (s.hands() + 1, app.scorer.names[s.dealer()])
    sc = score_text(app)
    if len(left) + len(sc) + 1 > cols(fb):
        left = "hand %d" % (s.hands() + 1)
    fb.text(left, 0, 0, BLACK)
    right(fb, sc, 0)
    fb.hline(0, LINE, fb.width, BLACK)


def bid_words(s, code):
    """A bid as said at the table: `pass`, `30`, `84` (2 marks), `plunge`..."""
    if code == PASS:
        return "pass"
    if code == GAME:
        return "game"
    if code == PLUNGE:
        return "plunge"
    if code == SPLASH:
        return "splash"
    return str(s.bid_value(code))


def need(s):
    """What the bidders must take (points, or tricks): the hand total for every trick,
    -1 for nello (no trick at all). The engine's own rule, Sitting._need."""
    return s._need()


def contract_words(c):
    if c <= 8:
        return SUITS[c]
    return _SPECIAL[c - DOUBLES]


def contract_line(app):
    """`Di bid 30, fives` (the bid and contract in play), or `Di bid 30` before trump."""
    s = app.scorer.s
    b = s.bidder()
    if b < 0:
        return ""
    out = "%s bid %s" % (app.scorer.names[b], bid_words(s, s.high_bid()))
    if s.contract() >= 0:
        out += ", " + contract_words(s.contract())
    return out


def choice(fb, x0, y, word, number, s):
    """A value between arrows, centred right of x0: big digits at scale s for a number
    (word None), else the word at twice the font size. Returns the height used."""
    w = fb.width - x0
    th = DIGIT_H * s
    if word is None:
        tw = fonts.digits_width(number, s)
        x = x0 + (w - tw) // 2
        fonts.number(fb, number, x, y, s, BLACK)
    else:
        ws = 2 if len(word) * 16 <= w - 64 else 1
        tw = len(word) * 8 * ws
        x = x0 + (w - tw) // 2
        fonts.text(fb, word, x, y + (th - 8 * ws) // 2, ws, BLACK)
    ay = y + th // 2 - 8
    fonts.text(fb, "<", x - 28, ay, 2, BLACK)
    fonts.text(fb, ">", x + tw + 12, ay, 2, BLACK)
    return th
