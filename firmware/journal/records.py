# The flash journal's record format (docs/journal.md): the tags, the check value each
# record of a format-2 block carries, and Walk, a position among the sittings. Shared by
# the Journal (firmware/journal/writer.py) and JournalReader; loaded with the Journal.
from engine_core.compat import const

# Record tags: the 4-of-8 constant-weight codes (exactly four bits programmed). A torn
# program of a tag clears only some of its four bits, which is never a valid tag, and
# 0xFF (erased) is never one either. The six in use are >= 4 bit flips apart.
T_EV1 = const(0x96)
T_EV2 = const(0x69)
T_EV3 = const(0xA5)
T_EV4 = const(0x5A)
T_END = const(0x3C)
T_BEGIN = const(0xC3)
TAGS = b"\x96\x69\xa5\x5a\x3c\xc3"
# A record's kind is its payload length (events 1..4, END 5: the records that follow a
# BEGIN in its sitting), or K_BEGIN.
K_END = const(5)
K_BEGIN = const(6)
# A BEGIN record: tag, flags, sitting id (3 bytes), header length, then the header (and,
# in a format-2 block, the check byte).
BEGIN_FIXED = const(6)
MAX_HEADER = const(255)

# Flag bits of a BEGIN record as Walk.flags gives them (whatever the block's format),
# cleared when finished, synced.
F_FINISHED = const(0x01)
F_SYNCED = const(0x02)

# CRC-8 (polynomial 0x07, as SMBus's PEC) four bits at a time: 16 bytes of table, small-int
# arithmetic only, so the check of a record allocates nothing, on any port. (binascii.crc32
# would return an int of 2**30 or more, which allocates on a 32-bit port.)
CRC4 = b"\x00\x07\x0e\x09\x1c\x1b\x12\x15\x38\x3f\x36\x31\x24\x23\x2a\x2d"


def crc8(crc, b):
    """The CRC-8 `crc` carried on over the byte b."""
    crc ^= b
    crc = ((crc << 4) & 0xFF) ^ CRC4[crc >> 4]
    return ((crc << 4) & 0xFF) ^ CRC4[crc >> 4]


def kind(t):
    """Payload length of an event or END tag, K_BEGIN for a sitting's BEGIN, 0 if not a tag."""
    if t == T_EV1:
        return 1
    if t == T_EV2:
        return 2
    if t == T_EV3:
        return 3
    if t == T_EV4:
        return 4
    if t == T_END:
        return K_END
    if t == T_BEGIN:
        return K_BEGIN
    return 0


class Walk:
    """A position among the journal's sittings, oldest first, for Journal.walk,
    walk_next and find (reusable): the fields describe the sitting last stepped onto.
    A damaged sitting (a record of it fails its check, or its BEGIN is lost: then pos is
    -1 and length 0) is stepped onto like the others, with damaged True."""

    def __init__(self, checked=True):
        self.checked = checked  # False: each event's check is skipped (a count, a lookup;
                                # damage then shows only where a tag or a BEGIN is hit)
        self.sid = 0
        self.flags = 0xFF       # bits cleared when finished, synced (F_FINISHED, F_SYNCED)
        self.pos = 0            # block * block_size + offset of its BEGIN record
        self.length = 0         # byte length of its stream (JournalReader.read)
        self.damaged = False
        self._blk = -1          # where the search for the next BEGIN goes on
        self._off = 0
        self._want = 0          # the id the next sitting should have

    @property
    def finished(self):
        return self.flags & F_FINISHED == 0

    @property
    def synced(self):
        return self.flags & F_SYNCED == 0

    def reset(self):
        """Forget the position: the next find searches from the sitting's block (after
        the journal changed)."""
        self._blk = -1
