"""`tally42 stats` on a hand-made corpus whose figures were worked out by hand."""
import pytest

from host_tools import cli
from host_tools.store import db as D
from host_tools.store import stats as T


def log(header, *events):
    return "\n".join([header] + list(events)) + "\n"


def bids(*values):
    return ['{"type": "bid", "bid": %s}' % (
        '"%s"' % v if isinstance(v, str) else v) for v in values]


def trump(t):
    return '{"type": "trump", "trump": %s}' % ('"%s"' % t if isinstance(t, str) else t)


MADE = '{"type": "result", "made": true}'
SET = '{"type": "result", "made": false}'

# A: 42 to 2 marks. Di bids 35 on fives and is set (Ann/Cy +1); Cy bids 84 on doubles and
# makes it (Ann/Cy +2): over, Ann/Cy win.
A = log('{"type": "sitting", "variant": "42", "id": "A", "options": {"target": 2}, '
        '"players": ["Ann", "Bob", "Cy", "Di"]}',
        *bids(30, "pass", 35, "pass"), trump(5), SET,
        *bids(84, "pass", "pass", "pass"), trump("doubles"), MADE)
# B: 42 with the special contracts. Ann 42 nello made (+1); Cy plunges, Ann names sixes,
# set (Eve/Fay +4); Ann 42 sevens made (+1); Fay forced 30 follow-me made (+1). 2-5.
B = log('{"type": "sitting", "variant": "42", "id": "B", "options": {"nello": true, '
        '"plunge": true, "sevens": true}, "players": ["Ann", "Eve", "Cy", "Fay"]}',
        *bids("pass", "pass", "pass", 42), '{"type": "trump", "trump": "nello"}', MADE,
        *bids("plunge", "pass", "pass", "pass"), trump(6), SET,
        *bids(30, 42, "pass", "pass"), trump("sevens"), MADE,
        *bids("pass", "pass", "pass", 30), trump("follow-me"), MADE)
# C: 42 for points. Ann 34 on threes takes 40 (Ann/Gus 40, Bob/Hal 2); Hal 30 on blanks
# takes 20, set (Ann/Gus 30 + 42 - 20 = 52). 92-2.
C = log('{"type": "sitting", "variant": "42", "id": "C", "options": {"scoring": "points"}, '
        '"players": ["Ann", "Bob", "Gus", "Hal"]}',
        *bids(32, "pass", "pass", 34), trump(3), '{"type": "result", "points": 40}',
        *bids("pass", 30, "pass", "pass"), trump(0), '{"type": "result", "points": 20}')
# D: no names: not counted.
D_ = log('{"type": "sitting", "variant": "42", "id": "D"}',
         *bids(30, "pass", "pass", "pass"), trump(4), MADE)
# E: Moon. Cy 5 on twos makes it (Ann 1, Bob 1, Cy 5); Ann 4 on ones is set (Ann -4,
# Bob 2, Cy 2).
E = log('{"type": "sitting", "variant": "moon", "id": "E", "players": ["Ann", "Bob", "Cy"]}',
        *bids(4, 5, "pass"), trump(2), '{"type": "result", "tricks": [1, 1, 5]}',
        *bids("pass", 4, "pass"), trump(1), '{"type": "result", "tricks": [3, 2, 2]}')


@pytest.fixture
def corpus(db_url):
    path = db_url       # a SQLite file, then a PostgreSQL database: the same figures
    with D.open_db(path) as database:
        for text in (A, B, C, D_, E):
            assert database.store(text).status == "stored"
        players, unnamed = T.collect(database)
    return path, players, unnamed


def test_ann(corpus):
    _, players, unnamed = corpus
    assert unnamed == 1
    ann = players["Ann"]
    assert (ann.sittings, ann.finished, ann.won) == (4, 1, 1)
    assert ann.score == {"marks": [3 + 2, 0 + 5], "points": [92, 2], "moon": [1 - 4, 6 + 4]}
    assert ann.levels == {("42", (42, "42")): [2, 0], ("42", (30, "30-34")): [1, 0],
                          ("moon", (4, "4")): [0, 1]}
    assert ann.contracts == {"nello": [1, 0], "sevens": [1, 0], "threes": [1, 0],
                             "ones": [0, 1]}
    assert (ann.bids, ann.made, ann.set) == (4, 3, 1)
    assert ann.specials == {"nello": 1, "sevens": 1}
    assert ann.defence_sets == 2          # Di in A, Hal in C


def test_cy_bob_and_the_others(corpus):
    _, players, _ = corpus
    cy = players["Cy"]
    assert (cy.sittings, cy.finished, cy.won) == (3, 1, 1)
    assert cy.score == {"marks": [5, 5], "moon": [5 + 2, 2 - 2]}
    assert cy.levels == {("42", (84, "84")): [1, 0], ("42", (126, "126+")): [0, 1],
                         ("moon", (5, "5")): [1, 0]}
    assert cy.contracts == {"doubles": [1, 0], "plunge": [0, 1], "twos": [1, 0]}
    assert cy.specials == {"plunge": 1}
    assert cy.defence_sets == 2           # Di in A, Ann in E
    bob = players["Bob"]
    assert (bob.sittings, bob.won, bob.bids) == (3, 0, 0)
    assert bob.score == {"marks": [0, 3], "points": [2, 92], "moon": [1 + 2, (1 + 5) + (-4 + 2)]}
    assert bob.defence_sets == 1          # Ann in E
    di = players["Di"]
    assert di.levels == {("42", (35, "35-41")): [0, 1]} and di.contracts == {"fives": [0, 1]}
    fay = players["Fay"]
    assert fay.levels == {("42", (30, "30-34")): [1, 0]}
    assert fay.contracts == {"follow-me": [1, 0]} and fay.defence_sets == 1   # the plunge
    assert players["Eve"].defence_sets == 1 and players["Eve"].bids == 0
    assert players["Hal"].levels == {("42", (30, "30-34")): [0, 1]}
    assert players["Gus"].defence_sets == 1
    assert set(players) == {"Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"}


def test_bid_levels():
    assert [T.bid_level("42", b, None)[1] for b in (30, 34, 35, 41, 42, 84, 126, 168, 210)] == [
        "30-34", "30-34", "35-41", "35-41", "42", "84", "126+", "126+", "126+"]
    assert T.bid_level("42", None, "game") == (10 ** 6, "game")
    assert T.bid_level("42", 20, None) == (0, "<30")
    assert [T.bid_level("big-game", b, None)[1] for b in (42, 54, 55, 66)] == [
        "42-54", "42-54", "55-66", "55-66"]
    assert [T.bid_level("eighty-eight", b, None)[1] for b in (60, 68, 70, 88, 176, 264)] == [
        "60-69", "60-69", "70-86", "88", "176", "264+"]
    assert [T.bid_level("moon", b, None)[1] for b in (4, 7, 21)] == ["4", "7", "21"]


def test_the_table_of_all_players(corpus, capsys):
    path, _, _ = corpus
    assert cli.main(["stats", "--db", path]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["player", "sittings", "won", "marks", "for", "against",
                                "points", "for", "against", "moon", "for", "against", "bids",
                                "made", "set", "specials", "def.", "sets"]
    assert set(lines[1]) == {"-", " "}
    assert lines[2].split() == ["Ann", "4", "1", "5", "5", "92", "2", "-3", "10", "4", "3",
                                "1", "2", "2"]
    assert lines[3].split() == ["Cy", "3", "1", "5", "5", "7", "0", "3", "2", "1", "1", "2"]
    # Columns line up: every number ends where its header ends.
    header = lines[0]
    for line in lines[2:10]:
        assert len(line) <= len(header)
        assert line[header.index("won") + 2] != " "
    assert lines[-1] == "(1 sitting without player names not counted)"
    assert len(lines) == 2 + 8 + 1


def test_one_player(corpus, capsys):
    path, _, _ = corpus
    assert cli.main(["stats", "--player", "cy", "--db", path]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Cy: 3 sittings played (1 finished), 1 won\n")
    lines = out.splitlines()
    assert lines[lines.index("Bids won, made and set, by bid level:") + 3].split() == [
        "42", "84", "1", "1", "0"]
    assert lines[lines.index("Bids won, made and set, by bid level:") + 4].split() == [
        "42", "126+", "1", "0", "1"]
    contracts = lines.index("By contract:")
    assert [line.split() for line in lines[contracts + 3:contracts + 6]] == [
        ["twos", "1", "1", "0"], ["doubles", "1", "1", "0"], ["plunge", "1", "0", "1"]]
    assert "Special contracts called: 1 (plunge 1)" in out
    assert out.endswith("Sets delivered on defence: 2\n")


def test_an_unknown_player(corpus, capsys):
    path, _, _ = corpus
    assert cli.main(["stats", "--player", "Zed", "--db", path]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("tally42: no sittings with a player named Zed "
                   "(players: Ann, Bob, Cy, Di, Eve, Fay, Gus, Hal)\n")
