# Run ON THE BOARD by `tally42 deploy` (mpremote exec) before it writes anything: what
# the board has, printed as one line "TALLY42-PROBE {...}" that host_tools/deploy/boardcheck.py
# reads. MicroPython only; imports nothing of Tally 42 but the journal, if the board has
# it (to count the sittings not yet on the PC).
import os
import sys

_MAGIC = b"T42"             # a journal block's header, either format (docs/journal.md)
_JOURNAL_AT = 0x3F0000      # where tally42 deploy --partition puts the journal
_JOURNAL_SIZE = 0x10000


def _walk(d, out):
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        p = d + "/" + n
        if n.endswith(".py") or n.endswith(".mpy"):
            out.append(p)
        elif "." not in n:
            _walk(p, out)


def _journal_blocks(part, first, size):
    # 4 KB blocks from byte `first` of `part` on that start as a journal block does.
    buf = bytearray(3)
    n = 0
    for b in range(first // 4096, (first + size) // 4096):
        part.readblocks(b, buf, 0)
        if buf == _MAGIC:
            n += 1
    return n


def _sittings(part):
    # The sittings of the journal on `part`, read by the journal code the board holds,
    # of whichever version: named as strings, for it is the board's (not this
    # checkout's) firmware that answers.
    try:
        log = __import__("engine_core.journal.log", None, None, ("Log",))
        reader = __import__("engine_core.journal.reader", None, None, ("JournalReader",))
    except ImportError:     # a scorer on the firmware before the journal's reading moved
        j = __import__("firmware.journal", None, None, ("Journal",)).Journal(part)
        j.mount()
        try:
            reader = __import__("engine_core.journal.reader", None, None, ("JournalReader",))
        except ImportError:     # ... and before the reader class
            return __import__("firmware.journalread", None, None, ("sittings",)).sittings(j)
        return reader.JournalReader(j).sittings()
    j = log.Log(part)
    j.mount()
    return reader.JournalReader(j).sittings()


def probe():
    r = {"version": tuple(sys.implementation.version[:3]),
         "machine": getattr(sys.implementation, "_machine", ""),
         "mpy": getattr(sys.implementation, "_mpy", None),
         "parts": [], "files": [], "frozen": False, "unsynced": None, "orphans": 0}
    for d in ("engine_core", "firmware", "boards"):
        _walk(d, r["files"])
    # Frozen into the firmware? Import from .frozen alone, then put things back.
    loaded = {}
    for name in ("firmware.journal", "firmware"):
        if name in sys.modules:
            loaded[name] = sys.modules.pop(name)
    saved = sys.path[:]
    sys.path[:] = [".frozen"]
    try:
        __import__("firmware.journal")
        r["frozen"] = True
    except ImportError:
        pass
    sys.path[:] = saved
    for name in ("firmware.journal", "firmware"):
        sys.modules.pop(name, None)
    sys.modules.update(loaded)
    try:
        import esp32
    except ImportError:
        return r
    journal = None
    for t in (esp32.Partition.TYPE_APP, esp32.Partition.TYPE_DATA):
        for p in esp32.Partition.find(t):
            info = p.info()
            r["parts"].append(tuple(info[:5]))
            if info[4] == "journal":
                journal = p
            elif info[2] <= _JOURNAL_AT and _JOURNAL_AT + _JOURNAL_SIZE <= info[2] + info[3]:
                # The journal's flash inside another partition (a stock table, after
                # MicroPython was flashed whole): are its blocks still there?
                r["orphans"] = _journal_blocks(p, _JOURNAL_AT - info[2], _JOURNAL_SIZE)
    if journal is not None:
        try:
            listed = _sittings(journal)
            r["unsynced"] = sum(1 for s in listed if not s[2])
        except Exception:   # no firmware yet, or one that cannot read this journal
            r["orphans"] = _journal_blocks(journal, 0, _JOURNAL_SIZE)
    return r


print("TALLY42-PROBE", repr(probe()))
