"""A club night, the whole way: an event of eight fixed teams made with `tally42 event
create`, four sim scorers (`tally42 sim --hold`, each its own process with its own chip
id, its buttons on stdin and its screen on a pseudo-terminal), each handed its table by
`tally42 sync --event`, the game played on its buttons to a scripted result, synced
back and slotted; two rounds of that; then the standings, computed here from the
scripted results, against `tally42 event standings` (text and CSV), and the scores in
`tally42 event show`."""
import os
import re
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TALLY = [sys.executable, "-m", "host_tools"]
EVENT = "Club night"
TEAMS = [("Aces", ["Ann", "Cy"]), ("Bones", ["Bob", "Di"]), ("Cats", ["Eve", "Gus"]),
         ("Dogs", ["Fay", "Hal"]), ("Eagles", ["Ivy", "Kit"]), ("Foxes", ["Jo", "Lou"]),
         ("Geese", ["Max", "Ned"]), ("Hawks", ["Ora", "Pip"])]
TEAM_OF = {p: t for t, ps in TEAMS for p in ps}
# The scripted results, by round and table: marks of the table's side A (seats 1 and 3,
# the first pair the scorer shows) and of side B.
RESULTS = {(1, 1): (7, 2), (1, 2): (3, 7), (1, 3): (7, 0), (1, 4): (1, 7),
           (2, 1): (7, 1), (2, 2): (2, 7), (2, 3): (7, 3), (2, 4): (0, 7)}
PUSHED = re.compile(r"^pushed: Club night round (\d) table (\d): (\w+)\+(\w+) v (\w+)\+(\w+)$",
                    re.M)


def _run(*args):
    return subprocess.run(TALLY + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def _hands(marks):
    """The buttons of each hand of a game of 42 to marks (side A, side B), dealt first by
    seat 1: one bid of 30 by the first bidder (the rest pass), then made or set so that
    the mark goes to the side the script says. Enter is OK, Tab OK held, the right arrow
    NEXT."""
    a, b = marks
    winner = 0 if a == 7 else 1
    order = [1 - winner] * min(a, b) + [winner] * 7
    hands = []
    for h, side in enumerate(order):
        bidder = (h + 1) % 2                # dealer h % 4 (seat 1 first): the next seat bids
        hands.append(b"\x1b[C\t\r"             # 30, the rest pass; trump
                     + (b"\r" if side == bidder else b"\x1b[C\r"))    # made, or set
    return hands


def _keys(marks):
    """The buttons of a whole game, from the setup screen (OK starts it)."""
    return b"\r" + b"".join(_hands(marks))


class Sim:
    """`tally42 sim --hold` with keys on stdin and its screen on a pseudo-terminal (what
    a player sees: the screen's words under the picture)."""

    def __init__(self, tmp_path, n, extra=()):
        script = tmp_path / "keys.txt"
        script.write_text("# buttons come from the keys\n")
        master, slave = os.openpty()
        self.proc = subprocess.Popen(
            TALLY + ["sim", "--script", str(script), "--flash", str(tmp_path / ("s%d.bin" % n)),
                     "--hold", "--chip-id", "0000A%d" % n] + list(extra),
            cwd=ROOT, stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.PIPE)
        os.close(slave)
        self.master = master
        self.screen = bytearray()
        self.device = "T42-0000A%d" % n
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        m = self.wait_for(rb"serial: (/dev/\S+)\r?\n", 0, 60)    # the whole name
        self.port = m.group(1).decode()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.screen.extend(data)

    def mark(self):
        return len(self.screen)

    def wait_for(self, pattern, since, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(pattern, bytes(self.screen[since:]))
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("the sim %s never showed %r; it showed: %s" % (
            self.device, pattern, self.words(since)[-40:]))

    def words(self, since):
        # The screen's words as lines (the picture's braille dropped).
        text = bytes(self.screen[since:]).decode("utf-8", "replace")
        return [line.strip() for line in re.split(r"\x1b\[K|\r\n|\x1b\[H|\x1b\[J", text)
                if line.strip() and not any(0x2800 <= ord(c) <= 0x28FF for c in line)]

    def keys(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace")
        os.close(self.master)
        return err


def _each(sims, work):
    """work(sim) for every sim at once (threads: each runs a tally42 process); their
    results in sims' order, or the first failure raised."""
    out = [None] * len(sims)
    errors = []

    def one(i):
        try:
            out[i] = work(sims[i])
        except BaseException as e:      # noqa: B036 - handed to the test's thread
            errors.append(e)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(sims))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    if errors:
        raise errors[0]
    return out


def _expected_standings(tables):
    """Rows (rank, name, played, won, lost, for, against, diff) from the scripted results
    of tables {(round, table): (team A, team B)}, ranked as docs/events.md says: matches
    won, then matches won among those tied, then the difference, marks for, the name."""
    rows = {t: [0, 0, 0, 0, 0] for t, _ in TEAMS}      # played, won, lost, for, against
    beat = {t: set() for t, _ in TEAMS}
    for place, (a, b) in tables.items():
        ma, mb = RESULTS[place]
        for me, other, f, ag in ((a, b, ma, mb), (b, a, mb, ma)):
            r = rows[me]
            r[0] += 1
            r[1] += f > ag
            r[2] += f < ag
            r[3] += f
            r[4] += ag
            if f > ag:
                beat[me].add(other)
    ranked = []
    for won in sorted({r[1] for r in rows.values()}, reverse=True):
        tied = [t for t in rows if rows[t][1] == won]
        h2h = {t: len(beat[t] & set(tied)) for t in tied}
        tied.sort(key=lambda t: (-h2h[t], -(rows[t][3] - rows[t][4]), -rows[t][3], t))
        ranked += tied
    return [[str(i + 1), t] + [str(x) for x in rows[t]] + [str(rows[t][3] - rows[t][4])]
            for i, t in enumerate(ranked)]


def test_a_club_night_of_four_sim_scorers_runs_two_rounds_into_the_standings(tmp_path):
    db = str(tmp_path / "club.db")
    made = _run("event", "create", EVENT, "--db", db, "--format", "round-robin",
                *["--team=%s: %s" % (t, ", ".join(ps)) for t, ps in TEAMS])
    assert made.returncode == 0, made.stderr
    assert "8 teams" in made.stdout and "7 rounds" in made.stdout, made.stdout
    sims = [Sim(tmp_path, 1)]           # the first builds the firmware image, if it must
    sims += _each([2, 3, 4], lambda n: Sim(tmp_path, n))
    tables = {}                         # (round, table): (team A, team B)
    syncs = 0
    try:
        # Each scorer synced once: its table for the night, round 1's players.
        def push(sim):
            since = sim.mark()
            out = _run("sync", "--port", sim.port, "--db", db, "--event", EVENT)
            assert out.returncode == 0, out.stdout + out.stderr
            # The scorer takes what was pushed once the session has closed.
            sim.wait_for(rb"status: done", since)
            m = PUSHED.search(out.stdout)
            assert m, out.stdout
            return int(m.group(1)), int(m.group(2)), m.group(3, 4, 5, 6)
        pushed = _each(sims, push)
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
                sim.keys(b"\r" if rnd == 1 else b"\r\t")    # round 2: from the last game
                sim.wait_for(rb"Table %d +Round %d" % (sim.table, rnd), since)
                sim.wait_for(("%s\\+%s v %s\\+%s, %s deals first" % (
                    a1, a2, b1, b2, a1)).encode(), since)
            # The teams meet as a round robin pairs them: nobody twice in a round.
            teams = [x for t in (1, 2, 3, 4) for x in tables[(rnd, t)]]
            assert sorted(teams) == sorted(t for t, _ in TEAMS)
            if rnd == 1:
                # A sync in the middle of a game: its progress is shown, not stored.
                sim = sims[0]
                since = sim.mark()
                sim.keys(b"\r" + b"".join(_hands(RESULTS[(1, sim.table)])[:2]))
                time.sleep(3)
                out = _run("sync", "--port", sim.port, "--db", db, "--event", EVENT)
                assert out.returncode == 0, out.stdout + out.stderr
                assert re.search(r"^live: Club night round 1 table %d: playing \d-\d, hand "
                                 r"[23]$" % sim.table, out.stdout, re.M), out.stdout
                assert "slotted" not in out.stdout and "pushed" not in out.stdout
                sim.wait_for(rb"status: done", since)
                sim.keys(b"\r")      # back to the score screen
                sim.played = 2
            # Each scorer's game, then one sync: its result slotted and, at once, its
            # table of the next round pushed (the scorer stays at its table).

            def play(sim):
                since = sim.mark()
                skip = getattr(sim, "played", 0)
                sim.played = 0
                hands = _hands(RESULTS[(rnd, sim.table)])
                sim.keys((b"" if skip else b"\r") + b"".join(hands[skip:]))
                sim.wait_for(rb"game over", since, 60)
                out = _run("sync", "--port", sim.port, "--db", db, "--event", EVENT)
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
            _each(sims, play)
            syncs += len(sims)
    finally:
        errs = [s.stop() for s in sims]
    assert not any("Traceback" in e for e in errs), errs
    # One sync a table a round, after each scorer's first (the live one aside).
    assert syncs == len(sims) + 2 * len(sims)

    want = _expected_standings(tables)
    csv = _run("event", "standings", EVENT, "--db", db, "--format", "csv")
    assert csv.returncode == 0, csv.stderr
    lines = csv.stdout.splitlines()
    assert lines[0] == "rank,name,played,won,lost,marks_for,marks_against,difference"
    assert [line.split(",") for line in lines[1:]] == want
    text = _run("event", "standings", EVENT, "--db", db)
    assert text.returncode == 0, text.stderr
    rows = [line.split() for line in text.stdout.splitlines() if line.split()
            and line.split()[0].isdigit()]
    assert [r[:7] for r in rows] == [w[:7] for w in want]
    assert [int(r[7]) for r in rows] == [int(w[7]) for w in want]
    after1 = _run("event", "standings", EVENT, "--db", db, "--format", "csv", "--round", "1")
    assert [line.split(",") for line in after1.stdout.splitlines()[1:]] == \
        _expected_standings({k: v for k, v in tables.items() if k[0] == 1})
    # The rounds with their scores, as the organiser prints them.
    show = _run("event", "show", EVENT, "--db", db)
    assert show.returncode == 0, show.stderr
    for (r, t), (a, b) in tables.items():
        ma, mb = RESULTS[(r, t)]
        block = show.stdout.split("Round %d" % r)[1].split("Round %d" % (r + 1))[0]
        assert any(a in line and b in line and "%d-%d" % (ma, mb) in line
                   for line in block.splitlines()), (r, t, block)
