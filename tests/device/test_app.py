# The firmware on the sim board: scripted presses in, screens and journal out.
# MicroPython only: run with tests/mp_run.py.
import micropython

from apphelp import rows, boot, flash, on_flash, pc_sets, press, same_state, start, text
from engine_core.header import decode_header, header_stamp
from engine_core.codes import BIDDING, PLAY, TRUMP
from engine_core.texas42.slots import LAST_BID, LAST_CONTRACT, LAST_MADE, LAST_THROWN
from firmware.codes import (BID, CONFIRM, CONTRACT, HISTORY, HOME, MENU_SCREEN, OVER_SCREEN,
                            RESULT, SETUP, SYNC, TRACKER)


# From the score at a fresh deal: new hand, the first seat bids 30 (one step from pass)
# and the rest pass (OK held), trump where the cursor starts, made.
HAND = ("next", "long ok", "ok", "prev")
HAND_SET = ("next", "long ok", "ok", "next", "ok")
from engine_core import codes as C
from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from firmware import start as S
from firmware import transient
from engine_core.journal.reader import JournalReader
import scratch


def test_first_boot_asks_what_we_play_and_remembers_it():
    path = scratch.path("settings-first")
    import os
    try:
        os.remove(path)
    except OSError:
        pass
    a = boot(settings=path)
    assert a.scorer.s is None and a.screen == SETUP
    t = text(a).split("\n")
    assert t[0] == "What are we playing?" and t[1] == "42, marks to 7"
    assert t[2:5] == ["oklahoma-gin, game to 100", "sequence-gin, game to 100",
                      "skarney-gin, game to 200"], t
    assert t[5] == "other games, house rules..." and "OK play it" in text(a)
    press(a, "next", "ok")                  # Oklahoma Gin, at once
    assert a.scorer.s.rules.name == "oklahoma-gin" and a.screen == HOME
    # Remembered: the next power-on with no sitting open starts on its rows.
    b = boot(settings=path)
    assert b.scorer.last_setup is not None
    assert header_name(b.scorer.last_setup) == "oklahoma-gin"
    os.remove(path)


def header_name(h):
    from engine_core.header import decode_header
    return decode_header(h)[0].name


def test_first_boot_offers_plain_42_for_marks_to_7():
    a = boot()
    assert a.scorer.s is None and a.screen == SETUP
    assert "42, marks to 7" in text(a)
    press(a, "ok")
    s = a.scorer.s
    assert s.rules.name == "42" and s.rules.scoring == V.MARKS and s.rules.target == 7
    assert a.screen == HOME
    assert a.scorer.journal.open_sitting() is not None
    assert "hand 1, N deals" in text(a) and "E bids < pass >" in text(a)


def test_typical_marks_hand_takes_4_presses():
    a = boot()
    press(a, "ok")
    fulls = a.fb.fulls
    # new hand, E bids 30 and S W N pass (OK held), trump (the cursor's), made
    n = press(a, *HAND)
    s = a.scorer.s
    assert n == 4
    assert s.hands() == 1 and s.score(1) == 1 and s.score(0) == 0
    assert s.last(LAST_BID) == 30 and s.last(LAST_MADE) == 1
    assert a.screen == HOME
    assert a.fb.fulls == fulls + 1      # the hand ended with a full refresh
    # Every pass is an event of its own on flash, as if passed one at a time.
    b = boot()
    press(b, "ok", "next", "ok", "ok", "ok", "ok", "ok", "prev")
    assert same_state(on_flash(a), on_flash(b))
    # The next hand, with another trump: one move more, the contract chosen shown.
    n = press(a, "next", "long ok", "next", "ok", "prev")
    assert n == 5 and s.hands() == 2
    assert s.last(LAST_CONTRACT) == 4


def test_the_first_seat_bids_on_the_score():
    a = boot()
    press(a, "ok")
    s = a.scorer.s
    assert a.screen == HOME and "E bids < pass >" in text(a) and "<> bid" in text(a)
    press(a, "next")
    assert a.screen == HOME and "E bids < 30 >" in text(a) and s.hlen == 0
    press(a, "ok")
    assert a.screen == BID and s.high_value() == 30 and s.seat() == 2
    press(a, "back")            # E's bid undone: the score again, the cursor on E's 30
    assert a.screen == HOME and s.high_bid() < 0 and s.legal_at(a.cur) == 30


def test_ok_out_of_habit_passes_before_the_opening_bid():
    # The trap: the cursor was on 30 before anyone bid, so OK to pass recorded a 30.
    a = boot()
    press(a, "ok", "ok")            # start, OK at E's bid on the score
    s = a.scorer.s
    assert s.high_bid() < 0 and s.seat() == 2 and a.screen == BID
    assert s.legal_at(a.cur) == C.PASS and "< 84   30 >" in text(a)
    f = on_flash(a)
    assert f.high_bid() < 0 and f.seat() == 2


def test_bid_cursor_starts_on_pass_and_offers_only_legal_bids():
    a = boot()
    press(a, "ok", "ok")            # start, E passes
    s = a.scorer.s
    assert a.screen == BID
    # No bid stands, passing is legal: the cursor is on pass, 30 one step on.
    assert s.legal_at(a.cur) == C.PASS and "bids: E pass" in text(a)
    press(a, "next")
    assert s.legal_at(a.cur) == 30
    press(a, "next", "next", "next", "next", "next", "ok")     # S bids 35
    assert s.high_value() == 35
    # A bid stands: the cursor is on pass, and every choice is legal.
    assert s.legal_at(a.cur) == C.PASS
    seen = []
    first = a.cur
    while True:
        code = s.legal_at(a.cur)
        assert s.check(C.event(C.EV_BID, code)) == 0, code
        seen.append(code)
        press(a, "next")
        if a.cur == first:
            break
    assert len(seen) == s.legal_count()
    assert 31 not in seen and 36 in seen and C.MARKS + 2 in seen and C.MARKS + 3 not in seen
    assert "< 84   36 >" in text(a)     # the screen says where each arrow leads
    press(a, "prev")
    assert s.legal_at(a.cur) == C.MARKS + 2     # wraps to the top bid, 84
    assert "bids: E pass, S 35" in text(a) and "2 marks" in text(a)


def test_forced_dealer_gets_no_pass_and_is_told_so():
    a = boot()
    press(a, "ok")
    s = a.scorer.s
    assert "dealer must bid" not in text(a)
    press(a, "ok", "ok", "ok")     # E, S, W pass
    assert s.seat() == 0 and s.phase() == BIDDING
    assert s.legal_at(a.cur) == 30
    assert "all passed: dealer must bid" in text(a)
    # The dealer bids last: OK held passes for nobody, and the footer does not offer it.
    assert "hold OK" not in text(a) and "OK bid  BACK undo  M menu" in text(a)
    j = s.next_legal(-1)
    while j >= 0:
        assert s.legal_at(j) != C.PASS
        j = s.next_legal(j)


def test_refusal_shows_the_reason_and_changes_nothing():
    a = boot()
    press(a, "ok")
    before = JournalReader(a.scorer.journal).sittings()[-1][3]
    press(a, "back")        # nothing to undo
    assert a.banner == "nothing to undo"
    assert "nothing to undo" in text(a)
    assert JournalReader(a.scorer.journal).sittings()[-1][3] == before
    assert a.scorer.s.hlen == 0 and a.screen == HOME
    press(a, "ok")          # the banner goes at the next press
    assert a.banner is None and "nothing to undo" not in text(a)
    assert a.screen == BID


def test_result_refused_when_it_contradicts_the_tracked_tricks():
    a = boot()
    press(a, "ok", "menu", "next", "next", "ok", "menu")     # trick tracker on
    assert a.scorer.tracker == 1
    press(a, "next", "long ok", "ok")     # E 30, passes, threes
    assert a.screen == TRACKER
    s = a.scorer.s
    # Opponents (N/S, "Us") take two tricks with 10 each: 22 points.
    press(a, "long next", "next", "next", "ok")
    press(a, "long next", "next", "next", "ok")
    assert s.side_points(False) == 22 and s.tricks_played() == 2
    # Leave tracking and claim made: only 20 points are left for the bidders.
    last = s.hlen
    from firmware.ui import tracker
    press(a, "prev")        # the last choice: enter a result
    assert tracker.item(s, a.cur)[0] == -2
    press(a, "ok")
    assert a.screen == RESULT
    press(a, "prev")        # < made
    assert a.banner is not None and "tracked" in a.banner
    assert s.hlen == last and s.phase() == PLAY
    press(a, "next")        # > set
    assert s.hands() == 1 and s.score(0) == 1


def test_trick_tracker_closes_the_hand_once_decided():
    a = boot()
    press(a, "ok", "menu", "next", "next", "ok", "menu")
    press(a, "next", "long ok", "ok")     # E 30 (Them), threes
    s = a.scorer.s
    # Them (the bidders) take 3 tricks with 10: 33 >= 30: made.
    for _ in range(3):
        assert "close" not in text(a)
        press(a, "next", "next", "ok")
    assert s.side_points(True) == 33
    assert "made: they cannot reach 13" in text(a)
    press(a, "ok")          # the cursor is on "close: made"
    assert s.hands() == 1 and s.score(1) == 1 and s.tricks_played() == 0
    assert a.screen == HOME


def test_trick_tracker_says_set_with_the_opponents_count():
    a = boot()
    press(a, "ok", "menu", "next", "next", "ok", "menu")
    press(a, "next", "long ok", "ok")
    s = a.scorer.s
    press(a, "long next", "next", "next", "ok")     # Us +10: 11
    press(a, "long next", "ok")                     # Us +0: 12
    assert "set" not in text(a)
    press(a, "long next", "ok")                     # 13: they cannot make 30
    assert "set: they have 13" in text(a)
    press(a, "ok")
    assert s.hands() == 1 and s.score(0) == 1


def test_undo_across_hands_asks_first():
    a = boot()
    press(a, "ok")
    press(a, *HAND)
    s = a.scorer.s
    assert s.hands() == 1 and a.screen == HOME
    assert "hand 1 saved, BACK undoes" in text(a).replace("\n", " ")
    press(a, "next", "prev")                # the note gone: BACK asks first
    press(a, "back")
    assert a.screen == CONFIRM and "Them +1 comes off" in text(a)
    assert s.hands() == 1
    press(a, "back")        # keep it
    assert a.screen == HOME and s.hands() == 1
    press(a, "back", "ok")  # undo it
    assert s.hands() == 0 and s.phase() == PLAY and s.score(1) == 0
    assert a.screen == RESULT
    # Back further, one event at a time, into the bidding.
    press(a, "back", "back")
    assert s.phase() == BIDDING and a.screen == BID and s.seat() == 0
    press(a, "ok", "ok", "next", "ok")      # N passes, threes, set
    assert s.hands() == 1 and s.score(0) == 1
    assert same_state(s, on_flash(a))


def test_screen_never_shows_what_is_not_on_flash():
    a = boot()
    checked = [0]
    show = a.fb.show

    def checking_show(full=False):
        if a.scorer.s is not None:
            assert same_state(a.scorer.s, on_flash(a))
            checked[0] += 1
        show(full)

    a.fb.show = checking_show
    press(a, "ok", *HAND)
    press(a, "next", "next", "ok", "long ok", "ok", "back", "back", "ok", "ok", "prev")
    assert checked[0] >= 15


def test_resume_after_a_restart_at_the_exact_state():
    nor = flash()
    a = boot(nor)
    press(a, "ok", *HAND)                                       # hand 1
    press(a, "next", "next", "ok", "ok")                         # hand 2: S 31, W passes
    b = boot(nor)
    assert same_state(a.scorer.s, b.scorer.s)
    assert b.screen == BID and b.scorer.s.seat() == 0 and b.scorer.s.high_value() == 31
    press(b, "ok", "ok", "ok", "prev")  # N and E pass, threes, made (<)
    assert b.scorer.s.hands() == 2 and b.scorer.s.score(0) == 1 and b.scorer.s.score(1) == 1
    c = boot(nor)
    assert same_state(b.scorer.s, c.scorer.s) and c.screen == HOME


def test_resume_keeps_undone_events_undone():
    nor = flash()
    a = boot(nor)
    press(a, "ok", "next", "ok", "ok", "back", "back")
    assert a.scorer.s.seat() == 1 and a.scorer.s.high_bid() < 0
    b = boot(nor)
    assert same_state(a.scorer.s, b.scorer.s) and b.screen == HOME


def test_points_result_starts_at_the_bid_and_says_made_or_set():
    a = boot()
    start(a, "next", "next", "ok", "next", "ok")        # scoring: points
    s = a.scorer.s
    assert s.rules.scoring == V.POINTS and s.rules.target == 250
    press(a, "next", "long ok", "ok")     # E 30, passes, threes
    # Only the players know the points taken: `?`, no verdict, OK saves nothing.
    assert a.screen == RESULT and "\n?\n" in text(a) and "bid 30:" not in text(a)
    press(a, "ok")
    assert s.hands() == 0 and a.screen == RESULT and "not set yet" in a.banner
    press(a, "next")                    # the first arrow: the bid
    assert a.cur == 30 and "bid 30: made" in text(a)
    press(a, "prev")
    assert a.cur == 29 and "bid 30: set" in text(a)
    press(a, "next", "next", "ok")      # took 31
    assert s.score(1) == 31 and s.score(0) == 11


def test_moon_tricks_entry_refuses_a_wrong_total():
    a = boot()
    start(a, "next", "ok", "next", "next", "ok")    # game: moon
    s = a.scorer.s
    assert s.rules.name == "moon" and s.seats == 3
    press(a, "next", "long ok", "ok")     # E bids 4, W N pass, threes
    assert a.screen == RESULT and "?" in text(a).split("\n") and "E made" not in text(a)
    press(a, "ok")                                  # E's tricks unset: nothing saved
    assert s.hands() == 0 and "not set yet" in a.banner
    press(a, "next")                                # the first arrow: the bid
    assert a.fields[1] == 4 and "only you know them" in text(a)   # W still unset
    press(a, "ok", "next", "next", "next", "next", "next", "ok")    # W 4: N would have -1
    assert a.banner is not None and "add up to 8, not 7" in a.banner
    assert s.phase() == PLAY and s.hands() == 0
    press(a, "prev", "ok")      # W 3, N 0
    assert s.hands() == 1
    assert s.score(1) == 4 and s.score(2) == 3 and s.score(0) == 0


def test_game_over_then_a_new_sitting():
    a = boot()
    press(a, "ok")
    s = a.scorer.s
    # Hands of 84 (2 marks) made by the opener's team, until one team has 7.
    while not s.over() and s.hands() < 8:
        press(a, "prev", "long ok", "ok", "prev")
    assert s.over() and a.screen == OVER_SCREEN
    assert s.score(s.winner()) >= 7
    assert "game over" in text(a)
    press(a, "back")
    assert a.screen == CONFIRM
    press(a, "back")
    assert a.screen == OVER_SCREEN
    first = a.scorer.journal.open_sitting()
    # The trap: OK pressed out of habit started a new sitting, and the last hand could no
    # longer be undone. It only says how to start one now.
    press(a, "ok")
    assert a.screen == OVER_SCREEN and a.scorer.s is s and a.scorer.journal.open_sitting() == first
    assert "hold OK" in a.banner and "no more undo" in a.banner
    press(a, "back")                # the last hand can still be undone
    assert a.screen == CONFIRM
    press(a, "back")
    assert "hold OK: new sitting" in text(a)
    press(a, "long ok", "ok")       # new sitting (OK held), same game
    assert a.scorer.s is not s and a.scorer.s.hands() == 0 and a.scorer.journal.open_sitting() != first
    assert [x[1] for x in JournalReader(a.scorer.journal).sittings()] == [True, False]


def _header_on_flash(a, sid):
    r = JournalReader(a.scorer.journal)
    buf = bytearray(256)
    n = r.next_event(r.cursor(sid), buf)
    return bytes(buf[:n])


def test_names_pushed_by_the_pc_go_into_each_new_sittings_header():
    a = boot()
    assert pc_sets(a, "names", "p", ["Ann", "Bob", "Cy", "Dé"]) is None  # as a sync does
    press(a, "ok")                  # start: 42, marks to 7
    head = _header_on_flash(a, a.scorer.journal.open_sitting())
    assert decode_header(head)[2] == ["Ann", "Bob", "Cy", "Dé"]
    assert a.scorer.names == ("Ann", "Bob", "Cy", "Dé")
    assert "Ann deals" in text(a) and "Bob bids" in text(a)
    # The next sitting set up keeps them; a game of 3 seats has none.
    press(a, "menu", "prev", "prev", "ok")
    assert a.screen == SETUP
    press(a, "ok")
    head = _header_on_flash(a, a.scorer.journal.open_sitting())
    assert decode_header(head)[2] == ["Ann", "Bob", "Cy", "Dé"]
    from firmware.ui import setup
    assert setup.setup_names(a, O.resolve("moon")) is None
    transient.unload("firmware.ui.setup")


def test_a_new_sitting_carries_a_random_id_and_the_clock():
    a = boot()
    press(a, "ok")
    uid, started, offset = header_stamp(_header_on_flash(a, a.scorer.journal.open_sitting()))
    # No clock set yet (the sim's run stands for a power-on): the seconds since it, and
    # the power-on's tag in place of a UTC offset (engine_core.stamp).
    from engine_core.stamp import power_on_tag
    assert 0 < uid < 1 << 30 and 1 <= started <= 3
    assert power_on_tag(offset) == a.clock.count()[1] >= 0
    assert pc_sets(a, "clock", 1796112755, -300) is None
    assert pc_sets(a, "clock", 1000, 0) is not None        # before 2024: refused
    press(a, "menu", "prev", "prev", "ok", "ok")
    uid2, started, offset = header_stamp(_header_on_flash(a, a.scorer.journal.open_sitting()))
    assert uid2 != uid and 0 < uid2 < 1 << 30
    assert 0 <= started - (1796112755 - 1704067200) <= 2 and offset == -300
    assert 0 <= a.clock.unix() - 1796112755 <= 2


def test_history_lists_each_hand_with_the_sides_of_its_score():
    a = boot()
    press(a, "ok")
    press(a, *HAND)
    press(a, "next", "long ok", "next", "ok", "next")
    press(a, "menu", "next", "ok")
    assert a.screen == HISTORY
    t = text(a).split("\n")
    assert "Us-Them" in t, t
    assert t.index(" 1 E 30 threes made") == t.index("0-1") + 1, t
    assert t.index(" 2 S 30 fours set") == t.index("0-2") + 1, t
    press(a, "ok")
    assert a.screen == HOME


def test_history_marks_a_forced_bid_and_a_hand_corrected_by_an_undo():
    a = boot()
    press(a, "ok", "long ok")           # start; E, S and W pass: N must bid
    press(a, "ok", "long ok")           # N 30, threes, made
    press(a, "next", "long ok", "long ok", "back", "next")     # S 30 made, undone: set
    press(a, "menu", "next", "ok")
    t = text(a).split("\n")
    assert " 1 N 30 threes made, forced" in t, t
    assert " 2 S 30 threes set, corrected" in t, t
    assert not [line for line in t if line.startswith(" 1") and "corrected" in line]


def test_a_corrected_hand_keeps_its_tags():
    # The trap: a forced hand set, undone and keyed made showed "made, corrected".
    a = boot()
    press(a, "ok", "long ok")           # start; E, S and W pass: N must bid
    press(a, "ok", "ok", "next")        # N 30, threes, set (>)
    press(a, "back", "prev")            # undone at once (the note), then made (<)
    assert a.scorer.s.hands() == 1
    press(a, "menu", "next", "ok")
    t = text(a).split("\n")
    assert " 1 N 30 3 made, forced, corrected" in t, t


def test_menu_sync_screen_shows_the_journal():
    a = boot()
    press(a, "ok", "menu", "next", "next", "next", "ok")
    assert a.screen == SYNC
    t = text(a)
    assert "not connected" in t and "sittings not yet on the PC: 1" in t
    press(a, "back")
    assert a.screen == HOME


def test_settings_persist():
    path = scratch.path("settings")
    import os
    try:
        os.remove(path)
    except OSError:
        pass
    a = boot(settings=path)
    start(a, "next", "next", "ok", "next", "ok")        # points
    press(a, "menu", "next", "next", "ok")      # tracker on
    b = boot(flash(), settings=path)            # a new device with the same settings
    assert b.screen == SETUP and "start: 42, points to 250" in text(b)
    assert b.scorer.tracker == 1
    os.remove(path)


def test_every_variant_can_be_set_up_and_played_a_hand():
    for k in range(len(V.NAMES)):
        a = boot()
        rows(a)
        press(a, "next", "ok")
        for _ in range(k):
            press(a, "next")
        press(a, "ok")
        start(a)
        s = a.scorer.s
        assert s.rules.variant == k
        press(a, "ok")
        guard = 0
        while s.hands() == 0 and guard < 60:
            # a marks result: made on < (OK would track the tricks)
            press(a, "prev" if a.screen == RESULT and "< made" in text(a) else "ok")
            guard += 1
            if a.banner:
                press(a, "next")
        assert s.hands() >= 1, V.NAMES[k]


def test_layouts_fit_other_panels():
    for w, h in ((250, 122), (200, 200)):
        a = boot(width=w, height=h)
        press(a, "ok", "next", "long ok", "ok", "prev")
        assert a.scorer.s.hands() == 1 and a.screen == HOME


def test_event_path_allocates_nothing():
    a = boot()
    press(a, "ok")
    s = a.scorer.s
    ev = C.event(C.EV_BID, 30)
    micropython.heap_lock()
    try:
        ok = a.take(ev)
        ok2 = a.take(C.event(C.EV_BID, C.PASS))
    finally:
        micropython.heap_unlock()
    assert ok and ok2 and s.high_value() == 30
    assert same_state(s, on_flash(a))


def test_crash_is_drawn_and_the_hands_stay():
    from boards.sim.board import Board

    class Broken:
        n = 0

        def poll(self, now):
            self.n += 1
            if self.n > 9:
                raise ValueError("button wiring fault")
            return 1 if self.n == 7 else 3     # ok ..., < (made), ok ...

    nor = flash()
    b = Board(nor, record=True)
    b.buttons = Broken()
    try:
        S.run(b)
        raised = False
    except ValueError:
        raised = True
    assert raised
    assert "ValueError: button wiring fault" in b.display.screen_text()
    c = boot(nor)
    assert c.scorer.s.hands() == 1


def test_a_long_press_of_ok_back_or_menu_acts_as_a_short_one():
    a = boot()
    press(a, "long ok")
    assert a.scorer.s is not None and a.screen == HOME
    press(a, "long menu")
    assert a.screen == MENU_SCREEN
    press(a, "long back")
    assert a.screen == HOME
    press(a, "long next")     # five bids up from 30 (and from pass), on the score
    assert a.scorer.s.legal_at(a.cur) == 35


def test_hold_ok_passes_for_the_rest_and_leaves_a_forced_dealer_to_bid():
    a = boot()
    press(a, "ok")
    s = a.scorer.s
    assert "hold OK: all pass, N must bid" in text(a)
    press(a, "long ok")             # E passes, and S and W; N (the dealer) must bid
    assert s.seat() == 0 and s.phase() == BIDDING and a.screen == BID
    assert a.banner is None and "dealer must bid" in text(a)
    assert s.legal_at(a.cur) == 30
    press(a, "next", "ok")          # N 31: the auction is over
    assert s.phase() == TRUMP and s.bidder() == 0 and s.high_value() == 31
    assert same_state(s, on_flash(a))


def test_hold_ok_with_all_pass_redeal_throws_the_hand_in():
    a = boot()
    start(a, "next", "next", "next", "next", "next", "ok", "next", "ok")    # all pass: redeal
    s = a.scorer.s
    assert s.rules.all_pass == V.REDEAL
    press(a, "long ok")
    assert s.hands() == 1 and s.last(LAST_THROWN) and a.screen == HOME


def test_setup_opens_at_the_top_with_start_and_only_the_options_that_apply():
    # The trap: setup opened scrolled to its bottom ("made scores ... points" in a marks
    # game, "scoring: marks" six rows up), saying "defaults: last game" on a new device.
    from firmware.ui import setup
    a = boot()
    rows(a)
    assert a.cur == 0 and a.top == 0
    t = text(a).split("\n")
    assert t[0] == "New 42 sitting" and t[1] == "usual rules"
    assert t[2] == "start: 42, marks to 7" and t[3] == "game" and t[5] == "scoring"
    assert "made scores" not in t and "nello doubles" not in t and "plunge marks" not in t
    assert "Us: N+S  Them: E+W, N deals first" in t
    keys = setup.rows(a)
    press(a, "next", "next", "ok", "next", "ok")        # scoring: points
    assert "made_scores" in setup.rows(a) and "nello" not in setup.rows(a)
    press(a, "ok", "prev", "ok")                        # back to marks
    assert setup.rows(a) == keys
    nello = keys.index("nello")
    press(a, *(["next"] * (nello - 2)))
    press(a, "ok", "next", "ok")                        # nello on: its doubles rule shows
    assert setup.rows(a)[nello + 1] == "nello_doubles"
    press(a, *(["prev"] * nello))
    assert a.cur == 0
    press(a, "ok")
    assert a.scorer.s.rules.nello == 1


def test_setup_after_a_sitting_says_its_choices_are_the_last_games():
    path = scratch.path("settings-last")
    import os
    try:
        os.remove(path)
    except OSError:
        pass
    a = boot(settings=path)
    press(a, "ok", "menu", "prev", "prev", "ok")  # menu, new sitting, same game
    assert a.screen == SETUP and "as last game" in text(a)
    assert "start: 42, marks to 7" in text(a)
    os.remove(path)


def test_score_and_result_say_which_seats_each_side_is():
    # The trap: "Us 0-0 Them" and "N deals" but nothing said Us = N/S.
    a = boot()
    press(a, "ok")
    t = text(a).split("\n")
    assert "Us N/S" in t and "Them E/W" in t
    press(a, "next", "long ok", "ok")
    assert a.screen == RESULT and "Them E/W:" in text(a)


def test_pushed_names_replace_the_seats_in_the_labels():
    a = boot()
    press(a, "ok")
    assert pc_sets(a, "names", "p", ["Ann", "Bob", "Cy", "Di"]) is None
    a.render()
    t = text(a).split("\n")
    assert "Ann/Cy" in t and "Bob/Di" in t
    pc_sets(a, "names", "t", ["Reds", "Blues"])
    a.render()
    t = text(a).split("\n")
    assert "Reds Ann/Cy" in t and "Blues Bob/Di" in t


def test_contract_starts_on_threes_every_hand_and_spells_follow_me():
    a = boot()
    press(a, "ok", "next", "long ok")
    assert a.scorer.s.legal_at(a.cur) == 3 and "follow-me" in text(a)
    assert "fm" not in text(a).split()
    press(a, "long prev", "prev", "ok", "prev")     # blanks, then follow-me: made
    assert a.scorer.s.last(LAST_CONTRACT) == C.FOLLOW_ME
    press(a, "next", "long ok")
    assert a.scorer.s.legal_at(a.cur) == 3


def test_every_long_press_is_said_in_words_on_its_screen():
    # Each screen's held keys in words ("hold >: 3 on"), never a bare "(hold: 3)" that
    # reads as "hold for threes"; tests/device/test_search.py checks every screen's keys.
    a = boot()
    rows(a)
    press(a, "next", "next", "ok")          # setup: editing the scoring
    assert "hold <>: 5 a step" in text(a)
    press(a, "ok", "prev", "prev", "ok")
    assert a.screen == HOME and "<> bid  hold >: +5  hold <: 42/84" in text(a)
    press(a, "next", "long ok")
    assert a.screen == CONTRACT and "<> choose  hold <>: 3 a step" in text(a)
    assert "set" not in text(a)
    assert "(hold: 3)" not in text(a) and "hold OK: and made" in text(a)
    press(a, "ok")
    assert a.screen == RESULT and "hold" not in text(a) and "< made  > set" in text(a)
    press(a, "back")
    press(a, "back", "back", "back", "back")     # to E's bid again
    press(a, "menu", "next", "next", "ok", "menu")     # trick tracker on
    press(a, "next", "long ok", "ok")
    assert a.screen == TRACKER and "hold <>: side" in text(a)
