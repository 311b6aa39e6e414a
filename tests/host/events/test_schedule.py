"""Event schedules are fair: round robin pairings, progressive partners, and a
double-elimination bracket that always ends with one winner."""
import random

from host_tools.events import bracket as B
from host_tools.events import schedule as S


def test_round_robin_every_pairing_once():
    for n in range(2, 18):
        rounds = S.round_robin(n)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        met = set()
        byes = []
        for pairs in rounds:
            teams = [t for p in pairs for t in p if t is not None]
            assert sorted(teams) == list(range(n)), "a team twice (or missing) in a round"
            for a, b in pairs:
                if b is None:
                    byes.append(a)
                else:
                    key = frozenset((a, b))
                    assert key not in met, "a pairing twice"
                    met.add(key)
        assert len(met) == n * (n - 1) // 2
        # Byes when odd: each team sits out exactly once.
        assert sorted(byes) == (list(range(n)) if n % 2 else [])


def test_round_robin_tables_split_byes():
    tables, byes = S.round_robin_tables(5)[0]
    assert len(tables) == 2 and len(byes) == 1


def _check_progressive(n, rounds, sched):
    sat = [0] * n
    for tables, out in sched:
        seated = [p for t in tables for side in t for p in side]
        assert len(seated) == len(set(seated)) == n - n % 4
        assert sorted(seated + out) == list(range(n))
        for p in out:
            sat[p] += 1
    # Sitting out goes round: nobody sits out twice before everyone has once.
    assert max(sat) - min(sat) <= 1


def test_progressive_no_partner_twice_within_n_minus_1_rounds():
    for n in range(4, 18):
        for rounds in sorted({min(n - 1, 7), n - 1}):
            sched = S.progressive(n, rounds)
            _check_progressive(n, rounds, sched)
            assert S.partner_bound(n, rounds) == 0
            assert S.partner_repeats(sched) == 0, (n, rounds)


def test_progressive_beyond_n_minus_1_rounds_near_the_bound():
    for n in range(4, 18):
        rounds = n + 2
        sched = S.progressive(n, rounds)
        _check_progressive(n, rounds, sched)
        bound = S.partner_bound(n, rounds)
        assert bound > 0 or n % 4
        assert bound <= S.partner_repeats(sched) <= bound + 1, (n, rounds)


def test_progressive_is_repeatable():
    assert S.progressive(10, 6) == S.progressive(10, 6)
    assert S.progressive(10, 6, seed=1) != S.progressive(10, 6, seed=2)


def _play_out(b, rng, best_of=1):
    winners = {}
    played = 0
    while True:
        st = b.state(winners)
        if st["champion"] is not None:
            return st, played
        todo = [m for m in b.played() if st["needed"][m] and m not in st["winner"]
                and None not in st["teams"][m]]
        assert todo, "the bracket is stuck without a champion"
        m = rng.choice(todo)
        a, c = st["teams"][m]
        assert a != c
        winners[m] = rng.choice((a, c))
        played += 1


def test_bracket_ends_with_one_winner_whatever_the_results():
    for n in range(2, 34):
        b = B.Bracket(n)
        for trial in range(20):
            st, played = _play_out(b, random.Random(n * 100 + trial))
            losses = st["losses"]
            alive = [t for t in losses if losses[t] < 2]
            assert alive == [st["champion"]]
            # Everyone else lost twice: 2(n-1) matches, plus the reset when it was needed.
            assert played == 2 * (n - 1) + (1 if st["needed"][("GF", 2, 0)] else 0)


def test_bracket_reset_only_when_the_losers_side_wins():
    b = B.Bracket(4)
    w = {}
    st = b.state(w)
    for m in b.played():
        st = b.state(w)
        if m == ("GF", 2, 0):
            break
        a, c = st["teams"][m]
        w[m] = c if m == ("GF", 1, 0) else a
    st = b.state(w)
    assert st["needed"][("GF", 2, 0)] and st["champion"] is None
    a, c = st["teams"][("GF", 2, 0)]
    w[("GF", 2, 0)] = c
    assert b.state(w)["champion"] == c
    w2 = dict(w)
    del w2[("GF", 2, 0)]
    w2[("GF", 1, 0)] = st["teams"][("GF", 1, 0)][0]
    st2 = b.state(w2)
    assert not st2["needed"][("GF", 2, 0)] and st2["champion"] == st["teams"][("GF", 1, 0)][0]


def test_schedule_text_and_html():
    rounds = [(1, [(1, "Aces", "Bones", ["Ann", "Bob", "Cy", "Di"])], ["Eve"])]
    t = S.text("Club night", rounds)
    assert "Table 1   Aces  v  Bones" in t and "N Ann" in t and "Sitting out: Eve" in t
    h = S.html_page("Club <night>", S.html_rounds(rounds))
    assert "Club &lt;night&gt;" in h and "<td>Aces</td>" in h
