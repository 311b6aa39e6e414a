"""The club night of test_club_night.py with the radio, and no USB sync of results until
the end: a sim base station (`tally42 sim --base`), `tally42 serve --base` storing what
the scorers send as they play, over an air that loses 30 % of frames. Each scorer's one
USB contact before the end is the `tally42 sync --event` that hands it its table and the
event's radio key; round 2's scorers join once round 1 is in, which only the radio can
have told the PC. The standings are checked after each round, the served page shows a
table live while it plays, and the closing USB sync of every scorer stores nothing new:
the radio's copy and the sync's are one."""
import json
import os
import re
import subprocess
import urllib.request

from clubnight import (AIR_FAULTS, EVENT, PUSHED, RESULTS, TALLY, TEAM_OF, TEAMS, ROOT, Sim,
                       each, hand_keys, expected_standings, run_tally, standings_csv, wait_until)


def _page(url):
    with urllib.request.urlopen(url + "state.json", timeout=10) as r:
        return json.loads(r.read().decode())


def test_a_club_night_over_the_radio_has_the_standings_right_at_every_round(tmp_path):
    db = str(tmp_path / "club.db")
    air = str(tmp_path / "air")
    made = run_tally("event", "create", EVENT, "--db", db, "--format", "round-robin",
                *["--team=%s: %s" % (t, ", ".join(ps)) for t, ps in TEAMS])
    assert made.returncode == 0, made.stderr
    base = subprocess.Popen(TALLY + ["sim", "--base", "--radio", air + AIR_FAULTS,
                                     "--chip-id", "0000B0"], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    serve = None
    sims = []
    try:
        m = re.match(rb"base station: serial (\S+)", base.stdout.readline())
        assert m, base.stderr.read()
        serve = subprocess.Popen(TALLY + ["serve", EVENT, "--db", db, "--host", "127.0.0.1",
                                          "--port", "0", "--base", m.group(1).decode()],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = serve.stdout.readline().decode()
        assert line.startswith("base station T42-0000B0 on "), line + serve.stderr.read().decode()
        url = re.search(r"(http://\S+/)", serve.stdout.readline().decode()).group(1)
        radio = ["--radio", air + AIR_FAULTS]
        sims = [Sim(tmp_path, 1, radio)]
        sims += each([2, 3, 4, 5, 6, 7, 8], lambda n: Sim(tmp_path, n, radio))
        tables = {}
        for rnd, players in ((1, sims[:4]), (2, sims[4:])):
            if rnd > 1:
                # Other scorers take this round's tables: the organiser frees the tables
                # that the last round's scorers keep for the night.
                for t in (1, 2, 3, 4):
                    out = run_tally("event", "release", EVENT, "--db", db, "--table", str(t))
                    assert out.returncode == 0, out.stdout + out.stderr

            def join(sim):
                # The scorer's one USB contact before the end: its table and the key.
                since = sim.mark()
                out = run_tally("sync", "--port", sim.port, "--db", db, "--event", EVENT)
                assert out.returncode == 0, (out.stdout + out.stderr, sim.proc.poll(),
                                             os.path.exists(sim.port), sim.words(0)[:8])
                assert "settings sent to the scorer: radio key" in out.stdout, out.stdout
                assert "nothing new on the scorer" in out.stdout, out.stdout
                sim.wait_for(rb"status: done", since, 90)
                m = PUSHED.search(out.stdout)
                assert m, out.stdout
                return int(m.group(1)), int(m.group(2)), m.group(3, 4, 5, 6)
            pushed = each(players, join)
            assert sorted((r, t) for r, t, _ in pushed) == [(rnd, t) for t in (1, 2, 3, 4)]
            for sim, (r, t, (a1, a2, b1, b2)) in zip(players, pushed):
                tables[(r, t)] = (TEAM_OF[a1], TEAM_OF[b1])
                sim.table = t
                since = sim.mark()
                sim.keys(b"\r")
                sim.wait_for(rb"Table %d +Round %d" % (t, r), since, 90)
            hands = {s.table: hand_keys(RESULTS[(rnd, s.table)]) for s in players}
            first = players[0]
            # Two hands on the first table: the page shows it playing, live.
            first.keys(b"\r" + b"".join(hands[first.table][:2]))

            def live():
                t = [t for t in _page(url)["tables"] if t["table"] == first.table]
                return t and t[0]["live"] and t[0]["hands"] == 2 and t[0]
            shown = wait_until("table %d live on the page" % first.table, live)
            assert re.fullmatch(r"playing \d-\d, hand 3", shown["live"]), shown
            assert sum(shown["score"]) == 2

            def play(sim):
                since = sim.mark()
                rest = hands[sim.table][2:] if sim is first else (
                    [b"\r"] + hands[sim.table])
                sim.keys(b"".join(rest))
                sim.wait_for(rb"game over", since, 90)
            each(players, play)
            want = expected_standings({k: v for k, v in tables.items() if k[0] <= rnd})
            wait_until("the standings after round %d" % rnd,
                  lambda: standings_csv(db) == want)
            assert standings_csv(db, rnd) == want
            # The page answers from its last state while a store is busy (serve's
            # BUSY_STALE): it follows the database within that, not at once.
            wait_until("the page's standings after round %d" % rnd,
                       lambda: [r["name"] for r in _page(url)["standings"]]
                       == [w[1] for w in want])
        # The end of the night: every scorer synced over USB stores nothing new.
        before = _rows(db)
        assert len(before) == 8 and all(r[1] for r in before), before

        def closing(sim):
            out = run_tally("sync", "--port", sim.port, "--db", db)
            assert out.returncode == 0, (out.stdout + out.stderr, sim.proc.poll(),
                                         sim.words(0)[-12:])
            assert "0 new, 0 updated, 1 already stored" in out.stdout, out.stdout
        each(sims, closing)
        assert _rows(db) == before
        assert standings_csv(db) == expected_standings(tables)
    finally:
        errs = [s.stop() for s in sims]
        for s, e in zip(sims, errs):
            if "Traceback" in e or s.proc.returncode not in (0, -2, 130):
                print(s.device, s.proc.returncode, e[-3000:])   # shown with the failure
        if serve is not None:
            serve.terminate()
            serve.wait(10)
        base.stdin.close()
        base.wait(10)
    assert not any("Traceback" in e for e in errs), errs
    assert b"Traceback" not in base.stderr.read()


def _rows(db):
    import sqlite3
    conn = sqlite3.connect(db)
    try:
        return sorted(conn.execute("SELECT id, over, hands, log_hash FROM sittings"))
    finally:
        conn.close()
