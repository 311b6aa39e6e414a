"""`tally42 serve`: the event page, its JSON, and the page in a real headless Chromium
that updates without a reload when a sitting arrives."""
import json
import os
import subprocess
import sys
import threading
import urllib.request

import pytest

from browser import Page
from eventlogs import partial_42, sitting_42
from host_tools.events import event as EV
from host_tools.events import serve as SV
from host_tools.events import slots as SL
from host_tools.events import state as ES
from host_tools.store import db as D

TEAMS = [("Aces", ["Ann", "Bob"]), ("Bones", ["Cy", "Di"]), ("Cats", ["Ed", "Flo"]),
         ("Dogs", ["Gus", "Hal"]), ("Eels", ["Ida", "Jo"]), ("Foxes", ["Kay", "Lu"])]


def _night(path):
    """A six-team round robin: round 1 decided, round 2 with one table in progress."""
    with D.open_db(path) as database:
        ev = EV.create(database, "Tuesday club", "round-robin", "42", {}, teams=TEAMS)
        for t in ev.tables:
            if t.round == 1:
                seats = ev.seats(t.side_a, t.side_b)
                sid = "r1t%d" % t.table
                database.store(sitting_42(seats, t.table % 2, t.table + 2, sid))
                SL.slot_sitting(database, sid, ev.name, 1, t.table)
        t = ev.table(2, 1)
        database.store(partial_42(ev.seats(t.side_a, t.side_b), 3, "r2t1"))
        SL.slot_sitting(database, "r2t1", ev.name, 2, 1)
        return ev, ev.seats(t.side_a, t.side_b)


@pytest.fixture
def served(db_url):
    """The night served: from a SQLite file, then from a PostgreSQL database."""
    path = db_url
    ev, seats = _night(path)
    server = SV.make_server(path, ev.name, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield path, ev, seats, "http://127.0.0.1:%d/" % server.server_address[1]
    server.shutdown()
    server.server_close()


def test_state_json_has_standings_tables_and_live_scores(served):
    path, ev, seats, url = served
    with urllib.request.urlopen(url + "state.json") as r:
        state = json.loads(r.read())
    assert state["event"] == "Tuesday club" and state["round"] == 2
    assert sum(row["won"] for row in state["standings"]) == 3
    assert len(state["tables"]) == 3 and all(t["round"] == 2 for t in state["tables"])
    live = [t for t in state["tables"] if t["status"] == "playing"]
    assert len(live) == 1 and live[0]["hands"] == 3 and sum(live[0]["score"]) == 3
    with urllib.request.urlopen(url) as r:
        page = r.read().decode()
    assert "state.json" in page and "<table" not in page.split("<script>")[0]
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(url + "nothing")
    assert e.value.code == 404


def test_head_is_answered_as_get_without_a_body(served):
    import http.client
    path, ev, seats, url = served
    host, port = url.split("//")[1].rstrip("/").split(":")
    for target, code in (("/", 200), ("/state.json", 200), ("/nothing", 404)):
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            conn.request("GET", target)
            got = conn.getresponse()
            body = got.read()
            conn.request("HEAD", target)        # the same connection: no body between
            head = conn.getresponse()
            assert head.status == got.status == code
            assert head.getheader("Content-Type") == got.getheader("Content-Type")
            assert int(head.getheader("Content-Length")) == len(body) > 0
            assert head.read() == b""
            conn.request("GET", target)         # the connection still in step
            assert conn.getresponse().read()[:20] == body[:20]
        finally:
            conn.close()


def _state(url):
    with urllib.request.urlopen(url + "state.json") as r:
        return json.loads(r.read())


def test_a_sitting_another_process_stores_shows_up(served, tmp_path):
    # The page's server holds its connection open between requests; a scorer synced by
    # another tally42 (here `tally42 import`, another process) shows up at the next poll.
    path, ev, seats, url = served
    live = [t for t in _state(url)["tables"] if t["status"] == "playing"]
    assert [(t["table"], t["hands"]) for t in live] == [(1, 3)]
    log = tmp_path / "r2t1.jsonl"
    log.write_text(partial_42(seats, 6, "r2t1"))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-m", "host_tools", "import", str(log), "--db", path],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "updated" in done.stdout
    live = [t for t in _state(url)["tables"] if t["status"] == "playing"]
    assert [(t["table"], t["hands"], sum(t["score"])) for t in live] == [(1, 6, 6)]
    # A table decided elsewhere moves the standings at the next poll too.
    t = ev.table(2, 2)
    log.write_text(sitting_42(ev.seats(t.side_a, t.side_b), 0, 2, "r2t2"))
    done = subprocess.run([sys.executable, "-m", "host_tools", "event", "result", ev.name,
                           "--round", "2", "--table", "2", str(log), "--db", path],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    state = _state(url)
    assert sum(row["won"] for row in state["standings"]) == 4
    assert [t["status"] for t in state["tables"] if t["table"] == 2] == ["done"]


def test_tally42_serve_serves_the_database_it_was_given(db_url, tmp_path):
    # The command itself, in its own process, on a file or on a PostgreSQL URL that
    # carries a password (which the server's requests reconnect with; the test server
    # trusts its socket, so any password does).
    ev, seats = _night(db_url)
    given = db_url.replace("postgresql://tally42@", "postgresql://tally42:pw@")
    assert given != db_url or not D.is_url(db_url)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", ev.name, "--db",
                             given, "--host", "127.0.0.1", "--port", "0"], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving Tuesday club on http://127.0.0.1:"), \
            line + proc.stderr.read() if not line else line
        url = line.split(" on ", 1)[1].split(" ", 1)[0]
        assert _state(url)["round"] == 2
        with D.open_db(db_url) as database:
            database.store(partial_42(seats, 4, "r2t1"))
        live = [t for t in _state(url)["tables"] if t["status"] == "playing"]
        assert [(t["table"], t["hands"]) for t in live] == [(1, 4)]
    finally:
        proc.terminate()
        proc.communicate(timeout=60)


def test_a_bracket_state_names_its_matches(tmp_path):
    with D.open_db(str(tmp_path / "b.db")) as database:
        EV.create(database, "Cup", "double-elimination", "42", {}, teams=TEAMS[:4])
        state = SV.state_json(database, "Cup")
    labels = [m["label"] for m in state["bracket"]["matches"]]
    assert labels[:2] == ["Winners R1 M1", "Winners R1 M2"] and "Grand final" in labels
    assert [t["a"] for t in state["tables"]] == ["Aces", "Bones"]


def _browser():
    return Page(1200, 800)


def test_the_page_in_chromium_updates_without_a_reload(served, tmp_path):
    path, ev, seats, url = served
    browser = _browser()
    try:
        browser.open(url)
        browser.wait_for("document.querySelectorAll('#standings-table tr').length == 7")
        rows = browser.eval("Array.from(document.querySelectorAll('#standings-table tr'))"
                            ".slice(1).map(r => Array.from(r.cells).map(c => c.textContent))")
        assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
        assert sorted(r[1] for r in rows) == sorted(n for n, _ in TEAMS)
        assert sum(int(r[3]) for r in rows) == 3 and sum(int(r[4]) for r in rows) == 3
        assert browser.eval("document.getElementById('title').textContent") == "Tuesday club"
        assert browser.eval("document.getElementById('tables-title').textContent") == \
            "Round 2 of 5"
        live = browser.eval("document.querySelector('#tables-table tr:nth-child(2)')"
                            ".textContent")
        assert "1 - 2" in live or "2 - 1" in live
        shots = os.environ.get("TALLY42_SCREENS") or str(tmp_path)
        shot = os.path.join(shots, "event-page.png")
        browser.screenshot(shot)
        with open(shot, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        # A mark that a reload would wipe; then the scorer syncs two more hands.
        browser.eval("window.notReloaded = true")
        with D.open_db(path) as database:
            database.store(partial_42(seats, 5, "r2t1"))
        # The hands stored so far, as the radio's are: "playing 3-2, hand 6".
        browser.wait_for("/^playing \\d+-\\d+, hand 6$/.test(document.querySelector("
                         "'#tables-table tr:nth-child(2)').cells[4].textContent)")
        assert browser.eval("window.notReloaded") is True
        # A table finishes: the standings move.
        with D.open_db(path) as database:
            t = ev.table(2, 2)
            database.store(sitting_42(ev.seats(t.side_a, t.side_b), 0, 0, "r2t2"))
            SL.slot_sitting(database, "r2t2", ev.name, 2, 2)
        browser.wait_for("Array.from(document.querySelectorAll('#standings-table tr'))"
                         ".slice(1).reduce((s, r) => s + +r.cells[3].textContent, 0) == 4")
        assert browser.eval("window.notReloaded") is True
    finally:
        browser.close()


def test_the_bracket_in_chromium_names_the_champion(tmp_path):
    path = str(tmp_path / "cup.db")
    with D.open_db(path) as database:
        EV.create(database, "Cup", "double-elimination", "42", {}, teams=TEAMS[:4])
        n = 0
        while True:
            a = SL.next_assignment(database, "s")
            if a is None:
                break
            n += 1
            # Side A (the better seed, or the winners' side) always wins: no reset.
            database.store(sitting_42(a["players"], 0, n % 7, "m%d" % n))
            SL.slot_sitting(database, "m%d" % n, "Cup", a["round"], a["table"])
        champion = ES.event_state(EV.load(database, "Cup"), database)["bracket"]["champion"]
    assert n == 6 and TEAMS[champion][0] == "Aces"
    server = SV.make_server(path, "Cup", "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = None
    try:
        browser = _browser()
        browser.open("http://127.0.0.1:%d/" % server.server_address[1])
        assert browser.wait_for("document.getElementById('champion').textContent") == \
            "Champion: Aces"
        rows = browser.eval("Array.from(document.querySelectorAll('#bracket-table tr'))"
                            ".slice(1).map(r => r.cells[1].textContent + ':' + "
                            "r.cells[5].textContent)")
        assert rows[0] == "Winners R1 M1:Aces" and rows[-1] == "Grand final:Aces"
        assert len(rows) == 6        # the reset was not needed, so it is not shown
        assert browser.eval("document.getElementById('standings-table').rows[1]"
                            ".cells[1].textContent") == "Aces"
    finally:
        if browser is not None:
            browser.close()
        server.shutdown()
        server.server_close()


def test_the_reader_reads_again_only_after_a_commit_and_never_waits_on_one(tmp_path):
    import sqlite3
    path = str(tmp_path / "r.db")
    ev, seats = _night(path)
    reader = SV.Reader(path)
    calls = []

    def work(database):
        database.conn.execute("SELECT COUNT(*) FROM sittings").fetchone()
        calls.append(1)
        return len(calls)
    try:
        assert reader.read(work, "k") == 1
        assert reader.read(work, "k") == 1         # the file stands: no read
        with D.open_db(path) as database:
            database.store(partial_42(seats, 4, "r2t1"))
        assert reader.read(work, "k") == 2         # a commit: read again
        with D.open_db(path) as database:
            database.store(partial_42(seats, 5, "r2t1"))
        # A writer holding the file this instant: the last answer, not a wait.
        lock = sqlite3.connect(path, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            assert reader.read(work, "k") == 2
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        assert reader.read(work, "k") == 3
    finally:
        reader.close()


def test_forty_requests_at_once_all_answered(served):
    # A room's screens polling at the same instant: every one gets the state (one
    # sqlite3 connection shared by request threads answered 19 of 40 with 503).
    import concurrent.futures
    path, ev, seats, url = served

    def get(_):
        try:
            with urllib.request.urlopen(url + "state.json", timeout=30) as r:
                return r.status, json.loads(r.read())["event"]
        except urllib.error.HTTPError as e:
            return e.code, None
    with concurrent.futures.ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(get, range(40)))
    assert answers == [(200, "Tuesday club")] * 40
