# The sitting header, made and read once a sitting: kept out of codec.py (the events,
# always in the device's heap) so that the device loads it only then, and unloads it.
FOR_A_WHILE = 1     # on the device, unloaded once nothing refers to it (firmware/transient.py)
from engine_core.compat import const

# The sitting header: the variant, every option resolved, the first dealer, optionally
# the players' names and (version 2) the sitting's stamp: a random id (30 bits, so that
# sittings of a re-formatted journal never take an old one's name), its start on the
# scorer's clock (seconds since 2024-01-01T00:00Z, 0 when the clock was not set: a
# small int for 34 years) and the clock's UTC offset in quarter hours. Byte 0 is the
# format version; version 1 (no stamp) is still read. A gin pad's header has the same
# frame: byte 1 is _GIN_VARIANT0 + its variant (the rest is gin/header.py's, loaded only
# for a gin pad, so that a 42 sitting's boot interns none of its option names).
_HEADER_VERSION = const(2)
_HEADER_EVENT = const(3)        # version 3: version 2 and the table assignment after it
_HEADER_FIXED = const(15)
_STAMP = const(9)
_NAME_MAX = const(32)           # bytes of one name
_GIN_VARIANT0 = const(0x40)     # header byte 1 of a gin pad: 0x40 + its variant
_NELLO_MIN = const(42)          # nello_min's default: byte 7 keeps the difference (6 bits)


def _name_bytes(name):
    # At most _NAME_MAX bytes, cut between characters.
    b = name.encode("utf-8")
    while len(b) > _NAME_MAX:
        name = name[:-1]
        b = name.encode("utf-8")
    return b


def encode_header(rules, dealer, names=None, uid=0, started=0, offset=0, assign=None):
    """The header bytes of a sitting (allocates: once per sitting). uid: the sitting's
    random id (< 2**30, 0 for none); started: seconds since 2024 (0: unknown); offset:
    the clock's UTC offset in minutes; assign: the table assignment pushed from the PC,
    (event name, round, table) (version 3: round and table bytes, the name as a
    length byte and at most 32 bytes of UTF-8), or None."""
    if rules.family:
        from engine_core.gin import header as ginheader
        vals = ginheader.encode(rules, dealer, _HEADER_VERSION, _GIN_VARIANT0 + rules.variant)
    else:
        flags = rules.nello | rules.sevens << 1 | rules.plunge << 2 | rules.splash << 3
        order = len(rules.nello_order)
        for i, mode in enumerate(rules.nello_order):
            order |= mode << (2 + 2 * i)
        # Bytes 6 and 7 carry the later options in the bits above all_pass and
        # made_scores, 0 for their defaults (so a header written before reads the same).
        vals = (_HEADER_VERSION, rules.variant, rules.scoring, rules.target & 0xFF,
                rules.target >> 8, rules.min_bid,
                rules.all_pass | rules.nello_by << 1 | (rules.forced_min - rules.min_bid) << 2,
                rules.made_scores | ((rules.nello_min - _NELLO_MIN) & 0x3F) << 1, flags,
                order, rules.plunge_marks, rules.splash_marks, rules.match_games, dealer, 0)
    out = bytearray(_HEADER_FIXED)
    for i in range(_HEADER_FIXED):
        out[i] = vals[i]
    if names:
        out[14] = len(names)
        for name in names:
            b = _name_bytes(name)
            out.append(len(b))
            out.extend(b)
    for v in (uid, started):
        for i in range(4):
            out.append(v >> (8 * i) & 0xFF)
    out.append((offset // 15) & 0xFF)
    if assign:
        out[0] = _HEADER_EVENT
        out.append(assign[1] & 0xFF)
        out.append(assign[2] & 0xFF)
        b = _name_bytes(assign[0])
        out.append(len(b))
        out.extend(b)
    return bytes(out)


def header_assignment(buf):
    """(event name, round, table) of a version 3 header, else None; ValueError if torn."""
    if len(buf) < _HEADER_FIXED or buf[0] != _HEADER_EVENT:
        return None
    _, pos = _names_at(buf)
    pos += _STAMP
    if pos + 3 > len(buf) or pos + 3 + buf[pos + 2] > len(buf):
        raise ValueError("torn table assignment in a sitting header")
    name = bytes(buf[pos + 3:pos + 3 + buf[pos + 2]]).decode("utf-8")
    return name, buf[pos], buf[pos + 1]


def _names_at(buf):
    # (names or None, the position after them) of a header; ValueError if torn.
    names = None
    pos = _HEADER_FIXED
    if buf[14]:
        names = []
        for _ in range(buf[14]):
            if pos >= len(buf) or pos + 1 + buf[pos] > len(buf):
                raise ValueError("torn names in a sitting header")
            n = buf[pos]
            names.append(bytes(buf[pos + 1:pos + 1 + n]).decode("utf-8"))
            pos += 1 + n
    if buf[0] > 1 and pos + _STAMP > len(buf):
        raise ValueError("torn stamp in a sitting header")
    return names, pos


def header_stamp(buf):
    """(uid, started, offset minutes) of a version 2 header, None for version 1; started
    is seconds since 2024-01-01T00:00Z (0: unknown), uid 0 when the sitting has none."""
    if buf[0] < 2:
        return None
    _, pos = _names_at(buf)
    uid = buf[pos] | buf[pos + 1] << 8 | buf[pos + 2] << 16 | buf[pos + 3] << 24
    started = buf[pos + 4] | buf[pos + 5] << 8 | buf[pos + 6] << 16 | buf[pos + 7] << 24
    q = buf[pos + 8]
    return uid, started, (q - 256 if q > 127 else q) * 15


def decode_header(buf):
    """(rules, dealer, names or None) from header bytes; ValueError if they are not one."""
    from engine_core.texas42.rules import TABLE
    if len(buf) < _HEADER_FIXED or not 1 <= buf[0] <= _HEADER_EVENT:
        raise ValueError("not a sitting header")
    if buf[1] >= _GIN_VARIANT0:
        from engine_core.gin import header as ginheader
        rules = ginheader.decode(buf, buf[1] - _GIN_VARIANT0)
    elif buf[1] >= len(TABLE):
        raise ValueError("not a sitting header")
    else:
        rules = _rules(buf)
    names, _ = _names_at(buf)
    return rules, buf[13], names


def _rules(buf):
    from engine_core.texas42.rules import Rules
    from engine_core.texas42.variants import MARK
    rules = Rules(buf[1])
    rules.scoring = buf[2]
    rules.target = buf[3] | buf[4] << 8
    rules.min_bid = buf[5]
    rules.all_pass = buf[6] & 1
    rules.nello_by = buf[6] >> 1 & 1
    rules.forced_min = rules.min_bid + (buf[6] >> 2)
    rules.made_scores = buf[7] & 1
    d = buf[7] >> 1 & 0x3F
    rules.nello_min = _NELLO_MIN + (d - 64 if d > 42 else d)
    if buf[7] >> 7 or not 30 <= rules.nello_min <= 84 or (
            buf[6] >> 2 and rules.forced_min >= rules.row[MARK]):
        raise ValueError("not a sitting header")
    flags = buf[8]
    rules.nello = flags & 1
    rules.sevens = flags >> 1 & 1
    rules.plunge = flags >> 2 & 1
    rules.splash = flags >> 3 & 1
    order = []
    mask = 0
    for i in range(buf[9] & 3):
        mode = buf[9] >> (2 + 2 * i) & 3
        if mode > 2:
            raise ValueError("not a sitting header")
        order.append(mode)
        mask |= 1 << mode
    if not order:
        raise ValueError("not a sitting header")
    rules.nello_order = tuple(order)
    rules.nello_doubles = mask
    rules.plunge_marks = buf[10]
    rules.splash_marks = buf[11]
    rules.match_games = buf[12]
    return rules
