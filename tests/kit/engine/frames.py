# CRC-8 frames of coded events (engine_core/codec.py's bytes): what a sitting would cost
# to send, measured by bench/bench_engine.py and checked by the engine tests. Not device
# code: the journal and the sync protocol have their own framing.
from engine_core.compat import const

# Frames: [length][payload][CRC-8]. A sitting travels as its header frame, then one frame
# per hand (that hand's event bytes), so a typical marks hand (a bid, three passes, the
# contract, the result) is 6 payload bytes + 2 framing = 8 bytes.
_CRC_POLY = const(0x07)


def crc8(buf, start, end, crc=0):
    """CRC-8 (polynomial 0x07) of buf[start:end], without slicing."""
    i = start
    while i < end:
        crc ^= buf[i]
        j = 0
        while j < 8:
            crc = ((crc << 1) ^ _CRC_POLY) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
            j += 1
        i += 1
    return crc


def frame_into(payload, start, end, out, pos):
    """Write a frame of payload[start:end] at out[pos]; return the position after it."""
    n = end - start
    out[pos] = n
    i = 0
    while i < n:
        out[pos + 1 + i] = payload[start + i]
        i += 1
    out[pos + 1 + n] = crc8(payload, start, end)
    return pos + n + 2


def frame_at(buf, pos, end):
    """Check the frame at buf[pos]: its payload length, or -1 if torn or corrupt."""
    if pos >= end:
        return -1
    n = buf[pos]
    if pos + n + 2 > end:
        return -1
    if crc8(buf, pos + 1, pos + 1 + n) != buf[pos + 1 + n]:
        return -1
    return n
