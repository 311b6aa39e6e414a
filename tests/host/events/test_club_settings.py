"""What a club sets for its night (host_tools/events/club.py): round gating holds the
next round back until the round before is all decided (a scorer is told to wait), a
finished night locks its results, and every correction is in the audit trail."""
import os

from clihelp import run
from eventlogs import sitting_42
from host_tools.events import event as EV
from host_tools.events import nexttable as NT
from host_tools.events import slots as SL
from host_tools.store import db as D

TEAMS = ["--team=Aces: Ann, Cy", "--team=Bones: Bob, Di", "--team=Cats: Eve, Gus",
         "--team=Dogs: Fay, Hal"]


def _made(capsys, db, *extra):
    code, out, err = run(capsys, "event", "create", "Tue", "--format", "round-robin",
                         "--db", db, *TEAMS, *extra)
    assert code == 0, err


def _result(capsys, tmp_path, db, rnd, table):
    with D.open_db(db) as d:
        ev = EV.load(d, "Tue")
    t = ev.table(rnd, table)
    log = tmp_path / ("r%dt%d.jsonl" % (rnd, table))
    log.write_text(sitting_42(ev.seats(t.side_a, t.side_b, rnd), 0, 3, "r%dt%d" % (rnd,
                                                                                table)))
    return run(capsys, "event", "result", "Tue", "--round", str(rnd), "--table", str(table),
               str(log), "--db", db)


def test_round_gating_holds_the_next_round_until_the_round_is_in(tmp_path, capsys):
    db = str(tmp_path / "club.db")
    _made(capsys, db, "--gate")
    with D.open_db(db) as d:
        assert SL.next_assignment(d, "T42-A", "Tue")["table"] == 1
        assert SL.next_assignment(d, "T42-B", "Tue")["table"] == 2
    assert _result(capsys, tmp_path, db, 1, 1)[0] == 0
    with D.open_db(db) as d:
        # Its table decided, round 1 not: nothing for it yet, "wait for round 2".
        assert SL.next_assignment(d, "T42-A", "Tue") is None
        assert NT.next_for(d, "Tue", "T42-A") == ("wait", 2)
    assert _result(capsys, tmp_path, db, 1, 2)[0] == 0
    with D.open_db(db) as d:
        a = SL.next_assignment(d, "T42-A", "Tue")
        assert (a["round"], a["table"]) == (2, 1)
    # Off: the next round goes out at once, whatever the other tables do.
    code, out, err = run(capsys, "event", "gate", "Tue", "off", "--db", db)
    assert code == 0 and "round gating off" in out
    assert _result(capsys, tmp_path, db, 2, 1)[0] == 0
    with D.open_db(db) as d:
        a = SL.next_assignment(d, "T42-A", "Tue")
        assert (a["round"], a["table"]) == (3, 1)


def test_a_finished_night_is_locked_and_every_correction_is_in_the_log(tmp_path, capsys):
    db = str(tmp_path / "club.db")
    _made(capsys, db)
    assert _result(capsys, tmp_path, db, 1, 1)[0] == 0
    code, out, err = run(capsys, "event", "finish", "Tue", "--db", db)
    assert code == 0 and "Tue finished " in out and "locked" in out
    code, out, err = _result(capsys, tmp_path, db, 1, 2)
    assert code == 2 and "Tue is finished" in err and "--reopen" in err
    with D.open_db(db) as d:
        assert SL.next_assignment(d, "T42-A", "Tue") is None
        # Refused whole: the result's log was not stored either.
        assert d.conn.execute("SELECT COUNT(*) FROM sittings").fetchone()[0] == 1
    code, out, err = run(capsys, "event", "finish", "Tue", "--db", db)
    assert code == 2 and "finished already" in err
    code, out, err = run(capsys, "event", "finish", "Tue", "--reopen", "--db", db)
    assert code == 0 and "opened again" in out
    assert _result(capsys, tmp_path, db, 1, 2)[0] == 0
    code, out, err = run(capsys, "event", "substitute", "Tue", "--out", "Cy", "--in", "Zed",
                         "--round", "2", "--db", db)
    assert code == 0, err
    code, out, err = run(capsys, "event", "log", "Tue", "--db", db)
    assert code == 0
    lines = out.splitlines()
    whats = [line.split("  ", 2)[2] for line in lines]
    assert whats == ["result entered: round 1 table 1, sitting r1t1",
                     "finished: results locked", "opened again",
                     "result entered: round 1 table 2, sitting r1t2",
                     "substitute: Zed for Cy from round 2"], lines
    at, who = lines[0].split("  ")[:2]
    assert "T" in at and "@" in who
    code, out, err = run(capsys, "event", "log", "Nope", "--db", db)
    assert code == 2 and "Nope" in err


def test_publish_writes_a_static_folder_of_rounds_tables_hands_and_standings(
        tmp_path, capsys):
    import csv
    import json
    db = str(tmp_path / "club.db")
    _made(capsys, db)
    assert _result(capsys, tmp_path, db, 1, 1)[0] == 0
    assert _result(capsys, tmp_path, db, 1, 2)[0] == 0
    site = tmp_path / "site"
    code, out, err = run(capsys, "event", "publish", "Tue", str(site), "--db", db)
    assert code == 0, err
    names = sorted(os.listdir(site))
    assert names == ["event.json", "hands.csv", "index.html", "prizes.html",
                     "round-1.html", "round-2.html", "round-3.html", "rounds.csv",
                     "rounds.html", "standings.csv"]
    data = json.loads((site / "event.json").read_text())
    code, want, _ = run(capsys, "event", "standings", "Tue", "--format", "csv", "--db", db)
    assert (site / "standings.csv").read_text() == want
    r1 = data["rounds"][0]
    assert [t["sittings"] for t in r1["tables"]] == [["r1t1"], ["r1t2"]]
    # Every hand of both results, in the JSON and the CSV alike.
    with D.open_db(db) as d:
        stored = d.conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    assert sum(len(h) for h in data["hands"].values()) == stored > 0
    rows = list(csv.reader((site / "hands.csv").open()))
    assert len(rows) == stored + 1 and rows[0][:4] == ["sitting", "round", "table", "number"]
    page = (site / "round-1.html").read_text()
    assert "Round 1" in page and "Standings after round 1" in page and "Aces" in page
    assert 'href="round-3.html"' in (site / "index.html").read_text()
    # A file where the folder should be: refused.
    code, out, err = run(capsys, "event", "publish", "Tue", str(site / "index.html"),
                         "--db", db)
    assert code == 2 and "is a file, not a folder" in err


def test_byes_score_as_the_event_sets_and_the_tie_breaks_go_in_its_order(tmp_path, capsys):
    from host_tools.events import standings as ST
    from host_tools.events.state import event_state
    db = str(tmp_path / "club.db")
    code, out, err = run(capsys, "event", "create", "Tue", "--format", "round-robin",
                         "--db", db, *TEAMS[:3], "--bye", "win", "--tiebreak", "diff")
    assert code == 0, err
    assert "a bye scores a win" in out and "tie-breaks after matches won: diff, h2h, for" \
        in out
    with D.open_db(db) as d:
        ev = EV.load(d, "Tue")
    (t,) = [x for x in ev.tables if x.round == 1]
    resting = [n for i, n in enumerate(ev.entrants) if i not in t.side_a + t.side_b]
    assert len(resting) == 1

    def rows(through=None):
        with D.open_db(db) as d:
            ev = EV.load(d, "Tue")
            return {r.name: r for r in ST.compute(ev, event_state(ev, d), through)}
    assert rows()[resting[0]].played == 0       # round 1 not in: no bye yet
    assert _result(capsys, tmp_path, db, 1, 1)[0] == 0
    r = rows()[resting[0]]
    assert (r.played, r.won, r.lost, r.points_for, r.points_against) == (1, 1, 0, 7, 0)
    # The average instead: the points of its games, no win; nothing: nothing at all.
    assert run(capsys, "event", "set", "Tue", "--bye", "average", "--db", db)[0] == 0
    r = rows()[resting[0]]
    assert (r.played, r.won, r.points_for) == (0, 0, 0)     # no game of its own yet
    assert run(capsys, "event", "set", "Tue", "--bye", "nothing", "--db", db)[0] == 0
    assert rows()[resting[0]].won == 0
    # A bad order is refused before anything is made.
    code, out, err = run(capsys, "event", "create", "Wed", "--format", "round-robin",
                         "--db", db, *TEAMS, "--tiebreak", "diff,luck")
    assert code == 2 and "--tiebreak diff,luck" in err
    with D.open_db(db) as d:
        assert EV.names(d) == ["Tue"]


def test_the_tie_break_order_decides_between_teams_level_on_wins():
    from host_tools.events import standings as ST
    a, b = ST.Row(0, "Aces"), ST.Row(1, "Bones")
    for r in (a, b):
        r.won = 1
    a.beat[1] = 1                       # Aces beat Bones...
    a.points_for, a.points_against = 7, 6
    b.points_for, b.points_against = 14, 2      # ...but Bones have the difference
    assert [r.name for r in ST.rank([a, b])] == ["Aces", "Bones"]
    assert [r.name for r in ST.rank([a, b], order=("diff", "h2h", "for"))] == ["Bones",
                                                                               "Aces"]


def test_the_prize_list_names_the_first_places_and_who_played(tmp_path, capsys):
    db = str(tmp_path / "club.db")
    _made(capsys, db)
    assert _result(capsys, tmp_path, db, 1, 1)[0] == 0
    assert _result(capsys, tmp_path, db, 1, 2)[0] == 0
    assert run(capsys, "event", "substitute", "Tue", "--out", "Cy", "--in", "Zed",
               "--round", "2", "--db", db)[0] == 0
    code, out, err = run(capsys, "event", "prizes", "Tue", "--places", "2", "--db", db)
    assert code == 0, err
    code, want, _ = run(capsys, "event", "standings", "Tue", "--format", "csv", "--db", db)
    first = [line.split(",") for line in want.splitlines()[1:3]]
    lines = out.splitlines()[2:]
    assert len(lines) == 2
    for line, (place, name) in zip(lines, [("1st", first[0][1]), ("2nd", first[1][1])]):
        assert line.startswith("%-4s %s (" % (place, name)), line
    assert any("Zed" in line for line in lines) == ("Aces" in (first[0][1], first[1][1]))
    page = tmp_path / "prizes.html"
    code, out, err = run(capsys, "event", "prizes", "Tue", "--html", "--out", str(page),
                         "--db", db)
    assert code == 0 and "<td>1st</td>" in page.read_text()
    code, out, err = run(capsys, "event", "prizes", "Tue", "--places", "0", "--db", db)
    assert code == 2 and "places" in err
