# The held keys of a hand (firmware/ui/walk.py, contract.py, result.py): each does what
# its footer says, and what it records is on flash and one BACK from undone.
# MicroPython only: run with tests/mp_run.py (after test_display: the 32-bit heap).
from apphelp import boot, on_flash, press, same_state, start, text
from engine_core import codes as C
from engine_core.codes import PLAY, TRUMP
from engine_core.texas42.slots import LAST_CONTRACT, LAST_MADE, LAST_POINTS
from firmware.codes import BID, CONFIRM, CONTRACT, HOME, RESULT

M84 = C.MARKS + 2


def _code(a):
    return a.scorer.s.legal_at(a.cur)


def test_prev_held_jumps_to_42_then_84_then_back_to_pass():
    a = boot()
    press(a, "ok")                          # start: E bids on the score
    assert a.screen == HOME and "<> bid  hold >: +5  hold <: 42/84" in text(a)
    press(a, "long prev")
    assert _code(a) == 42 and "E bids < 42 >" in text(a)
    press(a, "long prev")
    assert _code(a) == M84 and "E bids < 84 >" in text(a)
    press(a, "long prev")                   # after the last mark bid: pass again
    assert _code(a) == C.PASS
    press(a, "next", "next", "long prev")   # from 31: 42
    assert _code(a) == 42
    assert a.scorer.s.hlen == 0                    # moving the cursor records nothing


def test_prev_held_on_the_bidding_screen_skips_a_mark_bid_already_passed():
    a = boot()
    press(a, "ok", "long prev", "ok")       # E bids 42 (one hold away)
    s = a.scorer.s
    assert s.high_value() == 42 and a.screen == BID
    assert "<> bid  hold >: +5  hold <: 42/84" in text(a)
    press(a, "long prev")                   # 42 stands: 84 is the next mark bid
    assert _code(a) == M84
    press(a, "ok")
    assert s.high_bid() == M84 and s.bidder() == 2 and s.seat() == 3


def test_next_held_steps_5_up_from_the_bid_shown_and_wraps():
    a = boot()
    press(a, "ok", "long next")             # pass counts as the lowest bid: 35
    assert _code(a) == 35
    press(a, "long next")
    assert _code(a) == 40
    press(a, "long next")                   # no number bid 45 or more: pass again
    assert _code(a) == C.PASS
    press(a, "next", "ok")                  # E bids 30: S is on pass
    assert a.screen == BID and _code(a) == C.PASS
    press(a, "long next")                   # 5 up from what is shown: 35, not 36
    assert _code(a) == 35 and "S bids" in text(a)
    press(a, "next", "next", "long next")   # 37: 42
    assert _code(a) == 42


def test_ok_held_says_how_the_auction_ends():
    a = boot()
    press(a, "ok")                          # E on pass: all pass, the dealer must bid
    assert "hold OK: all pass, N must bid" in text(a)
    press(a, "next")                        # E on 30: E bids it, the rest pass
    assert "hold OK: 30, rest pass" in text(a)
    press(a, "ok")                          # S on pass, 30 stands: E has it
    assert "hold OK: all pass, E has it" in text(a)
    press(a, "long ok")
    assert a.screen == CONTRACT and a.scorer.s.bidder() == 1
    b = boot()
    press(b, "ok", "long ok")               # all pass: N must bid, and may not pass
    s = b.scorer.s
    assert s.phase() == 0 and s.seat() == 0 and _code(b) != C.PASS
    assert "hold OK" not in text(b)          # the dealer bids last: no rest to pass


def test_ok_held_once_a_bid_stands_passes_for_the_rest():
    a = boot()
    press(a, "ok", "next", "ok")            # E bids 30
    s = a.scorer.s
    assert a.screen == BID and _code(a) == C.PASS
    press(a, "long ok")                     # S passes, and W and N
    assert s.phase() == TRUMP and s.bidder() == 1 and a.screen == CONTRACT
    assert same_state(s, on_flash(a))


def test_ok_held_on_trump_names_it_and_takes_the_hand_as_made():
    a = boot()
    press(a, "ok", "next", "long ok")       # E 30, the rest pass
    s = a.scorer.s
    assert a.screen == CONTRACT and "hold OK: and made" in text(a)
    press(a, "long ok")
    assert s.hands() == 1 and s.last(LAST_CONTRACT) == 3 and s.last(LAST_MADE) == 1
    assert s.score(1) == 1 and a.screen == HOME
    # A hand saved with no review says so on the score until the next press.
    assert "Them +1 mark: hand 1 saved, BACK undoes" in text(a).replace("\n", " ")
    press(a, "next")
    assert "saved" not in text(a)
    press(a, "prev")
    assert same_state(s, on_flash(a))
    # BACK takes the made back (after asking, as for any finished hand): the trump
    # stands and the result is asked for.
    press(a, "back")
    assert a.screen == CONFIRM
    press(a, "ok")
    assert s.hands() == 0 and s.phase() == PLAY and s.contract() == 3
    assert a.screen == RESULT and same_state(s, on_flash(a))
    press(a, "back")                        # and the trump: its screen again
    assert s.phase() == TRUMP and a.screen == CONTRACT


def test_back_right_after_a_held_save_undoes_it_at_once():
    # The score says `hand 1 saved, BACK undoes`: the next press, BACK, does just that;
    # once the note is gone, BACK asks first as for any finished hand.
    a = boot()
    press(a, "ok", "next", "long ok", "long ok")    # E 30, the rest pass, threes made
    s = a.scorer.s
    assert s.hands() == 1 and "BACK undoes" in text(a).replace("\n", " ")
    press(a, "back")
    assert s.hands() == 0 and a.screen == RESULT and same_state(s, on_flash(a))
    press(a, "long next")                           # set, held: saved and said
    assert s.hands() == 1 and s.last(LAST_MADE) == 0
    assert "BACK undoes" in text(a).replace("\n", " ")
    press(a, "next", "back")
    assert s.hands() == 1 and a.screen == CONFIRM


def test_no_held_key_on_trump_sets_the_hand():
    # The result on show is the trump; only OK held ends the hand, as made, and says so.
    a = boot()
    press(a, "ok", "next", "long ok")       # E 30, the rest pass
    s = a.scorer.s
    assert a.screen == CONTRACT and "hold OK: and made" in text(a)
    assert "set" not in text(a) and "hold <>: 3 a step" in text(a)
    press(a, "long prev")                   # 3 back from threes: blanks, nothing taken
    assert s.legal_at(a.cur) == 0 and s.phase() == TRUMP and s.hlen == 4
    press(a, "long next")
    assert s.legal_at(a.cur) == 3 and s.phase() == TRUMP


def test_the_trump_cursor_starts_on_threes_every_hand():
    a = boot()
    press(a, "ok", "next", "long ok", "next", "next", "ok", "prev")     # fives, made
    s = a.scorer.s
    assert s.hands() == 1 and s.last(LAST_CONTRACT) == 5
    press(a, "next", "long ok")             # S 30, the rest pass
    assert a.screen == CONTRACT and _code(a) == 3 and "the last hand" not in text(a)


def test_held_arrows_on_trump_in_a_points_game_step_3_either_way():
    a = boot()
    start(a, "next", "next", "ok", "next", "ok")    # scoring: points
    s = a.scorer.s
    press(a, "next", "long ok")
    assert a.screen == CONTRACT and "hold <>: 3 a step" in text(a)
    press(a, "long next")
    assert s.phase() == TRUMP and a.screen == CONTRACT and s.legal_at(a.cur) == 6
    press(a, "long prev", "long prev")
    assert s.legal_at(a.cur) == 0


def test_ok_held_on_trump_in_a_points_game_only_names_it():
    a = boot()
    start(a, "next", "next", "ok", "next", "ok")    # scoring: points
    s = a.scorer.s
    press(a, "next", "long ok")
    assert a.screen == CONTRACT and "hold: and made" not in text(a)
    press(a, "long ok")
    assert s.hands() == 0 and s.contract() == 3 and a.screen == RESULT


def test_the_result_shows_made_and_set_each_on_its_arrow():
    a = boot()
    press(a, "ok", "next", "long ok", "ok")     # E 30, the rest pass, threes
    s = a.scorer.s
    assert a.screen == RESULT and "< made   set >" in text(a)
    assert "< made  > set  OK track tricks" in text(a) and "hold OK" not in text(a)
    # Under each word what it gives: E/W bid, so made is Them +1, set Us +1.
    lines = text(a).split("\n")
    at = lines.index("< made   set >")
    assert lines[at + 1] == "Them +1 mark" and lines[at + 2].strip() == "Us +1 mark"
    press(a, "next")                        # > : set, at once
    assert s.hands() == 1 and s.last(LAST_MADE) == 0 and s.score(0) == 1
    assert a.screen == HOME and same_state(s, on_flash(a))
    press(a, "next", "long ok", "ok", "long prev")  # S 30, the rest pass, threes; < held
    assert s.hands() == 2 and s.last(LAST_MADE) == 1 and s.score(0) == 2
    assert same_state(s, on_flash(a))


def test_ok_on_the_result_tracks_the_tricks_and_saves_nothing():
    a = boot()
    press(a, "ok", "next", "long ok", "ok")     # E 30, the rest pass, threes
    s = a.scorer.s
    press(a, "long ok")                     # held: the same as OK
    assert s.hands() == 0 and a.scorer.hand_mode == 1 and a.screen != RESULT


def test_ok_held_on_a_points_result_takes_the_number():
    a = boot()
    start(a, "next", "next", "ok", "next", "ok")    # scoring: points
    s = a.scorer.s
    press(a, "next", "long ok", "ok")
    assert a.screen == RESULT and a.cur == -1
    press(a, "long ok")                     # `?`: nothing saved, held or not
    assert s.hands() == 0 and a.screen == RESULT
    press(a, "long next", "long prev")      # held first: 5 over the bid, then 5 down
    assert a.cur == 30
    press(a, "long ok")
    assert s.hands() == 1 and s.last(LAST_POINTS) == 30, (s.score(0), s.score(1))


def test_back_leaves_the_cursor_on_what_it_took_back():
    # A bid or a trump taken back is under the cursor again, to change by a press or two
    # (as the gin pads offer an undone turn-up again); the result after an undone hand too.
    a = boot()
    press(a, "ok", "next", "next", "next", "ok")    # E bids 32, on the score
    s = a.scorer.s
    assert a.screen == BID and s.high_value() == 32
    press(a, "back")                                # E's 32 taken back: E bids again
    assert a.screen == HOME and s.hlen == 0
    assert _code(a) == 32 and "E bids < 32 >" in text(a)
    press(a, "prev", "ok", "long prev", "ok")       # E 31, S 42
    assert s.high_value() == 42 and a.screen == BID and s.seat() == 3
    press(a, "back")                                # S's 42 taken back: 42 on show
    assert a.screen == BID and s.seat() == 2 and _code(a) == 42
    press(a, "ok", "long ok")                       # S 42, W and N pass
    assert a.screen == CONTRACT
    press(a, "long next", "ok")                     # S names 3 steps on from threes
    named = s.contract()
    assert s.phase() == PLAY and named == 6
    press(a, "back")
    assert a.screen == CONTRACT and _code(a) == named
    # Once another screen has entered, BACK's choice is forgotten: a new deal's first
    # bid starts on pass again.
    press(a, "ok", "next")                          # named again, set (>)
    assert s.hands() == 1 and a.screen == HOME and _code(a) == C.PASS
    assert s.last(LAST_MADE) == 0
    # A result taken back: made and set both on show again, each an arrow away.
    # The score says what was saved, `BACK undoes`: BACK does, at once.
    press(a, "back")                                # the set hand taken back
    assert a.screen == RESULT and s.hands() == 0 and "< made   set >" in text(a)
    press(a, "prev")
    assert s.hands() == 1 and s.last(LAST_MADE) == 1
    press(a, "next", "prev", "back", "ok")          # later, it asks: and the made one
    assert a.screen == RESULT and "< made   set >" in text(a)
    press(a, "next")
    assert s.hands() == 1 and s.last(LAST_MADE) == 0
    assert same_state(s, on_flash(a))
