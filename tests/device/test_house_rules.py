# The house rules of docs/rules.md on the real firmware and the sim board: each set up on
# the setup screen (its row shown only where it applies), played, and kept in the
# sitting's header on flash (the journal replayed gives the same state); the trick
# tracker's last trick, which must take the whole count left. MicroPython only.
from apphelp import boot, on_flash, press, rows, same_state, start, text
from engine_core import codes as C
from engine_core.gin import sitting as Gn
from engine_core.texas42 import slots as S
from firmware.codes import BID, CONTRACT, HOME, RESULT, SETUP, TRACKER
from firmware.ui import setup


def booted():
    """A fresh scorer on its setup rows (past the first power-on's question)."""
    a = boot()
    rows(a)
    return a


def set_row(a, key, *presses):
    """On the setup screen: the cursor to `key`'s row, the presses to change it, OK."""
    assert a.screen == SETUP
    n = 0
    while setup.rows(a)[a.cur] != key:
        press(a, "next")
        n += 1
        assert n < 30, key
    press(a, "ok", *presses)
    press(a, "ok")


def legal(s):
    out = []
    j = s.next_legal(-1)
    while j >= 0:
        out.append(s.legal_at(j))
        j = s.next_legal(j)
    return out


def choose(a, code):
    """The cursor of a bid or contract screen onto `code`, by presses."""
    s = a.scorer.s
    n = 0
    while s.legal_at(a.cur) != code:
        press(a, "next")
        n += 1
        assert n < 40, code


# ---- forced_min ----

def test_forced_min_shows_under_a_forced_all_pass_and_binds_the_forced_dealer():
    a = booted()
    assert "forced_min" in setup.rows(a)
    set_row(a, "all_pass", "next")                      # redeal: nobody is forced
    assert "forced_min" not in setup.rows(a)
    set_row(a, "all_pass", "next")
    set_row(a, "forced_min", "next")
    assert a.draft.forced_min == 31 and "forced bid from" in text(a)
    set_row(a, "forced_min", "prev", "prev", "prev")    # never under min_bid
    assert a.draft.forced_min == 30
    set_row(a, "forced_min", "next")
    start(a)
    s = a.scorer.s
    assert s.rules.forced_min == 31
    assert legal(s)[:2] == [C.PASS, 30]                 # E is not forced
    press(a, "ok", "ok", "ok")                          # E, S, W pass
    assert a.screen == BID and s.seat() == 0
    assert s.legal_at(a.cur) == 31 and 30 not in legal(s) and C.PASS not in legal(s)
    press(a, "ok", "ok")                                # N 31, sixes
    assert a.screen == RESULT
    press(a, "prev")                                    # < made
    assert s.hands() == 1 and s.score(0) == 1 and s.last(S.LAST_VALUE) == 31
    again = on_flash(a)
    assert again.rules.forced_min == 31 and same_state(again, s)


def test_min_bid_moves_forced_min_with_it():
    a = booted()
    set_row(a, "forced_min", "next")                    # 31
    set_row(a, "min_bid", "next", "next")               # 32: forced 33
    assert a.draft.min_bid == 32 and a.draft.forced_min == 33
    set_row(a, "min_bid", "long prev")                  # 27: forced 28
    assert a.draft.forced_min == 28
    start(a)
    assert a.scorer.s.rules.forced_min == 28 and a.scorer.s.rules.min_bid == 27


# ---- nello_min and nello_by ----

def test_nello_rows_show_with_nello_and_nello_min_30_names_nello_on_a_30():
    a = booted()
    assert "nello_min" not in setup.rows(a) and "nello_by" not in setup.rows(a)
    set_row(a, "nello", "next")
    assert "nello_min" in setup.rows(a) and "nello_by" in setup.rows(a)
    set_row(a, "nello_min", "next")                     # past 42: two marks
    assert a.draft.nello_min == 84
    set_row(a, "nello_min", "prev", "long prev", "long prev", "prev", "prev")
    assert a.draft.nello_min == 30 and "nello from bid" in text(a)
    start(a)
    s = a.scorer.s
    press(a, "next", "long ok")                         # E 30, the rest pass
    assert a.screen == CONTRACT and C.NELLO_HIGH in legal(s)
    choose(a, C.NELLO_HIGH)
    press(a, "ok")
    assert s.contract() == C.NELLO_HIGH
    assert same_state(on_flash(a), s)


def test_default_nello_min_keeps_nello_from_a_point_bid():
    a = booted()
    set_row(a, "nello", "next")
    start(a)
    press(a, "next", "long ok")                         # E 30
    assert a.screen == CONTRACT and C.NELLO_HIGH not in legal(a.scorer.s)
    assert a.scorer.take(C.EV_TRUMP << 24 | C.NELLO_HIGH) == 0
    assert "nello needs a bid of at least 42" in a.scorer.refusal


def test_nello_by_forced_dealer_only_after_three_passes():
    a = booted()
    set_row(a, "nello", "next")
    set_row(a, "nello_by", "next")
    assert a.draft.nello_by == 1 and "forced dealer" in text(a)
    start(a)
    s = a.scorer.s
    press(a, "ok", "ok", "ok", "ok")                    # passes; N is forced: 30
    assert a.screen == CONTRACT and s.bidder() == 0 and C.NELLO_HIGH in legal(s)
    choose(a, C.NELLO_HIGH)
    press(a, "ok")                                      # nello on a forced 30
    assert s.contract() == C.NELLO_HIGH
    assert a.take(C.EV_MADE << 24 | 1)
    a.follow()
    assert s.hands() == 1 and s.score(0) == 1           # a forced bid: one mark
    press(a, "next", "long ok")                         # hand 2: S bids 30 freely
    assert a.screen == CONTRACT and C.NELLO_HIGH not in legal(s)
    assert not a.take(C.EV_TRUMP << 24 | C.NELLO_HIGH)
    assert "nello is only for the dealer forced to bid" in a.banner
    assert same_state(on_flash(a), s)


# ---- Moon's min_bid ----

def test_moon_min_bid_runs_3_to_5():
    a = booted()
    set_row(a, "game", "next", "next")
    assert a.draft.name == "moon" and "min_bid" in setup.rows(a)
    set_row(a, "min_bid", "next", "next", "next")
    assert a.draft.min_bid == 5
    set_row(a, "min_bid", "prev", "prev", "prev", "prev")
    assert a.draft.min_bid == 3
    start(a)
    s = a.scorer.s
    assert s.rules.min_bid == 3 and legal(s)[:3] == [C.PASS, 3, 4]
    press(a, "next", "ok")                              # the first seat bids 3
    assert s.high_value() == 3
    assert same_state(on_flash(a), s)


# ---- the gin pads ----

def gin_setup(game_presses=("prev", "prev", "prev")):
    a = booted()
    set_row(a, "game", *game_presses)
    return a


def test_gin_rules_show_for_oklahoma_and_sequence_only():
    keys = ("knock_scores", "gin_bonus", "undercut_bonus", "ace_turnup")
    for presses, game, shown in ((("prev", "prev", "prev"), "oklahoma-gin", True),
                                 (("prev", "prev"), "sequence-gin", True),
                                 (("prev",), "skarney-gin", False)):
        a = gin_setup(presses)
        assert a.draft.name == game
        for key in keys:
            assert (key in setup.rows(a)) == shown, (game, key)


def test_hoyles_knock_and_gin_on_the_sim():
    a = gin_setup()
    set_row(a, "knock_scores", "next")
    set_row(a, "gin_bonus", *(["next"] * 7))             # at most 25
    set_row(a, "undercut_bonus", "next", "next")
    assert a.draft.knock_scores == 1 and a.draft.gin_bonus == 25
    assert a.draft.undercut_bonus == 22
    assert "difference" in text(a)
    start(a)
    s = a.scorer.s
    press(a, "prev", "prev", "ok")                      # turn-up 8
    press(a, "next", "prev", "ok")                      # P2 went out: knocks 6
    assert a.screen == RESULT
    press(a, "prev", "prev", "prev")                    # P1 is left with 23 (first: 25)
    assert "knock stands: P2 +17" in text(a)
    press(a, "ok")
    assert s.score(1) == 17 and a.screen == HOME
    assert a.take(Gn.turnup(8)) and a.take(Gn.gin(0, 10))
    assert s.score(0) == 35
    assert a.take(Gn.turnup(8)) and a.take(Gn.knock(0, 8, 5))     # undercut
    assert s.score(1) == 17 + 25
    again = on_flash(a)
    assert again.rules.knock_scores == 1 and again.rules.gin_bonus == 25
    assert same_state(again, s)


def test_ace_turnup_gin_asks_only_for_gin():
    a = gin_setup()
    set_row(a, "ace_turnup", "next")
    assert "gin only" in text(a)
    start(a)
    s = a.scorer.s
    press(a, "next", "next", "next", "next", "ok")      # 10 J Q K A
    assert s.turnup_rank() == 1 and not s.may_knock()
    press(a, "next")                                    # P2 went out
    assert "< P2 gin >" in text(a) and "2 a step" not in text(a)   # no knocks to step
    assert "gin only" in text(a)
    press(a, "next")                                    # nothing else to choose
    assert "< P2 gin >" in text(a)
    press(a, "back", "prev")                            # no: P1 went out
    assert "< P1 gin >" in text(a)
    assert not a.take(Gn.knock(1, 1, 20))
    assert "ace turn-up allows only gin" in a.banner
    assert a.take(Gn.gin(1, 20)) and s.score(1) == 40
    assert same_state(on_flash(a), s)


# ---- the trick tracker's last trick ----

def test_the_last_tracked_trick_must_take_the_count_left():
    a = booted()
    set_row(a, "scoring", "next")                       # points: no early close
    start(a)
    press(a, "menu", "next", "next", "ok", "menu")      # trick tracker on
    assert a.scorer.tracker == 1
    press(a, "next", "long ok", "ok")                   # E 30, sixes
    assert a.screen == TRACKER
    s = a.scorer.s
    for presses in (("next", "next", "ok"), ("next", "next", "ok"), ("next", "ok"),
                    ("ok",), ("long next", "next", "ok"), ("long next", "ok")):
        press(a, *presses)
    assert s.tricks_played() == 6 and s.count_caught() == 30
    assert "last trick takes the 5 count left" in text(a)
    press(a, "ok")                                      # the bidders, +0: refused
    assert s.tricks_played() == 6 and "the last trick must take the 5 count left" in a.banner
    press(a, "next", "ok")                              # +5
    assert s.hands() == 1 and s.score(1) == 35 and s.score(0) == 7
    assert same_state(on_flash(a), s)


# ---- pushed from the PC (tally42 sync --set) ----

def test_house_rules_pushed_from_the_pc_merge_into_the_next_setup():
    from engine_core.header import decode_header
    from firmware import nextsetup
    a = booted()
    assert nextsetup.update(a.scorer, {"min_bid": 32}, None) is None
    r = decode_header(a.scorer.last_setup)[0]
    assert r.min_bid == 32 and r.forced_min == 32       # it follows min_bid
    assert nextsetup.update(a.scorer, {"nello": True, "nello_min": 30, "forced_min": 34},
                            None) is None
    r = decode_header(a.scorer.last_setup)[0]
    assert r.nello == 1 and r.nello_min == 30 and r.forced_min == 34
    before = a.scorer.last_setup
    why = nextsetup.update(a.scorer, {"min_bid": 35}, None)
    assert "forced_min" in why and a.scorer.last_setup == before    # nothing changed
    assert nextsetup.update(a.scorer, {"nello": False}, None) is None   # its rules go too
    r = decode_header(a.scorer.last_setup)[0]
    assert r.nello == 0 and r.nello_min == 42
    assert nextsetup.update(a.scorer, {"variant": "oklahoma-gin", "knock_scores": "difference",
                                       "ace_turnup": "gin"}, None) is None
    r = decode_header(a.scorer.last_setup)[0]
    assert r.name == "oklahoma-gin" and r.knock_scores == 1 and r.ace_turnup == 1
