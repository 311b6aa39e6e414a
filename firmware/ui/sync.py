# Sync status: the USB link to the PC and what the journal holds. It opens by itself when
# the PC starts a sync (firmware/app.py loads the endpoint then) and shows the outcome.
from micropython import const

from firmware.journal import Walk
from firmware.ui import draw as D

# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BLACK = const(0)
_OK = const(3)
_BACK = const(4)
_LINE = const(10)

HELP = "OK/BACK return"


def draw(app, fb):
    D.center(fb, "Sync with the PC", 2, 2)
    y = 24
    j = app.journal
    waiting = 0
    w = Walk()
    j.walk(w)
    while j.walk_next(w):
        if not w.synced:
            waiting += 1
    lines = (
        "USB: " + (getattr(app.link, "name", "on") if app.link else "not connected"),
        "status: " + app.sync_status,
        "sittings not yet on the PC: %d" % waiting,
        "journal free: %d bytes" % j.free_bytes(),
        "on the PC: tally42 sync --port P",
    )
    for line in lines:
        fb.text(line[:D.cols(fb)], 0, y, _BLACK)
        y += _LINE + 2
    D.help(fb, HELP)


def press(app, key):
    if key == _OK or key == _BACK:
        app.follow()
