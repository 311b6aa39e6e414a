# Each scorer's own radio key, and the check of a scorer's frame under it (docs/radio.md).
# A scorer's key is derived from the event's key and its device id: the first 16 bytes of
# HMAC-SHA256 under the event's key over "T42 scorer " and the device id ("T42-" and the
# last 3 bytes of its radio address, firmware/start.py). The PC pushes it at the scorer's
# `sync --event` and derives it again for each frame (host_tools/events/radio.py); the
# base station, handed the event's key by the PC over its USB line, derives the same and
# drops a frame that fails it before it is queued (firmware/radio/base.py). A frame made
# under one scorer's key fails the tag and the MAC of every other's address: no scorer
# of the event passes for another.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.air import wire as W
from engine_core.compat import const

SOUND = const(0)
FOREIGN = const(1)          # not a scorer's kind, or its tag is not the scorer's
FORGED = const(2)           # the scorer's tag, a MAC that is not under its key
MOST = const(64)            # scorers' keys kept at once by Scorers
KEY_HEX = const(32)         # an event's key in hex, as the PC hands it to the base
_HEX = "0123456789ABCDEF"


def scorer_key(event_key, device_id):
    """A scorer's own 16-byte key from the event's key and its device id (str)."""
    d = device_id.encode()
    return W.Mac(event_key).digest(b"T42 scorer ", d, len(d))[:W.KEY_LEN]


def device_of(address):
    """A scorer's device id from its radio address: an ESP32's unique_id is its MAC, and
    firmware/start.py names the scorer after its last 3 bytes."""
    out = "T42-"
    for i in (3, 4, 5):
        out += _HEX[address[i] >> 4] + _HEX[address[i] & 15]
    return out


class Scorers:
    """`Scorers(event_key, most=MOST)`: each scorer's (tag, Mac) under its own key,
    derived from the event's key and the address its frames come from, kept for at most
    `most` addresses at once (None: all; a rogue radio's made-up addresses cannot fill a
    base station's heap)."""

    def __init__(self, event_key, most=MOST):
        self.key = bytes(event_key)
        self._most = most
        self._known = {}

    def of(self, address):
        """(tag, Mac) of the scorer whose radio address is `address` (6 bytes)."""
        address = bytes(address)
        got = self._known.get(address)
        if got is None:
            if self._most is not None and len(self._known) >= self._most:
                self._known.popitem()
            k = scorer_key(self.key, device_of(address))
            got = self._known[address] = (W.tag_of(k), W.Mac(k))
        return got

    def check(self, address, frame, n):
        """SOUND when frame[:n] is a scorer's data or confirm under the key of the scorer
        at `address`; FOREIGN when it is no scorer's frame or its tag is not that
        scorer's (another event's, another scorer's); FORGED when the tag is right and
        the MAC is not (altered, or made under another key in this scorer's name)."""
        if len(address) != 6 or n < W.HEAD + W.MAC_LEN or frame[0] not in (W.DATA,
                                                                         W.CONFIRM):
            return FOREIGN
        tag, mac = self.of(address)
        if bytes(frame[1:5]) != tag:
            return FOREIGN
        return SOUND if mac.sound(address, frame, n) else FORGED
