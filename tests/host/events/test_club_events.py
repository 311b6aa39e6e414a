"""A club night as organisers run one: each scorer keeps its table and gets the next
round at the sync that finishes its table, claims released, live progress that is no
result, late teams and substitutes without losing a result, score cards, rosters as
people type them, and a sitting renamed, deleted or synced at another desk said aloud.
On SQLite and on PostgreSQL (conftest's db_url)."""
import json

import pytest

from clihelp import run
from eventlogs import partial_42, sitting_42
from host_tools.events import slots as SL
from host_tools.events import cards as CA
from host_tools.events import event as EV
from host_tools.events import late as LT
from host_tools.events import live as LV
from host_tools.events import slots as SL
from host_tools.events import standings as ST
from host_tools.events import state as ES
from host_tools.log.lines import Meta
from host_tools.store import db as D

TEAMS = [("Aces", ["Ann", "Bob"]), ("Bones", ["Cy", "Di"]), ("Cats", ["Ed", "Flo"]),
         ("Dogs", ["Gus", "Hal"]), ("Eels", ["Ida", "Jo"]), ("Foxes", ["Kay", "Lu"]),
         ("Gnus", ["Mo", "Ned"]), ("Hens", ["Oz", "Pam"])]


@pytest.fixture
def database(db_url):
    d = D.open_db(db_url)
    yield d
    d.close()


def _finish(database, a, sid, winner=0):
    database.store(sitting_42(a["players"], winner, 3, sid), source="sync")
    return SL.slot_sitting(database, sid, a["event"], a["round"], a["table"])


def test_each_scorer_keeps_its_table_and_gets_the_next_round_at_once(database):
    EV.create(database, "Tue", "round-robin", "42", {}, teams=TEAMS)
    first = {s: SL.next_assignment(database, s, "Tue") for s in "ABCD"}
    assert sorted(a["table"] for a in first.values()) == [1, 2, 3, 4]
    assert {a["round"] for a in first.values()} == {1}
    # Scorer A finishes while the other tables still play: its table of round 2 comes
    # out at once, the same table number.
    assert _finish(database, first["A"], "a1") == "slotted"
    nxt = SL.next_assignment(database, "A", "Tue")
    assert (nxt["round"], nxt["table"]) == (2, first["A"]["table"])
    ev = EV.load(database, "Tue")
    t = ev.table(2, first["A"]["table"])
    assert nxt["players"] == ev.seats(t.side_a, t.side_b, 2)
    # Another scorer asking is never handed A's table, nor a round ahead of its own.
    assert SL.next_assignment(database, "B", "Tue") == first["B"]
    # A fifth scorer: every table has its scorer.
    assert SL.next_assignment(database, "E", "Tue") is None
    # Released, A's number goes to the next scorer asking; its round 2 table with it.
    assert SL.release(database, "Tue", "A") == [("A", first["A"]["table"])]
    got = SL.next_assignment(database, "E", "Tue")
    assert (got["round"], got["table"]) == (2, first["A"]["table"])
    assert SL.scorer_table(database, "Tue", "A") is None
    with pytest.raises(EV.EventError, match="no table is held by scorer A"):
        SL.release(database, "Tue", "A")


def test_live_progress_is_shown_never_counted_and_cleared_by_the_result(database):
    ev = EV.create(database, "Tue", "round-robin", "42", {}, teams=TEAMS)
    t = ev.table(1, 2)
    seats = ev.seats(t.side_a, t.side_b)
    # The sitting as the scorer has it, side B in seats 1 and 3: turned to side A.
    turned = [seats[1], seats[0], seats[3], seats[2]]
    assert LV.record(database, "Tue", 1, 2, "s1", turned, [3, 2], 4, device="X")
    live = LV.read(database, "Tue")[(1, 2)]
    assert (live.score, live.hands, live.text) == ([2, 3], 4, "playing 2-3, hand 5")
    state = ES.event_state(ev, database)
    assert ES.table_status(ev, t, state) == "ready"
    assert all(r.played == 0 for r in ST.compute(ev, state))
    # Not the table's players: nothing recorded.
    assert not LV.record(database, "Tue", 1, 2, "s1", ["Ann", "Cy", "Bob", "Di"], [1, 0], 1)
    database.store(sitting_42(seats, 0, 2, "r1t2"))
    SL.slot_sitting(database, "r1t2", "Tue", 1, 2)
    assert (1, 2) not in LV.read(database, "Tue")
    # A decided table takes no progress.
    assert not LV.record(database, "Tue", 1, 2, "s2", seats, [1, 0], 1)


def test_record_log_takes_the_open_sitting_as_a_sync_fetches_it(database):
    ev = EV.create(database, "Tue", "round-robin", "42", {}, teams=TEAMS)
    t = ev.table(1, 1)
    seats = ev.seats(t.side_a, t.side_b)
    lines = [json.loads(x) for x in partial_42(seats, 3, "T42-1-AB").splitlines()]
    lines.insert(1, Meta({"event": "Tue", "round": 1, "table": 1}))
    got = LV.record_log(database, lines, "T42-1")
    assert got is not None and got[:3] == ("Tue", 1, 1) and got[3].hands == 3
    assert got[3].text == "playing %d-%d, hand 4" % tuple(got[3].score)
    lines[1]["event"] = "Elsewhere"
    assert LV.record_log(database, lines, "T42-1") is None


def test_a_desk_slots_only_its_own_event(database):
    EV.create(database, "A", "round-robin", "42", {}, teams=TEAMS[:4])
    ev = EV.create(database, "B", "round-robin", "42", {}, teams=TEAMS[:4])
    t = ev.table(1, 1)
    lines = [json.loads(x) for x in sitting_42(ev.seats(t.side_a, t.side_b), 0, 2,
                                               "s-b").splitlines()]
    lines.insert(1, Meta({"event": "B", "round": 1, "table": 1}))
    database.store_lines(lines)
    slotter = SL.Slotter(database, "A")
    slotter("s-b")
    assert slotter.slotted == [] and "not in A: not slotted" in slotter.refused[0]
    assert SL.slot_of(database, "s-b") is None
    SL.Slotter(database)("s-b")        # a plain sync slots it where it was played
    assert SL.slot_of(database, "s-b") == ("B", 1, 1)


def test_a_late_team_joins_and_every_result_stays(database):
    teams = TEAMS[:5]
    ev = EV.create(database, "Tue", "round-robin", "42", {}, teams=teams)
    for t in ev.tables:
        if t.round == 1:
            sid = "r1t%d" % t.table
            database.store(sitting_42(ev.seats(t.side_a, t.side_b), 0, 4, sid))
            SL.slot_sitting(database, sid, "Tue", 1, t.table)
    before = ST.compute(ev, ES.event_state(ev, database))
    ev2, first = LT.add_team(database, "Tue", "Late", ["Zoe", "Yan"])
    assert first == 2 and len(ev2.entrants) == 6
    assert [(t.side_a, t.side_b) for t in ev2.tables if t.round == 1] == \
        [(t.side_a, t.side_b) for t in ev.tables if t.round == 1]
    state = ES.event_state(ev2, database)
    after = {r.name: (r.won, r.lost, r.points_for) for r in ST.compute(ev2, state)}
    assert all(after[r.name] == (r.won, r.lost, r.points_for) for r in before)
    # Every pair meets exactly once over the night; nobody twice in a round.
    met = [frozenset(t.side_a + t.side_b) for t in ev2.tables]
    assert len(met) == len(set(met)) == 15
    for r in range(1, ev2.rounds + 1):
        seated = [e for t in ev2.tables if t.round == r for e in t.side_a + t.side_b]
        assert len(seated) == len(set(seated))
    assert ev2.rounds == 6      # the late team's 5 games and the 5 left of two teams
    with pytest.raises(EV.EventError, match="on the roster already"):
        LT.add_team(database, "Tue", "Other", ["zoe", "Xi"])
    assert len(EV.load(database, "Tue").entrants) == 6


def test_a_substitute_plays_on_and_each_game_goes_to_who_played_it(database):
    ev = EV.create(database, "Tue", "round-robin", "42", {}, teams=TEAMS[:4])
    for t in ev.tables:
        if t.round == 1:
            sid = "r1t%d" % t.table
            database.store(sitting_42(ev.seats(t.side_a, t.side_b), 0, 4, sid))
            SL.slot_sitting(database, sid, "Tue", 1, t.table)
    with pytest.raises(EV.EventError, match="has a result with Cy playing"):
        LT.substitute(database, "Tue", "Cy", "Zed", 1)
    LT.substitute(database, "Tue", "Cy", "Zed", 2)
    ev = EV.load(database, "Tue")
    bones = ev.entrants.index("Bones")
    t2 = next(t for t in ev.tables if t.round == 2 and bones in t.side_a + t.side_b)
    seats = ev.seats(t2.side_a, t2.side_b, 2)
    assert "Zed" in seats and "Cy" not in seats
    assert "Cy" in ev.seats(*next((t.side_a, t.side_b) for t in ev.tables if t.round == 1
                                  and bones in t.side_a + t.side_b), 1)
    # The substitute's sitting is the table's result; Cy's name would not be.
    wrong = [("Cy" if p == "Zed" else p) for p in seats]
    database.store(sitting_42(wrong, 0, 1, "bad"))
    with pytest.raises(EV.EventError, match="was played by"):
        SL.slot_sitting(database, "bad", "Tue", 2, t2.table)
    database.store(sitting_42(seats, 0, 1, "r2"))
    assert SL.slot_sitting(database, "r2", "Tue", 2, t2.table) == "slotted"
    who = {r[0]: r for r in ST.players(ev, ES.event_state(ev, database))}
    assert who["Cy"][2] == 1 and who["Zed"][2] == 1 and who["Di"][2] == 2
    assert who["Zed"][1] == "Bones"
    with pytest.raises(EV.EventError, match="on the roster already"):
        LT.substitute(database, "Tue", "Ann", "ZED", 3)


def test_score_cards_one_a_table_with_a_line_a_hand(database):
    ev = EV.create(database, "Tue", "round-robin", "42", {}, teams=TEAMS[:5])
    state = ES.event_state(ev, database)
    page, n = CA.html_cards(ev, state, 1)
    assert n == 2 and page.count("class=\"card\"") == 2
    assert page.count("<tr><td>13</td>") == 2 and "<tr><td>14</td>" not in page
    t = ev.table(1, 1)
    for p in ev.seats(t.side_a, t.side_b):
        assert p in page
    points = EV.create(database, "Pts", "round-robin", "42", {"scoring": "points",
                                                                "target": 250},
                       teams=TEAMS[:2])
    page, n = CA.html_cards(points, ES.event_state(points, database))
    assert n == 1 and "<tr><td>12</td>" in page and "<tr><td>13</td>" not in page


def test_roster_files_as_people_type_them(tmp_path, capsys, db_url):
    roster = tmp_path / "r.txt"
    roster.write_bytes("\ufeff# Tuesday\nAces: Ann, Bob  # late\nBones: Cy, Di\n"
                       .encode("utf-8"))
    code, out, err = run(capsys, "event", "create", "Tue", "--format", "round-robin",
                         "--roster", str(roster), "--db", db_url)
    assert code == 0, err
    with D.open_db(db_url, readonly=True) as database:
        ev = EV.load(database, "Tue")
    assert ev.entrants == ["Aces", "Bones"] and ev.members[0] == ["Ann", "Bob"]
    roster.write_text("Aces: Ann, Bob\n\nBones Cy Di\n")
    code, out, err = run(capsys, "event", "create", "T2", "--format", "round-robin",
                         "--roster", str(roster), "--db", db_url)
    assert code == 2 and "r.txt line 3: Bones Cy Di has no colon" in err
    roster.write_text("Aces: Ann, bob\nBones: Bob, Di\n")
    code, out, err = run(capsys, "event", "create", "T3", "--format", "round-robin",
                         "--roster", str(roster), "--db", db_url)
    assert code == 2 and "is on the roster twice" in err
    roster.write_text("Aces: Ann,\n")
    code, out, err = run(capsys, "event", "create", "T4", "--format", "round-robin",
                         "--roster", str(roster), "--db", db_url)
    assert code == 2 and "r.txt line 1: Aces: Ann,: give NAME: PLAYER, PLAYER" in err


def test_rename_keeps_the_slot_delete_says_the_table_opens_sittings_shows_it(
        tmp_path, capsys, db_url):
    with D.open_db(db_url) as database:
        ev = EV.create(database, "Tue", "round-robin", "42", {}, teams=TEAMS[:4])
        t = ev.table(1, 1)
        lines = [json.loads(x) for x in sitting_42(ev.seats(t.side_a, t.side_b), 0, 2,
                                                   "s1").splitlines()]
        lines.insert(1, Meta({"event": "Other", "round": 4, "table": 9}))
        database.store_lines(lines)
        SL.slot_sitting(database, "s1", "Tue", 1, 1)
    code, out, err = run(capsys, "sittings", "--db", db_url)
    assert code == 0 and "Tue R1 T1" in out and "Other" not in out
    code, out, err = run(capsys, "rename", "s1", "s2", "--db", db_url)
    assert code == 0 and "still the result of Tue round 1 table 1" in out
    code, out, err = run(capsys, "sittings", "--json", "--db", db_url)
    assert json.loads(out)["slot"] == {"event": "Tue", "round": 1, "table": 1}
    code, out, err = run(capsys, "delete", "s2", "--db", db_url)
    assert code == 0 and "Tue round 1 table 1 has no result now" in out
    with D.open_db(db_url, readonly=True) as database:
        ev = EV.load(database, "Tue")
        assert ES.table_status(ev, ev.table(1, 1), ES.event_state(ev, database)) == "ready"


def test_cli_release_cards_add_team_substitute(tmp_path, capsys, db_url):
    code, out, err = run(capsys, "event", "create", "Tue", "--format", "round-robin",
                         *["--team=%s: %s" % (n, ", ".join(p)) for n, p in TEAMS[:5]],
                         "--db", db_url)
    assert code == 0, err
    code, out, err = run(capsys, "event", "next", "Tue", "--device", "s1", "--db", db_url)
    assert "Table 1 · Round 1" in out
    code, out, err = run(capsys, "event", "release", "Tue", "--table", "1", "--db", db_url)
    assert code == 0 and "released scorer s1 from table 1" in out
    code, out, err = run(capsys, "event", "release", "Tue", "--db", db_url)
    assert code == 2 and "--device or --table" in err
    cards = tmp_path / "cards.html"
    code, out, err = run(capsys, "event", "cards", "Tue", "--round", "1", "--out",
                         str(cards), "--db", db_url)
    assert code == 0 and "2 score cards" in err and cards.read_text().count("card\"") == 2
    code, out, err = run(capsys, "event", "add-team", "Tue", "Late: Zoe, Yan", "--db",
                         db_url)
    assert code == 0 and "added Late to Tue: rounds 1 to" in out
    code, out, err = run(capsys, "event", "substitute", "Tue", "--out", "Ann", "--in",
                         "Zed", "--round", "2", "--db", db_url)
    assert code == 0 and "Zed plays for Ann from round 2" in out
    code, out, err = run(capsys, "event", "standings", "Tue", "--players", "--db", db_url)
    assert code == 0 and "Players (each game to whoever played it)" in out
