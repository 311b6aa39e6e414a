"""The club night the end-to-end tests play (tests/e2e/test_club_night.py, its radio twin):
the event, its teams and scripted results, a sim scorer driven by its keys, and the
standings the results should give."""
import os
import re
import signal
import subprocess
import sys
import threading
import time

from syncrig import ctrl_c_reaches_it

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


def run_tally(*args):
    return subprocess.run(TALLY + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def hand_keys(marks):
    """The buttons of each hand of a game of 42 to marks (side A, side B), dealt first by
    seat 1: one bid of 30 by the first bidder (the rest pass), then made or set so that
    the mark goes to the side the script says. Enter is OK, Tab OK held, the arrows
    PREV and NEXT (the result: < made, > set)."""
    a, b = marks
    winner = 0 if a == 7 else 1
    order = [1 - winner] * min(a, b) + [winner] * 7
    hands = []
    for h, side in enumerate(order):
        bidder = (h + 1) % 2                # dealer h % 4 (seat 1 first): the next seat bids
        hands.append(b"\x1b[C\t\r"             # 30, the rest pass; trump
                     + (b"\x1b[D" if side == bidder else b"\x1b[C"))    # made, or set
    return hands


def game_keys(marks):
    """The buttons of a whole game, from the setup screen (OK starts it)."""
    return b"\r" + b"".join(hand_keys(marks))


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
            cwd=ROOT, stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.PIPE,
            preexec_fn=ctrl_c_reaches_it)     # stop() is a Ctrl-C
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


def each(sims, work):
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


def expected_standings(tables):
    """Rows (rank, name, played, won, lost, for, against, diff) from the scripted results
    of tables {(round, table): (team A, team B)}, ranked as docs/events.md says."""
    games = [(a, b) + tuple(RESULTS[place]) for place, (a, b) in tables.items()]
    return hand_standings(games, [t for t, _ in TEAMS])


def hand_standings(games, teams):
    """The standings by hand from the games [(team A, team B, marks A, marks B)] of the
    teams, as docs/events.md ranks them (matches won; then among those tied the matches
    won against each other, the difference, marks for; the name): rows [rank, name,
    played, won, lost, for, against, difference] as strings, as `event standings --format
    csv` writes them."""
    rows = {t: [0, 0, 0, 0, 0] for t in teams}      # played, won, lost, for, against
    beat = {t: [] for t in teams}
    for a, b, ma, mb in games:
        for me, other, f, ag in ((a, b, ma, mb), (b, a, mb, ma)):
            r = rows[me]
            r[0] += 1
            r[1] += f > ag
            r[2] += f < ag
            r[3] += f
            r[4] += ag
            if f > ag:
                beat[me].append(other)
    ranked = []
    for won in sorted({r[1] for r in rows.values()}, reverse=True):
        tied = [t for t in teams if rows[t][1] == won]
        h2h = {t: sum(1 for o in beat[t] if o in tied) for t in tied}
        tied.sort(key=lambda t: (-h2h[t], -(rows[t][3] - rows[t][4]), -rows[t][3], t))
        ranked += tied
    return [[str(i + 1), t] + [str(x) for x in rows[t]] + [str(rows[t][3] - rows[t][4])]
            for i, t in enumerate(ranked)]


AIR_FAULTS = ",loss=0.3,dup=0.02,reorder=0.05,delay=2"


def standings_csv(db, rnd=None):
    args = ["event", "standings", EVENT, "--db", db, "--format", "csv"]
    if rnd:
        args += ["--round", str(rnd)]
    out = run_tally(*args)
    assert out.returncode == 0, out.stderr
    return [line.split(",") for line in out.stdout.splitlines()[1:]]


def wait_until(what, check, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError("never: %s (last: %r)" % (what, check()))
