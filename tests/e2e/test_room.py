"""The room view of `tally42 serve` in headless Chromium: readable across a room at
1920x1080 and 3840x2160 (the smallest text 1/40 of the screen's height), a night too big
for the screen paged with no row cut or lost, every column within a phone's 390 px,
"find your table" and the byes shown, live progress shown and the last good state kept
when the PC does not answer."""
import os
import threading

import pytest

from browser import Page
from eventlogs import sitting_42
from host_tools.events import event as EV
from host_tools.events import live as LV
from host_tools.events import page as PG
from host_tools.events import serve as SV
from host_tools.events import slots as SL
from host_tools.store import db as D

# Seven teams (a bye each round), names as long as a roster takes.
TEAMS = [("Aces High Club", ["Annabelle", "Bob"]), ("Bones", ["Cy", "Dionysia"]),
         ("Cats", ["Ed", "Flo"]), ("Dogs", ["Gus", "Hal"]), ("Eels", ["Ida", "Jo"]),
         ("Foxes", ["Kay", "Lu"]), ("Gnus Of The North", ["Mo", "Ned"])]


@pytest.fixture
def night(tmp_path):
    path = str(tmp_path / "room.db")
    with D.open_db(path) as database:
        ev = EV.create(database, "Tuesday club", "round-robin", "42", {}, teams=TEAMS)
        for t in ev.tables:
            if t.round == 1 and t.table != 3:
                seats = ev.seats(t.side_a, t.side_b)
                sid = "r1t%d" % t.table
                database.store(sitting_42(seats, t.table % 2, t.table + 2, sid))
                SL.slot_sitting(database, sid, ev.name, 1, t.table)
        t = ev.table(1, 3)
        seats = ev.seats(t.side_a, t.side_b)
        # Table 3's scorer synced mid-game: live progress, not a result.
        assert LV.record(database, ev.name, 1, 3, "T42-0000A3-1", seats, [3, 2], 4)
    server = SV.make_server(path, ev.name, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield path, ev, "http://127.0.0.1:%d/" % server.server_address[1]
    server.shutdown()
    server.server_close()


def _open(width, height, url, rows=8, script=None):
    browser = Page(width, height, script)
    browser.open(url)
    browser.wait_for("document.querySelectorAll('#standings-table tr').length == %d" % rows)
    return browser


# The font size of every element that shows text of its own, and the screen's height.
_SMALLEST = """(function(){var least=1e9,what="";
  document.querySelectorAll("body *").forEach(function(el){
    if(!el.offsetParent&&el.tagName!=="BODY")return;
    var own=Array.from(el.childNodes).some(function(n){
      return n.nodeType===3&&n.textContent.trim();});
    if(!own)return;var f=parseFloat(getComputedStyle(el).fontSize);
    if(f<least){least=f;what=el.tagName+" "+el.textContent.slice(0,30);}});
  return [least,innerHeight,what];})()"""

# Every table cell's right edge, and the widest thing on the page, against the width.
_CUT = """(function(){var w=innerWidth,worst=0;
  document.querySelectorAll("th,td").forEach(function(c){
    if(c.offsetParent)worst=Math.max(worst,c.getBoundingClientRect().right);});
  return [worst,document.documentElement.scrollWidth,w];})()"""


@pytest.mark.parametrize("size", [(1920, 1080), (3840, 2160)])
def test_the_room_view_is_readable_across_the_room(night, size, tmp_path):
    path, ev, url = night
    browser = _open(size[0], size[1], url)
    try:
        least, height, what = browser.eval(_SMALLEST)
        assert height == size[1]
        assert least >= height / 40 - 0.01, (least, what)
        worst, scroll, width = browser.eval(_CUT)
        assert worst <= width and scroll <= width
        # Everything is on the screen at once: the panes side by side, none scrolled off.
        assert browser.eval("document.body.classList.contains('turns')") is False
        assert browser.eval("document.documentElement.scrollHeight") <= height
        shots = os.environ.get("TALLY42_SCREENS") or str(tmp_path)
        browser.screenshot(os.path.join(shots, "room-%dx%d.png" % size))
    finally:
        browser.close()


def test_the_room_view_on_a_phone_cuts_no_column_off(night, tmp_path):
    path, ev, url = night
    browser = _open(390, 844, url)
    try:
        worst, scroll, width = browser.eval(_CUT)
        assert width == 390 and worst <= width and scroll <= width, (worst, scroll)
        heads = browser.eval("Array.from(document.querySelectorAll('#standings-table th'))"
                             ".map(c => c.textContent)")
        assert heads == ["#", "Name", "P", "W", "L", "Marks", "Agst", "Diff"]
        shots = os.environ.get("TALLY42_SCREENS") or str(tmp_path)
        browser.screenshot(os.path.join(shots, "room-390x844.png"))
    finally:
        browser.close()


def test_find_your_table_byes_and_live_progress(night):
    path, ev, url = night
    browser = _open(1920, 1080, url)
    try:
        find = browser.eval("Array.from(document.querySelectorAll('#find div'))"
                            ".map(d => d.textContent)")
        # Each team at its own table: table 3's at table 3 (still playing round 1),
        # every other team at its next table (round 2's, or round 3's for the team
        # resting in round 2; the team resting in round 1 too: its opponent comes when
        # their game is over): nobody sits out.
        t3 = ev.table(1, 3)
        for i, members in enumerate(ev.members):
            if i in t3.side_a + t3.side_b:
                table = 3
            else:
                table = min((t.round, t.table) for t in ev.tables
                            if t.round > 1 and i in t.side_a + t.side_b)[1]
            for p in members:
                assert "%sTable %d" % (p, table) in find, (p, table, find)
        assert browser.eval("document.getElementById('byes').textContent") == ""
        assert len(find) == 14
        names = [f.split("Table")[0].split("sitting")[0] for f in find]
        assert names == sorted(names, key=str.casefold)
        row = browser.eval("Array.from(document.querySelectorAll('#tables-table tr'))"
                           ".map(r => r.textContent).filter(t => t.startsWith('3'))[0]")
        assert "playing 3-2, hand 5" in row and "3 - 2" in row
    finally:
        browser.close()


def test_the_page_keeps_its_last_good_state_when_the_pc_fails(night, monkeypatch):
    path, ev, url = night
    browser = _open(1920, 1080, url)
    try:
        before = browser.eval("document.getElementById('standings').innerHTML")
        assert browser.eval("document.getElementById('title').textContent") == "Tuesday club"

        def down(database, name):
            raise D.DbError("the database is gone")
        monkeypatch.setattr(SV, "state_json", down)
        # Something stored: the page must read again, and that read fails.
        t = ev.table(1, 3)
        with D.open_db(path) as database:
            assert LV.record(database, ev.name, 1, 3, "T42-0000A3-1",
                             ev.seats(t.side_a, t.side_b), [4, 2], 6)
        browser.wait_for("document.getElementById('updated').className == 'stale'")
        assert browser.eval("document.getElementById('title').textContent") == "Tuesday club"
        assert browser.eval("document.getElementById('standings').innerHTML") == before
        assert "waiting for the PC (last update" in browser.eval(
            "document.getElementById('updated').textContent")
        monkeypatch.undo()
        browser.wait_for("document.getElementById('updated').className == ''")
    finally:
        browser.close()


# Thirty teams: fifteen tables a round and sixty players.
BIG = [("Team %d" % i, ["P%da" % i, "P%db" % i]) for i in range(30)]


def _serve(tmp_path, name, fmt, **people):
    path = str(tmp_path / "big.db")
    with D.open_db(path) as database:
        ev = EV.create(database, name, fmt, "42", {}, **people)
    server = SV.make_server(path, ev.name, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, (path, ev, "http://127.0.0.1:%d/" % server.server_address[1])


@pytest.fixture
def big_night(tmp_path):
    server, night = _serve(tmp_path, "Big night", "round-robin", teams=BIG)
    yield night
    server.shutdown()
    server.server_close()


@pytest.fixture
def crowd(tmp_path):
    # A progressive of 120 players: thirty tables, and every pane too tall for a screen.
    players = ["Player %d" % i for i in range(120)]
    server, night = _serve(tmp_path, "Crowd", "progressive", players=players, rounds=2)
    yield night
    server.shutdown()
    server.server_close()


@pytest.fixture
def cup(tmp_path):
    # Thirty teams in a double-elimination bracket: the bracket joins the standings pane.
    server, night = _serve(tmp_path, "Cup", "double-elimination", teams=BIG)
    yield night
    server.shutdown()
    server.server_close()


# What the screen shows now: the panes shown with their page marks, and every row shown
# (a table's row or a player of "find your table") with its cells and where it lies.
_SCREEN = """(function(){
  var shown=Array.from(document.querySelectorAll("main section")).filter(function(s){
    return getComputedStyle(s).display!="none";});
  var rows=[];
  shown.forEach(function(s){s.querySelectorAll("tr,#find>div").forEach(function(r){
    if(!r.getClientRects().length)return;var b=r.getBoundingClientRect();
    rows.push({pane:s.id,head:!!r.querySelector("th"),
      cells:Array.from(r.children).map(function(c){return c.textContent;}),
      top:b.top,bottom:b.bottom,right:b.right});});});
  return {panes:shown.map(function(s){return s.id;}),
    marks:shown.map(function(s){var m=s.querySelector(".mark");return m&&m.textContent;}),
    rows:rows,height:innerHeight,width:innerWidth,
    scroll:document.documentElement.scrollHeight};})()"""


def _walk(browser, steps):
    """Every screen the room sees as the page turns: {(pane, mark): rows}, each screen
    checked whole (no row cut or below the bottom, nothing scrolled, type readable)."""
    seen = {}
    for _ in range(steps):
        screen = browser.eval(_SCREEN)
        height, width = screen["height"], screen["width"]
        assert screen["scroll"] <= height, screen["scroll"]
        assert len(screen["panes"]) == 1, screen["panes"]
        for row in screen["rows"]:
            assert 0 <= row["top"] and row["bottom"] <= height, row
            assert row["right"] <= width, row
        least, _, what = browser.eval(_SMALLEST)
        assert least >= height / 40 - 0.01, (least, what)
        seen[(screen["panes"][0], screen["marks"][0])] = screen["rows"]
        browser.eval("turnPage()")
    return seen


def _pages(seen, pane):
    marks = sorted(m for p, m in seen if p == pane)
    if marks == [""]:
        return 1
    n = len(marks)
    assert sorted(marks) == sorted("%d/%d" % (k, n) for k in range(1, n + 1)), marks
    return n


def _body(seen, pane):
    return [r["cells"] for (p, _), rows in seen.items() if p == pane
            for r in rows if not r["head"]]


@pytest.mark.parametrize("night,size,steps", [
    ("big_night", (1920, 1080), 16), ("big_night", (3840, 2160), 16),
    ("crowd", (1920, 1080), 40), ("cup", (1920, 1080), 20)])
def test_a_big_night_pages_every_pane_that_does_not_fit(request, night, size, steps,
                                                        tmp_path):
    # Thirty teams do not fit one screen at a readable size: the panes take turns, and
    # the standings page themselves (and with 120 players, every pane does). Every team,
    # table, match and player is on exactly one page, every page whole on the screen.
    path, ev, url = request.getfixturevalue(night)
    with D.open_db(path) as database:
        state = SV.state_json(database, ev.name)
    matches = [m["label"] for m in state["bracket"]["matches"]] if state["bracket"] else []
    browser = _open(size[0], size[1], url, rows=len(ev.entrants) + 1)
    try:
        assert browser.eval("document.body.classList.contains('turns')") is True
        seen = _walk(browser, steps)
        assert {p for p, _ in seen} == {"standings-pane", "tables-pane", "find-pane"}
        pages = [_pages(seen, p) for p in ("standings-pane", "tables-pane", "find-pane")]
        assert pages[0] >= 2 and steps >= 2 * sum(pages), pages
        if night == "crowd":
            assert pages[1] >= 2 and pages[2] >= 2, pages
        for (pane, mark), rows in seen.items():
            if pane != "find-pane":         # every page has the table's head row
                assert rows and rows[0]["head"], (pane, mark)
        standings = _body(seen, "standings-pane")   # and the bracket's matches
        assert sorted(r[1] for r in standings) == sorted(ev.entrants + matches)
        tables = [r[0] for r in _body(seen, "tables-pane")]
        assert sorted(tables) == sorted(str(t["label"] or t["table"]) for t in state["tables"])
        players = sorted(r[0] for r in _body(seen, "find-pane"))
        assert players == sorted(f["player"] for f in state["find"])
        if night != "cup":
            assert sorted(map(int, tables)) == sorted(
                t.table for t in ev.tables if t.round == 1)
            assert players == sorted(p for ps in ev.members for p in ps)
        shots = os.environ.get("TALLY42_SCREENS") or str(tmp_path)
        while browser.eval("document.querySelector('#standings-pane .mark').textContent")\
                != "1/%d" % pages[0]:
            browser.eval("turnPage()")
        browser.screenshot(os.path.join(shots, "room-%s-%dx%d.png" % (night, *size)))
    finally:
        browser.close()


def test_the_pages_turn_on_the_timer_and_a_sync_keeps_the_page(big_night):
    path, ev, url = big_night
    # The page's turn timer, run fast; the poll keeps its own pace.
    fast = ("(function(){var set=window.setInterval;window.setInterval=function(f,ms){"
            "return set(f,ms===%d?300:ms);};})()" % PG.TURN_MS)
    browser = _open(1920, 1080, url, rows=31, script=fast)
    try:
        mark = "document.querySelector('#standings-pane .mark').textContent"
        shown = "document.querySelector('section.shown').id"
        assert browser.wait_for(mark + ".startsWith('2/')")
        browser.wait_for(shown + " == 'tables-pane'")
        browser.wait_for(shown + " == 'find-pane'")
        browser.wait_for(mark + ".startsWith('1/')")
    finally:
        browser.close()
    # A scorer's sync redraws the page: the screen stays on the page it was showing.
    browser = _open(1920, 1080, url, rows=31)
    try:
        browser.eval("turnPage()")
        assert browser.eval(mark).startswith("2/")
        t = ev.table(1, 1)
        with D.open_db(path) as database:
            assert LV.record(database, ev.name, 1, 1, "T42-0000B1-1",
                             ev.seats(t.side_a, t.side_b), [2, 1], 3)
        browser.wait_for("document.getElementById('tables-table').textContent"
                         ".includes('playing 2-1')")
        assert browser.eval(mark).startswith("2/")
        assert browser.eval(shown) == "standings-pane"
    finally:
        browser.close()


def test_a_big_night_on_a_phone_scrolls_whole(big_night):
    path, ev, url = big_night
    browser = _open(390, 844, url, rows=31)
    try:
        worst, scroll, width = browser.eval(_CUT)
        assert width == 390 and worst <= width and scroll <= width, (worst, scroll)
        assert browser.eval("document.body.classList.contains('turns')") is False
        assert browser.eval("document.querySelectorAll('.off').length") == 0
        screen = browser.eval(_SCREEN)
        assert screen["scroll"] > screen["height"]      # it scrolls, nothing paged
        assert set(screen["marks"]) == {""}
        names = [r["cells"][1] for r in screen["rows"]
                 if r["pane"] == "standings-pane" and not r["head"]]
        assert sorted(names) == sorted(name for name, _ in BIG)
    finally:
        browser.close()


def test_a_longer_header_turns_the_pages_again(tmp_path, monkeypatch):
    # "waiting for the PC (last update ...)" wraps this header to a second line: the
    # pages, measured below one line, are measured again, none pushed off the bottom.
    server, (path, ev, url) = _serve(tmp_path, "The Tuesday Night Forty-Two Club",
                                     "round-robin", teams=BIG)
    browser = _open(1152, 768, url, rows=31)
    try:
        high = "document.querySelector('header').offsetHeight"
        one = browser.eval(high)
        browser.eval("turnPage()")
        assert browser.eval(_SCREEN)["marks"][0].startswith("2/")

        def down(database, name):
            raise D.DbError("the database is gone")
        monkeypatch.setattr(SV, "state_json", down)
        t = ev.table(1, 1)
        with D.open_db(path) as database:
            assert LV.record(database, ev.name, 1, 1, "T42-0000C1-1",
                             ev.seats(t.side_a, t.side_b), [1, 0], 1)
        browser.wait_for("document.getElementById('updated').className == 'stale'")
        assert browser.eval(high) > one
        _walk(browser, 8)
    finally:
        browser.close()
        server.shutdown()
        server.server_close()
