# The App's boot: its settings, the journal mounted and the open sitting replayed at the
# exact state; and a sitting's start (the replay's, a new one's from the setup screen).
# Code run once a sitting: loaded by App.boot() and the setup, unloaded once done.
from micropython import const

from engine_core import header
from firmware import app as A
from firmware.journal import JournalError

# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_SEATS = const(0)
_TEAMS = const(1)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_SYNC = const(8)
_SETUP = const(9)

_HEADER_MAX = const(255)
_END_ITEM = const(5)            # the journal's END record as next_event gives it
_SEAT_NAMES = {2: ("N", "S"), 3: ("N", "E", "W"), 4: ("N", "E", "S", "W"),
          6: ("1", "2", "3", "4", "5", "6")}


def boot(app, safe):
    """App.boot(): mount, then resume the open sitting (safe mode: not)."""
    A.forget("engine_core.messages")    # the refusal messages: loaded when one is shown
    from firmware import settings
    app.last_setup, app.tracker = settings.load(app.settings_path)
    A.forget("firmware.settings")
    sid = app.journal.mount()
    app.safe = safe
    if safe:
        app.sync_status = "safe mode: waiting for the PC"
        app.banner = "safe mode: the sitting is not resumed"
        app.go(_SYNC)
    elif sid is None:
        app.go(_SETUP)
    else:
        refused = replay(app, sid)
        app.follow()
        if refused:
            app.banner = "%d saved events refused: sync, the PC has them" % refused
    app.full = True
    A.forget("engine_core.header")
    A.forget("firmware.journal.reader")  # the replay's reading


def replay(app, sid):
    """Replay the sitting `sid` from the journal; returns how many of its events the
    engine refused (each is reported: the PC gets them all with the next sync)."""
    j = app.journal
    buf = bytearray(_HEADER_MAX)
    from firmware.journal.reader import JournalReader
    r = JournalReader(j)
    cur = r.cursor(sid)
    n = r.next_event(cur, buf)
    try:
        head = bytes(buf[:n])
        rules, dealer, names = header.decode_header(head)
        assign = header.header_assignment(head)
    except ValueError as e:
        raise JournalError("the open sitting cannot be resumed (%s): hold a button "
                           "at power-on for safe mode, then sync" % e)
    start(app, rules, dealer, names, assign)
    s = app.s
    refused = 0
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            break
        if n == _END_ITEM:
            continue        # an END record (when the game ended), not an event
        if s.apply(s.codec.decode_at(buf, 0)):
            refused += 1
    return refused


def start(app, rules, dealer, names=None, assign=None):
    """The app on a new sitting of `rules` (`names`: seat names, `assign`: its table
    assignment), its first dealer `dealer`."""
    from engine_core.games import new_sitting
    app.s = None
    app.assign = assign
    if app.gin != rules.family:
        app._forget_screens()      # the other family's screen modules
    app.gin = rules.family
    app.s = new_sitting(rules, dealer)
    A.forget("engine_core.games")
    app.first_dealer = dealer
    seats = rules.row[_SEATS]
    app.names = tuple(names) if names and len(names) == seats else _SEAT_NAMES[seats]
    if names and rules.row[_TEAMS]:
        app.teams = (A._pair(app.names, 0), A._pair(app.names, 1))
    else:
        app.teams = A._TEAM_NAMES
    app.hand_mode = 0
