# The gin pads on the real firmware and the sim board: setting up each game, the typical
# hand in at most 10 presses, one list of every ending, refusals on the banner, undo with confirmation, history,
# game over, and the journal holding exactly what the screen shows.
from apphelp import boot, flash, on_flash, press, rows, same_state, start, text
from engine_core.gin import sitting as Gn
from firmware import transient
from firmware.codes import CONFIRM, HISTORY, HOME, OVER_SCREEN, RESULT, SETUP

GAMES = {"oklahoma-gin": 3, "sequence-gin": 2, "skarney-gin": 1}   # "prev" presses


def gin_sitting(game="oklahoma-gin", *options):
    a = boot()
    rows(a)
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
    # Who went out: both players side by side, each on its arrow's side.
    assert "< P1  went out?  P2 >" in text(a) and "<> who went out  OK neither" in text(a)
    n += press(a, "next")                               # P2, one under the limit
    assert "< P2 knocks 7 >" in text(a)
    n += press(a, "prev", "ok")                         # P2 knocks with 6
    assert a.screen == RESULT and "P1 is left with:" in text(a)
    # Only the players know P1's total: unset, no score line, OK saves nothing.
    assert "\n?\n" in text(a) and "P2 +" not in text(a)
    press(a, "ok")
    assert a.scorer.s.hands() == 0 and a.screen == RESULT and "not set yet" in a.banner
    n += press(a, "next")                               # the first arrow: 25
    assert a.cur == 25 and "knock stands: P2 +25" in text(a)
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
    press(a, "menu")
    assert "trick tracker: off" in text(a) and "another game" in text(a)
    press(a, "prev", "ok")                              # the menu's last item
    t = text(a)
    assert a.screen == SETUP and "What are we playing?" in t
    assert a.cur == 1 and "oklahoma-gin, game to 100" in t      # the other family's first
    press(a, "ok")
    assert a.scorer.s.rules.name == "oklahoma-gin" and a.screen == HOME
    assert a.scorer.s.phase() == Gn.TURNUP and "P1 deals" in text(a)
    # The menu of a gin pad: only what applies to it.
    press(a, "menu")
    t = text(a)
    assert "trick tracker" not in t and "42" not in t and "another game" in t
    press(a, "prev", "prev", "ok")                      # a new sitting, the same game
    assert a.screen == SETUP and "start: oklahoma-gin" in text(a)
    assert "marks" not in text(a) and "lowest bid" not in text(a)

def test_an_undercut_a_gin_and_a_drawout_through_the_buttons():
    a = gin_sitting()
    press(a, "ok")                                       # turn-up 10
    press(a, "next", "ok")                               # P2 knocks 9
    press(a, "long prev", "ok")                          # P1 left with 10 (held: 25 - 15)
    assert a.scorer.s.last(Gn.LAST_END) != Gn.END_UNDERCUT
    press(a, "ok", "next", "ok", "long prev", "long prev", "prev", "ok")   # 4: undercut
    assert a.scorer.s.last(Gn.LAST_END) == Gn.END_UNDERCUT
    press(a, "ok", "prev", "next", "next")     # turn-up 10: P1; past 10 comes gin
    assert "< P1 gin >" in text(a)
    press(a, "next")                           # and round again: a small knock is near
    assert "< P1 knocks 1 >" in text(a) and "hold <>: 2 a step" in text(a)
    assert "draw-out" not in text(a)           # P1 went out: no draw-out in P1's list
    press(a, "long prev")                      # held: 2 a step
    assert "< P1 knocks 10 >" in text(a)
    press(a, "next", "ok")
    assert "P1 gin" in text(a) and "\n?\n" in text(a)
    s = a.scorer.s
    before = s.score(0)
    press(a, "next", "long prev", "long prev", "ok")     # 35, held 5 a step: P2 has 25
    assert before == 25 and s.score(0) == 70
    press(a, "ok", "ok")                       # neither went out: a draw-out on show
    assert "< draw-out >" in text(a) and "OK take it" in text(a)
    press(a, "ok")
    assert s.hands() == 4 and s.score(0) == 70
    assert same_state(on_flash(a), a.scorer.s)


def test_a_total_the_cards_cannot_make_is_refused_on_the_banner():
    a = gin_sitting()
    press(a, "ok", "next", "ok")
    press(a, *["long next"] * 14)                       # 40, then 13 x 5: 105
    assert "not possible" in text(a)
    press(a, "ok")
    assert a.banner and "more than the cards allow" in a.banner
    assert a.scorer.s.hands() == 0 and a.screen == RESULT
    assert "a total of 105 is more than the" in text(a)
    press(a, "prev")                                    # the banner goes at the next press
    assert a.banner is None


def test_undo_of_a_finished_hand_asks_first_and_back_keeps_it():
    a = gin_sitting()
    press(a, "ok", "next", "ok", "next", "ok")
    assert a.scorer.s.hands() == 1
    press(a, "back")
    assert a.screen == CONFIRM and "knock stands, P2 +25" in text(a)
    press(a, "back")
    assert a.scorer.s.hands() == 1 and a.screen == HOME
    press(a, "back", "ok")
    assert a.scorer.s.hands() == 0 and a.scorer.s.phase() == Gn.HAND and a.scorer.s.score(1) == 0
    press(a, "back", "back")                            # how, who, then the turn-up
    assert a.scorer.s.phase() == Gn.TURNUP and a.screen == HOME
    assert same_state(on_flash(a), a.scorer.s)


def test_undo_keeps_what_was_keyed_in():
    # The trap: an undone hand had its ending and totals keyed in again from the defaults.
    a = gin_sitting()
    press(a, "prev", "prev", "ok", "next", "ok", "next", "next", "next", "ok")  # 8; P2 7; 27
    assert a.scorer.s.hands() == 1 and a.scorer.s.score(1) == 27
    press(a, "back", "ok")                              # undo it
    assert a.scorer.s.hands() == 0 and "< P2 knocks 7 >" in text(a)
    press(a, "ok")
    assert a.cur == 27 and "knock stands: P2 +27" in text(a)
    press(a, "back", "back", "back")                    # who, and the turn-up: again
    assert a.scorer.s.phase() == Gn.TURNUP and "turn-up < 8 >" in text(a)
    press(a, "ok", "next", "ok", "next", "prev", "ok")  # 8; P2 knocks 7; 24
    assert a.scorer.s.hands() == 1 and a.scorer.s.score(1) == 24
    assert same_state(on_flash(a), a.scorer.s)


def test_who_went_out_is_a_choice_before_how():
    # The trap: the list showed one player's endings and OK held took them for the other.
    a = gin_sitting()
    press(a, "prev", "prev", "ok")                      # turn-up 8
    assert "< P1  went out?  P2 >" in text(a) and "hold OK" not in text(a)
    press(a, "long ok")                                 # held OK is OK: neither went out
    assert "< draw-out >" in text(a) and a.scorer.s.hands() == 0
    press(a, "back", "prev")                            # P1 went out
    assert a.screen == HOME and "< P1 knocks 7 >" in text(a) and "hold OK" not in text(a)
    press(a, "long ok")
    assert a.screen == RESULT and "P1 knocks 7" in text(a) and "P2 is left with:" in text(a)
    press(a, "back")                                    # the ending kept, P1's
    assert a.screen == HOME and "< P1 knocks 7 >" in text(a)
    press(a, "long next")                               # held: 2 on, gin
    assert "< P1 gin >" in text(a)
    press(a, "back", "next")                            # P2 went out instead
    assert "< P2 knocks 7 >" in text(a)


def test_back_from_the_totals_keeps_the_ending():
    a = gin_sitting()
    press(a, "ok", "next", "prev", "prev", "ok", "back")
    assert a.screen == HOME and "< P2 knocks 7 >" in text(a)


def test_spade_doubles_with_a_held_ok_on_the_turnup():
    a = gin_sitting("oklahoma-gin", "next", "next", "ok", "next", "ok")   # spade doubles on
    assert a.scorer.s.rules.spade_doubles == 1 and "hold OK: a spade" in text(a)
    press(a, "long ok")
    assert a.scorer.s.spade() == 1 and a.scorer.s.turnup_rank() == 10
    press(a, "next", "ok", "next", "ok")
    assert a.scorer.s.score(1) == 50


def test_history_lists_each_hand_with_its_totals():
    a = gin_sitting()
    press(a, "prev", "prev", "ok", "next", "prev", "ok", "next", "prev", "prev", "ok")
    press(a, "ok", "prev", "next", "ok", "next", "ok")
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
    press(a, "next", "prev", "prev", "prev", "prev", "prev", "ok")     # P2 knocks 4
    press(a, "long prev", "long prev", "ok")            # P1 left with 5: no undercut
    press(a, "ok", "prev", "prev", "prev", "prev", "prev", "prev", "ok")   # P1 knocks 4
    press(a, "long prev", "long prev", "prev", "ok")    # P2 left with 4: undercut
    assert a.scorer.s.last(Gn.LAST_END) == Gn.END_UNDERCUT
    press(a, "menu", "next", "ok")
    t = text(a)
    assert " 1 K  P2 knocks 4: P2 +" in t, t
    assert " 2 10 P1 knocks 4: P2 undercuts +" in t, t


def test_skarney_gin_to_game_over_then_a_new_game():
    a = gin_sitting("skarney-gin")
    assert "< P1  went out?  P2 >" in text(a)
    press(a, "next")                                    # P2 gin, P1's meld down
    assert "< P2 gin, P1 melded >" in text(a)
    press(a, "ok")                                      # P1's cards in hand: unset
    assert "\n?\n" in text(a) and "P2 +" not in text(a)
    assert "<> 50  hold <>: 35/65" in text(a)           # where the first press goes
    press(a, "next")                                    # the middle of the usual range
    assert a.cur == 50 and "hold <>: 5" in text(a)
    press(a, *["long next"] * 5)                        # 75
    assert "gin: P2 +95" in text(a) and "hold OK" not in text(a)
    press(a, "ok")
    assert a.scorer.s.score(1) == 95
    press(a, "ok", "ok", "long next", "ok", "long next", "ok")
    assert a.scorer.s.hands() == 2 and a.scorer.s.score(0) == 0     # a draw-out 40-40
    press(a, "next", "next")                            # P2 gin, P1 no meld
    assert "< P2 gin, P1 no meld >" in text(a)
    press(a, "ok", "next", *["long next"] * 10)
    press(a, "ok")                                      # 100
    assert a.scorer.s.over() and a.scorer.s.winner() == 1 and a.screen == OVER_SCREEN
    assert a.scorer.s.score(1) == 95 + 100 + 40, a.scorer.s.score(1)
    press(a, "back", "ok")                              # undo reopens the game
    assert not a.scorer.s.over() and a.scorer.s.hands() == 2
    assert "< P2 gin, P1 no meld >" in text(a)          # as keyed before the undo
    press(a, "prev", "ok")                              # meld down after all
    assert a.cur == 100
    press(a, "ok")
    assert a.scorer.s.over() and a.scorer.s.score(1) == 95 + 120
    press(a, "ok")                  # out of habit: nothing but how to start one
    assert a.screen == OVER_SCREEN and "hold OK" in a.banner
    press(a, "long ok")             # a new sitting of the same game, at once
    assert a.screen == HOME and a.scorer.s.rules.name == "skarney-gin"
    assert a.scorer.s.hands() == 0 and a.scorer.s.score(1) == 0


def test_resume_after_a_restart_at_the_exact_state():
    nor = flash()
    a = boot(nor)
    press(a, "next", "next", "ok")                      # what we play: sequence-gin
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
        press(a, "next", "ok")                          # what we play: oklahoma-gin
        assert "turn-up < 10 >" in text(a)
        press(a, "prev", "prev", "ok", "next")
        assert "limit 8: " in text(a) and "< P2 knocks 7 >" in text(a)
        press(a, "prev", "ok", "next", "prev", "prev")
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
