# The press search of tests/kit/probes/mp_ui_search.py (ui.presses_per_hand.*): the fewest presses
# it finds are real paths through the screens. And the check of tests/kit/probes/mp_ui_hidden.py
# (ui.hidden_actions): every action reachable from a screen is named on it, each screen
# of both families in the states a table meets it in, each button short and held.
# MicroPython only: run with tests/mp_run.py.
from engine_core.codes import LAST_BID, LAST_CONTRACT, LAST_MADE  # noqa: E402
from firmware.codes import BACK, HOME, LONG, MENU, NEXT, OK, PREV  # noqa: E402


import mp_ui_hidden as H  # noqa: E402
import mp_ui_search as M  # noqa: E402
from boards.sim.board import SimDisplay  # noqa: E402
from engine_core import codes as C  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402

BID30 = C.event(C.EV_BID, 30)
PASS = C.event(C.EV_BID, C.PASS)
MADE = C.event(C.EV_MADE, 1)
SET = C.event(C.EV_MADE, 0)
UNDO = C.event(C.EV_UNDO)


def _app():
    return M.make_app(SimDisplay(), O.resolve("42"))


def test_typical_hand_is_3_presses_and_ends_on_the_score():
    a = _app()
    # next (30), OK held (and the rest pass), OK held (sixes, and made)
    assert M.fewest(a, (BID30, PASS, PASS, PASS, C.event(C.EV_TRUMP, 6), MADE)) == 3
    s = a.scorer.s
    assert s.hands() == 1 and s.score(1) == 1 and a.screen == HOME


def test_a_trump_away_from_the_cursor_costs_the_moves_to_it():
    a = _app()
    # Threes are three steps back from sixes, two held steps on (nine names, 3 a step).
    assert M.fewest(a, (BID30, PASS, PASS, PASS, C.event(C.EV_TRUMP, 3), MADE)) == 5
    assert a.scorer.s.last(LAST_CONTRACT) == 3


def test_the_search_finds_the_held_keys_of_a_mark_bid_and_a_set():
    a = _app()
    six = C.event(C.EV_TRUMP, 6)
    # ◀ held (42), OK held (and the rest pass), OK held (sixes, and made)
    assert M.fewest(a, (C.event(C.EV_BID, 42), PASS, PASS, PASS, six, MADE)) == 3
    # E deals: OK (S passes), ▶ (30), OK held (W bids it, the rest pass), ◀ held
    # (sixes, and set)
    assert M.fewest(a, (PASS, BID30, PASS, PASS, six, SET)) == 4
    assert a.scorer.s.hands() == 2 and a.scorer.s.last(LAST_MADE) == 0


def test_forced_dealer_and_an_undone_result_are_found():
    a = _app()
    want = (PASS, PASS, PASS, C.event(C.EV_BID, 31), C.event(C.EV_TRUMP, 6), SET, UNDO,
            MADE)
    # OK held (three passes), next, OK (31), ◀ held (sixes, and set), BACK (undone at
    # once: the score says `hand 1 saved, BACK undoes`), OK (made).
    assert M.fewest(a, want) == 6
    s = a.scorer.s
    assert s.hands() == 1 and s.score(0) == 1 and s.last(LAST_BID) == 31


def test_an_impossible_hand_is_reported_not_counted():
    a = _app()
    before = a.scorer.s.hlen
    assert M.fewest(a, (C.event(C.EV_BID, 29),), limit=300) == -1
    assert a.scorer.s.hlen == before and a.screen == HOME


def test_corpus_hands_are_legal_and_varied():
    rnd = M.Rand(7)
    a = _app()
    s = a.scorer.s
    kinds = set()
    k = 0
    while k < 3:
        want = M.hand_events(s, rnd)
        for ev in want:
            kinds.add(ev >> 24)
        assert M.fewest(a, want) > 0
        k += 1
    assert s.hands() == 3
    assert C.EV_BID in kinds and C.EV_TRUMP in kinds and C.EV_MADE in kinds


def test_the_check_reads_button_names_as_the_footers_write_them():
    assert H.named("<> bid  OK/BACK return", NEXT) and H.named("OK/BACK return", BACK)
    assert H.named("hold >: +5  hold <: 42/84", LONG | PREV)
    assert not H.named("hold >: +5", NEXT) and not H.named("<> bid", LONG | NEXT)
    assert not H.named("OK take it (hold: set)", LONG | OK)
    assert H.named("M menu", MENU) and not H.named("Menu", MENU)


def test_no_screen_hides_an_action():
    hidden, met = H.check(SimDisplay(record=True))
    assert [m for m in H.SCREENS if m not in met] == []
    assert hidden == [], "\n".join("%s (%s): %s" % (label, m, H.key_name(k))
                                   for label, m, k in hidden)
