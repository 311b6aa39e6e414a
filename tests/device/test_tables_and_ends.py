# The scorer's sittings at an event and in time: the END record a game's end (or a sitting
# left for another) puts on flash, and the table assignment pushed from the PC, on the
# screens and in the next sitting's header. MicroPython only: run with tests/mp_run.py.
# (After test_display: the 32-bit suite's 64 KB display rig wants the heap unbroken.)
import micropython

from apphelp import boot, flash, pc_sets, press, pushed, same_state, text
from engine_core.header import decode_header, header_assignment
from engine_core import codes as C
from firmware import transient
from firmware import nextsetup
from engine_core.journal.reader import JournalReader
from engine_core.codes import PLAY
from engine_core.texas42 import options as O
from firmware.codes import HOME, SETUP

HAND = ("next", "long ok", "ok", "prev")


def _header_on_flash(a, sid):
    r = JournalReader(a.scorer.journal)
    buf = bytearray(256)
    n = r.next_event(r.cursor(sid), buf)
    return bytes(buf[:n])


def _setup_assign(a):
    # The setup screen's reading of the assignment set up (firmware/ui/setup.py).
    from firmware.ui import setup
    try:
        return setup.setup_assign(a)
    finally:
        transient.unload("firmware.ui.setup")


def _update_setup(a, changes, names):
    # What the sync session's end does with the settings pushed (firmware/link.py).
    return a.pushed(nextsetup.update(a.scorer, changes, names))


EPOCH = 1704067200      # the scorer's clock counts from 2024-01-01T00:00Z


def _items(a, sid):
    # The sitting's items on flash after its header: events, and 5-byte END records.
    r = JournalReader(a.scorer.journal)
    cur = r.cursor(sid)
    buf = bytearray(256)
    r.next_event(cur, buf)
    out = []
    while True:
        n = r.next_event(cur, buf)
        if n < 0:
            return out
        out.append(bytes(buf[:n]))


def _end_time(item):
    return item[0] | item[1] << 8 | item[2] << 16 | item[3] << 24


def test_game_over_puts_the_end_time_on_flash_once():
    a = boot()
    assert pc_sets(a, "clock", EPOCH + 80000000, -360) is None     # as a sync does
    press(a, "ok")
    s = a.scorer.s
    sid = a.scorer.journal.open_sitting()
    while not s.over() and s.hands() < 8:
        press(a, "prev", "long ok", "ok", "prev")
    assert s.over()
    items = _items(a, sid)
    assert len(items[-1]) == 5 and [len(i) for i in items].count(5) == 1
    assert 80000000 <= _end_time(items[-1]) < 80000000 + 60
    assert items[-1][4] == (-360 // 15) & 0xFF
    # A new sitting: the one played out keeps its one END, from the game's end.
    press(a, "long ok", "ok")
    assert a.scorer.journal.open_sitting() != sid
    assert _items(a, sid) == items


def test_a_sitting_abandoned_for_a_new_one_ends_when_it_was_left():
    a = boot()
    pc_sets(a, "clock", EPOCH + 90000000, 60)
    press(a, "ok", *HAND)
    sid = a.scorer.journal.open_sitting()
    assert [len(i) for i in _items(a, sid)].count(5) == 0
    press(a, "menu", "prev", "prev", "ok", "ok")     # set up and start another sitting
    assert a.scorer.journal.open_sitting() != sid
    items = _items(a, sid)
    assert len(items[-1]) == 5 and 90000000 <= _end_time(items[-1]) < 90000000 + 60


def test_a_resumed_sitting_skips_its_end_record():
    nor = flash()
    a = boot(nor)
    pc_sets(a, "clock", EPOCH + 100000000, 0)
    press(a, "ok")
    s = a.scorer.s
    while not s.over() and s.hands() < 8:
        press(a, "prev", "long ok", "ok", "prev")
    press(a, "back", "ok")          # undo the last hand after game over: play goes on
    assert not a.scorer.s.over()
    b = boot(nor)                   # power cut and back
    assert b.scorer.s.hands() == a.scorer.s.hands() and b.scorer.s.score(0) == a.scorer.s.score(0)
    assert same_state(a.scorer.s, b.scorer.s)


def test_game_over_event_path_allocates_nothing():
    a = boot()
    pc_sets(a, "clock", EPOCH + 80000000, -360)
    press(a, "ok")
    s = a.scorer.s
    # Hands of 84 (2 marks): bid and trump by presses, each result (the last one ends
    # the game and writes the END record) under the heap lock.
    ok = True
    while ok and not s.over() and s.hands() < 8:
        press(a, "prev", "long ok", "ok")
        assert s.phase() == PLAY
        micropython.heap_lock()
        try:
            ok = a.take(C.event(C.EV_MADE, 1))
        finally:
            micropython.heap_unlock()
        a.follow()
    assert ok and s.over()
    assert len(_items(a, a.scorer.journal.open_sitting())[-1]) == 5


def test_a_table_assignment_pushed_by_the_pc_goes_into_the_next_sittings_header():
    a = boot()
    assert pc_sets(a, "names", "p", ["Ann", "Bob", "Cy", "Di"]) is None    # as a sync does
    assert pc_sets(a, "assign", ("Club night", 2, 3)) is None
    assert _setup_assign(a) == ("Club night", 2, 3)
    a.go(SETUP)
    a.render()
    t = text(a)
    assert "Table 3" in t and "Round 2" in t
    assert t.splitlines()[0].startswith("Club night")   # the event's name heads it
    assert "Ann+Cy v Bob+Di, Ann deals first" in t
    press(a, "ok")                  # start
    sid = a.scorer.journal.open_sitting()
    head = _header_on_flash(a, sid)
    assert header_assignment(head) == ("Club night", 2, 3)
    assert decode_header(head)[2] == ["Ann", "Bob", "Cy", "Di"]
    assert a.scorer.assign == ("Club night", 2, 3)
    # Taken by this sitting: the next one set up has none until the PC pushes another.
    assert _setup_assign(a) is None
    # On the score screen, under the scores, and after a power cut.
    assert a.screen == HOME and "Table 3" in text(a) and "Round 2" in text(a)
    press(a, *HAND)
    assert a.screen == HOME and "Table 3" in text(a)
    b = boot(a.scorer.journal._bdev)
    assert b.scorer.assign == ("Club night", 2, 3)


def test_names_pushed_after_game_over_are_the_next_sittings_not_the_finished_ones():
    a = boot()
    assert pc_sets(a, "names", "p", ["Ann", "Bob", "Cy", "Di"]) is None
    press(a, "ok")                  # start: Ann, Bob, Cy and Di play it
    s = a.scorer.s
    while not s.over() and s.hands() < 8:
        press(a, "prev", "long ok", "ok", "prev")
    assert s.over() and a.scorer.names == ("Ann", "Bob", "Cy", "Di")
    # The PC pushes the next table's players (as sync --event does after storing it).
    assert pc_sets(a, "names", "p", ["Eve", "Gus", "Ida", "Jo"]) is None
    assert a.scorer.names == ("Ann", "Bob", "Cy", "Di")        # game over still shows who played
    a.render()
    assert "Eve" not in text(a)
    assert decode_header(a.scorer.last_setup)[2] == ["Eve", "Gus", "Ida", "Jo"]
    press(a, "long ok", "ok")       # a new sitting: the pushed players
    assert a.scorer.names == ("Eve", "Gus", "Ida", "Jo")


def test_a_bad_table_assignment_is_refused_and_changes_nothing():
    a = boot()
    assert pc_sets(a, "assign", ("Club night", 1, 1)) is None
    before = a.scorer.last_setup
    assert "1 to 255" in pc_sets(a, "assign", ("Club night", 0, 3))
    assert "1 to 255" in pc_sets(a, "assign", ("Club night", 2, 256))
    assert "1 to 32 bytes" in pc_sets(a, "assign", ("x" * 33, 2, 3))
    assert a.scorer.last_setup == before
    assert pc_sets(a, "assign", None) is None and _setup_assign(a) is None


def test_pushed_settings_take_a_variant_named_by_digits_and_one_nello_double():
    a = boot()
    pc_sets(a, "assign", ("Cup", 1, 4))
    assert pc_sets(a, "settings", [("variant", "42"), ("nello", "true"),
                            ("nello_doubles", "low"), ("target", "5")]) is None
    assert _update_setup(a, pushed(a), None) is None      # as the sync's end does
    rules = decode_header(a.scorer.last_setup)[0]
    assert rules.name == "42" and rules.target == 5 and rules.nello
    assert O.to_dict(rules)["nello_doubles"] == ["low"]
    assert _setup_assign(a) == ("Cup", 1, 4)                # the assignment stays
