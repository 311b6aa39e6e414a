"""The page follows each team where it is (host_tools/events/whereat.py): tables run
ahead of the round, so "find your table" sends each player to their team's current
table (the one being played, else its earliest not decided), whatever its round, with
the substitutes of that round; the earliest round at play stays on show whole. Plain
HTTP-free checks of state_json, the body of /state.json."""
from eventlogs import sitting_42
from host_tools.events import event as EV
from host_tools.events import late as LT
from host_tools.events import live as LV
from host_tools.events import serve as SV
from host_tools.events import slots as SL
from host_tools.store import db as D

TEAMS = [("Aces", ["Ann", "Cy"]), ("Bones", ["Bob", "Di"]), ("Cats", ["Eve", "Gus"]),
         ("Dogs", ["Fay", "Hal"]), ("Eels", ["Ida", "Jo"]), ("Foxes", ["Kay", "Lu"])]


def _result(db, ev, rnd, table, text):
    st = db.store(text, "import", None)
    SL.slot_sitting(db, st.id, ev.name, rnd, table)


def _found(page):
    return {f["player"]: f["table"] for f in page["find"]}


def test_find_your_table_follows_each_team_up_to_two_rounds_ahead_with_a_substitute(
        tmp_path):
    db = D.open_db(str(tmp_path / "club.db"))
    ev = EV.create(db, "Tue", "round-robin", "42", teams=TEAMS)
    t = ev.table(1, 1)
    a = ev.seats(t.side_a, t.side_b, 1)
    # Round 1 table 1 decided: its two teams move on to their round-2 tables while the
    # rest of round 1 plays.
    _result(db, ev, 1, 1, sitting_42(a, 0, 3, "r1t1"))
    page = SV.state_json(db, "Tue")
    found = _found(page)
    at = {}
    for tt in ev.tables:
        for e in tt.side_a + tt.side_b:
            at.setdefault((e, tt.round), tt)
    # Each team of table 1 is at its round-2 table now; the others at their round 1.
    for e, (name, players) in enumerate(TEAMS):
        rnd = 2 if e in t.side_a + t.side_b else 1
        want = at.get((e, rnd))
        for p in players:
            assert found[p] == (want.table if want else None), (name, p, found, rnd)
    assert page["round"] == 1
    assert {(x["round"], x["table"]) for x in page["tables"]} >= {(1, 1), (1, 2), (1, 3)}
    # A substitute from round 2 in team Aces: found at Aces' round-2 table, Ann not.
    LT.substitute(db, "Tue", "Ann", "Zed", 2)
    ev = EV.load(db, "Tue")
    page = SV.state_json(db, "Tue")
    found = _found(page)
    aces2 = at[(0, 2)]
    assert found["Zed"] == aces2.table and "Ann" not in found
    # A scorer's live progress at a table two rounds ahead puts its teams there.
    t3 = next(tt for tt in ev.tables if tt.round == 3 and 0 not in tt.side_a + tt.side_b)
    seats3 = ev.seats(t3.side_a, t3.side_b, 3)
    LV.record(db, "Tue", 3, t3.table, "r3live", seats3, [1, 1], 2)
    page = SV.state_json(db, "Tue")
    found = _found(page)
    for p in seats3:
        assert found[p] == t3.table, (p, found)
    row = [x for x in page["tables"] if (x["round"], x["table"]) == (3, t3.table)]
    assert row and row[0]["live"] == "playing 1-1, hand 3"
    db.close()


def test_the_desk_panel_is_served_behind_its_flag(tmp_path):
    import json
    import threading
    import urllib.request
    path = str(tmp_path / "club.db")
    with D.open_db(path) as db:
        ev = EV.create(db, "Tue", "round-robin", "42", teams=TEAMS)
        assert SL.next_assignment(db, "T42-0000A1", "Tue")["table"] == 1
        t = ev.table(1, 1)
        LV.record(db, "Tue", 1, 1, "live", ev.seats(t.side_a, t.side_b, 1), [2, 1], 3,
                  "T42-0000A1")
    for desk in (False, True):
        server = SV.make_server(path, "Tue", "127.0.0.1", 0, desk=desk)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/" % server.server_address[1]
        try:
            with urllib.request.urlopen(url + "state.json", timeout=10) as r:
                state = json.loads(r.read())
            with urllib.request.urlopen(url, timeout=10) as r:
                page = r.read().decode()
        finally:
            server.shutdown()
            server.server_close()
        assert 'id="desk-pane"' in page
        if not desk:
            assert "desk" not in state
            continue
        [row] = state["desk"]["scorers"]
        assert row["device"] == "T42-0000A1" and row["home"] == 1 and row["at"] == [1, 1]
        assert row["live"] == "playing 2-1, hand 4"
        assert state["desk"]["unscored"] == [[1, 2], [1, 3]]
