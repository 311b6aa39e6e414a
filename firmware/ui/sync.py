# Sync status: the USB link to the PC and what the journal holds. It opens by itself when
# the PC starts a sync (firmware/link.py opens the session then) and shows the outcome.
from firmware.codes import BACK, BLACK, LINE, OK
from firmware.journal import Walk
from firmware.ui import draw as D

HELP = "OK/BACK return  M menu"


def draw(app, fb):
    title = "Sync with the PC"
    D.center(fb, title, 2, 2 if len(title) * 16 <= fb.width else 1)
    y = 24
    j = app.scorer.journal
    line = app.link.line
    waiting = 0
    damaged = 0
    w = Walk()          # each record checked: a flash fault shows here
    j.walk(w)
    while j.walk_next(w):
        if not w.synced:
            waiting += 1
            if w.damaged:
                damaged += 1
    lines = [
        "USB: " + (getattr(line, "name", "on") if line else "not connected"),
        "status: " + app.link.status,
        "sittings not yet on the PC: %d" % waiting,
        "journal free: %d bytes" % j.free_bytes(),
        "on the PC: tally42 sync --port P",
    ]
    if damaged:     # a flash fault: the PC names them when it syncs (docs/journal.md)
        lines.insert(3, "damaged on flash: %d" % damaged)
    for line in lines:
        fb.text(line[:D.cols(fb)], 0, y, BLACK)
        y += LINE + 2
    D.help(fb, HELP)


def press(app, key):
    if key == OK or key == BACK:
        app.follow()
