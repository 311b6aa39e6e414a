# The web board's program (boards/sim/web.py): what the page (web/tally42.js) calls.
#
#   boot(flash, settings, width, height, utc_offset)   the board and the scorer, as
#           firmware/start.py run() opens them, the first screen drawn
#   step()   one round of the firmware's own main loop (firmware/loop.py Loop.step),
#           called from the page's timer; returns the frames shown so far
#   press(code)   a button (firmware/codes.py, LONG or-ed in), queued for the loop
# A fault stops the rounds: firmware/start.py crash() draws it on the panel, as on a
# device, and the page offers a restart (a reload: the journal resumes).
import gc

from boards.sim.web import HEIGHT, WIDTH, Board

_POLL_MS = 10       # firmware/loop.py's: the page calls step() this often

_board = None
_loop = None
_fault = None


def boot(flash_path, settings_path, width=WIDTH, height=HEIGHT, utc_offset_minutes=0):
    global _board, _loop, _fault
    from firmware import app as A
    from firmware.loop import Loop
    from firmware.power import Power
    _board = board = Board(flash_path, settings_path, width, height, utc_offset_minutes)
    _fault = None
    try:
        app = A.App(board.display, board.flash, settings_path, None, board.device_id,
                    board.rtc)
        app.boot(False)
        app.render()
        _loop = Loop(board, app, Power(board, _POLL_MS))
        _loop.power.touch(board.ticks_ms())
    except Exception as e:
        _stop(e)
    gc.collect()
    return board.display.frames


def _stop(e):
    global _loop, _fault
    from firmware import start
    _loop = None
    _fault = "%s: %s" % (type(e).__name__, e)
    gc.collect()
    start.crash(_board.display, e)


def step():
    """One round of the main loop: the frames shown so far (the page draws a new one)."""
    loop = _loop
    if loop is not None:
        try:
            loop.step()
        except Exception as e:
            _stop(e)
    return _board.display.frames


def press(code):
    """Queue a button for the loop: False when the queue is full or it is no button."""
    return _board.buttons.push(code)


def waiting():
    """Presses queued that the loop has not taken yet."""
    return _board.buttons.waiting()


def flash_writes():
    """Programs and erases of the journal so far: the page saves it when this moves."""
    return _board.flash.writes


def fault():
    """What stopped the firmware, or None while it runs."""
    return _fault


def frame_address():
    return _board.display.frame_address()


def frame_size():
    return _board.display.frame_size()


def size():
    d = _board.display
    return "%d %d" % (d.width, d.height)


def screen():
    """The screen on show: its name, then the words on it, one text a line."""
    d = _board.display
    return d.name + "\n" + d.screen_text()


def device_id():
    return _board.device_id


def heap_used():
    gc.collect()
    return gc.mem_alloc()
