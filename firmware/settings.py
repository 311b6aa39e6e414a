# What the scorer remembers between sittings: the last game set up (its sitting header:
# variant, every house option, first dealer) and the trick tracker switch. One small
# file, written whole (temp file, then rename) only when a setting changes.
import binascii

from micropython import const

_MAGIC = b"T42S"
_VERSION = const(1)
_FIXED = const(7)   # magic, version, tracker, header length


class Settings:
    def __init__(self, path=None):
        self.path = path
        self.last = None        # the last sitting header (codec bytes), or None
        self.tracker = 0        # 1: play each hand by tracking its tricks

    def load(self):
        """Read the file; a missing or damaged one leaves the defaults."""
        if not self.path:
            return
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError:
            return
        if len(data) < _FIXED + 4 or data[:4] != _MAGIC or data[4] != _VERSION:
            return
        n = data[6]
        if len(data) != _FIXED + n + 4:
            return
        crc = binascii.crc32(data[: _FIXED + n]) & 0xFFFFFFFF
        if crc != int.from_bytes(data[_FIXED + n:], "little"):
            return
        self.tracker = data[5] & 1
        self.last = bytes(data[_FIXED: _FIXED + n]) if n else None

    def save(self):
        if not self.path:
            return
        last = self.last or b""
        out = bytearray(_MAGIC)
        out.append(_VERSION)
        out.append(self.tracker)
        out.append(len(last))
        out.extend(last)
        out.extend((binascii.crc32(out) & 0xFFFFFFFF).to_bytes(4, "little"))
        tmp = self.path + ".new"
        try:
            with open(tmp, "wb") as f:
                f.write(out)
            _replace(tmp, self.path)
        except OSError:
            pass    # settings are a convenience: the game goes on without them

    def remember(self, header):
        if header != self.last:
            self.last = bytes(header)
            self.save()

    def set_tracker(self, on):
        on = 1 if on else 0
        if on != self.tracker:
            self.tracker = on
            self.save()


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
