# The USB line's gate while no sync is open: only a complete hello request whose CRC
# checks (docs/sync-protocol.md) opens a session; every other byte is dropped, so that a
# terminal opened on the port, line noise or a floating RX pin changes nothing on the
# table. Another request whose CRC checks (the PC's, from a session that closed or from
# before a restart) gets error 2, "no session", so that the PC says hello again. Loaded
# by the link (firmware/link.py) when bytes arrive on the line, and unloaded once the
# gate has decided (firmware/transient.py: a phase).
#
# Keyboard interrupt is off while the scorer runs (the main loop sees the 0x03 bytes).
# A lone Ctrl-C is dropped; the REPL tools' way in is honoured: mpremote sends CR Ctrl-C,
# then at once CR Ctrl-A (raw REPL). Seeing CR Ctrl-C, the gate stops reading; if more
# bytes are waiting within CALL_MS, it answers REPL and leaves them to the REPL.
#
#   gate = HelloGate(bytearray(64))
#   what = gate.poll(port, ticks_ms())   # NONE, HELLO (gate.buf[:gate.n]) or REPL
from time import ticks_diff

from micropython import const

from firmware import transient

NONE = const(0)         # HelloGate.poll's answers
HELLO = const(1)
REPL = const(2)

CALL_MS = const(300)
_START = const(0x7E)    # "~" begins every request
_END = const(0x0A)
_HELLO = const(0x48)    # "H", the command letter after "~", session and sequence
_CMD_AT = const(7)
_MIN = const(18)        # "~", session, seq, command, "*", CRC, "\n"
_CR = const(0x0D)
_CTRL_C = const(3)
_E_NO_SESSION = const(2)    # the "e" reply's code (firmware/sync/endpoint.py E_NO_SESSION)


class HelloGate:
    """What on the line may open a session."""

    def __init__(self, buf):
        self.buf = buf          # the line so far; a hello fits (the host's is 21 bytes)
        self.n = 0              # bytes of a checked hello in buf, once poll said HELLO
        self._at = -1           # bytes of the line so far; -1: waiting for "~"
        self._prev = 0
        self._one = bytearray(1)
        self._called = False    # CR Ctrl-C seen
        self._called_at = 0
        self.dropped = 0        # bytes that opened nothing

    def busy(self):
        """True while a line or a REPL tool's call is partway (the gate must stay)."""
        return self._at >= 0 or self._called or self._prev == _CR

    def poll(self, port, now):
        if self._called:
            if port.pending():
                self._called = False
                return REPL
            if ticks_diff(now, self._called_at) < CALL_MS:
                return NONE
            self._called = False    # a lone Ctrl-C: ignored
        one = self._one
        while port.readinto(one):
            c = one[0]
            if c == _CTRL_C and self._prev == _CR:
                self._called = True
                self._called_at = now
                self._prev = 0
                self._at = -1
                return NONE
            self._prev = c
            if self._feed(c, port):
                return HELLO
        return NONE

    def _feed(self, c, port):
        buf = self.buf
        if c == _START:
            buf[0] = c
            self._at = 1
            return False
        at = self._at
        if at < 0:
            self.dropped += 1
            return False
        if at >= len(buf) or (c != _END and not 0x20 <= c <= 0x7E):
            self.dropped += at + 1
            self._at = -1
            return False
        buf[at] = c
        at += 1
        self._at = at
        if c != _END:
            return False
        self._at = -1
        if at >= _MIN and _checked(buf, at, None if buf[_CMD_AT] == _HELLO else port):
            if buf[_CMD_AT] == _HELLO:
                self.n = at
                return True
        self.dropped += at
        return False


def _checked(buf, n, port):
    # The request's own check (engine_core.wire), loaded for a whole candidate line and
    # unloaded again unless a sync follows (which uses it). A good request that is not a
    # hello (port given) is answered with error 2.
    from engine_core import wire
    r = wire.RequestReader()
    i = 0
    good = False
    while i < n:
        good = r.feed(buf[i]) == wire.GOOD
        i += 1
    if good and port is not None:
        msg = b"no session: send hello"
        tx = bytearray(wire.HEAD + 5 + len(msg) + wire.TAIL)
        tx[wire.HEAD] = _E_NO_SESSION       # the detail (u32) stays 0
        tx[wire.HEAD + 5:wire.HEAD + 5 + len(msg)] = msg
        port.write(tx[:wire.reply_into(tx, 0x65, r.seq, 5 + len(msg))])     # e
    if not good or port is not None:
        transient.release()     # the request's check
    return good
