# Tests for engine_core.texas42.tricks: the trick rules of docs/rules.md and the worked examples of the
# seed texts. Plain asserts: pytest runs them on CPython, tests/mp_run.py on MicroPython.
from engine_core.codes import (
    DOUBLES,
    FOLLOW_ME,
    NELLO_HIGH,
    NELLO_LOW,
    NELLO_SUIT,
    N_CONTRACTS,
    SEVENS,
)
from engine_core.texas42.tricks import (
    NO_SUIT,
    can_play,
    count,
    follows,
    hi,
    is_double,
    is_trump,
    led_suit,
    lo,
    pips,
    tile,
    trick_winner,
)

BLANKS = 0
TWOS = 2
THREES = 3
FOURS = 4
FIVES = 5
SIXES = 6
SEVENS_SUIT = 7  # the suit of sevens (double-eight set), not the SEVENS contract


def _tiles(text):
    # "4-3 4-2 6-4" -> bytearray of tiles in play (or hand) order
    words = text.split()
    out = bytearray(len(words))
    for i in range(len(words)):
        w = words[i]
        out[i] = tile(int(w[0]), int(w[2]))
    return out


def _t(text):
    return tile(int(text[0]), int(text[2]))


def _winner(text, contract, lead_low=False):
    trick = _tiles(text)
    return trick_winner(trick, len(trick), contract, lead_low)


def _all_tiles(top):
    out = bytearray((top + 1) * (top + 2) // 2)
    k = 0
    for a in range(top + 1):
        for b in range(a + 1):
            out[k] = tile(a, b)
            k += 1
    return out


# Tiles


def test_tile_packs_high_end_first():
    assert tile(6, 4) == 0x64
    assert tile(4, 6) == 0x64
    assert tile(0, 0) == 0x00
    assert tile(8, 2) == 0x82
    assert hi(tile(1, 5)) == 5
    assert lo(tile(1, 5)) == 1
    assert pips(tile(6, 5)) == 11
    assert pips(tile(8, 8)) == 16
    assert is_double(tile(3, 3))
    assert not is_double(tile(3, 2))


def test_count_42_tiles():
    assert count(_t("6-4")) == 10
    assert count(_t("5-5")) == 10
    assert count(_t("5-0")) == 5
    assert count(_t("4-1")) == 5
    assert count(_t("3-2")) == 5
    assert count(_t("6-6")) == 0
    assert count(_t("0-0")) == 0
    assert count(_t("6-3")) == 0
    s = _all_tiles(6)
    total = 0
    counters = 0
    for i in range(len(s)):
        total += count(s[i])
        if count(s[i]):
            counters += 1
    assert len(s) == 28
    assert total == 35  # 35 count + 7 tricks = 42
    assert counters == 5


def test_count_big_game_tiles():
    assert count(_t("7-3")) == 10
    assert count(_t("8-2")) == 10
    assert count(_t("8-7")) == 0  # pips 15: not a counter in The Big Game
    assert count(_t("8-8")) == 0
    s = _all_tiles(8)
    total = 0
    counters = 0
    for i in range(len(s)):
        total += count(s[i])
        if count(s[i]):
            counters += 1
    assert len(s) == 45
    assert total == 55  # 55 count + 11 tricks = 66
    assert counters == 7


# Suits and the seed examples (002, 003, 000)


def test_led_tile_calls_its_higher_end():
    assert led_suit(_t("6-4"), BLANKS) == 6
    assert led_suit(_t("4-3"), BLANKS) == 4
    assert led_suit(_t("1-5"), BLANKS) == 5
    assert led_suit(_t("1-1"), BLANKS) == 1
    # "the 4:3 domino is a 4 unless threes are trumps"
    assert led_suit(_t("4-3"), THREES) == THREES
    assert led_suit(_t("4-3"), FOLLOW_ME) == 4


def test_seed_four_three_led_six_four_wins():
    # 003: lead 4-3, then 4-2, 4-1, 6-4: the 6-4 wins (6 beats 3, 2, 1)
    assert _winner("4-3 4-2 4-1 6-4", FOLLOW_ME) == 3
    assert _winner("4-3 4-2 4-1 6-4", BLANKS) == 3
    assert _winner("4-3 4-2 4-1 6-4", FIVES) == 3


def test_seed_twos_trump_four_two_wins():
    # 003: same trick with twos trump: the 4-2 wins
    assert _winner("4-3 4-2 4-1 6-4", TWOS) == 1


def test_seed_double_tops_its_suit():
    # 003: the 4-4 wins a four even over 6-4 and 5-4
    assert _winner("4-3 6-4 4-4 5-4", BLANKS) == 2
    assert _winner("4-3 6-4 5-4 4-1", BLANKS) == 1
    # 000: 6-4 led is the third six, after 6-6 and 6-5
    assert _winner("6-4 6-5 6-3", BLANKS) == 1
    assert _winner("6-4 6-3 6-6 6-5", BLANKS) == 2
    assert _winner("6-4 6-3 6-2 6-1", BLANKS) == 0


def test_seed_trump_order_fours():
    # 000: fours trump rank 4-4, 4-6, 4-5, 4-3, 4-2, 4-1, 4-0
    order = _tiles("4-4 6-4 5-4 4-3 4-2 4-1 4-0")
    pair = bytearray(2)
    for i in range(len(order)):
        for j in range(len(order)):
            if i == j:
                continue
            pair[0] = order[i]
            pair[1] = order[j]
            # the higher-ranked tile (lower index in order) wins, led or not
            expect = 0 if i < j else 1
            assert trick_winner(pair, 2, FOURS) == expect


def test_trump_beats_led_suit():
    assert _winner("6-4 6-6 5-0 6-3", FIVES) == 2
    assert _winner("6-4 6-6 5-0 5-5", FIVES) == 3
    assert _winner("6-1 6-6 0-0 6-5", BLANKS) == 2
    # off-suit, non-trump tiles never win, however high
    assert _winner("2-1 6-6 5-5 6-5", BLANKS) == 0


def test_seed_trump_is_not_a_four():
    # 003: with twos trump, 4-2 is a trump and not a four
    four = led_suit(_t("4-3"), TWOS)
    assert four == 4
    assert not follows(_t("4-2"), four, TWOS)
    assert follows(_t("4-2"), TWOS, TWOS)
    assert follows(_t("4-1"), four, TWOS)
    assert is_trump(_t("4-2"), TWOS)
    # holding 4-2 and 2-1 and no four, any tile may go
    hand = _tiles("4-2 2-1 6-6")
    assert can_play(hand, 3, _t("4-2"), four, TWOS)
    assert can_play(hand, 3, _t("2-1"), four, TWOS)
    assert can_play(hand, 3, _t("6-6"), four, TWOS)
    # holding another four, that four must be played: the 4-2 does not follow
    hand = _tiles("4-2 2-1 4-0")
    assert can_play(hand, 3, _t("4-0"), four, TWOS)
    assert not can_play(hand, 3, _t("4-2"), four, TWOS)
    assert not can_play(hand, 3, _t("2-1"), four, TWOS)


def test_seed_must_follow_one_one():
    # 003: 1-1 led; holding 1-5, 6-6, 5-5, 3-2, 3-0, 4-2, 5-0 the 1-5 must be played
    hand = _tiles("1-5 6-6 5-5 3-2 3-0 4-2 5-0")
    ones = led_suit(_t("1-1"), SIXES)
    assert ones == 1
    assert can_play(hand, 7, _t("1-5"), ones, SIXES)
    for i in range(1, 7):
        assert not can_play(hand, 7, hand[i], ones, SIXES)


def test_must_follow_trump_lead():
    hand = _tiles("6-0 5-5 3-1")
    sixes = led_suit(_t("6-1"), SIXES)
    assert sixes == SIXES
    assert can_play(hand, 3, _t("6-0"), sixes, SIXES)
    assert not can_play(hand, 3, _t("5-5"), sixes, SIXES)
    assert not can_play(hand, 3, _t("3-1"), sixes, SIXES)


def test_can_play_lead_and_held_tiles():
    hand = _tiles("6-0 5-5 3-1 2-2")
    assert can_play(hand, 4, _t("3-1"), NO_SUIT, SIXES)
    assert can_play(hand, 4, _t("5-5"), NO_SUIT, SIXES)
    assert not can_play(hand, 4, _t("4-4"), NO_SUIT, SIXES)  # not held
    # only the first n tiles are the hand
    assert not can_play(hand, 3, _t("2-2"), NO_SUIT, SIXES)
    assert not can_play(hand, 0, _t("6-0"), NO_SUIT, SIXES)
    # a two held only past n does not force following
    assert can_play(hand, 3, _t("5-5"), 2, SIXES)
    assert not can_play(hand, 4, _t("5-5"), 2, SIXES)


# Doubles trump


def test_doubles_trump_order():
    assert led_suit(_t("3-3"), DOUBLES) == DOUBLES
    assert led_suit(_t("6-5"), DOUBLES) == 6
    order = _tiles("6-6 5-5 4-4 3-3 2-2 1-1 0-0")
    pair = bytearray(2)
    for i in range(len(order)):
        for j in range(len(order)):
            if i != j:
                pair[0] = order[i]
                pair[1] = order[j]
                assert trick_winner(pair, 2, DOUBLES) == (0 if i < j else 1)
    assert _winner("3-3 6-6 8-8 7-7", DOUBLES) == 2  # double-eight set: 8-8 high
    assert _winner("6-5 6-4 0-0 6-3", DOUBLES) == 2  # any double trumps
    assert _winner("6-5 6-4 6-3", DOUBLES) == 0


def test_doubles_trump_six_highest_in_every_suit():
    # 003: doubles are in no suit, so the six is highest in every suit
    assert not follows(_t("5-5"), 5, DOUBLES)
    assert follows(_t("5-5"), DOUBLES, DOUBLES)
    assert not follows(_t("5-4"), DOUBLES, DOUBLES)
    assert _winner("5-4 5-3 6-5 5-1", DOUBLES) == 2
    hand = _tiles("5-5 6-1 2-0")
    assert can_play(hand, 3, _t("2-0"), 5, DOUBLES)  # 5-5 is no five: no five held
    assert not can_play(hand, 3, _t("6-1"), DOUBLES, DOUBLES)


# Follow-me and nello: no trump


def test_follow_me_has_no_trump():
    for c in (FOLLOW_ME, NELLO_HIGH, NELLO_LOW, NELLO_SUIT, SEVENS):
        assert not is_trump(_t("6-6"), c)
        assert not is_trump(_t("0-0"), c)
        assert not is_trump(_t("6-5"), c)
    assert _winner("5-1 6-6 6-4 5-0", FOLLOW_ME) == 0
    assert _winner("5-1 6-6 5-5 6-5", FOLLOW_ME) == 2
    assert _winner("2-0 3-3 2-1 1-0", FOLLOW_ME) == 2


def test_nello_doubles_high():
    assert led_suit(_t("4-4"), NELLO_HIGH) == 4
    assert _winner("4-1 6-4 4-4 5-4", NELLO_HIGH) == 2
    assert _winner("4-4 6-4 5-4", NELLO_HIGH) == 0
    assert _winner("4-1 6-6 4-2", NELLO_HIGH) == 2


def test_nello_doubles_low():
    assert led_suit(_t("4-4"), NELLO_LOW) == 4
    assert follows(_t("4-4"), 4, NELLO_LOW)
    assert _winner("4-1 4-4", NELLO_LOW) == 0
    assert _winner("4-4 4-0", NELLO_LOW) == 1
    assert _winner("4-4 6-6 3-0", NELLO_LOW) == 0  # still beats tiles off the suit
    assert _winner("4-1 4-4 4-0 4-2", NELLO_LOW) == 3


def test_nello_doubles_a_suit():
    assert led_suit(_t("2-2"), NELLO_SUIT) == DOUBLES
    assert led_suit(_t("4-2"), NELLO_SUIT) == 4
    assert not follows(_t("4-4"), 4, NELLO_SUIT)
    assert follows(_t("4-4"), DOUBLES, NELLO_SUIT)
    assert not follows(_t("5-2"), DOUBLES, NELLO_SUIT)
    # a four led: the 4-4 is no four and cannot take it
    assert _winner("4-1 4-4 4-0", NELLO_SUIT) == 0
    # a double led: the doubles are a suit ranked by pips
    assert _winner("2-2 1-1 5-5 6-5", NELLO_SUIT) == 2
    assert _winner("2-2 6-2 0-0 2-1", NELLO_SUIT) == 0
    # following: a held double must follow a double lead; a double does not follow a four
    hand = _tiles("3-3 5-2 4-4")
    assert can_play(hand, 3, _t("3-3"), DOUBLES, NELLO_SUIT)
    assert not can_play(hand, 3, _t("5-2"), DOUBLES, NELLO_SUIT)
    hand = _tiles("4-4 4-0 6-6")
    assert can_play(hand, 3, _t("4-0"), 4, NELLO_SUIT)
    assert not can_play(hand, 3, _t("4-4"), 4, NELLO_SUIT)
    hand = _tiles("4-4 6-6 3-1")
    assert can_play(hand, 3, _t("4-4"), 4, NELLO_SUIT)


# Sevens


def test_sevens_nearest_seven_wins():
    assert _winner("6-6 2-1 4-3", SEVENS) == 2  # suits do not matter
    assert _winner("6-2 5-0", SEVENS) == 0  # one away beats two away
    assert _winner("5-0 6-2", SEVENS) == 1
    assert _winner("6-6 0-0 6-5", SEVENS) == 2  # 12 and 0 are 5 and 7 away, 11 is 4
    assert _winner("8-8 6-6", SEVENS) == 1


def test_sevens_ties_go_to_the_first_played():
    assert _winner("4-3 6-1 5-2", SEVENS) == 0
    assert _winner("6-6 6-1 4-3 5-2", SEVENS) == 1
    assert _winner("6-0 6-2", SEVENS) == 0  # six and eight are both one away
    assert _winner("6-2 6-0", SEVENS) == 0
    assert _winner("3-3 6-0 6-1 4-3", SEVENS) == 2


def test_sevens_plays_nearest_first():
    hand = _tiles("5-5 6-1 0-0 4-3")
    assert can_play(hand, 4, _t("6-1"), NO_SUIT, SEVENS)
    assert can_play(hand, 4, _t("4-3"), 6, SEVENS)
    assert not can_play(hand, 4, _t("5-5"), 5, SEVENS)
    assert not can_play(hand, 4, _t("0-0"), NO_SUIT, SEVENS)
    hand = _tiles("5-5 6-0 0-0")
    assert can_play(hand, 3, _t("6-0"), 5, SEVENS)
    assert not can_play(hand, 3, _t("5-5"), 5, SEVENS)


# The Big Game: 3-7 and 2-8 led as their lower end


def test_lead_low_three_seven():
    assert led_suit(_t("3-7"), SIXES) == SEVENS_SUIT
    assert led_suit(_t("3-7"), SIXES, True) == THREES
    assert led_suit(_t("3-7"), SIXES, lead_low=True) == THREES
    # led as a seven the 7-5 takes it; led as a three the 7-5 does not follow
    assert _winner("3-7 7-5 3-1", SIXES) == 1
    assert _winner("3-7 7-5 3-1", SIXES, True) == 0
    # 000: led low it is the third three, under 3-3 and 3-8
    assert _winner("3-7 3-6 3-8", BLANKS, True) == 2
    assert _winner("3-7 3-3 3-8", BLANKS, True) == 1
    assert _winner("3-7 3-6 3-5", BLANKS, True) == 0


def test_lead_low_two_eight():
    assert led_suit(_t("2-8"), BLANKS) == 8
    assert led_suit(_t("2-8"), BLANKS, True) == TWOS
    assert _winner("2-8 8-8 2-1", BLANKS, True) == 0  # second two, 8-8 is no two
    assert _winner("2-8 2-1 2-2", BLANKS, True) == 2
    assert _winner("2-8 8-8 2-1", BLANKS) == 1
    assert follows(_t("2-1"), led_suit(_t("2-8"), FIVES, True), FIVES)
    assert not follows(_t("8-1"), led_suit(_t("2-8"), FIVES, True), FIVES)


def test_lead_low_refused_elsewhere():
    # only the 3-7 and 2-8, and only when not trump
    assert led_suit(_t("6-4"), BLANKS, True) == 6
    assert led_suit(_t("7-4"), BLANKS, True) == 7
    assert led_suit(_t("8-3"), BLANKS, True) == 8
    assert led_suit(_t("3-7"), THREES, True) == THREES
    assert led_suit(_t("3-7"), SEVENS_SUIT, True) == SEVENS_SUIT
    assert led_suit(_t("2-8"), 8, True) == 8
    assert _winner("6-4 6-5 4-4", BLANKS, True) == 1  # a four lead would go to 4-4
    assert _winner("3-7 7-7 3-3", THREES, True) == 2  # a trump lead stays trump


# Two-set games: two identical tiles, the first played ranks higher


def test_identical_tiles_first_played_wins():
    assert _winner("6-5 6-6 6-4 6-6", BLANKS) == 1
    assert _winner("6-5 5-5 5-0 5-5", FIVES) == 1
    assert _winner("4-3 4-3", FOLLOW_ME) == 0
    assert _winner("4-3 2-0 4-3", TWOS) == 1
    assert _winner("2-1 3-3 0-0 3-3", DOUBLES) == 1
    assert _winner("4-2 4-3 4-3", NELLO_HIGH) == 1
    assert _winner("2-1 4-3 4-3", SEVENS) == 1


def test_empty_trick_has_no_winner():
    assert trick_winner(bytearray(4), 0, SIXES) == -1


# Allocation: the event path must run under micropython.heap_lock()


def test_no_allocation_under_heap_lock():
    try:
        import micropython
    except ImportError:
        return
    trick = _tiles("3-7 7-5 3-1 3-8")
    hand = _tiles("1-5 6-6 5-5 3-2 3-0 4-2 5-0")
    four_three = _t("4-3")
    one_five = _t("1-5")
    total = 0
    ok = True
    micropython.heap_lock()
    try:
        for _ in range(20):
            for c in range(N_CONTRACTS):
                total += trick_winner(trick, 4, c)
                total += trick_winner(trick, 4, c, True)
                total += trick_winner(trick, 4, c, lead_low=True)
                total += led_suit(four_three, c) + led_suit(four_three, c, True)
                if can_play(hand, 7, one_five, 1, c):
                    total += 1
                if follows(one_five, 5, c):
                    total += 1
                total += count(one_five) + pips(one_five) + hi(one_five) + lo(one_five)
                if is_double(hand[1]) and is_trump(hand[1], c):
                    total += 1
                total += tile(4, 6) & 1
    except MemoryError:
        ok = False
    finally:
        micropython.heap_unlock()
    assert ok
    assert total == _expected_total(trick, hand, four_three, one_five)


def _expected_total(trick, hand, four_three, one_five):
    # the same sums outside the lock, so the locked loop is checked to have done the work
    total = 0
    for c in range(N_CONTRACTS):
        total += trick_winner(trick, 4, c) + 2 * trick_winner(trick, 4, c, True)
        total += led_suit(four_three, c) + led_suit(four_three, c, True)
        total += 1 if can_play(hand, 7, one_five, 1, c) else 0
        total += 1 if follows(one_five, 5, c) else 0
        total += count(one_five) + pips(one_five) + hi(one_five) + lo(one_five)
        total += 1 if is_double(hand[1]) and is_trump(hand[1], c) else 0
        total += tile(4, 6) & 1
    return 20 * total
