# The App's side of a sync session with the PC: opening the endpoint, what the PC may
# set (the clock, names, house options) and closing. Loaded when a PC's hello arrives
# on the USB line and unloaded when the session ends (firmware/app.py poll_link), so
# that none of it takes heap while the scorer is scoring.
import gc

from micropython import const

from firmware import app as A

# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_SEATS = const(0)
_TEAMS = const(1)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_SYNC = const(8)
_SETUP = const(9)

_EPOCH = const(1704067200)     # app.py: the clock is kept as seconds since 2024


def begin(app, port, n):
    """Open a session on `port`, the hello's first n bytes already read (app._peek):
    the sync endpoint (app.sync)."""
    # The sync screen first, so that the other screens' modules leave the heap, then
    # the endpoint, handed the bytes already read.
    app._back = app.screen
    app.sync_status = "connected"
    j = app.journal
    if j.open_sitting() is not None and (app.safe or (app.s is not None and app.s.over())):
        # A sitting played out goes to the PC with this sync; in safe mode, the
        # sitting that was not resumed, as it stands.
        if not app.safe:    # over: its END is there, unless an old firmware's
            j.end(app.clock(), app.utc_offset)
        j.finish()
    app.banner = None
    app.go(_SYNC)
    app.full = True
    app.render()
    app._drop_screens()
    gc.collect()
    from firmware.sync import SyncEndpoint
    from firmware.syncport import PrefixPort
    gc.collect()    # the endpoint's buffers want room in one piece
    # Keyboard interrupt stays off (app._link_port); a Ctrl-C in the session is the REPL
    # tools' (app.to_repl).
    return SyncEndpoint(
        PrefixPort(port, app._peek, n), j, app.device_id, A.FIRMWARE,
        clock=lambda unix, offset: set_clock(app, unix, offset),
        names=lambda kind, names: set_names(app, kind, names),
        settings=lambda pairs: set_settings(app, pairs),
        assign=lambda assign: set_assign(app, assign),
        now=app.now, kbd_intr=A._no_kbd, interrupt=app.to_repl)


def end(app):
    """The session is over: the endpoint out of the heap, the house options pushed by the
    PC checked and kept, the outcome's screen next (app.poll_link draws it)."""
    sync = app.sync
    served = sync.requests
    app.sync_status = "done, %d sent to the PC" % sync.acked if served else "idle"
    app.sync = sync = None
    app._unload_sync()
    gc.collect()
    if app._pending:
        refusal = update_setup(app, app._pending, None)
        app._pending = None
        if refusal:
            app.banner = "settings from the PC: " + refusal
    if served or app._back == _SYNC:
        app.go(_SYNC)       # the outcome stays on show until OK or BACK
    elif app.s is None:
        app.go(_SETUP)
    else:
        app.go(app._back)
    app.full = True


def set_clock(app, unix_seconds, utc_offset_minutes):
    """The PC's clock: kept as seconds since 2024, a small int on the ESP32 until 2058
    (app.clock()). None, or why it is refused."""
    from time import ticks_ms
    since = unix_seconds - _EPOCH
    if not 0 < since < 0x3FFFFFFF:
        return "the clock must be set to a time from 2024 to 2057"
    app._clock = since
    app._clock_at = ticks_ms()
    app.utc_offset = utc_offset_minutes
    if app.rtc is not None:
        app.rtc.set(unix_seconds, utc_offset_minutes)
    return None


def set_names(app, kind, names):
    """Players ("p"): for the sitting on the table (on screen) and every new one; teams
    ("t"): on screen. The names a sitting starts with are in its header on flash."""
    if kind == "t":
        if len(names) != 2:
            return "2 team names, not %d" % len(names)
        app.teams = (names[0][:8], names[1][:8])
        return None
    s = app.s
    if s is None or s.over():
        # A sitting played out keeps the names it was played by (its game over stays on
        # show); the names are the next sitting's.
        return update_setup(app, None, tuple(n[:12] for n in names))
    if len(names) != s.seats:
        return "%d player names for %d seats" % (len(names), s.seats)
    app.names = tuple(n[:12] for n in names)
    if s.row[_TEAMS]:
        app.teams = (A._pair(app.names, 0), A._pair(app.names, 1))
    return update_setup(app, None, app.names)


def set_settings(app, pairs):
    """House options for the next sitting set up (and the tracker switch). They are
    checked by the engine's option rules once the session is over (the checks and the
    endpoint do not fit in the heap together); a refusal is shown then."""
    for key, value in pairs:
        if key == "tracker":
            app.tracker = 1 if value in ("1", "true", "on", "yes") else 0
            app.save_settings()
        else:
            if app._pending is None:
                app._pending = {}
            # (a variant's name may be digits, "42"; nello_doubles is a list even
            # of one)
            app._pending[key] = (value if key == "variant" else value.split(",")
                                 if key == "nello_doubles" else _value(value))
    return None


def set_assign(app, assign):
    """The next sitting's table assignment (event, round, table), None to drop it; the
    players and the game come as names and settings. None, or why it is refused."""
    if assign is not None:
        event, rnd, table = assign
        if not 0 < rnd < 256 or not 0 < table < 256:
            return "round and table from 1 to 255"
        if not event or len(event.encode()) > 32:
            return "an event name of 1 to 32 bytes"
    return update_setup(app, None, None, assign)


def update_setup(app, changes, names, assign=0):
    """The next sitting's setup with `changes` (house options), `names` (players) and
    `assign` (a new table assignment, None for none; 0 keeps the one set up): None, or
    why the options are refused (then nothing changes)."""
    from engine_core import header     # unloaded with the session (app._unload_sync)
    if changes:
        from engine_core import options as O
        errors = (O.OptionError, ValueError)
    else:
        errors = ValueError
    try:
        if app.last_setup:
            rules, dealer, old = header.decode_header(app.last_setup)
        else:
            from engine_core.rules import Rules
            rules, dealer, old = Rules(0), 0, None     # plain 42
        if changes:
            variant = changes.pop("variant", rules.name)
            merged = rules.to_dict() if variant == rules.name else {}
            merged.update(changes)
            if "scoring" in changes and "target" not in changes:
                merged.pop("target", None)
            if merged.get("scoring") == "points":
                for key in O.SPECIAL:
                    merged.pop(key, None)
            rules = O.resolve(variant, merged)
        if names is None or len(names) != rules.row[_SEATS]:
            names = old
        if assign == 0:
            try:
                assign = header.header_assignment(app.last_setup) if app.last_setup else None
            except ValueError:
                assign = None
        app.last_setup = header.encode_header(rules, dealer, names, 0, 0, 0, assign)
        if app.screen != _SETUP:
            app.draft = None    # the setup screen starts again from what was pushed
    except errors as e:
        return str(e)
    finally:
        A.forget("engine_core.options")
    app.save_settings()
    return None


def _value(text):
    # A setting pushed from the PC as the log would write it: a number, true/false, a
    # list of names (comma-separated), or a word.
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    return text.split(",") if "," in text else text
