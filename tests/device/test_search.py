# The press search of tests/kit/probes/mp_ui_search.py (ui.presses_per_hand.*): the fewest presses
# it finds are real paths through the screens. And the check of tests/kit/probes/mp_ui_hidden.py
# (ui.hidden_actions): every action reachable from a screen is named on it, each screen
# of both families in the states a table meets it in, each button short and held; a held
# key does more of what the short press does (ui.opposite_holds); every line fits both
# panels (ui.text_overlaps).
# MicroPython only: run with tests/mp_run.py.
from engine_core.texas42.slots import LAST_BID, LAST_CONTRACT, LAST_MADE  # noqa: E402
from firmware.codes import BACK, HOME, LONG, MENU, NEXT, OK, PREV  # noqa: E402


import mp_ui_fit as F  # noqa: E402
import mp_ui_hidden as H  # noqa: E402
import mp_ui_search as M  # noqa: E402
from boards.sim.board import SimDisplay  # noqa: E402
from engine_core import codes as C  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402
from firmware.codes import BLACK, WHITE  # noqa: E402

# The probes' own check, the longest search: make test's, not make check's
# (tests/kit/engine/quick.py): the corpus's first three hands, one with an undone result.
SLOW = ("test_the_corpus_hands_are_legal_and_varied_and_the_floor_stays_under_their_search",)

BID30 = C.event(C.EV_BID, 30)
PASS = C.event(C.EV_BID, C.PASS)
MADE = C.event(C.EV_MADE, 1)
SET = C.event(C.EV_MADE, 0)
UNDO = C.event(C.EV_UNDO)


def _app():
    return M.make_app(SimDisplay(), O.resolve("42"))


def test_typical_hand_is_3_presses_and_ends_on_the_score():
    a = _app()
    # next (30), OK held (and the rest pass), OK held (threes, and made)
    assert M.fewest(a, (BID30, PASS, PASS, PASS, C.event(C.EV_TRUMP, 3), MADE)) == 3
    s = a.scorer.s
    assert s.hands() == 1 and s.score(1) == 1 and a.screen == HOME


def test_a_trump_away_from_the_cursor_costs_the_moves_to_it():
    a = _app()
    # Sixes are one held step on from threes (3 a step).
    assert M.fewest(a, (BID30, PASS, PASS, PASS, C.event(C.EV_TRUMP, 6), MADE)) == 4
    # Fives: a held step on and one back; the start is threes every hand.
    n = M.fewest(a, (PASS, BID30, PASS, PASS, C.event(C.EV_TRUMP, 5), MADE))
    assert n == 6 and a.scorer.s.last(LAST_CONTRACT) == 5


def test_the_search_finds_the_held_keys_of_a_mark_bid_and_a_set():
    a = _app()
    three = C.event(C.EV_TRUMP, 3)
    # ◀ held (42), OK held (and the rest pass), OK held (threes, and made)
    assert M.fewest(a, (C.event(C.EV_BID, 42), PASS, PASS, PASS, three, MADE)) == 3
    # E deals: OK (S passes), ▶ (30), OK held (W bids it, the rest pass), OK (threes),
    # ▶ (set, on its arrow's side)
    assert M.fewest(a, (PASS, BID30, PASS, PASS, three, SET)) == 5
    assert a.scorer.s.hands() == 2 and a.scorer.s.last(LAST_MADE) == 0


def test_forced_dealer_and_an_undone_result_are_found():
    a = _app()
    want = (PASS, PASS, PASS, C.event(C.EV_BID, 31), C.event(C.EV_TRUMP, 3), SET, UNDO,
            MADE)
    # OK held (three passes), next, OK (31), OK (threes), ▶ (set), BACK (undone at
    # once: the score says `hand 1 saved, BACK undoes`), ◀ (made).
    assert M.fewest(a, want) == 7
    s = a.scorer.s
    assert s.hands() == 1 and s.score(0) == 1 and s.last(LAST_BID) == 31


def test_the_trump_cursor_starts_where_the_corpus_takes_fewest_moves():
    from firmware.ui import contract
    # Over the corpus of ui.presses_per_hand.sitting_mean each start's moves to the
    # trumps named; the screen's start is the least, and the others are not all equal
    # (the choice is the corpus's, not any start's).
    costs = M.trump_starts(4, 7)
    assert len(costs) == 9 and costs[contract.START] == min(costs.values()), costs
    assert max(costs.values()) > costs[contract.START]
    # Every name within two presses of any start (steps of 1 and 3 over nine).
    s = M.make_app(SimDisplay(), O.resolve("42")).scorer.s
    for code in (30, C.PASS, C.PASS, C.PASS):
        s.apply(C.event(C.EV_BID, code))
    moves = M.trump_moves(s)
    assert max(moves[contract.START].values()) == 2 and len(moves[contract.START]) == 9


def test_an_impossible_hand_is_reported_not_counted():
    a = _app()
    before = a.scorer.s.hlen
    assert M.fewest(a, (C.event(C.EV_BID, 29),), limit=300) == -1
    assert a.scorer.s.hlen == before and a.screen == HOME


def test_the_corpus_hands_are_legal_and_varied_and_the_floor_stays_under_their_search():
    # Four gestures: one value at 0 moves, four at 1, eight at 2.
    assert [M._dist(r) for r in (0, 1, 4, 5, 12, 13)] == [0, 1, 1, 2, 2, 3]
    hands, floor = M.corpus_floor(1, 7)
    assert hands == 11 and 200 <= floor
    # The first three hands of that corpus: real paths through the screens, with bids,
    # trumps and results; the floor a hand (the same sitting) is under the search's mean
    # on them plus a hand's spread.
    rnd = M.Rand(7)
    a = _app()
    s = a.scorer.s
    kinds = set()
    total = 0
    k = 0
    while k < 3:
        want = M.hand_events(s, rnd)
        for ev in want:
            kinds.add(ev >> 24)
        p = M.fewest(a, want)
        assert p > 0
        total += p
        k += 1
    assert s.hands() == 3
    assert C.EV_BID in kinds and C.EV_TRUMP in kinds and C.EV_MADE in kinds
    assert floor < total * 100 // 3 + 200, (floor, total)


def test_the_check_reads_button_names_as_the_footers_write_them():
    assert H.named("<> bid  OK/BACK return", NEXT) and H.named("OK/BACK return", BACK)
    assert H.named("hold >: +5  hold <: 42/84", LONG | PREV)
    assert not H.named("hold >: +5", NEXT) and not H.named("<> bid", LONG | NEXT)
    assert not H.named("OK take it (hold: set)", LONG | OK)
    assert H.named("M menu", MENU) and not H.named("Menu", MENU)


def test_no_screen_hides_an_action():
    hidden, met, opposite = H.check(SimDisplay(record=True))
    assert [m for m in H.SCREENS if m not in met] == []
    assert hidden == [], "\n".join("%s (%s): %s" % (label, m, H.key_name(k))
                                   for label, m, k in hidden)
    # A held key does more of what the short press does, never something else.
    assert opposite == [], "\n".join("%s (%s): %s" % (label, m, H.key_name(k))
                                     for label, m, k in opposite)


def test_more_of_tells_a_held_key_that_does_something_else():
    base = ((0,), [])
    bid = [BID30]
    # A bid, then the rest pass: more of the bid.
    assert H.more_of(base, ((1,), bid), ((2,), bid + [PASS, PASS]))
    # Set where OK takes made: another event.
    assert not H.more_of(base, ((1,), [MADE]), ((2,), [SET]))
    # The turn-up on show as a spade: its event with a flag more.
    assert H.more_of(base, ((1,), [0x0500000A]), ((2,), [0x0500001A]))
    # The short press moves on, the held one elsewhere (the other player's ending).
    assert not H.more_of(base, ((1,), []), ((2,), []))
    # Held, nothing more: the same as the short press, or nothing at all.
    assert H.more_of(base, ((1,), bid), ((1,), bid)) and H.more_of(base, ((1,), bid), base)


# Every line of every screen fits the 296x128 panel and the T5's 250x122
# (tests/kit/probes/mp_ui_fit.py, ui.text_overlaps), and the check finds a line that does not.
def test_no_text_overlaps_a_rule_or_a_text_and_none_is_cut():
    bad = F.check()
    assert bad == [], "\n".join("%s %s: %s %s" % b for b in bad)


def test_the_check_finds_what_does_not_fit():
    d = F.FitDisplay(250, 122)
    d.fill(WHITE)
    d.text("ok", 0, 0, BLACK)
    assert F.faults(d) == []
    d.text("a line too long for the T5 panel", 0, 20, BLACK)    # 32 columns: cut
    d.hline(0, 4, 10, BLACK)                                    # through "ok"
    d.text("x", 4, 4, BLACK)                                    # over "ok"
    d.fill_rect(0, 18, 20, 4, WHITE)                            # over the long line
    got = [what for what, _ in F.faults(d)]
    assert "under a box" in got and "over a rule" in got
    assert "over text 'x'" in got
    d.fill(WHITE)
    d.text("a line too long for the T5 panel", 0, 20, BLACK)
    assert F.faults(d) == [("cut", "a line too long for the T5 panel")]


def test_a_gin_pad_is_at_most_3_presses_from_a_first_power_on():
    n = M.setup_gin_from_power_on(SimDisplay())
    assert 0 < n <= 3, n


def test_a_long_footer_breaks_between_phrases_not_inside_one():
    from firmware.ui import draw as D
    d = F.FitDisplay(250, 122)      # 31 columns
    lines = D.help_lines(d, "<> bid  hold >: +5  hold <: 42/84\n"
                            "OK bid  hold OK: all pass, W must bid\nBACK undo  M menu")
    assert lines == ["<> bid  hold >: +5", "hold <: 42/84  OK bid",
                     "hold OK: all pass, W must bid", "BACK undo  M menu"], lines
    # Where every line fits, the lines as written.
    assert D.help_lines(d, "<> choose\nOK take it") == ["<> choose", "OK take it"]
