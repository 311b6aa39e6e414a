# A new sitting. A first power-on (nothing set up yet), or MENU ▸ another game, asks
# what we are playing, one screen: plain 42 and each gin pad start at once (with the last
# choices for that game, else its usual rules), the last line opens the rows. The rows:
# "start" first (the cursor's place, so the same game again is one press), then the game
# (every variant), its scoring and target, the house options that apply to that game and
# scoring (a special's marks only while it is on; the rows are data: rows() and each
# family's APPLIES), and the first dealer. Opened for a family (MENU ▸ new sitting, same
# game), from that family's last game, or its first (plain 42, Oklahoma Gin) when the last
# was the other family's.
from engine_core import header
from engine_core.texas42 import options as O
from engine_core.texas42.variants import FORCED, MARK, POINTS, SCORINGS, SEATS, TEAMS
from firmware.codes import BACK, BLACK, LINE, LONG, MENU, NEXT, OK, PREV, WHITE
from firmware.ui import draw as D

_BOOL = ("nello", "sevens", "plunge", "splash")
PICKING = 2     # app.draft while the screen asks what we are playing
# What we are playing, one screen: plain 42 and each gin pad start at once (with the last
# choices made for that game, else the usual ones); the last line opens the rows (every
# game of the 42 family, every house option, the first dealer).
PICKS = ("42", "oklahoma-gin", "sequence-gin", "skarney-gin", None)


def enter(app):
    family = app.draft
    if family == PICKING or (family is None and app.scorer.last_setup is None
                             and app.scorer.s is None):
        # A first power-on, or MENU ▸ another game: what are we playing? The cursor on
        # the first game of the other family than the one in play.
        app.draft = PICKING
        s = app.scorer.s
        app.cur = 1 if s is not None and not app.scorer.gin else 0
        app.top = 0
        return
    if family is None or family == 0 or family == 1:
        # A family asked for from the menu (0 the 42 family, 1 the gin pads), else the
        # last one set up: its last game, or its first game when the last was the other's.
        rules = None
        last = app.scorer.last_setup
        dealer = 0
        if last:
            try:
                rules, dealer, _ = header.decode_header(last)
            except ValueError:
                rules = None
        if rules is None or (family is not None and rules.family != family):
            rules = O.resolve("oklahoma-gin" if family == 1 else "42")
            dealer = 0
        app.draft = rules
        app.draft_dealer = dealer
    app.cur = 0
    app.top = 0


def rows(app):
    r = app.draft
    out = ["start", "game"]
    if r.family:
        out.extend(_gin().rows(r))
    for key in () if r.family else O.APPLIES[r.variant]:
        if _applies(r, key):
            out.append(key)
    out.append("dealer")
    return out


def _applies(r, key):
    # Options that mean nothing with the others as they are stay out of sight.
    if r.scoring == POINTS and key in O.SPECIAL:
        return False    # special contracts are played for marks
    if key == "made_scores":
        return r.scoring == POINTS
    if key == "nello_doubles":
        return r.nello
    if key == "plunge_marks":
        return r.plunge
    if key == "splash_marks":
        return r.splash
    if key == "forced_min":
        return r.all_pass == FORCED     # only a forced dealer bids it
    if key == "nello_min" or key == "nello_by":
        return r.nello
    return True


def _visible(fb):
    # The rows that fit above the seats line and the help, at its tallest (a value being
    # changed), so that no row runs into them.
    return (D.help_top(fb, _help(True)) - 16 - LINE) // LINE


def _scroll(app, n):
    k = _visible(app.fb)
    if app.cur < app.top:
        app.top = app.cur
    elif app.cur >= app.top + k:
        app.top = app.cur - k + 1


def value(app, key):
    r = app.draft
    if key == "game":
        return r.name
    if key == "dealer":
        return seat_name(r.row[SEATS], app.draft_dealer)
    if key == "start":
        return ""
    if r.family:
        return _gin().value(r, key)
    if key == "nello_doubles":
        return "+".join([O.NELLO_DOUBLES_NAMES[i] for i in r.nello_order])
    v = O.value(r, key)
    if key in _BOOL:
        return "on" if v else "off"
    if key == "nello_by":
        return "forced dealer" if v == "forced_dealer" else v
    return str(v)


def _range(r, key):
    # (lowest, highest, step) of a number option.
    row = r.row
    if key == "target":
        return 1, 9999, 10 if r.scoring == POINTS else 1
    if key == "min_bid":
        lo, hi = O.min_bid_range(r)
        return lo, hi, 1
    if key == "forced_min":     # min_bid to 41
        return r.min_bid, max(r.min_bid, row[MARK] - 1), 1
    if key == "nello_min":      # 30 to 42, then 84 (a bid between is none)
        return O.NELLO_MIN_LO, O.NELLO_MIN_HI, 1
    if key == "match_games":
        return 1, 99, 2
    return 2, 7, 1


def change(app, key, d):
    """Move the value of `key` by d steps (wrapping for choices)."""
    r = app.draft
    if key == "game":
        app.draft = _gin().step_game(r, d)
        app.draft_dealer = app.draft_dealer % app.draft.row[SEATS]
    elif key != "dealer" and r.family:
        _gin().change(r, key, d)
    elif key == "dealer":
        app.draft_dealer = (app.draft_dealer + d) % r.row[SEATS]
    elif key == "scoring":
        s = r.scoring
        while True:
            s = (s + d) % 3
            if r.row[SCORINGS] >> s & 1:
                break
        r.scoring = s
        r.default_target()
    elif key == "all_pass" or key == "made_scores" or key == "nello_by" or key in _BOOL:
        setattr(r, key, 1 - getattr(r, key))
    elif key == "nello_doubles":
        r.nello_doubles = (r.nello_doubles - 1 + d) % 7 + 1
    else:
        lo, hi, step = _range(r, key)
        old = getattr(r, key)
        v = old + d * step
        if key == "nello_min" and r.row[MARK] < v < O.NELLO_MIN_HI:
            v = O.NELLO_MIN_HI if d > 0 else r.row[MARK]   # past one mark, two marks
        v = lo if v < lo else (hi if v > hi else v)
        setattr(r, key, v)
        if key == "min_bid":
            # The forced dealer's least bid keeps its distance from min_bid (none: it
            # follows it), up to 41.
            top = max(v, r.row[MARK] - 1)
            f = r.forced_min - old + v
            r.forced_min = top if f > top else f


def _help(editing, key=None, leave=True):
    if editing:
        return "<> change  hold <>: 5 a step\nOK/BACK done"
    out = "<> choose  OK start" if key == "start" else "<> choose  OK change"
    return out + "  M/BACK leave" if leave else out


def _title(fb, assign, gin):
    # At an event's table its name heads the screen (what is left beside `Table 3 ·
    # Round 2`): a table pushed by another event's desk shows at once.
    if not assign:
        return "New gin pad" if gin else "New 42 sitting"
    n = len("Table %d" % assign[2]) + 3 + len("Round %d" % assign[1])
    room = D.cols(fb) - n - 1 if n + 12 <= D.cols(fb) else D.cols(fb)
    return assign[0][:room]


def _pick_rules(app, name):
    # The rules a pick starts: the last setup's when it was this game, else the usual.
    # With its first dealer.
    last = app.scorer.last_setup
    if last:
        try:
            rules, dealer, _ = header.decode_header(last)
            if rules.name == name:
                return rules, dealer
        except ValueError:
            pass
    return O.resolve(name), 0


def _pick_label(app, i):
    name = PICKS[i]
    if name is None:
        return "other games, house rules..."
    return _summary(_pick_rules(app, name)[0])


def _pick_help(app):
    if PICKS[app.cur] is None:
        out = "<> choose  OK open"
    else:
        out = "<> choose  OK play it"
    return out + "\nM/BACK leave" if app.scorer.s is not None else out


def _draw_pick(app, fb):
    fb.text("What are we playing?", 0, 0, BLACK)
    fb.hline(0, LINE, fb.width, BLACK)
    y = 14
    i = 0
    while i < len(PICKS):
        c = BLACK
        if i == app.cur:
            fb.fill_rect(0, y - 2, fb.width, LINE + 1, BLACK)
            c = WHITE
        fb.text(_pick_label(app, i)[:D.cols(fb) - 1], 4, y, c)
        y += LINE + 1
        i += 1
    hp = _pick_help(app)
    if y + LINE <= D.help_top(fb, hp):
        D.center(fb, "remembered for the next sitting"[:D.cols(fb)], D.help_top(fb, hp) - LINE + 1)
    D.help(fb, hp)


def _press_pick(app, key):
    n = len(PICKS)
    if key == NEXT:
        app.cur = (app.cur + 1) % n
    elif key == PREV:
        app.cur = (app.cur - 1) % n
    elif key == OK:
        name = PICKS[app.cur]
        if name is None:
            app.draft = 1 if app.scorer.gin else 0
            enter(app)      # the rows, from the last setup of the family in play
            return
        rules, dealer = _pick_rules(app, name)
        if new_sitting(app, rules, dealer):
            app.draft = None
    elif (key == BACK or key == MENU) and app.scorer.s is not None:
        app.draft = None
        app.follow()


def draw(app, fb):
    if app.draft == PICKING:
        _draw_pick(app, fb)
        return
    gin = app.draft.family
    assign = setup_assign(app)
    fb.text(_title(fb, assign, gin), 0, 0, BLACK)
    # Where the rows' values come from: the last game set up, or the game's usual rules.
    note = "as last game"
    try:
        if header.decode_header(app.scorer.last_setup)[0].family != gin:
            note = "usual rules"
    except (TypeError, ValueError):     # none set up yet, or not readable
        note = "usual rules"
    if not (assign and D.table_round(fb, assign, 0)) and len(note) + 12 <= D.cols(fb):
        D.right(fb, note, 0)
    fb.hline(0, LINE, fb.width, BLACK)
    keys = rows(app)
    y = 14
    k = _visible(fb)
    i = app.top
    while i < len(keys) and i < app.top + k:
        key = keys[i]
        label = _label(key)
        v = value(app, key)
        if key == "start":
            label = "start: " + _summary(app.draft)
        c = BLACK
        if i == app.cur:
            if app.edit:
                fb.rect(0, y - 2, fb.width, LINE + 1, BLACK)
                vx = fb.width - len(v) * 8 - 4
                fb.fill_rect(vx - 2, y - 2, len(v) * 8 + 4, LINE + 1, BLACK)
                fb.text(label, 4, y, BLACK)
                fb.text(v, vx, y, WHITE)
                y += LINE
                i += 1
                continue
            fb.fill_rect(0, y - 2, fb.width, LINE + 1, BLACK)
            c = WHITE
        fb.text(label[:D.cols(fb) - 1], 4, y, c)
        if v:
            fb.text(v, fb.width - len(v) * 8 - 4, y, c)
        y += LINE
        i += 1
    hp = _help(app.edit, keys[app.cur], app.scorer.s is not None)
    fb.text(seats_line(app)[:D.cols(fb)], 0, D.help_top(fb, hp) - LINE + 1, BLACK)
    D.help(fb, hp)


def seats_line(app):
    """Who plays with whom, and who deals first: `Us: N+S  Them: E+W, N deals first`."""
    r = app.draft
    seats = r.row[SEATS]
    names = setup_names(app, r)
    if names:   # pushed from the PC: who sits where
        first = "%s deals first" % names[app.draft_dealer]
        if seats != 4 or not r.row[TEAMS]:
            return "%s; %s" % (" ".join(names), first)
        return "%s+%s v %s+%s, %s" % (names[0], names[2], names[1], names[3], first)
    first = seat_name(seats, app.draft_dealer) + " deals first"
    if seats == 2:
        return first
    if not r.row[TEAMS]:
        return "clockwise %s; %s" % (" ".join(seat_name(seats, i) for i in range(seats)),
                                     first)
    out = ""
    for side in (0, 1):
        out += "%s%s: %s" % ("  " if side else "", app.scorer.teams[side],
                             "+".join(seat_name(seats, i) for i in range(side, seats, 2)))
    return out + ", " + first


def _label(key):
    if key == "target":
        return "play to"
    if key == "dealer":
        return "first dealer"
    if key == "min_bid":
        return "lowest bid"
    if key == "forced_min":
        return "forced bid from"
    if key == "nello_min":
        return "nello from bid"
    return key.replace("_", " ")


def seat_name(seats, i):
    if seats == 2:
        return ("P1", "P2")[i]
    return ("NESW", "NEW", "123456")[0 if seats == 4 else (1 if seats == 3 else 2)][i]


def _gin():
    # The gin pads' rows (their own module, loaded with this screen when needed).
    from firmware.ui import gin_setup
    return gin_setup


def _summary(r):
    # The game and its target: `42, marks to 7`, `oklahoma-gin, game to 100`.
    if r.family:
        return _gin().summary(r)
    unit = ("marks", "points", "points")[r.scoring]
    return "%s, %s to %d" % (r.name, unit, r.target)


def press(app, key):
    if app.draft == PICKING:
        _press_pick(app, key)
        return
    keys = rows(app)
    n = len(keys)
    name = keys[app.cur]
    if app.edit:
        if key & 0xF == NEXT or key & 0xF == PREV:
            d = 1 if key & 0xF == NEXT else -1
            change(app, name, d * 5 if key & LONG else d)
        elif key == OK or key == BACK:
            app.edit = False
        return
    if key == NEXT:
        app.cur = (app.cur + 1) % n
    elif key == PREV:
        app.cur = (app.cur - 1) % n
    elif key == OK:
        if name == "start":
            start(app)
            return
        app.edit = True
    elif (key == BACK or key == MENU) and app.scorer.s is not None:
        app.draft = None
        app.follow()
        return
    _scroll(app, n)


def again(app):
    """A new sitting of the game last set up, with its choices: one press at game over."""
    try:
        rules, dealer, _ = header.decode_header(app.scorer.last_setup)
    except (TypeError, ValueError):
        rules = app.scorer.s.rules
        dealer = 0
    new_sitting(app, rules, dealer)


def start(app):
    r = app.draft
    try:
        rules = O.resolve(r.name, O.to_dict(r))
    except O.OptionError as e:
        app.banner = str(e)
        return
    if new_sitting(app, rules, app.draft_dealer):
        app.draft = None


def new_sitting(app, rules, dealer):
    """Begin a sitting in the journal (finishing the open one) and show it. Its header
    carries the player names set up (pushed from the PC), a random id and the clock."""
    from firmware.journal import JournalError
    scorer = app.scorer
    names = setup_names(app, rules)
    assign = setup_assign(app)
    # The setup kept has no assignment: the PC pushes one for each sitting.
    setup = header.encode_header(rules, dealer, names)
    clock = scorer.clock
    head = header.encode_header(rules, dealer, names, _sitting_uid(), clock.now(),
                                clock.utc_offset, assign)
    try:
        scorer.journal.end(clock.now(), clock.utc_offset)    # the one left ends now
        scorer.journal.begin_sitting(head)
    except JournalError as e:
        app.banner = str(e)
        return False
    scorer.start(rules, dealer, names, assign)
    if setup != scorer.last_setup:
        scorer.last_setup = setup
        scorer.save_settings()
    app.follow()
    app.full = True
    return True


def setup_assign(app):
    """The table assignment pushed from the PC for the next sitting, or None."""
    try:
        return header.header_assignment(app.scorer.last_setup) if app.scorer.last_setup else None
    except ValueError:
        return None


def setup_names(app, rules):
    """The player names of the last setup when they fit the game's seats, else None."""
    if not app.scorer.last_setup:
        return None
    try:
        names = header.decode_header(app.scorer.last_setup)[2]
    except ValueError:
        return None
    if names and len(names) == rules.row[SEATS]:
        return names
    return None


def _sitting_uid():
    # A random id below 2**30 (never 0) from the chip's random number generator.
    import os
    b = os.urandom(4)
    return (b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24) or 1
