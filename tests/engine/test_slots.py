# The 42 family's state array, one array("h"), has one table of slots
# (engine_core/texas42/slots.py; slots 0-3 are every family's, history.py's, which it
# names too). The table must tile the array: each slot one name's, none shared, none
# left over, N_SLOTS the end; and no other engine module names a slot of it.
from engine_core import codes as C
from engine_core import history as H
from engine_core.texas42 import slots as S

# Each slot's width, where it is more than one.
WIDE = {"WON": 2, "SCORE": 6, "GAME_SCORE": 2, "LAST_AWARD": 6, "LAST_TRICKS": 6,
        "SEAT_TRICKS": 6}
FAMILY = ("DEALER", "HANDS", "ENDED", "WINNER")


def _names(module):
    return [n for n in dir(module) if n.isupper() and not n.startswith("_")
            and isinstance(getattr(module, n), int)]


def _table():
    return sorted((getattr(S, n), WIDE.get(n, 1), n) for n in _names(S) if n != "N_SLOTS")


def tiles(table, end):
    """'' when the (start, width, name) slots cover 0..end-1 once each, else what is wrong."""
    at = 0
    for start, width, name in table:
        if start < at:
            return "%s at %d overlaps the slot before (which ends at %d)" % (name, start, at)
        if start > at:
            return "slots %d to %d belong to no name (before %s)" % (at, start - 1, name)
        at = start + width
    return "" if at == end else "the slots end at %d, N_SLOTS is %d" % (at, end)


def test_the_slots_are_contiguous_and_disjoint():
    assert tiles(_table(), S.N_SLOTS) == ""


def test_the_check_finds_an_overlap_a_gap_and_a_wrong_end():
    assert "overlaps" in tiles([(0, 2, "A"), (1, 1, "B")], 2)
    assert "no name" in tiles([(0, 1, "A"), (2, 1, "B")], 3)
    assert "N_SLOTS" in tiles([(0, 1, "A")], 2)


def test_every_family_slot_is_the_historys():
    # Slots 0-3 begin every family's state: the table names history.py's, not copies.
    for n in FAMILY:
        assert getattr(S, n) == getattr(H, n), n
    assert sorted(getattr(H, n) for n in FAMILY) == [0, 1, 2, 3]


def test_no_slot_is_named_outside_the_table():
    # The last deal's and game's slots used to be codes.py's: a slot named in two
    # modules can drift apart.
    stray = [n for n in _names(C) if n.startswith(("LAST_", "GAME_"))]
    assert stray == [], stray
    assert set(_names(S)) & set(_names(C)) == set()
