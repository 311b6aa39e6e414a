# Property tests of the sync framing (engine_core/wire.py): replies and requests round
# trip, any single-bit flip, burst of up to 32 bits or truncation is caught, and a reader
# finds every frame again after garbage, whatever the chunks the bytes arrive in.
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine_core import wire

KINDS = st.sampled_from("adehklDLHZ")
PAYLOAD = st.binary(max_size=600)
ARG_BYTES = bytes(c for c in range(0x20, 0x7E) if c != 0x2A)


def _reply(kind, seq, payload):
    buf = bytearray(wire.HEAD + len(payload) + wire.TAIL)
    buf[wire.HEAD:wire.HEAD + len(payload)] = payload
    total = wire.reply_into(buf, ord(kind), seq, len(payload))
    assert total == len(buf)
    return bytes(buf)


def _has_frame(data):
    return wire.scan_reply(data, 0, len(data))[1] != 0


def _read_all(reader):
    out = []
    while True:
        f = reader.next()
        if f is None:
            return out
        out.append(f)


# Replies (device -> host) ---------------------------------------------------------------


@given(KINDS, st.integers(0, 255), PAYLOAD)
def test_reply_round_trip(kind, seq, payload):
    frame = _reply(kind, seq, payload)
    assert frame[:2] == b"\xfe1" and len(frame) == len(payload) + wire.OVERHEAD
    assert wire.scan_reply(frame, 0, len(frame)) == (0, len(frame))
    r = wire.ReplyReader()
    r.feed(frame)
    assert _read_all(r) == [(kind, seq, payload)] and r.dropped == 0


@given(KINDS, st.integers(0, 255), PAYLOAD, st.data())
def test_any_bit_flip_in_a_reply_is_caught(kind, seq, payload, data):
    frame = bytearray(_reply(kind, seq, payload))
    i = data.draw(st.integers(0, len(frame) - 1))
    frame[i] ^= 1 << data.draw(st.integers(0, 7))
    at, total = wire.scan_reply(frame, 0, len(frame))
    # Whatever it finds, it is not the damaged frame read as a good one.
    assert not (at == 0 and total)
    if total:   # only a frame that was already whole inside the payload
        assert bytes(frame[at:at + total]) in payload


@given(KINDS, st.integers(0, 255), PAYLOAD, st.data())
def test_any_burst_of_up_to_32_bits_in_a_reply_is_caught(kind, seq, payload, data):
    frame = bytearray(_reply(kind, seq, payload))
    start = data.draw(st.integers(2, len(frame) - 1))
    n = min(4, len(frame) - start)
    burst = data.draw(st.binary(min_size=n, max_size=n))
    assume(any(burst))
    for k in range(n):
        frame[start + k] ^= burst[k]
    at, total = wire.scan_reply(frame, 0, len(frame))
    assert not (at == 0 and total)


@given(KINDS, st.integers(0, 255), PAYLOAD, st.data())
def test_a_truncated_reply_is_kept_waiting_not_taken(kind, seq, payload, data):
    frame = _reply(kind, seq, payload)
    cut = data.draw(st.integers(1, len(frame) - 1))
    at, total = wire.scan_reply(frame, 0, cut)
    assert total == 0 and at == 0      # kept: the rest may still come


GARBAGE = st.binary(max_size=300).filter(lambda g: not _has_frame(g))


@given(GARBAGE, st.lists(st.tuples(KINDS, st.integers(0, 255), PAYLOAD), min_size=1,
                         max_size=4), GARBAGE, st.data())
@settings(max_examples=150)
def test_reader_resyncs_after_garbage_in_any_chunks(before, frames, between, data):
    stream = bytearray(before)
    for f in frames:
        stream += _reply(*f) + between
    r = wire.ReplyReader()
    got = []
    pos = 0
    while pos < len(stream):
        n = data.draw(st.integers(1, 700))
        r.feed(stream[pos:pos + n])
        pos += n
        got.extend(_read_all(r))
    # Garbage can make a false start that waits for more bytes than ever come, yet the
    # frames behind it are found; every frame is read once, in order.
    assert got == [tuple(f) for f in frames]


def test_a_false_start_does_not_hide_the_frame_behind_it():
    frame = _reply("h", 7, b"hello")
    false_start = b"\xfe1d\x00\xff\x07"         # claims 2047 bytes of payload
    data = false_start + frame
    assert wire.scan_reply(data, 0, len(data)) == (len(false_start), len(frame))
    # An impossible head (length over the limit, not a kind letter) is skipped at once.
    for junk in (b"\xfe1d\x00\xff\xff", b"\xfe1\x03\x00\x01\x00", b"\xfe2h\x00\x01\x00"):
        assert wire.scan_reply(junk, 0, len(junk)) == (len(junk), 0)


# Requests (host -> device) ----------------------------------------------------------------


def _feed(reader, data):
    results = []
    for c in data:
        r = reader.feed(c)
        if r != wire.NONE:
            results.append((r, reader.session, reader.seq, reader.cmd,
                            bytes(reader.buf[reader.start:reader.end]) if r == wire.GOOD else None))
    return results


CMDS = st.sampled_from("HLFACNSB")
ARGS = st.binary(max_size=200).map(lambda b: bytes(ARG_BYTES[x % len(ARG_BYTES)] for x in b))


@given(st.integers(0, 0xFFFF), st.integers(0, 255), CMDS, ARGS)
def test_request_round_trip_and_only_printable_bytes(session, seq, cmd, args):
    line = wire.request(session, seq, cmd, args)
    assert len(line) <= wire.MAX_REQUEST and line.endswith(b"\n")
    assert all(0x20 <= c <= 0x7E for c in line[:-1])    # never Ctrl-A..E, never Ctrl-C
    assert _feed(wire.RequestReader(), line) == [(wire.GOOD, session, seq, ord(cmd), args)]


def test_request_refuses_bytes_it_cannot_carry_and_lines_too_long():
    for bad in (b"a*b", b"~", b"\x03", b"\n", b"\xe9"):
        try:
            wire.request(1, 1, "N", bad)
        except ValueError:
            pass
        else:
            assert False, bad
    try:
        wire.request(1, 1, "N", b"x" * (wire.MAX_REQUEST - 17))
    except ValueError:
        pass
    else:
        assert False, "too long"
    assert len(wire.request(1, 1, "N", b"x" * (wire.MAX_REQUEST - 18))) == wire.MAX_REQUEST


@given(st.integers(0, 0xFFFF), st.integers(0, 255), CMDS, ARGS, st.data())
def test_any_bit_flip_in_a_request_is_caught(session, seq, cmd, args, data):
    line = bytearray(wire.request(session, seq, cmd, args))
    i = data.draw(st.integers(1, len(line) - 2))
    line[i] ^= 1 << data.draw(st.integers(0, 7))
    assert all(r[0] != wire.GOOD for r in _feed(wire.RequestReader(), line))


@given(st.integers(0, 0xFFFF), st.integers(0, 255), CMDS, ARGS, st.data())
def test_a_truncated_request_is_never_taken_and_the_next_one_is(session, seq, cmd, args, data):
    line = wire.request(session, seq, cmd, args)
    cut = data.draw(st.integers(1, len(line) - 1))
    reader = wire.RequestReader()
    assert all(r[0] != wire.GOOD for r in _feed(reader, line[:cut]))
    assert _feed(reader, line)[-1] == (wire.GOOD, session, seq, ord(cmd), args)


@given(st.binary(max_size=400), st.integers(0, 0xFFFF), st.integers(0, 255), CMDS, ARGS)
def test_request_reader_resyncs_after_garbage(garbage, session, seq, cmd, args):
    reader = wire.RequestReader()
    results = _feed(reader, garbage)
    assume(all(r[0] != wire.GOOD for r in results))
    line = wire.request(session, seq, cmd, args)
    assert _feed(reader, line)[-1] == (wire.GOOD, session, seq, ord(cmd), args)


# Arguments ------------------------------------------------------------------------------------


@given(st.binary(max_size=60))
def test_escape_round_trip_and_escaped_args_are_plain(data):
    e = wire.escape(data)
    assert all(0x21 <= c <= 0x7D and c not in b"*=" for c in e)
    out = bytearray(64)
    n = wire.unescape_into(e, 0, len(e), out)
    assert bytes(out[:n]) == data
    assert wire.unescape_into(e, 0, len(e), bytearray(max(0, len(data) - 1))) == (
        -1 if data else 0)


def test_unescape_refuses_malformed_escapes():
    out = bytearray(10)
    for bad in (b"%", b"%4", b"%zz", b"%4g", b"a b", b"a=b", b"a*"):
        assert wire.unescape_into(bad, 0, len(bad), out) == -1, bad


@given(st.integers(-(10**10 - 1), 10**10 - 1))
def test_number_and_token(v):
    text = b"  %d  x" % v
    s, e = wire.token(text, 0, len(text))
    assert text[s:e] == b"%d" % v and wire.number(text, s, e) == v
    s2, e2 = wire.token(text, e, len(text))
    assert text[s2:e2] == b"x" and wire.number(text, s2, e2) is None
    assert wire.token(text, e2, len(text)) == (len(text), len(text))
    long = b"%d0" % abs(v) if abs(v) >= 10**9 else b"12345678901"
    assert wire.number(long, 0, len(long)) is None      # over 10 digits


def test_little_endian_helpers():
    buf = bytearray(4)
    for put, get, v in ((wire.put_u16, wire.get_u16, 0xBEEF), (wire.put_u24, wire.get_u24, 0xABCDEF),
                        (wire.put_u32, wire.get_u32, 0xDEADBEEF)):
        put(buf, 0, v)
        assert get(buf, 0) == v
    assert bytes(buf) == b"\xef\xbe\xad\xde"


@given(st.binary(max_size=300), st.integers(0, 20))
def test_the_devices_crc32_in_halves_is_zlibs(data, start):
    # MicroPython computes the CRC-32 from a table of 16-bit halves (a 32-bit device boxes
    # most CRC-32 values); here the same code is forced on CPython and checked against zlib.
    import zlib
    start = min(start, len(data))
    saved = wire._BINASCII
    wire._BINASCII = False
    try:
        assert wire.crc32(data, start, len(data)) == zlib.crc32(data[start:])
        buf = bytearray(data) + bytes(4)
        wire.crc32_put(buf, len(data), start, len(data))
        assert wire.get_u32(buf, len(data)) == zlib.crc32(data[start:])
        assert wire.crc32_matches(buf, len(data), start, len(data))
        buf[len(data)] ^= 1
        assert not wire.crc32_matches(buf, len(data), start, len(data))
    finally:
        wire._BINASCII = saved
