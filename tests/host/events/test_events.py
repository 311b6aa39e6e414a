"""Events: a club night played through with pushed assignments, results slotted from
stored sittings, standings with their tie-breaks, a best-of-3 bracket counted from
sittings, and the `tally42 event` command's refusals."""
import random

import pytest

from clihelp import run
from eventlogs import partial_42, sitting_42
from host_tools.events import event as EV
from host_tools.events import slots as SL
from host_tools.events import standings as ST
from host_tools.events import state as ES
from host_tools.store import db as D

TEAMS = [("Aces", ["Ann", "Bob"]), ("Bones", ["Cy", "Di"]), ("Cats", ["Ed", "Flo"]),
         ("Dogs", ["Gus", "Hal"])]


@pytest.fixture
def database(db_url):
    """An empty database: a SQLite file, then a PostgreSQL database (conftest's db_url)."""
    d = D.open_db(db_url)
    yield d
    d.close()


def counts(db, *tables):
    with D.open_db(db, readonly=True) as database:
        return [database.conn.execute("SELECT COUNT(*) FROM %s" % t).fetchone()[0]
                for t in tables]


def _team_of(players, name):
    for i, (_, members) in enumerate(players):
        if name in members:
            return i
    raise AssertionError(name)


def test_a_club_night_four_scorers_pushed_played_standings_right(database):
    ev = EV.create(database, "Tuesday", "round-robin", "42", {}, teams=TEAMS)
    rng = random.Random(7)
    expect = {i: [0, 0, 0, 0] for i in range(4)}    # won, lost, for, against
    played = 0
    scorers = ["scorer-%d" % i for i in range(4)]
    while True:
        pushed = [(s, SL.next_assignment(database, s)) for s in scorers]
        pushed = [(s, a) for s, a in pushed if a is not None]
        if not pushed:
            break
        # A round: its two tables go to two scorers, never the same table twice.
        assert len({(a["round"], a["table"]) for _, a in pushed}) == len(pushed) == 2
        for s, a in pushed:
            assert a["variant"] == "42" and a["options"]["target"] == 7
            assert SL.next_assignment(database, s) == a      # asked again: the same
            winner, loser_marks = rng.randrange(2), rng.randrange(7)
            sid = "%s-%d" % (s, played)
            database.store(sitting_42(a["players"], winner, loser_marks, sid),
                           source="sync", device=s)
            assert SL.slot_sitting(database, sid, "Tuesday", a["round"], a["table"]) \
                == "slotted"
            played += 1
            ta = _team_of(TEAMS, a["players"][0])
            tb = _team_of(TEAMS, a["players"][1])
            w, lo = (ta, tb) if winner == 0 else (tb, ta)
            expect[w][0] += 1
            expect[lo][1] += 1
            expect[w][2] += 7
            expect[w][3] += loser_marks
            expect[lo][2] += loser_marks
            expect[lo][3] += 7
    assert played == 6
    state = ES.event_state(ev, database)
    rows = ST.compute(ev, state)
    for r in rows:
        assert [r.won, r.lost, r.points_for, r.points_against] == expect[r.number]
        assert r.played == 3
    # Ranked by wins first.
    assert [r.won for r in rows] == sorted((r.won for r in rows), reverse=True)
    assert all(ES.table_status(ev, t, state) == "done" for t in ev.tables)


def test_a_progressive_rotates_partners_and_ranks_players(database):
    players = ["P%d" % i for i in range(8)]
    ev = EV.create(database, "Prog", "progressive", "42", {}, players=players)
    assert ev.rounds == 7 and len(ev.tables) == 14
    partners = set()
    for t in ev.tables:
        for side in (t.side_a, t.side_b):
            key = frozenset(side)
            assert key not in partners
            partners.add(key)
    a = SL.next_assignment(database, "s1")
    database.store(sitting_42(a["players"], 0, 2, "p1"))
    SL.slot_sitting(database, "p1", "Prog", a["round"], a["table"])
    rows = ST.compute(ev, ES.event_state(ev, database))
    winners = {a["players"][0], a["players"][2]}
    assert {r.name for r in rows if r.won == 1} == winners
    assert [r.name for r in rows[:2]] == sorted(winners)    # equal: the name decides
    assert all(r.points_for == 7 for r in rows[:2])


def _play(database, event, rnd, table, winner, loser_marks, sid, flip=False):
    ev = EV.load(database, event)
    t = ev.table(rnd, table)
    state = ES.event_state(ev, database)
    seats = ev.seats(*ES.sides_of(ev, t, state))
    if flip:                      # the scorer set up with side B in seats 0 and 2
        seats = seats[1:] + seats[:1]
        winner = 1 - winner
    database.store(sitting_42(seats, winner, loser_marks, sid))
    return SL.slot_sitting(database, sid, event, rnd, table)


def _result(ev, a, b):
    for t in ev.tables:
        if {t.side_a[0], t.side_b[0]} == {a, b}:
            return t.round, t.table, t.side_a[0] == a
    raise AssertionError((a, b))


def test_tie_breaks_head_to_head_then_difference_then_marks_for(database):
    ev = EV.create(database, "Ties", "round-robin", "42", {}, teams=TEAMS)
    A, B, C, Dg = 0, 1, 2, 3

    def beat(w, lo, marks, sid):
        r, t, w_is_a = _result(ev, w, lo)
        _play(database, "Ties", r, t, 0 if w_is_a else 1, marks, sid, flip=(sid == "ab"))

    # A, B and C win two each (a cycle among them, each beats D); D none.
    beat(A, B, 6, "ab")       # A beats B, and the sitting's seats are the other way round
    beat(B, C, 0, "bc")
    beat(C, A, 3, "ca")
    beat(A, Dg, 5, "ad")
    beat(B, Dg, 6, "bd")
    beat(C, Dg, 0, "cd")
    rows = ST.compute(ev, ES.event_state(ev, database))
    # Head to head among A, B, C: one win each, so difference decides:
    # A: 7+3+7 for, 6+7+5 against: -1; B: 6+7+7 v 7+0+6: +7; C: 0+7+7 v 7+3+0: +4.
    assert [(r.name, r.won, r.diff) for r in rows] == [
        ("Bones", 2, 7), ("Cats", 2, 4), ("Aces", 2, -1), ("Dogs", 0, -10)]
    assert [(r.points_for, r.points_against) for r in rows] == [(20, 13), (14, 10),
                                                                (17, 18), (11, 21)]
    # Standings after round 1 only count round 1's tables.
    first = ST.compute(ev, ES.event_state(ev, database), through=1)
    assert sum(r.played for r in first) == 4


def test_wins_first_then_a_cycle_goes_to_difference(database):
    ev = EV.create(database, "H2H", "round-robin", "42", {}, teams=TEAMS[:3])

    def beat(w, lo, marks, sid):
        r, t, w_is_a = _result(ev, w, lo)
        _play(database, "H2H", r, t, 0 if w_is_a else 1, marks, sid)

    beat(0, 1, 6, "x1")       # Aces beat Bones by 1
    beat(1, 2, 0, "x2")       # Bones thrash Cats
    beat(0, 2, 6, "x3")
    rows = ST.compute(ev, ES.event_state(ev, database))
    assert [r.name for r in rows] == ["Aces", "Bones", "Cats"]
    # Aces and Bones not tied on wins here; make a tie: a fresh event where both win one.
    ev2 = EV.create(database, "H2H-2", "round-robin", "42", {},
                    teams=[("T1", ["a", "b"]), ("T2", ["c", "d"]), ("T3", ["e", "f"]),
                           ("T4", ["g", "h"])])
    for (w, lo, m, sid) in ((0, 1, 6, "y1"), (1, 2, 0, "y2"), (1, 3, 0, "y3"),
                            (0, 3, 6, "y4"), (2, 0, 6, "y5"), (2, 3, 6, "y6")):
        r, t, w_is_a = _result(ev2, w, lo)
        _play(database, "H2H-2", r, t, 0 if w_is_a else 1, m, sid)
    rows = ST.compute(ev2, ES.event_state(ev2, database))
    # T1, T2, T3 on two wins each; among them a cycle, so difference decides.
    assert [(r.name, r.won, r.diff) for r in rows] == [
        ("T2", 2, 13), ("T1", 2, 1), ("T3", 2, -5), ("T4", 0, -9)]


def test_head_to_head_decides_two_tied(database):
    teams = [("T%d" % i, ["a%d" % i, "b%d" % i]) for i in range(4)]
    ev = EV.create(database, "Two", "round-robin", "42", {}, teams=teams)
    # T0 and T1 on two wins; T1 beat T0 but T0 has the better difference.
    for (w, lo, m, sid) in ((1, 0, 6, "z1"), (0, 2, 0, "z2"), (0, 3, 0, "z3"),
                            (1, 2, 6, "z4"), (3, 1, 6, "z5"), (2, 3, 6, "z6")):
        r, t, w_is_a = _result(ev, w, lo)
        _play(database, "Two", r, t, 0 if w_is_a else 1, m, sid)
    rows = ST.compute(ev, ES.event_state(ev, database))
    by = {r.name: r for r in rows}
    assert by["T0"].won == by["T1"].won == 2 and by["T0"].diff > by["T1"].diff
    assert [r.name for r in rows[:2]] == ["T1", "T0"]


def test_a_best_of_3_bracket_counts_games_from_sittings(database):
    ev = EV.create(database, "Cup", "double-elimination", "42", {}, teams=TEAMS,
                   best_of=3)
    rng = random.Random(3)
    n = 0
    while True:
        a = SL.next_assignment(database, "s%d" % (n % 3))
        if a is None:
            a = next((x for x in (SL.next_assignment(database, "s%d" % i)
                                  for i in range(3)) if x), None)
        if a is None:
            break
        n += 1
        database.store(sitting_42(a["players"], rng.randrange(2), rng.randrange(7),
                                  "c%d" % n))
        SL.slot_sitting(database, "c%d" % n, "Cup", a["round"], a["table"])
    ev = EV.load(database, "Cup")
    state = ES.event_state(ev, database)
    br = state["bracket"]
    assert br["champion"] is not None
    assert sorted(br["losses"].values())[:1] == [0] or br["losses"][br["champion"]] == 1
    assert sum(1 for v in br["losses"].values() if v >= 2) == 3
    # Every decided match took 2 or 3 games, its winner with exactly 2.
    for t in ev.tables:
        games = state["results"].get((t.round, t.table), [])
        if ES.table_status(ev, t, state) == "done":
            wa, wb, w = ES.match_outcome(ev, games)
            assert len(games) in (2, 3) and max(wa, wb) == 2
    rows = ST.compute(ev, state)
    assert rows[0].number == br["champion"]


def test_slot_refusals_change_nothing(database):
    EV.create(database, "Night", "round-robin", "42", {}, teams=TEAMS)
    ev = EV.load(database, "Night")
    t = ev.tables[0]
    seats = ev.seats(t.side_a, t.side_b)
    database.store(sitting_42(["Zed", "Yan", "Xi", "Wu"], 0, 1, "strangers"))
    with pytest.raises(EV.EventError, match="was played by Zed"):
        SL.slot_sitting(database, "strangers", "Night", 1, 1)
    database.store(sitting_42(seats, 0, 1, "ok"))
    with pytest.raises(EV.EventError, match="no table 9"):
        SL.slot_sitting(database, "ok", "Night", 1, 9)
    with pytest.raises(EV.EventError, match="no event Day"):
        SL.slot_sitting(database, "ok", "Day", 1, 1)
    with pytest.raises(EV.EventError, match="no sitting nope"):
        SL.slot_sitting(database, "nope", "Night", 1, 1)
    odd = sitting_42(seats, 0, 1, "other-opts").replace('"dealer": 0',
                                                        '"dealer": 0, "options": {"sevens": true}')
    database.store(odd)
    with pytest.raises(EV.EventError, match="other options"):
        SL.slot_sitting(database, "other-opts", "Night", 1, 1)
    count = database.conn.execute("SELECT COUNT(*) FROM event_results").fetchone()[0]
    assert count == 0
    assert SL.slot_sitting(database, "ok", "Night", 1, 1) == "slotted"
    assert SL.slot_sitting(database, "ok", "Night", 1, 1) == "already slotted"
    with pytest.raises(EV.EventError, match="already the result"):
        SL.slot_sitting(database, "ok", "Night", 1, 2)
    database.store(sitting_42(seats, 1, 1, "again"))
    with pytest.raises(EV.EventError, match="decided"):
        SL.slot_sitting(database, "again", "Night", 1, 1)


def test_a_sitting_in_progress_shows_live_and_survives_a_longer_sync(database):
    ev = EV.create(database, "Live", "round-robin", "42", {}, teams=TEAMS[:2])
    seats = ev.seats(ev.tables[0].side_a, ev.tables[0].side_b)
    database.store(partial_42(seats, 3, "live"))
    SL.slot_sitting(database, "live", "Live", 1, 1)
    state = ES.event_state(ev, database)
    g = state["results"][(1, 1)][0]
    assert not g.over and g.hands == 3 and sum(g.score) == 3
    assert ES.table_status(ev, ev.tables[0], state) == "playing"
    database.store(partial_42(seats, 5, "live"))       # synced again, further on
    g = ES.event_state(ev, database)["results"][(1, 1)][0]
    assert g.hands == 5


def test_bad_events_are_refused(database):
    cases = [
        (dict(fmt="round-robin", teams=TEAMS[:1]), "at least 2 teams"),
        (dict(fmt="round-robin", teams=[("A", ["x"]), ("B", ["y"])]), "plays 2 a side"),
        (dict(fmt="round-robin", teams=[("A", ["x", "y"]), ("A", ["w", "z"])]), "twice"),
        (dict(fmt="progressive", players=["a", "b", "c"]), "at least 4 players"),
        (dict(fmt="progressive", players=["a", "b", "c", "d"], variant="seventy-nine"),
         "four to a table"),
        (dict(fmt="round-robin", teams=TEAMS, variant="moon"), "every seat for itself"),
        (dict(fmt="round-robin", teams=TEAMS, variant="oklahoma-gin"), "unknown game"),
        (dict(fmt="round-robin", teams=TEAMS, options={"nello": "maybe"}), "options:"),
        (dict(fmt="round-robin", teams=TEAMS, best_of=3), "only a double-elimination"),
        (dict(fmt="swiss", teams=TEAMS), "unknown format"),
        (dict(fmt="round-robin", teams=[("A", ["x", "averyverylongname"]),
                                        ("B", ["w", "z"])]), "longer than 12"),
    ]
    for kw, message in cases:
        kw.setdefault("variant", "42")
        with pytest.raises(EV.EventError, match=message):
            EV.create(database, "Bad", kw.pop("fmt"), kw.pop("variant"),
                      kw.pop("options", {}), **kw)
    assert EV.names(database) == []
    # A six-seat game plays teams of three.
    ev = EV.create(database, "Six", "round-robin", "seventy-nine", {},
                   teams=[("A", ["a", "b", "c"]), ("B", ["d", "e", "f"])])
    assert ev.seats(ev.tables[0].side_a, ev.tables[0].side_b) == list("adbecf")
    assert SL.next_assignment(database, "s")["variant"] == "seventy-nine"


# ---- the command ----

def test_cli_a_night_from_roster_to_standings(tmp_path, capsys, db_url):
    db = db_url
    roster = tmp_path / "roster.txt"
    roster.write_text("# Tuesday's teams\n" + "".join(
        "%s: %s\n" % (n, ", ".join(m)) for n, m in TEAMS))
    code, out, err = run(capsys, "event", "create", "Tuesday", "--format", "round-robin",
                         "--roster", str(roster), "--db", db)
    assert code == 0 and err == ""
    assert "created Tuesday: round-robin of 4 teams, 42 (marks to 7), 3 rounds, 6 tables" \
        in out
    code, out, err = run(capsys, "event", "show", "Tuesday", "--db", db)
    assert code == 0 and out.count("Table 1") == 3 and "Round 3" in out
    code, out, err = run(capsys, "event", "next", "--device", "dev-a", "--db", db)
    assert code == 0 and out.startswith("Tuesday  Table 1 · Round 1  ")
    with D.open_db(db) as database:
        ev = EV.load(database, "Tuesday")
        logs = []
        for t in ev.tables:
            seats = ev.seats(t.side_a, t.side_b)
            path = tmp_path / ("r%dt%d.jsonl" % (t.round, t.table))
            path.write_text(sitting_42(seats, 0, t.round, "night-%d-%d" % (t.round,
                                                                          t.table)))
            logs.append((t.round, t.table, path))
    for r, t, path in logs:
        code, out, err = run(capsys, "event", "result", "Tuesday", "--round", str(r),
                             "--table", str(t), str(path), "--db", db)
        assert code == 0, err
        assert "round %d table %d: sitting night-%d-%d" % (r, t, r, t) in out
    code, out, err = run(capsys, "event", "standings", "Tuesday", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Tuesday: standings"
    assert lines[2].split()[:8] == ["#", "Name", "P", "W", "L", "Marks", "Against", "Diff"]
    assert len(lines) == 7 and all(len(ln.split()) == 8 for ln in lines[3:])
    code, out, err = run(capsys, "event", "standings", "Tuesday", "--format", "csv",
                         "--db", db)
    assert out.splitlines()[0] == "rank,name,played,won,lost,marks_for,marks_against," \
                                  "difference"
    assert len(out.splitlines()) == 5
    code, out, err = run(capsys, "event", "standings", "Tuesday", "--format", "html",
                         "--round", "1", "--db", db)
    assert "<table class=\"standings\">" in out and "after round 1" in out
    code, out, err = run(capsys, "event", "list", "--db", db)
    assert out == "Tuesday  round-robin  42  4 teams  6/6 tables decided\n"


def test_cli_refusals_say_why_and_exit_2(tmp_path, capsys, db_url):
    db = db_url
    run(capsys, "event", "create", "Tue", "--format", "round-robin", "--team", "A: a, b",
        "--team", "B: c, d", "--db", db)
    cases = [
        (["event", "standings", "Nope"], "tally42: no event Nope (events: Tue)\n"),
        (["event", "show", "Tue", "--round", "5"], "tally42: Tue has no round 5 (rounds 1 to 1)\n"),
        (["event", "create", "X", "--format", "round-robin", "--team", "A a, b"],
         "tally42: --team A a, b: give NAME: PLAYER, PLAYER (a colon after the team's "
         "name, commas between its players)\n"),
        (["event", "create", "X", "--format", "round-robin", "--team", "A: a, b",
          "--team", "B: a, c"], "tally42: player a is on the roster twice\n"),
        (["event", "create", "Tue", "--format", "round-robin", "--team", "A: a, b",
          "--team", "B: c, d"], "tally42: there is already an event Tue "
                                "(`tally42 event list`)\n"),
        (["event", "create", "X", "--format", "progressive", "--players", "a,b,,c"],
         "tally42: --players: an empty name (names are separated by commas)\n"),
        (["event", "create", "X", "--format", "progressive", "--players", "a,b,c,d",
          "--best-of", "3"], "tally42: best of 3: only a double-elimination bracket "
                             "plays matches of several games\n"),
        (["event", "slot", "Tue", "--round", "1", "--table", "1", "zzz"],
         "tally42: no sitting zzz in %s\n" % db),
        (["event", "create", "X", "--format", "round-robin", "--roster",
          str(tmp_path / "missing.txt")], None),
        (["event", "result", "Tue", "--round", "1", "--table", "0", "x.jsonl"], None),
        (["serve", "Nope"], "tally42: no event Nope (events: Tue)\n"),
    ]
    for argv, message in cases:
        code, out, err = run(capsys, *(argv + ["--db", db]))
        assert code == 2, argv
        assert err.startswith("tally42: ") and err.count("\n") == 1, err
        assert "Traceback" not in err
        if message:
            assert err == message
    code, out, err = run(capsys, "event", "list", "--db", db)
    assert out.startswith("Tue ") and out.count("\n") == 1


def test_cli_result_refused_stores_nothing(tmp_path, capsys, db_url):
    db = db_url
    run(capsys, "event", "create", "Tue", "--format", "round-robin", "--team", "A: a, b",
        "--team", "B: c, d", "--db", db)
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(sitting_42(["w", "x", "y", "z"], 0, 0, "wrong"))
    code, out, err = run(capsys, "event", "result", "Tue", "--round", "1", "--table", "1",
                         str(wrong), "--db", db)
    assert code == 2 and "was played by w, x, y, z" in err
    assert counts(db, "sittings") == [0]


def test_head_to_head_grid_and_results_in_the_schedule(tmp_path, capsys, db_url):
    db = db_url
    run(capsys, "event", "create", "Trio", "--format", "round-robin", "--team", "A: a, b",
        "--team", "B: c, d", "--team", "C: e, f", "--db", db)
    with D.open_db(db) as database:
        ev = EV.load(database, "Trio")
        r, t, a_first = _result(ev, 0, 1)
        _play(database, "Trio", r, t, 0 if a_first else 1, 4, "h1")
        rows = ST.compute(ev, ES.event_state(ev, database))
        # Ranked A (a win), C (none played), B (a loss): the grid in that order.
        assert [r.name for r in rows] == ["A", "C", "B"]
        assert ST.head_to_head(rows) == [["x", "", "1-0"], ["", "x", ""], ["0-1", "", "x"]]
        r2, t2, _ = _result(ev, 1, 2)
        database.store(partial_42(ev.seats(ev.table(r2, t2).side_a, ev.table(r2, t2).side_b),
                                  2, "h2"))
        SL.slot_sitting(database, "h2", "Trio", r2, t2)
    code, out, err = run(capsys, "event", "standings", "Trio", "--head-to-head", "--db", db)
    assert code == 0 and "Head to head (won-lost, the row against the column)" in out
    assert " 1. A " in out and "1-0" in out and "0-1" in out
    code, out, err = run(capsys, "event", "show", "Trio", "--db", db)
    assert "7-4" in out or "4-7" in out
    assert "1-1 (playing)" in out
    code, out, err = run(capsys, "event", "show", "Trio", "--html", "--db", db)
    assert "<th>Result</th>" in out and "(playing)" in out


def test_event_result_and_roster_take_any_bytes(tmp_path, capsys):
    from clihelp import ends_well, fuzzed_inputs
    db = str(tmp_path / "club.db")
    run(capsys, "event", "create", "F", "--format", "round-robin", "--team", "A: a, b",
        "--team", "B: c, d", "--db", db)
    log = tmp_path / "f.jsonl"
    roster = tmp_path / "roster.txt"
    seed = sitting_42(["a", "c", "b", "d"], 0, 3, "fz").encode()
    rnd = random.Random(5)
    codes = set()
    for data in fuzzed_inputs(rnd, [seed]):
        log.write_bytes(data)
        codes.add(ends_well(capsys, "event", "result", "F", "--round", "1", "--table", "1",
                             log, "--db", db))
        roster.write_bytes(data)
        ends_well(capsys, "event", "create", "G", "--format", "round-robin", "--roster",
                   roster, "--db", db)
    assert 2 in codes
    ends_well(capsys, "event", "standings", "F", "--db", db)
    ends_well(capsys, "event", "show", "F", "--html", "--db", db)


def test_a_deleted_sitting_frees_its_table_and_events_can_be_deleted(tmp_path, capsys, db_url):
    db = db_url
    run(capsys, "event", "create", "Tue", "--format", "round-robin", "--team", "A: a, b",
        "--team", "B: c, d", "--db", db)
    with D.open_db(db) as database:
        ev = EV.load(database, "Tue")
        seats = ev.seats(ev.tables[0].side_a, ev.tables[0].side_b)
        database.store(partial_42(seats, 2, "first"))
        SL.slot_sitting(database, "first", "Tue", 1, 1)
        database.store(partial_42(seats, 1, "second"))
        with pytest.raises(EV.EventError, match="still playing sitting first"):
            SL.slot_sitting(database, "second", "Tue", 1, 1)
        database.delete("first")
        assert ES.event_state(ev, database)["results"][(1, 1)] == []
        assert SL.slot_sitting(database, "second", "Tue", 1, 1) == "slotted"
        games = ES.event_state(ev, database)["results"][(1, 1)]
        assert [(g.sitting, g.game, g.hands) for g in games] == [("second", 1, 1)]
    code, out, err = run(capsys, "event", "delete", "Tue", "--db", db)
    assert code == 0 and out == "deleted event Tue (its sittings stay stored)\n"
    code, out, err = run(capsys, "event", "delete", "Tue", "--db", db)
    assert code == 2 and err.startswith("tally42: no event Tue")
    assert counts(db, "events", "event_tables", "event_results", "sittings") == [0, 0, 0, 1]


def test_a_refused_event_leaves_no_database_behind(tmp_path, capsys):
    db = tmp_path / "new.db"
    code, out, err = run(capsys, "event", "create", "X", "--format", "progressive",
                         "--players", "a,b,c", "--db", str(db))
    assert code == 2 and err == "tally42: a progressive needs at least 4 players, not 3\n"
    assert not db.exists()


def test_two_pcs_on_one_database_never_push_the_same_table(db_url):
    path = db_url
    with D.open_db(path) as first:
        EV.create(first, "Big", "round-robin", "42", {},
                  teams=[("T%d" % i, ["a%d" % i, "b%d" % i]) for i in range(8)])
    one, two = D.open_db(path), D.open_db(path)
    try:
        got = []
        for i in range(4):
            got.append(SL.next_assignment(one, "pc1-scorer-%d" % i))
            got.append(SL.next_assignment(two, "pc2-scorer-%d" % i))
        places = [(a["round"], a["table"]) for a in got if a is not None]
        assert sorted(places) == [(1, 1), (1, 2), (1, 3), (1, 4)]
        assert got[-4:] == [None] * 4
        # Each scorer keeps its table whichever PC it syncs with.
        assert SL.next_assignment(two, "pc1-scorer-0") == got[0]
    finally:
        one.close()
        two.close()


def test_every_partnership_game_plays_an_event(database):
    from engine_core.texas42 import variants as V
    from host_tools.log import lines as LN
    from host_tools.log import sittinglog as L
    from eventlogs import random_sitting
    from randsit import SETUPS
    units = {"big-game": "points", "partnership-moon": "games"}
    done = 0
    for setup, (variant, options) in enumerate(SETUPS):
        if not V.TABLE[V.index(variant)][V.TEAMS]:
            continue
        size = V.TABLE[V.index(variant)][V.SEATS] // 2
        name = "E%d" % setup
        ev = EV.create(database, name, "round-robin", variant, options,
                       teams=[("A", ["a%d" % i for i in range(size)]),
                              ("B", ["b%d" % i for i in range(size)])])
        seats = ev.seats(ev.tables[0].side_a, ev.tables[0].side_b)
        a = SL.next_assignment(database, "s", name)
        assert a["players"] == seats and a["variant"] == variant
        for seed in range(1, 40):
            header, events = random_sitting(seed, setup, 5000, seats, {"id": "g%d" % setup})
            report = L.report(L.replay(LN.dump_log(L.log_lines(header, events)).encode()))
            if report["over"]:
                break
        assert report["over"]
        database.store(LN.dump_log(L.log_lines(header, events)))
        SL.slot_sitting(database, "g%d" % setup, name, 1, 1)
        rows = ST.compute(ev, ES.event_state(ev, database))
        assert ev.units == units.get(variant, options.get("scoring", "marks"))
        winner = "AB"[report["winner"]]
        assert [(r.name, r.won) for r in rows] == [(winner, 1), ("AB".replace(winner, ""), 0)]
        assert rows[0].points_for > rows[0].points_against
        done += 1
    # Every partnership set-up of the corpus (13 with the house rules' ones), none skipped.
    assert done == sum(1 for v, _ in SETUPS if V.TABLE[V.index(v)][V.TEAMS]) >= 11


RACE = r"""
import json, os, sys, time
from host_tools.events import event as EV
from host_tools.events import slots as SL
from host_tools.store import db as D
url, me, tables, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
database = D.open_db(url)
print("ready", flush=True)


def started(phase):
    # The time the parent writes to go.N: step i of the phase at t0 + 20 ms * i in
    # both processes, so every step is raced for.
    path = "%s.%d" % (go, phase)
    while not os.path.exists(path) or not os.path.getsize(path):
        time.sleep(0.001)
    with open(path) as f:
        return float(f.read())


def at(t0, i):
    wait = t0 + 0.02 * i - time.time()
    if wait > 0:
        time.sleep(wait)


t0 = started(1)
for i in range(tables):
    at(t0, i)
    print(json.dumps(SL.next_assignment(database, "%s-scorer-%d" % (me, i))), flush=True)
t0 = started(2)
for t in range(1, tables + 1):
    at(t0, t)
    try:
        said = SL.slot_sitting(database, "%s-r1t%d" % (me, t), "Big", 1, t)
    except EV.EventError as e:
        said = "refused: %s" % e
    print(json.dumps([t, said]), flush=True)
database.close()
"""


def test_two_processes_hand_out_and_slot_each_table_once(tmp_path, db_url):
    # Two PCs (two processes) on one database, each serving 8 scorers, then each slotting
    # a finished sitting of its own at every table of round 1, step by step at the same
    # instant: each table goes to one scorer and takes one sitting.
    import json
    import os
    import subprocess
    import sys
    import time
    teams = [("T%d" % i, ["a%d" % i, "b%d" % i]) for i in range(16)]
    with D.open_db(db_url) as database:
        ev = EV.create(database, "Big", "round-robin", "42", {}, teams=teams)
        first = [t for t in ev.tables if t.round == 1]
        assert len(first) == 8
        for t in first:
            seats = ev.seats(t.side_a, t.side_b)
            for me, winner in (("pc0", 0), ("pc1", 1)):
                database.store(sitting_42(seats, winner, t.table % 7, "%s-r1t%d" % (me, t.table)))
    go = str(tmp_path / "go")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    procs = [subprocess.Popen([sys.executable, "-c", RACE, db_url, me, "8", go], cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for me in ("pc0", "pc1")]

    def start(phase):
        with open(go + ".tmp", "w") as f:
            f.write(repr(time.time() + 0.3))
        os.replace(go + ".tmp", "%s.%d" % (go, phase))

    for p in procs:
        assert p.stdout.readline() == "ready\n"
    start(1)
    pushed = []
    for p in procs:
        for _ in range(8):
            a = json.loads(p.stdout.readline())
            if a is not None:
                pushed.append(a)
    start(2)
    slotted = {}
    for me, p in zip(("pc0", "pc1"), procs):
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and err == "", err
        lines = [json.loads(x) for x in out.splitlines()]
        assert len(lines) == 8
        for t, said in lines:
            slotted.setdefault(t, []).append((me, said))
    assert sorted((a["round"], a["table"]) for a in pushed) == [(1, t) for t in range(1, 9)]
    with D.open_db(db_url, readonly=True) as database:
        devices = database.conn.execute(
            "SELECT device FROM event_tables WHERE event = 'Big' AND round = 1").fetchall()
        assert len({d[0] for d in devices}) == 8 and None not in {d[0] for d in devices}
        rows = database.conn.execute("SELECT table_no, game, sitting_id FROM event_results "
                                     "WHERE event = 'Big' ORDER BY table_no").fetchall()
    assert [(r[0], r[1]) for r in rows] == [(t, 1) for t in range(1, 9)]
    for t, said in slotted.items():
        kinds = sorted(s.split(":")[0] for _, s in said)
        assert kinds == ["refused", "slotted"], (t, said)
        winner = [me for me, s in said if s == "slotted"][0]
        assert rows[t - 1][2] == "%s-r1t%d" % (winner, t)
        assert "round 1 table %d is decided" % t in [s for _, s in said if s != "slotted"][0]


def test_a_batch_commits_once_and_an_error_out_of_it_stores_nothing(database, db_url):
    ev = EV.create(database, "Tue", "round-robin", "42", {}, teams=TEAMS)
    first = [t for t in ev.tables if t.round == 1]
    with database.batch():
        for t in first:
            database.store(sitting_42(ev.seats(t.side_a, t.side_b), 0, 3, "b%d" % t.table))
            assert SL.slot_sitting(database, "b%d" % t.table, ev, 1, t.table) == "slotted"
        # Not committed yet: another connection (another PC) sees none of it.
        assert counts(db_url, "sittings", "event_results") == [0, 0]
    assert counts(db_url, "sittings", "event_results") == [2, 2]
    t = ev.table(2, 1)
    with pytest.raises(EV.EventError, match="already the result of Tue round 1 table 1"):
        with database.batch():
            database.store(sitting_42(ev.seats(t.side_a, t.side_b), 1, 2, "late"))
            SL.slot_sitting(database, "late", ev, 2, 1)
            SL.slot_sitting(database, "b1", ev, 2, 1)       # slotted at round 1 already
    assert counts(db_url, "sittings", "event_results") == [2, 2]
    EV.delete(database, "Tue")
    database.store(sitting_42(ev.seats(t.side_a, t.side_b), 1, 2, "late"))
    with pytest.raises(EV.EventError, match="no event Tue"):
        SL.slot_sitting(database, "late", ev, 2, 1)         # an Event loaded before


def test_import_into_an_event_is_event_result(tmp_path, capsys, db_url):
    db = db_url
    run(capsys, "event", "create", "Tue", "--format", "round-robin", "--team", "A: a, b",
        "--team", "B: c, d", "--db", db)
    log = tmp_path / "t1.jsonl"
    log.write_text(sitting_42(["a", "c", "b", "d"], 1, 5, "by-hand"))
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(sitting_42(["w", "x", "y", "z"], 0, 0, "wrong"))
    for argv, message in [
        (["--event", "Tue", "--round", "1", str(log)],
         "tally42: import into an event: give --event, --round and --table "
         "(missing --table)\n"),
        (["--event", "Tue", "--round", "1", "--table", "1", str(log), str(wrong)],
         "tally42: import into an event: one LOG, the table's (2 given)\n"),
        (["--event", "Nope", "--round", "1", "--table", "1", str(log)],
         "tally42: no event Nope (events: Tue)\n"),
        (["--event", "Tue", "--round", "1", "--table", "1", str(wrong)], None),
    ]:
        code, out, err = run(capsys, "import", *argv, "--db", db)
        assert code == 2 and out == "", argv
        assert err == message if message else "was played by w, x, y, z" in err, err
    assert counts(db, "sittings", "event_results") == [0, 0]
    code, out, err = run(capsys, "import", "--event", "Tue", "--round", "1", "--table", "1",
                         str(log), "--db", db)
    assert code == 0 and err == ""
    assert out.splitlines()[1] == "Tue round 1 table 1: sitting by-hand"
    code, out, err = run(capsys, "event", "standings", "Tue", "--format", "csv", "--db", db)
    assert out.splitlines()[1:] == ["1,B,1,1,0,7,5,2", "2,A,1,0,1,5,7,-2"]
