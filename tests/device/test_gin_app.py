# The gin pads on the real firmware and the sim board: setting up each game, the typical
# hand in at most 10 presses, one list of every ending, refusals on the banner, undo with confirmation, history,
# game over, and the journal holding exactly what the screen shows.
from apphelp import boot, flash, on_flash, press, same_state, start, text
from engine_core.gin import sitting as Gn
from firmware import transient
from firmware.codes import CONFIRM, HISTORY, HOME, OVER_SCREEN, RESULT, SETUP

GAMES = {"oklahoma-gin": 3, "sequence-gin": 2, "skarney-gin": 1}   # "prev" presses


def gin_sitting(game="oklahoma-gin", *options):
    a = boot()
    press(a, "next", "ok")
    for _ in range(GAMES[game]):
        press(a, "prev")
    press(a, "ok")
    press(a, *options)
    start(a)
    assert a.scorer.s.rules.name == game, a.scorer.s.rules.name
    return a


def test_the_typical_oklahoma_hand_takes_at_most_10_presses():
    a = gin_sitting()
    assert a.screen == HOME and "turn-up < 10 >" in text(a)
    n = press(a, "prev", "prev", "ok")                  # turn-up 8
    assert a.scorer.s.phase() == Gn.HAND and "knock limit 8: the turn-up is 8" in text(a)
    # The dealer's opponent played first, one under the limit: the limit a press away.
    assert "< P2 knocks 7 >" in text(a)
    n += press(a, "prev", "ok")                         # P2 knocks with 6
    assert a.screen == RESULT and "P1 is left with:" in text(a)
    n += press(a, "prev", "prev")                       # 23
    assert "knock stands: P2 +23" in text(a)
    n += press(a, "ok")
    assert n <= 10 and a.screen == HOME
    assert a.scorer.s.score(0) == 0 and a.scorer.s.score(1) == 23 and a.scorer.s.hands() == 1
    assert same_state(on_flash(a), a.scorer.s)


def test_a_gin_pad_from_a_42_score_in_4_presses_with_its_own_words():
    # The trap: 12 presses, Oklahoma Gin the eighth game, "marks" and seats N and S.
    a = boot()
    press(a, "ok")                                      # a 42 sitting
    press(a, "menu", "prev", "ok")                      # the menu's last item: new gin pad
    t = text(a)
    assert a.screen == SETUP and "New gin pad" in t and "start: oklahoma-gin" in t
    assert "marks" not in t and "lowest bid" not in t and "P1 deals first" in t
    press(a, "ok")
    assert a.scorer.s.rules.name == "oklahoma-gin" and a.screen == HOME
    assert a.scorer.s.phase() == Gn.TURNUP and "P1 deals" in text(a)


def test_an_undercut_a_gin_and_a_drawout_through_the_buttons():
    a = gin_sitting()
    press(a, "ok")                                       # turn-up 10
    press(a, "ok")                                       # P2 knocks 9
    press(a, "long prev", "long prev", "prev", "ok")    # P1 left with 4: undercut
    assert a.scorer.s.score(0) == 25 and a.scorer.s.last(Gn.LAST_END) == Gn.END_UNDERCUT
    press(a, "ok", "next", "next")             # turn-up 10: P1 first; past 10 comes gin
    assert "< P1 gin >" in text(a)
    press(a, "next")                           # then the draw-out
    assert "< draw-out >" in text(a)
    press(a, "next")                           # and round again: a small knock is near
    assert "< P1 knocks 1 >" in text(a) and "hold <>: 2 a step" in text(a)
    press(a, "long prev")                      # held: 2 a step, over the draw-out
    assert "< P1 gin >" in text(a)
    press(a, "ok")
    assert "P1 gin" in text(a)
    press(a, "long prev", "ok")                # P2 has 25 (a gin starts at 35)
    assert a.scorer.s.score(0) == 70
    press(a, "ok", "long next", "next")                  # a draw-out: nobody scores
    assert "< draw-out >" in text(a)
    press(a, "ok")
    assert a.scorer.s.hands() == 3 and a.scorer.s.score(0) == 70 and a.scorer.s.score(1) == 0
    assert same_state(on_flash(a), a.scorer.s)


def test_a_total_the_cards_cannot_make_is_refused_on_the_banner():
    a = gin_sitting()
    press(a, "ok", "ok")
    press(a, "long next", "long next", "long next", "long next", "long next", "long next",
          "long next", "long next")                     # 105
    assert "not possible" in text(a)
    press(a, "ok")
    assert a.banner and "more than the cards allow" in a.banner
    assert a.scorer.s.hands() == 0 and a.screen == RESULT
    assert "a total of 105 is more than the" in text(a)
    press(a, "prev")                                    # the banner goes at the next press
    assert a.banner is None


def test_undo_of_a_finished_hand_asks_first_and_back_keeps_it():
    a = gin_sitting()
    press(a, "ok", "ok", "ok")
    assert a.scorer.s.hands() == 1
    press(a, "back")
    assert a.screen == CONFIRM and "knock stands, P2 +25" in text(a)
    press(a, "back")
    assert a.scorer.s.hands() == 1 and a.screen == HOME
    press(a, "back", "ok")
    assert a.scorer.s.hands() == 0 and a.scorer.s.phase() == Gn.HAND and a.scorer.s.score(1) == 0
    press(a, "back")                                    # the turn-up: no question
    assert a.scorer.s.phase() == Gn.TURNUP and a.screen == HOME
    assert same_state(on_flash(a), a.scorer.s)


def test_undo_keeps_what_was_keyed_in():
    # The trap: an undone hand had its ending and totals keyed in again from the defaults.
    a = gin_sitting()
    press(a, "prev", "prev", "ok", "ok", "next", "next", "ok")  # 8; P2 knocks 7; 27
    assert a.scorer.s.hands() == 1 and a.scorer.s.score(1) == 27
    press(a, "back", "ok")                              # undo it
    assert a.scorer.s.hands() == 0 and "< P2 knocks 7 >" in text(a)
    press(a, "ok")
    assert a.cur == 27 and "knock stands: P2 +27" in text(a)
    press(a, "back", "back")                            # and the turn-up: offered again
    assert a.scorer.s.phase() == Gn.TURNUP and "turn-up < 8 >" in text(a)
    press(a, "ok", "ok", "prev", "ok")                  # 8; P2 knocks 7; 24
    assert a.scorer.s.hands() == 1 and a.scorer.s.score(1) == 24
    assert same_state(on_flash(a), a.scorer.s)


def test_a_held_ok_takes_the_ending_on_show_for_the_other_player():
    a = gin_sitting()
    press(a, "prev", "prev", "ok")                      # turn-up 8
    assert "< P2 knocks 7 >" in text(a) and "hold OK: the same for P1" in text(a)
    press(a, "long ok")
    assert a.screen == RESULT and "P1 knocks 7" in text(a) and "P2 is left with:" in text(a)
    press(a, "back")                                    # the ending kept, P1's
    assert a.screen == HOME and "< P1 knocks 7 >" in text(a)
    assert "hold OK: the same for P2" in text(a)
    press(a, "long next")                               # held: 2 on, gin
    assert "< P1 gin >" in text(a)
    press(a, "next")                                    # the draw-out: no other player
    assert "< draw-out >" in text(a) and "hold OK" not in text(a)


def test_back_from_the_totals_keeps_the_ending():
    a = gin_sitting()
    press(a, "ok", "prev", "prev", "ok", "back")
    assert a.screen == HOME and "< P2 knocks 7 >" in text(a)


def test_spade_doubles_with_a_held_ok_on_the_turnup():
    a = gin_sitting("oklahoma-gin", "next", "next", "ok", "next", "ok")   # spade doubles on
    assert a.scorer.s.rules.spade_doubles == 1 and "hold OK: a spade" in text(a)
    press(a, "long ok")
    assert a.scorer.s.spade() == 1 and a.scorer.s.turnup_rank() == 10
    press(a, "ok", "ok")
    assert a.scorer.s.score(1) == 50


def test_history_lists_each_hand_with_its_totals():
    a = gin_sitting()
    press(a, "prev", "prev", "ok", "prev", "ok", "prev", "prev", "ok")
    press(a, "ok", "next", "ok", "ok")
    press(a, "menu", "next", "ok")
    assert a.screen == HISTORY
    t = text(a)
    assert " 1 8  P2 knocks 6: P2 +23" in t and " 2 10 P1 knocks 10: P1 +25" in t
    assert "P1-P2" in t.split("\n") and "25-23" in t.split("\n")    # the running points
    press(a, "ok")
    assert a.screen == HOME


def test_history_says_who_scored_an_undercut_and_shows_a_king_as_itself():
    # The trap: "N kn 3 v 2" said neither undercut nor who scored, and a king showed as 10.
    a = gin_sitting()
    press(a, "next", "next", "next", "ok")              # the turn-up: a king
    press(a, "prev", "prev", "prev", "prev", "prev", "ok")            # P2 knocks 4
    press(a, "long prev", "long prev", "ok")            # P1 left with 5: no undercut
    press(a, "ok", "prev", "prev", "prev", "prev", "prev", "ok")   # P1 knocks 4
    press(a, "long prev", "long prev", "prev", "prev", "ok")    # P2 left with 3: undercut
    assert a.scorer.s.last(Gn.LAST_END) == Gn.END_UNDERCUT
    press(a, "menu", "next", "ok")
    t = text(a)
    assert " 1 K  P2 knocks 4: P2 +" in t, t
    assert " 2 10 P1 knocks 4: P2 undercuts +" in t, t


def test_skarney_gin_to_game_over_then_a_new_game():
    a = gin_sitting("skarney-gin")
    assert "< P2 gin >" in text(a)
    press(a, "ok")                                      # P2 gin: P1's cards in hand
    assert a.cur == 50                                  # the middle of their usual range
    press(a, "long next", "long next", "next", "next", "next", "next", "next")    # 75
    # OK takes it with P1's contract meld down, OK held without.
    assert "gin: P2 +95" in text(a) and "OK: meld down" in text(a)
    assert "hold OK: no meld" in text(a)
    press(a, "ok")
    assert a.scorer.s.score(1) == 95
    press(a, "long next", "long next", "ok", "ok", "ok")   # a draw-out 25-25
    assert a.scorer.s.hands() == 2 and a.scorer.s.score(0) == 0
    press(a, "ok", "long next", "long next", "long next", "long next", "long next",
          "next", "next", "next", "next", "next", "long ok")    # P2 gin, 105, no meld
    assert a.scorer.s.over() and a.scorer.s.winner() == 1 and a.screen == OVER_SCREEN
    assert a.scorer.s.score(1) == 95 + 105 + 40
    press(a, "back", "ok")                              # undo reopens the game
    assert not a.scorer.s.over() and a.scorer.s.hands() == 2
    press(a, "ok")                  # P2 gin, as keyed before the undo
    assert a.cur == 105
    press(a, "ok")                  # meld down after all
    assert a.scorer.s.over() and a.scorer.s.score(1) == 95 + 125
    press(a, "ok")                  # out of habit: nothing but how to start one
    assert a.screen == OVER_SCREEN and "hold OK" in a.banner
    press(a, "long ok")
    assert a.screen == SETUP and "skarney-gin" in text(a)


def test_resume_after_a_restart_at_the_exact_state():
    nor = flash()
    a = boot(nor)
    press(a, "next", "ok", "prev", "prev", "ok")
    start(a)
    press(a, "ok", "ok", "ok", "ok")
    b = boot(nor)
    assert b.scorer.s.rules.name == "sequence-gin" and same_state(b.scorer.s, a.scorer.s)
    assert b.screen == HOME and b.scorer.s.phase() == Gn.HAND


def test_gin_option_errors_are_the_reloaded_options_modules():
    # The device unloads engine_core.texas42.options with the setup screen: a gin option check must
    # raise the OptionError of the options module loaded now, the one callers catch.
    from engine_core.texas42 import options as first
    first.resolve("oklahoma-gin", {"target": 50})   # the gin checks loaded
    transient.unload("engine_core.texas42.options")
    from engine_core.texas42 import options as now
    assert now is not first
    try:
        now.resolve("oklahoma-gin", {"bonus": True})
    except now.OptionError as e:
        assert str(e) == "option bonus does not apply to oklahoma-gin"
    else:
        assert False, "not refused"


def test_gin_screens_fit_other_panels():
    for w, h in ((250, 122), (200, 200)):
        a = boot(width=w, height=h)
        press(a, "next", "ok", "prev", "prev", "prev", "ok")
        start(a)
        assert "turn-up < 10 >" in text(a)
        press(a, "prev", "prev", "ok")
        assert "limit 8: " in text(a) and "< P2 knocks 7 >" in text(a)
        press(a, "prev", "ok", "prev", "prev")
        assert "knock stands: P2 +23" in text(a)
        press(a, "ok")
        assert a.scorer.s.score(1) == 23 and a.screen == HOME


def test_taking_a_gin_event_allocates_nothing():
    # The scorer's event path (check, code, journal, apply) under heap_lock.
    import micropython
    a = gin_sitting()
    s = a.scorer.s
    up = Gn.turnup(8)
    end = Gn.knock(1, 6, 23)
    micropython.heap_lock()
    try:
        ok = a.take(up)
        ok2 = a.take(end)
    finally:
        micropython.heap_unlock()
    assert ok and ok2 and s.score(1) == 23
    assert same_state(s, on_flash(a))
