# The gin pads (docs/rules.md section 6): scoring, options and every refusal, on CPython and
# the MicroPython unix port.
from array import array

from engine_core import errors as E
from engine_core.gin import sitting as Gn
from engine_core.gin import codec as gincodec
from engine_core.texas42 import options as O
from engine_core.codes import EV_UNDO
from engine_core.games import new_sitting
from ginrand import SETUPS, RandomGinPlayer
from randsit import play

A, J, Q, K = 1, 11, 12, 13
UNDO = EV_UNDO << 24


def sitting(variant="oklahoma-gin", dealer=0, **options):
    return new_sitting(O.resolve(variant, options), dealer)


def ok(s, *events):
    for ev in events:
        err = s.apply(ev)
        assert err == 0, s.reason(err, ev)


def refused(s, ev, err):
    before = bytes(s.st)
    hlen = s.hlen
    got = s.apply(ev)
    assert got == err, (got, err)
    assert bytes(s.st) == before and s.hlen == hlen     # nothing changed
    msg = s.reason(got, ev)
    assert msg and isinstance(msg, str)
    return msg


# ---- Oklahoma Gin scoring ----
def test_the_typical_hand_a_knock_that_stands_scores_the_opponents_total():
    s = sitting()
    assert s.phase() == Gn.TURNUP and s.dealer() == 0
    ok(s, Gn.turnup(8))
    assert s.phase() == Gn.HAND and s.limit() == 8
    ok(s, Gn.knock(1, 6, 23))
    assert s.score(0) == 0 and s.score(1) == 23     # D, not the difference
    assert s.last(Gn.LAST_END) == Gn.END_KNOCK and s.last(Gn.LAST_WINNER) == 1
    assert s.last(Gn.LAST_SEAT) == 1 and s.last(Gn.LAST_LIMIT) == 8
    assert s.hands() == 1 and s.dealer() == 1 and s.phase() == Gn.TURNUP


def test_a_gin_scores_20_and_the_opponents_total():
    s = sitting()
    ok(s, Gn.turnup(K), Gn.gin(0, 37))
    assert s.score(0) == 57 and s.last(Gn.LAST_POINTS) == 57
    assert s.last(Gn.LAST_END) == Gn.END_GIN


def test_an_undercut_scores_20_and_the_difference_to_the_opponent():
    s = sitting()
    ok(s, Gn.turnup(10), Gn.knock(0, 9, 5))
    assert s.score(1) == 24 and s.score(0) == 0
    assert s.last(Gn.LAST_END) == Gn.END_UNDERCUT
    assert s.last(Gn.LAST_SEAT) == 0 and s.last(Gn.LAST_WINNER) == 1


def test_equal_totals_are_an_undercut():
    s = sitting()
    ok(s, Gn.turnup(7), Gn.knock(1, 7, 7))
    assert s.score(0) == 20 and s.last(Gn.LAST_END) == Gn.END_UNDERCUT


def test_a_drawout_scores_nothing_and_the_deal_moves_on():
    s = sitting()
    ok(s, Gn.turnup(3), Gn.drawout())
    assert s.score(0) == s.score(1) == 0 and s.hands() == 1
    assert s.last(Gn.LAST_END) == Gn.END_DRAWOUT and s.last(Gn.LAST_WINNER) == -1
    assert s.dealer() == 1


def test_face_cards_turned_up_allow_a_knock_of_10_and_an_ace_of_1():
    s = sitting()
    ok(s, Gn.turnup(Q))
    assert s.limit() == 10
    ok(s, Gn.knock(0, 10, 30))
    ok(s, Gn.turnup(A))
    assert s.limit() == 1
    refused(s, Gn.knock(0, 2, 30), Gn.E_GIN_KNOCK_LIMIT)
    ok(s, Gn.knock(0, 1, 30))
    assert s.score(0) == 60


def test_the_game_ends_at_the_target_and_refuses_more():
    s = sitting(target=50)
    ok(s, Gn.turnup(10), Gn.gin(1, 20))
    assert not s.over()
    ok(s, Gn.turnup(10), Gn.knock(1, 2, 12))
    assert s.over() and s.winner() == 1 and s.phase() == Gn.OVER and s.score(1) == 52
    msg = refused(s, Gn.turnup(5), E.E_OVER)
    assert "over" in msg
    refused(s, Gn.drawout(), E.E_OVER)
    ok(s, UNDO)         # undo reopens the last hand
    assert not s.over() and s.score(1) == 40 and s.phase() == Gn.HAND


# ---- the checks ----
def test_a_hand_cannot_end_before_its_turnup():
    s = sitting()
    for ev in (Gn.gin(0, 10), Gn.knock(0, 3, 10), Gn.drawout()):
        msg = refused(s, ev, Gn.E_GIN_TURNUP_FIRST)
        assert "turn-up" in msg


def test_a_second_turnup_in_a_hand_is_refused():
    s = sitting()
    ok(s, Gn.turnup(4))
    assert "already" in refused(s, Gn.turnup(5), Gn.E_GIN_TURNUP_TAKEN)


def test_a_knock_over_the_limit_and_a_knock_of_0_are_refused():
    s = sitting()
    ok(s, Gn.turnup(8))
    msg = refused(s, Gn.knock(1, 9, 30), Gn.E_GIN_KNOCK_LIMIT)
    assert "9" in msg and "8" in msg
    assert "gin" in refused(s, Gn.knock(1, 0, 30), Gn.E_GIN_KNOCK_ZERO)


def test_totals_the_cards_cannot_make_are_refused():
    s = sitting()
    ok(s, Gn.turnup(10))
    assert "100" in refused(s, Gn.gin(0, 101), Gn.E_GIN_TOTAL)
    refused(s, Gn.knock(0, 5, 101), Gn.E_GIN_TOTAL)
    refused(s, Gn.knock(0, 101, 5), Gn.E_GIN_TOTAL)
    ok(s, Gn.gin(0, 100))
    assert s.score(0) == 120


def test_a_rank_that_is_no_card_is_refused():
    s = sitting()
    refused(s, Gn.turnup(0), Gn.E_GIN_RANK)
    refused(s, Gn.turnup(14), Gn.E_GIN_RANK)


def test_an_oklahoma_drawout_takes_no_totals_and_a_gin_no_contract():
    s = sitting()
    ok(s, Gn.turnup(6))
    refused(s, Gn.drawout(10, 20), Gn.E_GIN_TOTALS)
    refused(s, Gn.gin(0, 10, contract=0), Gn.E_GIN_CONTRACT)


def test_bonus_cards_need_sequence_gin_with_the_bonus_option():
    for variant in ("oklahoma-gin", "sequence-gin"):
        s = sitting(variant)
        ok(s, Gn.turnup(9))
        refused(s, Gn.knock(0, 5, 30, 1, 2), Gn.E_GIN_BONUS_OFF)
        refused(s, Gn.gin(0, 30, 1, 0, 3), Gn.E_GIN_BONUS_OFF)
    s = sitting("sequence-gin", bonus=True)
    ok(s, Gn.turnup(9))
    assert "10" in refused(s, Gn.knock(0, 5, 30, 11, 0), Gn.E_GIN_BONUS_MANY)
    refused(s, Gn.gin(0, 30, 1, 0, 11), Gn.E_GIN_BONUS_MANY)
    ok(s, Gn.knock(0, 5, 30, 10, 10))


def test_any_other_event_is_refused():
    s = sitting()
    from engine_core.codes import EV_BID, event
    refused(s, event(EV_BID, 30), E.E_BAD_EVENT)
    assert refused(s, UNDO, E.E_UNDO) == "nothing to undo"


# ---- Sequence Gin's bonus cards ----
def test_sequence_gin_without_bonus_scores_as_oklahoma():
    s = sitting("sequence-gin")
    ok(s, Gn.turnup(8), Gn.knock(1, 6, 23))
    assert s.score(1) == 23


def test_bonus_cards_lower_the_totals_for_the_score_only():
    s = sitting("sequence-gin", bonus=True)
    # A knock of 6 against 23: stands on the plain totals; the opponent's 3 bonus cards
    # bring the 23 to 20.
    ok(s, Gn.turnup(8), Gn.knock(1, 6, 23, 3, 0))
    assert s.score(1) == 20
    # An undercut is decided on plain totals (5 against 5), then 20 + (5-2 - 5) = 18.
    ok(s, Gn.turnup(8), Gn.knock(0, 5, 5, 2, 0))
    assert s.last(Gn.LAST_END) == Gn.END_UNDERCUT and s.score(1) == 38
    # 4 plain against 6: the knock stands though the knocker's bonus would not change it.
    ok(s, Gn.turnup(10), Gn.knock(0, 4, 6, 1, 0))
    assert s.last(Gn.LAST_END) == Gn.END_KNOCK and s.score(0) == 6
    # A gin: 20 + the opponent's total less its bonus cards, never below 0.
    ok(s, Gn.turnup(10), Gn.gin(0, 3, 1, 2, 5))
    assert s.last(Gn.LAST_POINTS) == 20


# ---- Skarney Gin ----
def test_skarney_gin_scores_the_opponents_hand_and_a_doubled_bonus_without_contract():
    s = sitting("skarney-gin")
    assert s.phase() == Gn.HAND     # no turn-up
    ok(s, Gn.gin(0, 75))
    assert s.score(0) == 95
    ok(s, Gn.gin(1, 75, contract=0))
    assert s.score(1) == 115


def test_skarney_gin_drawout_the_lower_total_scores_the_difference():
    s = sitting("skarney-gin")
    ok(s, Gn.drawout(30, 45))
    assert s.score(0) == 15 and s.last(Gn.LAST_WINNER) == 0
    ok(s, Gn.drawout(50, 20))
    assert s.score(1) == 30 and s.last(Gn.LAST_END) == Gn.END_DRAWOUT
    ok(s, Gn.drawout(40, 40))
    assert s.last(Gn.LAST_WINNER) == -1 and s.score(0) == 15 and s.score(1) == 30


def test_skarney_gin_refusals():
    s = sitting("skarney-gin")
    assert "no turn-up" in refused(s, Gn.turnup(5), Gn.E_GIN_NO_TURNUP)
    assert "knocking" in refused(s, Gn.knock(0, 5, 20), Gn.E_GIN_NO_KNOCK)
    refused(s, Gn.drawout(), Gn.E_GIN_TOTALS)
    assert "396" in refused(s, Gn.gin(0, 397), Gn.E_GIN_TOTAL)
    refused(s, Gn.drawout(397, 2), Gn.E_GIN_TOTAL)
    refused(s, Gn.gin(0, 30, 1, 1, 1), Gn.E_GIN_BONUS_OFF)
    ok(s, Gn.gin(1, 396))
    assert s.score(1) == 416


def test_skarney_gin_plays_to_200():
    s = sitting("skarney-gin")
    ok(s, Gn.gin(0, 150))
    assert not s.over()
    ok(s, Gn.gin(0, 10))
    assert s.over() and s.winner() == 0 and s.score(0) == 200


# ---- house options ----
def test_spade_doubles_doubles_the_hand_when_the_turnup_is_a_spade():
    s = sitting(spade_doubles=True)
    ok(s, Gn.turnup(8, spade=1), Gn.knock(1, 6, 23))
    assert s.score(1) == 46 and s.last(Gn.LAST_SPADE) == 1
    ok(s, Gn.turnup(8), Gn.knock(1, 6, 23))
    assert s.score(1) == 69
    plain = sitting()
    ok(plain, Gn.turnup(8, spade=1), Gn.knock(1, 6, 23))   # the option is off
    assert plain.score(1) == 23


def test_game_bonus_and_box_bonus_are_added_when_the_game_ends():
    s = sitting(target=60, game_bonus=100, box_bonus=25)
    ok(s, Gn.turnup(10), Gn.knock(0, 3, 20))     # seat 0: 20
    ok(s, Gn.turnup(10), Gn.knock(1, 3, 15))     # seat 1: 15
    ok(s, Gn.turnup(10), Gn.gin(0, 30))          # seat 0: 70, game
    assert s.over() and s.winner() == 0
    assert s.score(0) == 70 + 100 + 2 * 25 and s.score(1) == 15 + 25
    assert s.hand_points(0) == 70 and s.bonus(1) == 25 and s.won(0) == 2


def test_shutout_doubles_the_winners_whole_total_when_the_loser_has_nothing():
    s = sitting(target=80, game_bonus=100, box_bonus=25, shutout_doubles=True)
    ok(s, Gn.turnup(10), Gn.gin(0, 40), Gn.turnup(10), Gn.drawout())
    assert not s.over()
    ok(s, Gn.turnup(10), Gn.knock(0, 2, 30))
    assert s.over() and s.score(0) == 2 * (90 + 100 + 50) and s.score(1) == 0
    t = sitting(target=50, shutout_doubles=True)
    ok(t, Gn.turnup(10), Gn.knock(1, 2, 3), Gn.turnup(10), Gn.gin(0, 40))
    assert t.over() and t.score(0) == 60     # the loser scored: no doubling


def test_spade_doubling_comes_before_the_game_end_bonuses():
    s = sitting(target=30, spade_doubles=True, game_bonus=100)
    ok(s, Gn.turnup(5, spade=1), Gn.knock(0, 2, 20))
    assert s.over() and s.score(0) == 140 and s.last(Gn.LAST_POINTS) == 40


def test_deal_alternate_winner_loser():
    s = sitting(dealer=1)
    ok(s, Gn.turnup(10), Gn.gin(1, 5))
    assert s.dealer() == 0
    ok(s, Gn.turnup(10), Gn.drawout())
    assert s.dealer() == 1
    w = sitting(deal="winner")
    ok(w, Gn.turnup(10), Gn.gin(1, 5))
    assert w.dealer() == 1
    ok(w, Gn.turnup(10), Gn.knock(1, 9, 5))       # undercut: seat 0 wins and deals
    assert w.dealer() == 0
    ok(w, Gn.turnup(10), Gn.drawout())            # a draw-out: the same dealer again
    assert w.dealer() == 0
    lo = sitting(deal="loser")
    ok(lo, Gn.turnup(10), Gn.gin(0, 5))
    assert lo.dealer() == 1
    ok(lo, Gn.turnup(10), Gn.drawout())
    assert lo.dealer() == 1
    ok(lo, Gn.turnup(10), Gn.gin(1, 5))
    assert lo.dealer() == 0


def test_options_are_checked_and_listed_resolved():
    r = O.resolve("sequence-gin", {"bonus": True, "target": 150})
    assert r.to_dict() == {"target": 150, "knock_scores": "total", "gin_bonus": 20,
                           "undercut_bonus": 20, "ace_turnup": "knock",
                           "spade_doubles": False, "game_bonus": 0,
                           "box_bonus": 0, "shutout_doubles": False, "deal": "alternate",
                           "bonus": True}
    assert O.resolve("skarney-gin").to_dict()["target"] == 200
    assert "spade_doubles" not in O.resolve("skarney-gin").to_dict()
    bad = (("oklahoma-gin", {"bonus": True}, "does not apply"),
           ("skarney-gin", {"spade_doubles": True}, "does not apply"),
           ("oklahoma-gin", {"nello": True}, "does not apply"),
           ("oklahoma-gin", {"colour": 1}, "unknown option"),
           ("oklahoma-gin", {"target": 0}, "from 1"),
           ("oklahoma-gin", {"target": 12.5}, "whole number"),
           ("oklahoma-gin", {"deal": "dealer"}, "alternate, winner, loser"),
           ("oklahoma-gin", {"game_bonus": -1}, "from 0"),
           ("oklahoma-gin", {"shutout_doubles": 1}, "true or false"),
           ("42", {"spade_doubles": True}, "does not apply"),
           ("gin", {}, "oklahoma-gin"))
    for variant, options, words in bad:
        try:
            O.resolve(variant, options)
        except O.OptionError as e:
            assert words in str(e), (variant, options, str(e))
        else:
            assert False, (variant, options)


# ---- undo and the codec ----
def test_undo_equals_replay_without_the_last_event_on_random_gin_sittings():
    out = array("l", bytes(8 * 400))
    for k in range(len(SETUPS) * 2):
        variant, options = SETUPS[k % len(SETUPS)]
        rules = O.resolve(variant, options)
        s = new_sitting(rules, k % 2)
        n = play(s, RandomGinPlayer(k + 5, undo_rate=0), out, 400)
        assert n > 0 and s.over(), variant
        while n:
            n -= 1
            assert s.apply(UNDO) == 0
            fresh = new_sitting(rules, k % 2)
            i = 0
            while i < n:
                assert fresh.apply(out[i]) == 0
                i += 1
            assert bytes(fresh.st) == bytes(s.st), (variant, n)
        assert s.apply(UNDO) == E.E_UNDO


def test_a_long_sitting_compacts_its_history_and_goes_on():
    s = new_sitting(O.resolve("oklahoma-gin", {"target": 9999}), 0)
    i = 0
    while i < 400:
        ok(s, Gn.turnup(10), Gn.knock(i & 1, 5, 20))
        i += 1
    assert s.hands() == 400 and s.score(0) == 200 * 20 and s.hlen < 384
    ok(s, UNDO)
    assert s.phase() == Gn.HAND and s.hands() == 399


def test_every_event_codes_and_decodes_to_itself():
    evs = [Gn.turnup(r, sp) for r in range(1, 14) for sp in (0, 1)]
    for seat in (0, 1):
        for k in range(1, 11):
            evs.append(Gn.knock(seat, k, 100))
            evs.append(Gn.knock(seat, k, 0, 10, 3))
        for t in (0, 99, 255, 256, 396):
            evs.append(Gn.gin(seat, t))
            evs.append(Gn.gin(seat, t, 0))
        evs.append(Gn.gin(seat, 50, 1, 4, 10))
    evs += [Gn.drawout(), Gn.drawout(396, 0), Gn.drawout(255, 300), UNDO]
    buf = bytearray(3)
    for ev in evs:
        n = gincodec.encode_into(ev, buf, 0)
        assert 1 <= n <= 3 and gincodec.length_at(buf, 0) == n, hex(ev)
        assert gincodec.decode_at(buf, 0) == ev, hex(ev)
        assert buf[0] != 0xFF


def test_the_typical_oklahoma_hand_is_5_bytes_with_its_frame():
    import frames
    s = sitting()
    ok(s, Gn.turnup(8), Gn.knock(1, 6, 23))
    out = bytearray(16)
    assert frames.frame_into(s.hist, 0, s.hlen, out, 0) == 5


def test_the_gin_header_carries_every_option():
    from engine_core.header import decode_header, encode_header
    r = O.resolve("sequence-gin", {"bonus": True, "target": 1500, "game_bonus": 300,
                                   "box_bonus": 25, "deal": "loser", "spade_doubles": True,
                                   "shutout_doubles": True})
    rules, dealer, names = decode_header(encode_header(r, 1, ("Ann", "Bob")))
    assert rules.to_dict() == r.to_dict() and rules.name == "sequence-gin"
    assert dealer == 1 and names == ["Ann", "Bob"]
