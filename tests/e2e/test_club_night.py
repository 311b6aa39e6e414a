"""A club night, the whole way: an event of eight fixed teams made with `tally42 event
create`, four sim scorers (`tally42 sim --hold`, each its own process with its own chip
id, its buttons on stdin and its screen on a pseudo-terminal), each handed its table by
`tally42 sync --event`, the game played on its buttons to a scripted result, synced
back and slotted; two rounds of that; then the standings, computed here from the
scripted results, against `tally42 event standings` (text and CSV), and the scores in
`tally42 event show`."""
import re
import time

from clubnight import (EVENT, PUSHED, RESULTS, TEAM_OF, TEAMS, Sim,
                       each, expected_standings, hand_keys, run_tally)


def test_a_club_night_of_four_sim_scorers_runs_two_rounds_into_the_standings(tmp_path):
    db = str(tmp_path / "club.db")
    made = run_tally("event", "create", EVENT, "--db", db, "--format", "round-robin",
                *["--team=%s: %s" % (t, ", ".join(ps)) for t, ps in TEAMS])
    assert made.returncode == 0, made.stderr
    assert "8 teams" in made.stdout and "7 rounds" in made.stdout, made.stdout
    sims = [Sim(tmp_path, 1)]           # the first builds the firmware image, if it must
    sims += each([2, 3, 4], lambda n: Sim(tmp_path, n))
    tables = {}                         # (round, table): (team A, team B)
    syncs = 0
    try:
        # Each scorer synced once: its table for the night, round 1's players.
        def push(sim):
            since = sim.mark()
            out = run_tally("sync", "--port", sim.port, "--db", db, "--event", EVENT)
            assert out.returncode == 0, out.stdout + out.stderr
            # The scorer takes what was pushed once the session has closed.
            sim.wait_for(rb"status: done", since)
            m = PUSHED.search(out.stdout)
            assert m, out.stdout
            return int(m.group(1)), int(m.group(2)), m.group(3, 4, 5, 6)
        pushed = each(sims, push)
        syncs += len(sims)
        assert sorted((r, t) for r, t, _ in pushed) == [(1, t) for t in (1, 2, 3, 4)]
        for sim, (r, t, players) in zip(sims, pushed):
            sim.table = t
            sim.pushed = players
        for rnd in (1, 2):
            for sim in sims:
                a1, a2, b1, b2 = sim.pushed
                a, b = TEAM_OF[a1], TEAM_OF[b1]
                assert TEAM_OF[a2] == a and TEAM_OF[b2] == b and a != b
                tables[(rnd, sim.table)] = (a, b)
                # On the scorer: the table, the round and the players, then played out.
                since = sim.mark()
                # Round 1 on the setup screen the push left; round 2 begun at once from
                # the last game (OK held at game over: a new sitting, as pushed).
                sim.keys(b"\r" if rnd == 1 else b"\r\t")
                sim.wait_for(rb"Table %d +Round %d" % (sim.table, rnd), since)
                if rnd == 1:
                    sim.wait_for(("%s\\+%s v %s\\+%s, %s deals first" % (
                        a1, a2, b1, b2, a1)).encode(), since)
                else:
                    sim.wait_for(("%s/%s +hand 1, %s deals +%s/%s" % (
                        a1, a2, a1, b1, b2)).encode(), since)
            # The teams meet as a round robin pairs them: nobody twice in a round.
            teams = [x for t in (1, 2, 3, 4) for x in tables[(rnd, t)]]
            assert sorted(teams) == sorted(t for t, _ in TEAMS)
            if rnd == 1:
                # A sync in the middle of a game: its progress is shown, not stored.
                sim = sims[0]
                since = sim.mark()
                sim.keys(b"\r" + b"".join(hand_keys(RESULTS[(1, sim.table)])[:2]))
                time.sleep(3)
                out = run_tally("sync", "--port", sim.port, "--db", db, "--event", EVENT)
                assert out.returncode == 0, out.stdout + out.stderr
                assert re.search(r"^live: Club night round 1 table %d: playing \d-\d, hand "
                                 r"[23]$" % sim.table, out.stdout, re.M), out.stdout
                assert "slotted" not in out.stdout and not PUSHED.search(out.stdout)
                # Nothing pushed to a game in play, and said.
                assert ("not pushed: the scorer is playing Club night round 1 table %d, "
                        "hand " % sim.table) in out.stdout, out.stdout
                sim.wait_for(rb"status: done", since)
                sim.keys(b"\r")      # back to the score screen
                sim.played = 2
            # Each scorer's game, then one sync: its result slotted and, at once, its
            # table of the next round pushed (the scorer stays at its table).

            def play(sim):
                since = sim.mark()
                skip = getattr(sim, "played", 0)
                sim.played = 0
                hands = hand_keys(RESULTS[(rnd, sim.table)])
                begun = skip or rnd > 1     # round 2's sitting began at the held OK
                sim.keys((b"" if begun else b"\r") + b"".join(hands[skip:]))
                sim.wait_for(rb"game over", since, 60)
                out = run_tally("sync", "--port", sim.port, "--db", db, "--event", EVENT)
                assert out.returncode == 0, out.stdout + out.stderr
                a, b = RESULTS[(rnd, sim.table)]
                assert re.search(r"slotted: sitting %s-[0-9A-F]{8} as the result of Club "
                                 r"night round %d table %d \(%d-%d\)" % (
                                     sim.device, rnd, sim.table, a, b), out.stdout), out.stdout
                m = PUSHED.search(out.stdout)
                assert m and (int(m.group(1)), int(m.group(2))) == (rnd + 1, sim.table), \
                    out.stdout
                sim.pushed = m.group(3, 4, 5, 6)
                sim.wait_for(rb"status: done", since)
                return out.stdout
            each(sims, play)
            syncs += len(sims)
    finally:
        errs = [s.stop() for s in sims]
    assert not any("Traceback" in e for e in errs), errs
    # One sync a table a round, after each scorer's first (the live one aside).
    assert syncs == len(sims) + 2 * len(sims)

    want = expected_standings(tables)
    csv = run_tally("event", "standings", EVENT, "--db", db, "--format", "csv")
    assert csv.returncode == 0, csv.stderr
    lines = csv.stdout.splitlines()
    assert lines[0] == "rank,name,played,won,lost,marks_for,marks_against,difference"
    assert [line.split(",") for line in lines[1:]] == want
    text = run_tally("event", "standings", EVENT, "--db", db)
    assert text.returncode == 0, text.stderr
    rows = [line.split() for line in text.stdout.splitlines() if line.split()
            and line.split()[0].isdigit()]
    assert [r[:7] for r in rows] == [w[:7] for w in want]
    assert [int(r[7]) for r in rows] == [int(w[7]) for w in want]
    after1 = run_tally("event", "standings", EVENT, "--db", db, "--format", "csv", "--round", "1")
    assert [line.split(",") for line in after1.stdout.splitlines()[1:]] == \
        expected_standings({k: v for k, v in tables.items() if k[0] == 1})
    # The rounds with their scores, as the organiser prints them.
    show = run_tally("event", "show", EVENT, "--db", db)
    assert show.returncode == 0, show.stderr
    for (r, t), (a, b) in tables.items():
        ma, mb = RESULTS[(r, t)]
        block = show.stdout.split("Round %d" % r)[1].split("Round %d" % (r + 1))[0]
        assert any(a in line and b in line and "%d-%d" % (ma, mb) in line
                   for line in block.splitlines()), (r, t, block)
