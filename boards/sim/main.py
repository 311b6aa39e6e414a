# The sim program: `tally42 sim` runs the sim board (boards/sim/board.py) with this module's
# main, its buttons read from stdin and its USB line a pseudo-terminal. The board's own
# hardware is in boards/sim/board.py; what only the program needs is here, so that a board
# built by a test or a probe carries none of it.
import sys

from boards.sim.board import Board

QUIT = -1               # Keys.poll(): the PC side asks the program to stop

class Keys:
    """The buttons: one code a byte from a stream (stdin), 0 while none has come."""

    def __init__(self, stream, wait_ms=20):
        import select
        self._in = stream
        self._poll = select.poll()
        self._poll.register(stream, select.POLLIN)
        self._one = bytearray(1)
        self._wait = wait_ms

    def poll(self, now_ms):
        if not self._poll.poll(self._wait):
            return 0
        if not self._in.readinto(self._one):
            return QUIT             # the PC side has gone
        b = self._one[0]
        return QUIT if b == 0xFF else b


class SimSerial:
    """The firmware's end of the sim's USB serial line: a pseudo-terminal, opened raw
    (reads return what has arrived) when first used. `name` is the PC's end."""

    def __init__(self, path, name):
        self.path = path
        self.name = name
        self._f = None

    def open(self):
        if self._f is None:
            import termios
            self._f = open(self.path, "r+b")
            fd = self._f.fileno()
            termios.setraw(fd)
            attr = termios.tcgetattr(fd)
            attr[6][6] = 0      # VMIN
            attr[6][5] = 0      # VTIME
            termios.tcsetattr(fd, termios.TCSANOW, attr)
        return self._f

    @property
    def rx(self):
        return self.open()

    @property
    def tx(self):
        return self.open()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None


def radio(air, uid):
    """The board's `radio` (`tally42 sim --radio`, `--base`): () -> (WLAN, ESPNow) on the
    air `air` (boards/sim/radio.py Air.parse). The fake's module is loaded only when the
    radio is first turned on and is kept out of sys.modules, so that, as the chip's
    built-in espnow, it costs the heap nothing until then."""
    def make():
        from boards.sim import radio as simradio
        got = simradio.maker(air, uid)()
        sys.modules.pop("boards.sim.radio", None)
        delattr(sys.modules["boards.sim"], "radio")
        return got
    return make


def main(argv):
    """`micropython simmain.py FLASH WIDTH HEIGHT [SERIAL LINK] [id=HEX] [radio=AIR [base]]`,
    as tally42 sim runs it: frames to stdout, buttons from stdin, errors to stderr (exit
    status 1). id=HEX: the chip id the fake chip's machine module gives (boards/sim/chip/:
    the scorer is then T42-HEX). radio=AIR: ESP-NOW on the air AIR (boards/sim/radio.py); with `base`, the
    base station (firmware/radio/base.py) instead of the scorer."""
    base = bool(argv) and argv[-1] == "base"
    if base:
        argv = argv[:-1]
    air = None
    if argv and argv[-1].startswith("radio="):
        air = argv[-1][6:]
        argv = argv[:-1]
    uid = b"SIM"
    if argv and argv[-1].startswith("id="):
        import binascii
        uid = binascii.unhexlify(argv[-1][3:])
        from boards.sim.chip.machine import FakeMachine
        sys.modules["machine"] = FakeMachine(uid)     # the fake chip's, its id uid
        argv = argv[:-1]
    serial = SimSerial(argv[4], argv[3]) if len(argv) > 4 else None
    board = Board(argv[0], int(argv[1]), int(argv[2]), sys.stdout.buffer,
                  Keys(sys.stdin.buffer, 0 if base else 20), serial, record=True,
                  radio=radio(air, uid) if air else None)
    try:
        if base:
            from firmware.radio import base as B
            B.run(board)
        else:
            from firmware import start
            start.run(board)
    finally:
        board.close()
