# The sync protocol's framing, one implementation for the device (MicroPython) and the
# host (CPython): requests travel host -> device as printable ASCII lines, replies travel
# device -> host as binary frames. The format is in docs/sync-protocol.md.
#
# Request:  "~" SSSS QQ C args "*" CCCCCCCC "\n"
#   SSSS session (4 hex digits), QQ sequence number (2 hex digits), C the command letter,
#   args printable ASCII without "~" and "*", CCCCCCCC the CRC-32 of SSSS..args in hex.
#   Every byte is 0x20..0x7E or the final 0x0A: never 0x03 (Ctrl-C) nor any other REPL
#   control byte, so a request can cross the REPL's line while keyboard interrupt is on.
# Reply:    0xFE '1' kind seq len(2, little-endian) payload crc32(4, little-endian)
#   The CRC-32 covers kind, seq, len and payload. 0xFE never occurs in UTF-8 text, so a
#   reply is easy to find among whatever else the device prints.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
import binascii
import sys

from array import array

from engine_core.compat import const

VERSION = const(1)          # protocol major version: a change breaks old peers
MINOR = const(2)            # additions old peers can ignore

REQ_START = const(0x7E)     # "~"
_REQ_STAR = const(0x2A)     # "*"
_REQ_END = const(0x0A)      # "\n"
MAX_REQUEST = const(250)    # bytes of a request line, "~" to "\n"
_REQ_FIXED = const(18)      # "~", session, seq, command, "*", CRC, "\n"

SOF = const(0xFE)
SOF1 = const(0x31)          # "1": the major version, so an old host never misreads a reply
HEAD = const(6)             # SOF, SOF1, kind, seq, len
TAIL = const(4)             # CRC-32
OVERHEAD = const(10)
MAX_PAYLOAD = const(2048)

# Scanner states of RequestReader.feed
NONE = const(0)             # nothing complete yet
GOOD = const(1)             # a checked request: session, seq, cmd, args in buf[start:end]
BAD = const(2)              # a line that began with "~" but is not a request


def crc32(buf, start, end):
    """CRC-32 (zlib's) of buf[start:end] as one int: for the host and for tests. On a
    32-bit device most CRC-32 values are 2**30 or more, heap objects: the device's paths
    use crc32_halves, crc32_put and crc32_matches, which never make one."""
    crc32_halves(buf, start, end)
    return CRC[0] << 16 | CRC[1]


# The CRC-32 as two 16-bit halves, CRC[0] high and CRC[1] low, in an array made once.
CRC = array("H", (0, 0))
_table = None               # MicroPython: 256 low halves, then 256 high halves
_BINASCII = sys.implementation.name != "micropython"


def _make_table():
    # The reflected polynomial 0xEDB88320 a half at a time, so that no value reaches 2**30.
    t = array("H", bytes(1024))
    n = 0
    while n < 256:
        hi = 0
        lo = n
        k = 0
        while k < 8:
            if lo & 1:
                lo = (lo >> 1 | (hi & 1) << 15) ^ 0x8320
                hi = hi >> 1 ^ 0xEDB8
            else:
                lo = lo >> 1 | (hi & 1) << 15
                hi >>= 1
            k += 1
        t[n] = lo
        t[256 + n] = hi
        n += 1
    return t


def crc32_halves(buf, start, end):
    """CRC-32 of buf[start:end] into CRC (high half, low half); allocates nothing on
    MicroPython once the table is made (the first call makes it: 1 KB)."""
    global _table
    if _BINASCII:
        c = binascii.crc32(buf[start:end])
        CRC[0] = c >> 16
        CRC[1] = c & 0xFFFF
        return
    t = _table
    if t is None:
        t = _table = _make_table()
    hi = 0xFFFF
    lo = 0xFFFF
    i = start
    while i < end:
        k = (lo ^ buf[i]) & 0xFF
        lo = (lo >> 8 | (hi & 0xFF) << 8) ^ t[k]
        hi = hi >> 8 ^ t[256 + k]
        i += 1
    CRC[0] = hi ^ 0xFFFF
    CRC[1] = lo ^ 0xFFFF


def crc32_put(buf, pos, start, end):
    """Write the CRC-32 of buf[start:end] at buf[pos:pos + 4], little-endian."""
    crc32_halves(buf, start, end)
    put_u16(buf, pos, CRC[1])
    put_u16(buf, pos + 2, CRC[0])


def crc32_matches(buf, pos, start, end):
    """True when buf[pos:pos + 4] holds the CRC-32 of buf[start:end], little-endian."""
    crc32_halves(buf, start, end)
    return get_u16(buf, pos) == CRC[1] and get_u16(buf, pos + 2) == CRC[0]


# Little-endian integers in byte buffers ------------------------------------------------

def put_u16(buf, pos, v):
    buf[pos] = v & 0xFF
    buf[pos + 1] = (v >> 8) & 0xFF


def put_u24(buf, pos, v):
    buf[pos] = v & 0xFF
    buf[pos + 1] = (v >> 8) & 0xFF
    buf[pos + 2] = (v >> 16) & 0xFF


def put_u32(buf, pos, v):
    buf[pos] = v & 0xFF
    buf[pos + 1] = (v >> 8) & 0xFF
    buf[pos + 2] = (v >> 16) & 0xFF
    buf[pos + 3] = (v >> 24) & 0xFF


def get_u16(buf, pos):
    return buf[pos] | buf[pos + 1] << 8


def get_u24(buf, pos):
    return buf[pos] | buf[pos + 1] << 8 | buf[pos + 2] << 16


def get_u32(buf, pos):
    return buf[pos] | buf[pos + 1] << 8 | buf[pos + 2] << 16 | buf[pos + 3] << 24


# Replies (device -> host) ------------------------------------------------------------

def reply_into(buf, kind, seq, n):
    """Finish the reply whose n payload bytes are already at buf[HEAD:] (a memoryview of
    the buffer on the device): writes the head and the CRC; returns the frame's length
    (HEAD + n + TAIL)."""
    buf[0] = SOF
    buf[1] = SOF1
    buf[2] = kind
    buf[3] = seq
    put_u16(buf, 4, n)
    crc32_put(buf, HEAD + n, 2, HEAD + n)
    return HEAD + n + TAIL


def _is_kind(k):
    return 0x41 <= k <= 0x5A or 0x61 <= k <= 0x7A


def scan_reply(buf, start, end):
    """Find a reply frame in buf[start:end]. Returns (pos, total): a checked frame of
    total bytes at pos; or (pos, 0): nothing complete, and nothing before pos can begin a
    frame (so the bytes before pos may be dropped). A bad CRC or an impossible head is
    skipped, and a complete frame is found behind a false start that would need more
    bytes than have come."""
    keep = -1
    i = start
    while i < end:
        if buf[i] != SOF:
            i += 1
            continue
        if i + HEAD > end:
            if keep < 0:
                keep = i
            break
        n = get_u16(buf, i + 4)
        if buf[i + 1] != SOF1 or not _is_kind(buf[i + 2]) or n > MAX_PAYLOAD:
            i += 1
            continue
        total = HEAD + n + TAIL
        if i + total > end:
            if keep < 0:
                keep = i
            i += 1
            continue
        if crc32_matches(buf, i + HEAD + n, i + 2, i + HEAD + n):
            return i, total
        i += 1
    return (keep if keep >= 0 else end), 0


class ReplyReader:
    """The host's side: bytes in as they come (feed), checked replies out in order
    (next: (kind, seq, payload) or None). Bytes that are not a reply are dropped and
    counted in `dropped`."""

    def __init__(self):
        self.buf = bytearray()
        self.dropped = 0

    def feed(self, data):
        self.buf.extend(data)

    def next(self):
        buf = self.buf
        at, total = scan_reply(buf, 0, len(buf))
        self.dropped += at
        if not total:
            if at:
                self.buf = buf[at:]
            return None
        n = total - OVERHEAD
        frame = (chr(buf[at + 2]), buf[at + 3], bytes(buf[at + HEAD:at + HEAD + n]))
        self.buf = buf[at + total:]
        return frame


# Requests (host -> device) ------------------------------------------------------------

_HEX = b"0123456789ABCDEF"


def _hex_into(buf, pos, v, digits):
    i = digits - 1
    while i >= 0:
        buf[pos + i] = _HEX[v & 15]
        v >>= 4
        i -= 1


def _hex_at(buf, pos, digits):
    # The value of `digits` hex digits at buf[pos], or -1.
    v = 0
    i = 0
    while i < digits:
        c = buf[pos + i]
        if 0x30 <= c <= 0x39:
            d = c - 0x30
        elif 0x41 <= c <= 0x46:     # upper case only: one spelling of each value
            d = c - 0x37
        else:
            return -1
        v = v << 4 | d
        i += 1
    return v


def _arg_byte(c):
    return 0x20 <= c <= 0x7D and c != _REQ_STAR


def request(session, seq, cmd, args=b""):
    """The bytes of a request line (host side; allocates). ValueError if args hold a byte
    a request may not carry (use escape() for names and values)."""
    n = len(args)
    if _REQ_FIXED + n > MAX_REQUEST:
        raise ValueError("request too long")
    out = bytearray(_REQ_FIXED + n)
    out[0] = REQ_START
    _hex_into(out, 1, session & 0xFFFF, 4)
    _hex_into(out, 5, seq & 0xFF, 2)
    out[7] = ord(cmd) if isinstance(cmd, str) else cmd
    i = 0
    while i < n:
        c = args[i]
        if not _arg_byte(c):
            raise ValueError("byte 0x%02x cannot travel in a request" % c)
        out[8 + i] = c
        i += 1
    out[8 + n] = _REQ_STAR
    crc = crc32(out, 1, 8 + n)
    _hex_into(out, 9 + n, crc >> 16, 4)
    _hex_into(out, 13 + n, crc & 0xFFFF, 4)
    out[17 + n] = _REQ_END
    return bytes(out)


class RequestReader:
    """Finds request lines in a byte stream (device side), one byte at a time into one
    buffer made at start. "~" always begins a new line, so the reader resyncs after
    garbage; a line with a byte outside 0x20..0x7E, or too long, is dropped whole."""

    def __init__(self):
        self.buf = bytearray(MAX_REQUEST)
        self._n = -1            # bytes of the line so far; -1: waiting for "~"
        self.session = 0
        self.seq = 0
        self.cmd = 0
        self.start = 0          # the args are buf[start:end]
        self.end = 0

    def feed(self, c):
        """Take one byte: NONE, GOOD (a checked request is in the fields) or BAD."""
        if c == REQ_START:
            self.buf[0] = c
            self._n = 1
            return NONE
        n = self._n
        if n < 0:
            return NONE
        if c == _REQ_END:
            self._n = -1
            return GOOD if self._check(n) else BAD
        if c < 0x20 or c > 0x7E or n >= MAX_REQUEST - 1:
            self._n = -1
            return BAD
        self.buf[n] = c
        self._n = n + 1
        return NONE

    def _check(self, n):
        b = self.buf
        star = n - 9
        if star < 8 or b[star] != _REQ_STAR:
            return False
        i = 8
        while i < star:
            if not _arg_byte(b[i]):
                return False
            i += 1
        hi = _hex_at(b, star + 1, 4)
        lo = _hex_at(b, star + 5, 4)
        if hi < 0 or lo < 0:
            return False
        crc32_halves(b, 1, star)
        if CRC[0] != hi or CRC[1] != lo:
            return False
        session = _hex_at(b, 1, 4)
        seq = _hex_at(b, 5, 2)
        if session < 0 or seq < 0:
            return False
        self.session = session
        self.seq = seq
        self.cmd = b[7]
        self.start = 8
        self.end = star
        return True


# Arguments ---------------------------------------------------------------------------

def _plain(c):
    # Bytes that travel as themselves in an escaped argument.
    return 0x21 <= c <= 0x7D and c != _REQ_STAR and c != 0x25 and c != 0x3D


def escape(data):
    """An argument's bytes made safe for a request: anything but plain printable ASCII
    ("%", "=", "*", space, controls, non-ASCII) as %XX (host side; allocates)."""
    out = bytearray()
    for c in data:
        if _plain(c):
            out.append(c)
        else:
            out.append(0x25)
            out.append(_HEX[c >> 4])
            out.append(_HEX[c & 15])
    return bytes(out)


def unescape_into(src, start, end, out):
    """Decode the escaped argument src[start:end] into out; returns its length, or -1 if
    it is malformed or does not fit."""
    n = 0
    i = start
    while i < end:
        c = src[i]
        if c == 0x25:
            if i + 3 > end:
                return -1
            c = _hex_at(src, i + 1, 2)
            if c < 0:
                return -1
            i += 3
        elif _plain(c):
            i += 1
        else:
            return -1
        if n >= len(out):
            return -1
        out[n] = c
        n += 1
    return n


def token(buf, pos, end):
    """The end of the space-separated token that starts at or after pos: returns
    (start, stop), start == end when no token is left."""
    while pos < end and buf[pos] == 0x20:
        pos += 1
    stop = pos
    while stop < end and buf[stop] != 0x20:
        stop += 1
    return pos, stop


def number(buf, start, stop):
    """The decimal number buf[start:stop] (an optional leading "-"), or None."""
    neg = start < stop and buf[start] == 0x2D
    if neg:
        start += 1
    if start >= stop or stop - start > 10:
        return None
    v = 0
    while start < stop:
        c = buf[start]
        if c < 0x30 or c > 0x39:
            return None
        v = v * 10 + c - 0x30
        start += 1
    return -v if neg else v
