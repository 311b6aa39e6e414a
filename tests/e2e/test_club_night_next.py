"""A whole club night on the radio, both ways: each scorer's one USB contact is the
first `tally42 sync --event` (its table and its key); from then on each finished
sitting goes to the PC over the air, and the PC sends the scorer its next table back
with the acknowledgement. The scorer shows it at game over ("next: table 1, round 2:
..."), a held OK sets it up, and the next round is played: every result in, every next
table out, the standings right after each round. On SQLite and on PostgreSQL (the
closing USB sync of each scorer finds everything stored)."""
import re
import subprocess
import time

from clubnight import (AIR_FAULTS, EVENT, PUSHED, RESULTS, TALLY, TEAM_OF, TEAMS, ROOT, Sim,
                       each, expected_standings, game_keys, run_tally, standings_csv,
                       wait_until)

from host_tools.events import event as EV
from host_tools.events import slots as SL
from host_tools.store import db as D

NEXT = re.compile(r"next: table (\d), round (\d): (\w+)/(\w+) v (\w+)/(\w+)")
# Four teams, two tables a round, two scorers: few, so the test stays quick (bench_radio
# has sixteen).
NIGHT = TEAMS[:4]


def _expected(tables):
    """test_club_night._expected_standings over this night's four teams."""
    rows = [r for r in expected_standings(tables) if r[1] in dict(NIGHT)]
    return [[str(i + 1)] + r[1:] for i, r in enumerate(rows)]


def _next_on_screen(sim, since, rnd):
    # The game-over screen's words, its lines joined (a long line wraps on the panel).
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        m = NEXT.search(" ".join(sim.words(since)))
        if m and int(m.group(2)) == rnd:
            return m
        time.sleep(0.2)
    raise AssertionError("%s never showed its next table: %s" % (sim.device,
                                                                 sim.words(since)[-30:]))


def test_a_whole_night_over_the_radio_with_no_cable_after_the_first_push(tmp_path, db_url):
    db = db_url
    air = str(tmp_path / "air")
    made = run_tally("event", "create", EVENT, "--db", db, "--format", "round-robin",
                *["--team=%s: %s" % (t, ", ".join(ps)) for t, ps in NIGHT])
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
        serve.stdout.readline()
        radio = ["--radio", air + AIR_FAULTS]
        sims = [Sim(tmp_path, 1, radio)]
        sims += each([2], lambda n: Sim(tmp_path, n, radio))

        def join(sim):
            # The scorer's one USB contact before the end: its first table and its key.
            since = sim.mark()
            out = run_tally("sync", "--port", sim.port, "--db", db, "--event", EVENT)
            assert out.returncode == 0, out.stdout + out.stderr
            assert "settings sent to the scorer: radio key" in out.stdout, out.stdout
            sim.wait_for(rb"status: done", since, 90)
            m = PUSHED.search(out.stdout)
            assert m, out.stdout
            sim.table = int(m.group(2))
            sim.seats = m.group(3, 4, 5, 6)
            since = sim.mark()
            sim.keys(b"\r")             # the sync's outcome away: the setup
            sim.wait_for(rb"Table %d +Round 1" % sim.table, since, 90)
        each(sims, join)
        assert sorted(s.table for s in sims) == [1, 2]
        tables = {}
        for rnd in (1, 2):
            for s in sims:
                a1, a2, b1, b2 = s.seats
                tables[(rnd, s.table)] = (TEAM_OF[a1], TEAM_OF[b1])

            def play(sim):
                since = sim.mark()
                keys = game_keys(RESULTS[(rnd, sim.table)])
                # Round 1 from the setup screen (OK starts it); later rounds began at the
                # held OK that took the next table (a new sitting, at once).
                sim.keys(keys if rnd == 1 else keys[1:])
                sim.wait_for(rb"game over", since, 120)
                return since
            marks = each(sims, play)
            want = _expected({k: v for k, v in tables.items() if k[0] <= rnd})
            wait_until("the standings after round %d" % rnd, lambda: standings_csv(db) == want, 120)
            if rnd == 2:
                break
            # Each scorer's next table comes over the air: the same one a USB sync
            # would push (the scorer keeps its table number), shown at game over.
            with D.open_db(db) as d:
                ev = EV.load(d, EVENT)

                def pushed(sim, since):
                    m = _next_on_screen(sim, since, rnd + 1)
                    t = int(m.group(1))
                    assert t == sim.table, (sim.device, m.group(0))
                    a = SL.next_assignment(d, sim.device, EVENT)
                    assert (a["round"], a["table"]) == (rnd + 1, t)
                    # On screen: N/S v E/W, the seats as pushed.
                    n, s_, e, w = m.group(3), m.group(4), m.group(5), m.group(6)
                    assert [n, e, s_, w] == a["players"], (m.group(0), a)
                    tt = ev.table(rnd + 1, t)
                    assert a["players"] == ev.seats(tt.side_a, tt.side_b, rnd + 1)
                    sim.seats = (n, s_, e, w)
                for sim, since in zip(sims, marks):
                    pushed(sim, since)

            def next_setup(sim):
                since = sim.mark()
                sim.keys(b"\t")         # OK held: the new sitting, set up as sent
                sim.wait_for(rb"Table %d +Round %d" % (sim.table, rnd + 1), since, 90)
            each(sims, next_setup)
        assert standings_csv(db) == _expected(tables)

        def closing(sim):
            out = run_tally("sync", "--port", sim.port, "--db", db)
            assert out.returncode == 0, out.stdout + out.stderr
            assert "0 new, 0 updated, 2 already stored" in out.stdout, out.stdout
        each(sims, closing)
    finally:
        errs = [s.stop() for s in sims]
        for s, e in zip(sims, errs):
            if "Traceback" in e:
                print(s.device, e[-3000:])
        if serve is not None:
            serve.terminate()
            serve.wait(10)
            print("serve:", serve.stderr.read().decode(errors="replace")[-3000:])
        base.stdin.close()
        base.wait(10)
        print("base:", base.stderr.read().decode(errors="replace")[-3000:])
    assert not any("Traceback" in e for e in errs), errs
