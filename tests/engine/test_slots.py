# The 42 family's state array, one array("h") (engine_core/texas42/slots.py): its slots
# come from three modules (history.py's, every family's; codes.py's LAST_* and GAME_*,
# which Sitting.last() and the screens read; slots.py's own). Together they must tile the
# array: each slot one name's, none shared, none left over, N_SLOTS the end.
from engine_core import codes as C
from engine_core import history as H
from engine_core.texas42 import slots as S

# Each slot's width, where it is more than one.
WIDE = {"WON": 2, "SCORE": 6, "GAME_SCORE": 2, "LAST_AWARD": 6, "LAST_TRICKS": 6,
        "SEAT_TRICKS": 6}
FAMILY = ("DEALER", "HANDS", "ENDED", "WINNER")
LAST = ("LAST_DEALER", "LAST_THROWN", "LAST_BIDDER", "LAST_BID", "LAST_VALUE",
        "LAST_CONTRACT", "LAST_MADE", "LAST_POINTS", "LAST_AWARD", "LAST_TRICKS",
        "LAST_KNOWN", "GAME_SCORE", "GAME_WINNER")
OWN = ("GAMES", "WON", "SCORE", "CONFIRM", "PHASE", "TURN", "ACTED", "PASSED", "HIGH",
       "VALUE", "BIDDER", "CONTRACT", "LEADER", "TRACKED", "BPTS", "OPTS", "CAUGHT",
       "SEAT_TRICKS", "CLAIMED")


def _table():
    out = [(getattr(H, n), WIDE.get(n, 1), n) for n in FAMILY]
    out += [(getattr(C, n), WIDE.get(n, 1), n) for n in LAST]
    out += [(getattr(S, n), WIDE.get(n, 1), n) for n in OWN]
    return sorted(out)


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


def test_every_slot_name_of_the_slots_module_is_in_the_table():
    # A slot added to slots.py is checked only once it is listed above.
    named = set(FAMILY + LAST + OWN) | {"N_SLOTS"}
    extra = [n for n in dir(S) if n.isupper() and not n.startswith("_") and n not in named]
    assert extra == [], extra
