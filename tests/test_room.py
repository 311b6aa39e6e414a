"""The room view of `tally42 serve` in headless Chromium: readable across a room at
1920x1080 and 3840x2160 (the smallest text 1/40 of the screen's height), every column
within a phone's 390 px, "find your table" and the byes shown, live progress shown and
the last good state kept when the PC does not answer."""
import os
import threading

import pytest

import chromium
from eventlogs import sitting_42
from host_tools.events import event as EV
from host_tools.events import live as LV
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


def _browser(width, height):
    binary = chromium.find()
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt install chromium)")
    return chromium.Chromium(binary, width, height)


def _open(width, height, url):
    browser = _browser(width, height)
    browser.open("about:blank")
    browser.send("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1,
        "mobile": width < height})
    browser.send("Page.navigate", {"url": url})
    browser.wait_for("document.querySelectorAll('#standings-table tr').length == 8")
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
        t1 = ev.table(1, 1)
        first = ev.seats(t1.side_a, t1.side_b)[0]
        assert "%sTable 1" % first in find
        resting = [n for i, n in enumerate(ev.entrants)
                   if all(i not in t.side_a + t.side_b for t in ev.tables if t.round == 1)]
        assert len(resting) == 1
        byes = browser.eval("document.getElementById('byes').textContent")
        assert byes == "Sitting out: %s" % resting[0]
        for p in ev.members[ev.entrants.index(resting[0])]:
            assert "%ssitting out" % p in find
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


def test_a_big_night_takes_turns_and_stays_readable(tmp_path):
    # Thirty teams: the standings, the tables and sixty players do not fit one screen at
    # a readable size, so the panes take turns, one at a time, each at full size.
    teams = [("Team %d" % i, ["P%da" % i, "P%db" % i]) for i in range(30)]
    path = str(tmp_path / "big.db")
    with D.open_db(path) as database:
        ev = EV.create(database, "Big night", "round-robin", "42", {}, teams=teams)
    server = SV.make_server(path, ev.name, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = _browser(1920, 1080)
    try:
        browser.open("about:blank")
        browser.send("Emulation.setDeviceMetricsOverride", {
            "width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
        browser.send("Page.navigate", {"url": "http://127.0.0.1:%d/" %
                                       server.server_address[1]})
        browser.wait_for("document.querySelectorAll('#standings-table tr').length == 31")
        assert browser.eval("document.body.classList.contains('turns')") is True
        shown = browser.eval("Array.from(document.querySelectorAll('main section'))"
                             ".filter(s => getComputedStyle(s).display != 'none')"
                             ".map(s => s.id)")
        assert shown == ["standings-pane"]
        least, height, what = browser.eval(_SMALLEST)
        assert least >= height / 40 - 0.01, (least, what)
    finally:
        browser.close()
        server.shutdown()
        server.server_close()
