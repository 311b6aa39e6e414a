# The boot's replay of the open sitting from the journal, at the exact state it was left
# in. A boot's alone: this phase and what it alone loads leave the heap when it is done
# (firmware/transient.py).
from micropython import const

from engine_core import header
from firmware import transient
from firmware.journal import JournalError
from engine_core.journal.reader import JournalReader

_HEADER_MAX = const(255)
_END_ITEM = const(5)    # the journal's END record as next_event gives it


def resume(scorer, sid):
    """Start `scorer` on the sitting `sid` and replay its events; returns how many of
    them the engine refused (the PC gets them all with the next sync)."""
    r = JournalReader(scorer.journal)
    buf = bytearray(_HEADER_MAX)
    cur = r.cursor(sid)
    n = r.next_event(cur, buf)
    try:
        head = bytes(buf[:n])
        rules, dealer, names = header.decode_header(head)
        assign = header.header_assignment(head)
    except ValueError as e:
        raise JournalError("the open sitting cannot be resumed (%s): hold a button "
                           "at power-on for safe mode, then sync" % e)
    scorer.start(rules, dealer, names, assign)
    s = scorer.s
    refused = 0
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            break
        if n == _END_ITEM:
            continue        # an END record (when the game ended), not an event
        if s.apply(s.codec.decode_at(buf, 0)):
            refused += 1
    transient.unload("firmware.boot")
    return refused
