# A scorer joins an event's radio: the key the PC pushed at a sync (`radio` among the
# settings, firmware/sync/session.py) kept in a small file beside the settings, and the sender
# started when there is one. Loaded at boot on a board with a radio and unloaded at once
# when no key is kept, so a scorer outside an event carries none of the radio's code.
import binascii

from firmware import transient

_MAGIC = b"T42R"


def path_of(settings_path):
    return settings_path + ".radio" if settings_path else None


def load(path):
    """The event's key (16 bytes), or None: no file, or a damaged one."""
    if not path:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if len(data) != 24 or data[:4] != _MAGIC:
        return None
    if binascii.crc32(data[:20]) & 0xFFFFFFFF != int.from_bytes(data[20:], "little"):
        return None
    return bytes(data[4:20])


def save(path, text):
    """Keep the key pushed as 32 hex digits ("off": forget it). None, or why refused."""
    import os
    if not path:
        return "this scorer keeps no settings file"
    if text == "off":
        try:
            os.remove(path)
        except OSError:
            pass
        return None
    try:
        key = binascii.unhexlify(text)
    except ValueError:
        key = b""
    if len(key) != 16:
        return "radio: a key of 32 hex digits"
    out = bytearray(_MAGIC + key)
    out.extend((binascii.crc32(out) & 0xFFFFFFFF).to_bytes(4, "little"))
    with open(path + ".new", "wb") as f:
        f.write(out)
    try:
        os.rename(path + ".new", path)
    except OSError:
        os.remove(path)
        os.rename(path + ".new", path)
    return None


def start(app):
    """Start the radio's sender on the app's board (app.air) when a key is kept
    (app.radio), else leave the radio's modules out of the heap."""
    board = app.air
    key = load(path_of(app.scorer.settings_path)) if board is not None else None
    if app.radio is not None:
        app.radio.stop()
        app.radio = None
    if key is None:
        transient.unload("firmware.radio")
        return None
    app.radio = Waiting(app, key)
    return app.radio


class Waiting:
    """The radio of a scorer in an event with no sitting on the table: the sender (and
    its heap) comes with the first record taken, so a sitting's start, which loads the
    engine, is not squeezed by it. With a sitting open and on the table (a boot that
    resumed it, a session's end mid-game) it comes at the first poll, and sends what the
    PC may not hold yet."""

    def __init__(self, app, key):
        self.app = app
        self.key = key
        j = app.scorer.journal
        playing = j.open_sitting() is not None and app.scorer.s is not None
        self._mark = -1 if playing else j.free_bytes()

    def poll(self):
        app = self.app
        if app.scorer.journal.free_bytes() == self._mark:
            return False
        from firmware.radio.air import Radio
        from firmware.radio.nexttable import NextTable
        from firmware.radio.sender import Sender
        board = app.air
        app.radio = Sender(app.scorer.journal, Radio(board.radio), self.key, board.ticks_ms,
                           NextTable(app))
        return app.radio.poll()

    def stop(self):
        pass


def stop(app):
    """A sync session opens: the radio off and its modules out of the heap (the session's
    end starts it again, firmware/sync/session.py)."""
    if app.radio is not None:
        app.radio.stop()
    app.radio = None
    app.radio_busy = False
    transient.unload("firmware.radio")
    import gc
    gc.collect()        # what the session allocates next wants room in one piece
