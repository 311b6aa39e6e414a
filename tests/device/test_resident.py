# What a hand keeps in the heap: the code that only a boot, a sitting's start, a sync,
# the history screen or a new journal block runs is unloaded once it is done
# (firmware/transient.py). MicroPython only: run with tests/mp_run.py.
import sys

from apphelp import boot, flash, press
from firmware import transient
from firmware.codes import HOME

HAND = ("next", "long ok", "ok", "prev")
# What a boot's replay loads, and only it (Scorer.resume): the header, the sitting's
# family chooser, the journal's reading.
ONLY_WHEN_USED = ("engine_core.header",
                  "engine_core.games", "engine_core.journal.reader",
                  "engine_core.journal.damage", "engine_core.journal.mount")


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


def test_the_journals_reading_loads_when_imported_and_reads_the_same_after_a_reload():
    nor = flash()
    a = boot(nor)
    press(a, "ok", *HAND)
    assert "engine_core.journal.reader" not in sys.modules
    j = a.scorer.journal
    from engine_core.journal import reader as first    # as the history screen or a sync
    got = first.JournalReader(j).sittings()
    assert len(got) == 1 and got[0][0] == j.open_sitting() and not got[0][1]
    transient.unload("engine_core.journal.reader")
    assert "engine_core.journal.reader" not in sys.modules
    from engine_core.journal import reader as again    # loaded anew: nothing kept in it
    assert again is not first
    r = again.JournalReader(j)
    buf = bytearray(255)
    cur = r.cursor(got[0][0])
    n = r.next_event(cur, buf)
    assert n > 0                    # the header
    events = 0
    while r.next_event(cur, buf) >= 0:
        events += 1
    assert events == 6              # a bid, three passes, trump, made


HELD = None


def test_a_phase_leaves_what_another_phase_still_holds():
    # The journal's reader, held by a loaded module (as the radio's sender holds it), stays
    # when a phase that used it ends; once nothing refers to it, it goes.
    global HELD
    import engine_core.journal.reader as R
    HELD = R.JournalReader         # this module, loaded, refers to it
    try:
        transient.unload("firmware.sync")
        assert sys.modules.get("engine_core.journal.reader") is R
    finally:
        HELD = None
    R = None
    transient.release()
    assert "engine_core.journal.reader" not in sys.modules


def test_a_phase_goes_by_its_prefix_with_its_package():
    import firmware.sync.session  # noqa: F401
    assert "firmware.sync" in sys.modules and "firmware.nextsetup" in sys.modules
    transient.unload("firmware.sync")
    assert not [n for n in sys.modules if n == "firmware.sync" or n.startswith("firmware.sync.")]
    # What only the session held goes with it: what the PC sets, the header's code.
    assert "firmware.nextsetup" not in sys.modules and "engine_core.header" not in sys.modules
