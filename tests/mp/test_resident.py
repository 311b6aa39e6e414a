# What a hand keeps in the heap: the code that only a boot, a sitting's start, a sync,
# the history screen or a new journal block runs is unloaded once it is done
# (firmware/transient.py). MicroPython only: run with tests/mp_run.py.
import sys

from apphelp import boot, flash, press
from firmware import transient
from firmware.codes import HOME

HAND = ("next", "long ok", "ok", "ok")
ONLY_WHEN_USED = transient.BOOT + ("firmware.journalscan",)


def test_after_a_start_a_resume_and_a_hand_the_seldom_run_code_is_out():
    nor = flash()
    a = boot(nor)
    press(a, "ok", *HAND)           # the setup's start, then a hand
    b = boot(nor)                   # a resume: the journal read back
    assert b.scorer.s.hands() == 1 and b.screen == HOME
    press(b, *HAND)
    assert b.scorer.s.hands() == 2
    for name in ONLY_WHEN_USED:
        assert name not in sys.modules, name
    assert b.scorer.s._sc is None          # a sitting in marks: Moon's scoring not loaded


def test_the_journals_reading_loads_when_imported_and_reads_the_same_after_a_reload():
    nor = flash()
    a = boot(nor)
    press(a, "ok", *HAND)
    assert "firmware.journalread" not in sys.modules
    j = a.scorer.journal
    from firmware import journalread as first      # as the history screen or a sync
    got = first.sittings(j)
    assert len(got) == 1 and got[0][0] == j.open_sitting() and not got[0][1]
    transient.unload(("firmware.journalread",))
    assert "firmware.journalread" not in sys.modules
    from firmware import journalread as again      # loaded anew: nothing kept in it
    assert again is not first
    buf = bytearray(255)
    cur = again.cursor(j, got[0][0])
    n = again.next_event(j, cur, buf)
    assert n > 0                    # the header
    events = 0
    while again.next_event(j, cur, buf) >= 0:
        events += 1
    assert events == 6              # a bid, three passes, trump, made
