# The radio's frames (docs/radio.md), made and checked by the scorer and by the PC; the
# base station checks the scorers' frames too (engine_core/air/keys.py). Each is at most
# 250 bytes, an ESP-NOW message (ESP_NOW_MAX_DATA_LEN), and ends in a MAC: the first 8
# bytes of HMAC-SHA256 under the scorer's own key (keys.scorer_key) over the radio
# address of the scorer and the frame before the MAC, so a frame from another event, a
# forged one or one moved to another scorer fails it.
#
#   data (scorer -> PC)  "D" tag(4) sitting(3) offset(3) flags(1) records... mac(8)
#   ack  (PC -> scorer)  "A" tag(4) sitting(3) held(3) flags(1) mac(8)
#   next (PC -> scorer)  "N" tag(4) sitting(3) table(1) round(1) 0(1) flags(1)
#                        event(1+n) names(1+n each) mac(8)
#   confirm (scorer -> PC) "K" tag(4) sitting(3) table(1) round(1) 0(1) flags(1) mac(8)
#
# tag: the event key's id (the first 4 bytes of SHA-256 over "T42 radio" and the key).
# sitting: the journal's sitting number. offset: the sequence number, the place in the
# sitting's stream (firmware/journal: a length byte before the header and before each
# record) where the frame's bytes begin; a resend after a reboot carries the same
# numbers for the same bytes. flags (data): 1 the sitting is finished on the scorer.
# held (ack): the stream bytes the PC holds from 0; flags (ack): 1 all of a finished
# sitting is held, 2 refused (another scorer keeps this table): send it no more, 4 what
# the PC holds is a game over (the scorer asks for its next table), 8 the answer to a
# confirm: the PC heard it (the scorer stops sending it).
# next: the table the scorer plays after its sitting `sitting`, a game over (with the
# acknowledge, and the PC's answer to a data frame of that sitting with no records, the
# scorer's ask); table 0 is
# "wait for round `round`", round 0 too "no more tables tonight". The event's name and
# the players by seat (N, E, S, W) follow, each a length byte and UTF-8. confirm: the
# scorer took that next table (the PC stops resending it).
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
import hashlib

from engine_core.compat import const

DATA = const(0x44)          # "D"
ACK = const(0x41)           # "A"
NEXT = const(0x4E)          # "N"
CONFIRM = const(0x4B)       # "K"
HEAD = const(12)            # kind, tag, sitting, offset or held, flags
MAC_LEN = const(8)
MAX_FRAME = const(250)      # ESP_NOW_MAX_DATA_LEN
MAX_RECORDS = const(230)    # MAX_FRAME - HEAD - MAC_LEN
ACK_LEN = const(20)
KEY_LEN = const(16)
MAX_NEXT = const(110)       # a next frame, so that the PC's request to the base holds it
F_FINISHED = const(1)
F_HELD = const(1)
F_REFUSED = const(2)
F_OVER = const(4)           # ack: what the PC holds is a game over: ask for the next table
F_TAKEN = const(8)          # ack: the PC heard the scorer's confirm of its next table
_BLOCK = const(64)          # SHA-256's block


def tag_of(key):
    """The 4-byte id of an event key: frames name their event by it."""
    return hashlib.sha256(b"T42 radio" + bytes(key)).digest()[:4]


class Mac:
    """`Mac(key)`: the MAC of frames under one key, its pads made once. HMAC-SHA256
    (RFC 2104), its first MAC_LEN bytes, over the scorer's radio address `peer` (the
    sender's, or the acknowledge's addressee) and the frame."""

    def __init__(self, key):
        k = bytearray(_BLOCK)
        k[:len(key)] = key
        self._in = bytearray(_BLOCK)
        self._out = bytearray(_BLOCK)
        for i in range(_BLOCK):
            self._in[i] = k[i] ^ 0x36
            self._out[i] = k[i] ^ 0x5C

    def digest(self, peer, buf, n):
        """The whole HMAC (32 bytes) over `peer` and buf[:n]."""
        inner = hashlib.sha256(self._in)
        inner.update(peer)
        inner.update(memoryview(buf)[:n])
        outer = hashlib.sha256(self._out)
        outer.update(inner.digest())
        return outer.digest()

    def of(self, peer, buf, n):
        return self.digest(peer, buf, n)[:MAC_LEN]

    def seal(self, peer, buf, n):
        """Put the MAC after the frame's n bytes: the frame's whole length."""
        buf[n:n + MAC_LEN] = self.of(peer, buf, n)
        return n + MAC_LEN

    def sound(self, peer, buf, n):
        """True when the frame buf[:n] carries the right MAC for `peer`."""
        if n < HEAD + MAC_LEN:
            return False
        want = self.of(peer, buf, n - MAC_LEN)
        same = 0
        for i in range(MAC_LEN):
            same |= want[i] ^ buf[n - MAC_LEN + i]
        return same == 0


def mac(key, peer, buf, n):
    """The MAC of frame bytes buf[:n] under key (Mac(key).of)."""
    return Mac(key).of(peer, buf, n)


def put_head(buf, kind, tag, sitting, offset, flags):
    buf[0] = kind
    buf[1:5] = tag
    put_u24(buf, 5, sitting)
    put_u24(buf, 8, offset)
    buf[11] = flags


def seal(key, peer, buf, n):
    """Mac(key).seal, for a frame now and then (the PC, the tests)."""
    return Mac(key).seal(peer, buf, n)


def sound(key, peer, buf, n):
    """Mac(key).sound, for a frame now and then."""
    return Mac(key).sound(peer, buf, n)


def put_next(buf, tag, sitting, rnd, table, event, names):
    """A next frame's bytes before its MAC, into buf: their count. `event` and `names`
    are bytes (UTF-8); ValueError when they do not fit a frame."""
    put_head(buf, NEXT, tag, sitting, table | rnd << 8, 0)
    p = HEAD
    for s in (event,) + tuple(names):
        if len(s) > 63 or p + 1 + len(s) > MAX_NEXT - MAC_LEN:
            raise ValueError("a next table too long for a frame")
        buf[p] = len(s)
        buf[p + 1:p + 1 + len(s)] = s
        p += 1 + len(s)
    return p


def next_parts(msg, n):
    """A sound next frame's (sitting, round, table, event, [names]) (bytes), None when
    its fields run past its n bytes (less its MAC)."""
    end = n - MAC_LEN
    p = HEAD
    out = []
    while p < end:
        k = msg[p]
        if p + 1 + k > end:
            return None
        out.append(bytes(msg[p + 1:p + 1 + k]))
        p += 1 + k
    if not out:
        return None
    return get_u24(msg, 5), msg[9], msg[8], out[0], out[1:]


def put_u24(buf, pos, v):
    buf[pos] = v & 0xFF
    buf[pos + 1] = (v >> 8) & 0xFF
    buf[pos + 2] = (v >> 16) & 0xFF


def get_u24(buf, pos):
    return buf[pos] | buf[pos + 1] << 8 | buf[pos + 2] << 16
