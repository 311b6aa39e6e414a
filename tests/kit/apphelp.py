# Helpers for the firmware tests: the real firmware on the sim board, buttons in by name,
# the journal replayed to check what is on flash. MicroPython only (framebuf).

from boards.sim.board import Board
from firmware import app as A
from firmware import transient
from boards.sim.flash import NorFlash
from firmware.codes import BACK, LONG, MENU, NEXT, OK, PREV, SETUP

KEYS = {"prev": PREV, "next": NEXT, "ok": OK, "back": BACK, "menu": MENU}


def flash(blocks=8):
    return NorFlash(blocks, 4096)


def boot(nor=None, settings=None, width=296, height=128):
    """An App booted on a sim board over `nor` (a fresh RAM flash by default)."""
    b = Board(nor or flash(), record=True, settings=settings, width=width, height=height)
    a = A.App(b.display, b.flash, settings)
    a.boot()
    a.render()
    return a


def pc_sets(a, what, *args):
    """What a sync session does when the PC sets the clock ("clock": unix seconds, UTC
    offset), names ("names": kind, names), settings or the assignment: the App's clock, or
    a firmware.sync.session Session's (one an App; the module is unloaded after the call, as
    after a session). Its answer: None, or the refusal."""
    if what == "clock":
        return a.clock.set(*args)
    from firmware.sync.session import Session
    try:
        s = _SESSIONS.get(id(a))
        if s is None or s.app is not a:
            s = _SESSIONS[id(a)] = Session(a)
        return getattr(s, "set_" + what)(*args)
    finally:
        transient.unload("firmware.sync.session")


_SESSIONS = {}


def pushed(a):
    """The settings the PC pushed to `a` (pc_sets), as the session's end takes them."""
    return _SESSIONS[id(a)].pending


def press(a, *names):
    """Press buttons by name ("ok", "next", "long next", ...); returns the count."""
    n = 0
    for name in names:
        code = 0
        if name.startswith("long "):
            code = LONG
            name = name[5:]
        a.press(code | KEYS[name])
        n += 1
    return n


def rows(a):
    """From the setup screen asking what we play (a first power-on): open its rows (the
    last line, `other games, house rules...`)."""
    assert a.screen == SETUP, a.screen
    if a.draft == 2:
        press(a, "prev", "ok")
    assert a.draft != 2


def start(a, *setup):
    """From the setup screen: the presses in `setup` on its rows (opened first on a
    first power-on), then start the sitting."""
    rows(a)
    press(a, *setup)
    while a.screen == SETUP:
        # back to the start row (the first one)
        if a.edit:
            press(a, "ok")
        press(a, "ok" if a.cur == 0 else "prev")


def on_flash(a):
    """A sitting rebuilt from the journal's open sitting: what flash holds."""
    # Imported here: a module-level name would hold them in the heap, which the
    # load-for-a-while checks (test_resident.py) would see (firmware/transient.py).
    from engine_core.games import new_sitting
    from engine_core.header import decode_header
    from engine_core.journal.reader import JournalReader
    j = a.scorer.journal
    sid = j.open_sitting()
    r = JournalReader(j)
    cur = r.cursor(sid)
    buf = bytearray(256)
    n = r.next_event(cur, buf)
    rules, dealer, _ = decode_header(bytes(buf[:n]))
    s = new_sitting(rules, dealer)
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            return s
        s.apply(s.codec.decode_at(buf, 0))


def same_state(s1, s2):
    return bytes(s1.st) == bytes(s2.st)


def text(a):
    return a.fb.screen_text()
