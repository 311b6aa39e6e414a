# What the scorer remembers between sittings: the last game set up (its sitting header:
# variant, every house option, first dealer) and the trick tracker switch. One small
# file, written whole (temp file, then rename) only when a setting changes
# (firmware/scorer.py reads it at boot and writes it).
import binascii

from micropython import const

_MAGIC = b"T42S"
_VERSION = const(1)
_FIXED = const(7)   # magic, version, tracker, header length


def load(path):
    """(last sitting header or None, tracker 0/1); a missing or damaged file gives the
    defaults (None, 0)."""
    if not path:
        return None, 0
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None, 0
    if len(data) < _FIXED + 4 or data[:4] != _MAGIC or data[4] != _VERSION:
        return None, 0
    n = data[6]
    if len(data) != _FIXED + n + 4:
        return None, 0
    crc = binascii.crc32(data[: _FIXED + n]) & 0xFFFFFFFF
    if crc != int.from_bytes(data[_FIXED + n:], "little"):
        return None, 0
    return (bytes(data[_FIXED: _FIXED + n]) if n else None), data[5] & 1


def save(path, last, tracker):
    """Write the settings; False when the file system refuses (the game goes on)."""
    if not path:
        return False
    last = last or b""
    out = bytearray(_MAGIC)
    out.append(_VERSION)
    out.append(1 if tracker else 0)
    out.append(len(last))
    out.extend(last)
    out.extend((binascii.crc32(out) & 0xFFFFFFFF).to_bytes(4, "little"))
    tmp = path + ".new"
    try:
        with open(tmp, "wb") as f:
            f.write(out)
        _replace(tmp, path)
    except OSError:
        return False
    return True


def _replace(src, dst):
    import os
    try:
        os.rename(src, dst)
    except OSError:
        # Some file systems refuse to rename over a file.
        try:
            os.remove(dst)
        except OSError:
            pass
        os.rename(src, dst)
