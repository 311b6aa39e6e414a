# The self-test: that a board just built or just deployed works. From the menu, and at
# the first boot of a device board (no settings file yet, no sitting on the journal:
# at_first_boot, from firmware/start.py). On the panel:
#   - a test pattern: a frame on the panel's outermost pixels and a band of 8x8 squares
#     (a missing row or column, a panel set up for the wrong size, a stuck area shows);
#     entered with a full refresh
#   - each button named as it is pressed, and the ones pressed so far ticked: PREV NEXT
#     OK BACK (MENU leaves, to the menu: that it opens is its test)
#   - the battery as the board reads it (firmware/battery.py), or why not
#   - the journal's state: its sittings, those not yet synced, its room left, or that
#     the partition is missing (then there is no scorer to test: start.py says so)
# app.fields[0] holds the buttons pressed, a bit each; app.cur the last one.
from firmware.codes import BACK, BLACK, LINE, NEXT, OK, PREV, WHITE
from firmware.ui import draw as D

HELP = "<>/OK/BACK: named  M: leave"
_KEYS = ((PREV, "PREV"), (NEXT, "NEXT"), (OK, "OK"), (BACK, "BACK"))
_SQUARE = 8


def enter(app):
    app.fields[0] = 0
    app.cur = 0
    app.full = True     # the pattern in a full refresh: every pixel driven
    app.scorer.save_settings()  # the first boot is over: the next goes to the setup


def name_of(key):
    for k, name in _KEYS:
        if k == key & 0xF:
            return name
    return "?"


def press(app, key):
    key &= 0xF
    for i in range(len(_KEYS)):
        if _KEYS[i][0] == key:
            app.fields[0] |= 1 << i
    app.cur = key


def draw(app, fb):
    w = fb.width
    h = fb.height
    fb.rect(0, 0, w, h, BLACK)      # the outermost pixels
    D.center(fb, "Self-test", 3)
    y = 3 + LINE
    t = "key: " + (name_of(app.cur) if app.cur else "none yet")
    D.center(fb, t, y)
    y += LINE
    x = 4
    for i in range(len(_KEYS)):
        name = _KEYS[i][1]
        if app.fields[0] >> i & 1:
            fb.fill_rect(x - 1, y - 1, len(name) * 8 + 2, LINE, BLACK)
            fb.text(name, x, y, WHITE)
        else:
            fb.text(name, x, y, BLACK)
        x += len(name) * 8 + 8
    y += LINE
    fb.text(battery_line(app), 4, y, BLACK)
    y += LINE
    for line in journal_lines(app, D.cols(fb) - 1):
        fb.text(line, 4, y, BLACK)
        y += LINE
    bottom = D.help_top(fb, HELP)
    band = min(2 * _SQUARE, bottom - y - 1)
    if band >= _SQUARE:
        top = bottom - band
        for row in range(band // _SQUARE):
            for col in range((w - 2) // _SQUARE):
                if (row + col) & 1:
                    fb.fill_rect(1 + col * _SQUARE, top + row * _SQUARE, _SQUARE, _SQUARE,
                                 BLACK)
    D.help(fb, HELP, 1)     # its text clear of the frame's bottom row


def battery_line(app):
    board = getattr(app, "board", None)
    if board is None or getattr(board, "battery", None) is None:
        return "battery: not measured"
    from firmware import battery
    mv = battery.millivolts(board)
    if mv < battery.NO_CELL_MV:
        return "battery: none (on USB)"
    t = "battery: %d.%02d V" % (mv // 1000, mv % 1000 // 10)
    if mv < battery.FLOOR_MV:
        return t + " flat"
    return t + (" low" if mv < battery.LOW_MV else " ok")


def journal_lines(app, cols):
    from firmware.journal import Walk
    j = app.scorer.journal
    w = Walk(False)
    j.walk(w)
    n = unsynced = damaged = 0
    while j.walk_next(w):
        n += 1
        unsynced += 0 if w.synced else 1
        damaged += 1 if w.damaged else 0
    parts = ["journal: empty" if n == 0 else
             "journal: 1 sitting" if n == 1 else "journal: %d sittings" % n]
    if unsynced:
        parts.append("%d to sync" % unsynced)
    if damaged:
        parts.append("%d damaged" % damaged)
    parts.append("%d KB free" % (j.free_bytes() // 1024))
    lines = []
    line = ""
    for p in parts:
        if not line:
            line = p
        elif len(line) + 2 + len(p) <= cols:
            line += ", " + p
        else:
            lines.append(line + ",")
            line = "  " + p
    lines.append(line)
    return lines
