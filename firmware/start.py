# Boot that always ends on a usable screen. main.py on a device (written by tally42
# deploy) is
#
#     from firmware import start
#     start.main("esp32_epd29")
#
# and all that follows runs inside the crash handler: opening the board, loading the
# firmware, mounting and resuming the journal, the main loop. A fault is drawn on the
# panel with what to do; the board restarts on a press, or after CRASH_SLEEP_MS
# deep-sleeps (a press boots it again) rather than spin on a battery.
#
# Safe mode: a button held at power-on (not the press that wakes a sleeping board) for
# SAFE_MS, longer than the press that switches a CoreInk on. It is looked for before any
# screen's module loads, so that it gets past a broken one. The open sitting is not
# resumed and the sync screen waits for the PC (and only the PC), so that any journal,
# even one this code cannot resume, still reaches the PC.
#
# A board that hung restarts (the watchdog, boards/device.py) and says so; a battery
# below its floor ends on a last screen and deep sleep (firmware/battery.py).
import gc
from micropython import const

from firmware.codes import LINE, WHITE

CRASH_SLEEP_MS = const(60000)
_RETRY_MS = const(600000)    # a board that did not open tries again after this deep sleep
SAFE_MS = const(2000)
_SAMPLE_MS = const(20)


def main(board_name, sleep_ms=None):
    """Open the board `boards.<board_name>` and run the scorer on it. A board that did
    not open: a minute in which Ctrl-C reaches the REPL (to deploy again), then a deep
    sleep until it tries again, rather than stay awake."""
    try:
        wiring = __import__("boards." + board_name, None, None, ("open",))
        board = wiring.open()
    except Exception as e:  # no panel to draw on: the REPL says what failed
        import sys
        print("Tally 42: the %s board did not open (wiring or firmware):" % board_name)
        sys.print_exception(e)
        try:
            from machine import deepsleep
        except ImportError:     # the sim (no deep sleep): the terminal has the message
            return None
        if sleep_ms is None:
            from time import sleep_ms
        sleep_ms(CRASH_SLEEP_MS)
        deepsleep(_RETRY_MS)
        return None
    return run(board)


def run(board):
    """Boot, then the main loop until the board says stop; a fault goes to the panel."""
    app = None
    try:
        safe = safe_mode(board)
        if getattr(board, "battery", None) is not None:
            from firmware import battery
            battery.at_boot(board)
        from firmware import app as A
        from firmware import loop
        from firmware.journal import JournalError
        if board.flash is None:
            raise JournalError("no journal partition: deploy with tally42 deploy --partition")
        app = A.App(board.display, board.flash, getattr(board, "settings_path", None),
                    getattr(board, "serial", None), getattr(board, "device_id", None)
                    or device_id(), getattr(board, "rtc", None))
        app.boot(safe)
        app.board = board
        if not safe:
            first_boot(app, board)
        hung = getattr(board, "hung", None)
        if hung is not None and hung():
            app.banner = "restarted after a hang: every hand is saved"
        if not safe and getattr(board, "radio", None) is not None:
            app.air = board
            app.switch_radio(True)      # its code only for a scorer in an event
        app.render()
        return loop.run(board, app)
    except Exception as e:  # a bug or a hardware fault: say so on the panel
        if app is not None:
            app.link.close()    # room to draw the fault
        app = None
        gc.collect()
        crash(board.display, e)
        if getattr(board, "restart", None) is None:
            raise       # the sim: the fault to the terminal
        after_crash(board)


def first_boot(app, board):
    """A device board's first boot (no settings file, no sitting on the journal): the
    self-test (firmware/ui/selftest.py, which writes the settings) rather than the
    setup."""
    from firmware.codes import SETUP
    path = app.scorer.settings_path
    if app.screen != SETUP or not path or not getattr(board, "self_test_first", False):
        return
    import os
    try:
        os.stat(path)
        return
    except OSError:
        pass
    from firmware.journal import Walk
    j = app.scorer.journal
    w = Walk(False)
    j.walk(w)
    if not j.walk_next(w):
        app.go("selftest")


def device_id():
    """This scorer's id for the PC: from the chip's unique id, "T42-SIM" on the sim."""
    try:
        import machine
        uid = machine.unique_id()
    except (ImportError, AttributeError):
        return "T42-SIM"
    out = "T42-"
    for b in uid[-3:]:
        out += "%02X" % b
    return out


def safe_mode(board):
    """A button held at power-on for SAFE_MS; never on a wake from deep sleep, whose
    press is still held."""
    held = getattr(board.buttons, "held", None)
    woke = getattr(board, "woke", None)
    if held is None or (woke is not None and woke()):
        return False
    t = 0
    while held():
        if t >= SAFE_MS:
            return True
        board.sleep_ms(_SAMPLE_MS)
        t += _SAMPLE_MS
    return False


def after_crash(board):
    """Wait for a press to restart; after CRASH_SLEEP_MS without one, deep sleep."""
    from time import ticks_diff
    feed = getattr(board, "feed", None)     # the watchdog
    t0 = board.ticks_ms()
    while ticks_diff(board.ticks_ms(), t0) < CRASH_SLEEP_MS:
        if feed is not None:
            feed()
        try:
            key = board.buttons.poll(board.ticks_ms())
        except Exception:   # the buttons may be what failed
            key = 0
        if key:
            board.restart()
            return
        board.sleep_ms(_SAMPLE_MS)
    deep = getattr(board, "deep_sleep", None)
    if deep is not None:
        deep()


def crash(fb, e):
    """Draw a fault on the panel (with a full refresh): what failed, that the saved hands
    are safe, and how to reach safe mode."""
    import sys
    sys.print_exception(e, sys.stderr)  # the REPL's (on the sim: the terminal's) record
    try:
        from firmware.ui import draw
        fb.fill(WHITE)
        draw.center(fb, "Tally 42 stopped", 2, 2)
        msg = "%s: %s" % (type(e).__name__, e)
        n = draw.cols(fb)
        y = 24
        lines = draw.wrap(msg, n)[:5]
        if "safe mode" not in msg:
            lines += draw.wrap("safe mode: hold a button at power-on", n)
        for line in lines:
            fb.text(line, 0, y, 0)
            y += LINE
        draw.help(fb, "every hand is saved: press to restart")
        fb.show(True)
    except Exception:  # the panel itself failed: nothing more to show
        pass

