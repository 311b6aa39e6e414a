# Club night benchmark. Prints
#   event.serve_errors.sqlite        answers to GET /state.json that were not 200, out
#       of 500 requests sent 50 at a time to `tally42 serve` (its own process) on a
#       SQLite file, while another process stores sittings into it and slots them
#   event.serve_p95_ms.sqlite        the 95th percentile of those requests' times, from
#       sending to the whole answer read
#   event.syncs_per_table_round      a scripted club night of sim scorers (`tally42 sim
#       --hold`, each its own process) run by `tally42 sync --event`: every sync after
#       each scorer's first (which gives it its table for the night), divided by the
#       tables decided; 1.0 when the sync that brings a table's result also hands the
#       scorer its next table
#   event.page_wrong_table           teams whose "find your table" (state.json) is not
#       the table the team is at, checked after every start and end of a game over a
#       round robin of 16 teams (15 rounds) whose tables run up to two rounds ahead of
#       the earliest open one, with two substitutes; where a team is comes from the
#       night's own script (the table it plays, else its next table in its own order)
#   event.mid_game_relabels          pushes that would change a game in play: a sync's
#       (host_tools/events/inplay.py) and the radio's next table (events/radio.py),
#       tried after every event of a sitting played to its end, the radio's fed the
#       sitting's journal stream item by item
# --quick (TALLY42_BENCH_QUICK=1): 50 requests 10 at a time, 2 scorers for a round, and
# 8 teams for the page's night.
import concurrent.futures
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

from eventlogs import partial_42, sitting_42  # noqa: E402
from host_tools.events import event as EV  # noqa: E402
from host_tools.events import slots as SL  # noqa: E402
from host_tools.store import db as D  # noqa: E402

QUICK = os.environ.get("TALLY42_BENCH_QUICK") == "1"
REQUESTS, AT_ONCE = (50, 10) if QUICK else (500, 50)
TEAMS = [("Team %d" % i, ["P%da" % i, "P%db" % i]) for i in range(8)]
EVENT = "Bench night"

# The writer: stores sittings of the event's tables, hand by hand, and slots each one,
# PAUSE seconds apart, until it is stopped (another process, as a desk's `tally42 sync`
# is; a room's scorers sync far less often than a store every 10 ms).
PAUSE = 0.01
WRITER = r"""
import sys
import time
sys.path[:0] = [%(root)r, %(tests)r]
from eventlogs import partial_42, sitting_42
from host_tools.events import event as EV, slots as SL
from host_tools.store import db as D
n = 0
with D.open_db(%(db)r) as database:
    ev = EV.load(database, %(event)r)
    while True:
        for t in ev.tables:
            if t.round < 2:
                continue
            seats = ev.seats(t.side_a, t.side_b, t.round)
            sid = "w-%%d-%%d" %% (t.round, t.table)
            n += 1
            database.store(partial_42(seats, 1 + n %% 5, sid))
            SL.slot_sitting(database, sid, ev, t.round, t.table)
            print(n, flush=True)
            time.sleep(%(pause)r)
"""


def _night(db):
    with D.open_db(db) as database:
        ev = EV.create(database, EVENT, "round-robin", "42", {}, teams=TEAMS)
        for t in ev.tables:
            if t.round == 1:
                sid = "r1-%d" % t.table
                database.store(sitting_42(ev.seats(t.side_a, t.side_b), t.table % 2, 3, sid))
                SL.slot_sitting(database, sid, ev, 1, t.table)
        t = ev.table(2, 1)
        database.store(partial_42(ev.seats(t.side_a, t.side_b), 2, "r2-1"))


def _get(address):
    # One request on a connection of its own, as each screen in the room makes it; the
    # client kept lean (a socket, the status line read) so that what is timed is the
    # server's answer, not the client's parsing.
    t0 = time.perf_counter()
    try:
        with socket.create_connection(address, timeout=30) as s:
            s.sendall(b"GET /state.json HTTP/1.0\r\nHost: bench\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        code = int(head.split(b" ", 2)[1]) if body else 0
    except (OSError, ValueError, IndexError):
        code = 0
    return code, time.perf_counter() - t0


def serve_figures():
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "club.db")
        _night(db)
        server = subprocess.Popen(
            [sys.executable, "-m", "host_tools", "serve", EVENT, "--db", db, "--host",
             "127.0.0.1", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER % {"root": ROOT, "tests": os.path.join(ROOT, "tests"),
                                              "db": db, "event": EVENT, "pause": PAUSE}],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            url = urllib.parse.urlsplit(line.split(" on ", 1)[1].split(" ", 1)[0])
            address = (url.hostname, url.port)
            writer.stdout.readline()        # storing has begun
            with concurrent.futures.ThreadPoolExecutor(AT_ONCE) as pool:
                answers = list(pool.map(_get, [address] * REQUESTS))
            running = writer.poll() is None
        finally:
            outs = [proc.communicate(timeout=30) if proc.terminate() is None else None
                    for proc in (writer, server)]
        if not running:
            raise SystemExit("the writer stopped: %s" % outs[0][1])
        stored = len(outs[0][0].split())
        errors = sum(1 for code, _ in answers if code != 200)
        times = sorted(t for _, t in answers)
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print("event.serve_errors.sqlite: %d of %d requests (%d at a time, while %d more "
              "sittings were stored)" % (errors, REQUESTS, AT_ONCE, stored))
        print("event.serve_p95_ms.sqlite: %.1f ms" % (p95 * 1000))


def syncs_figure():
    import clubnight as N
    with tempfile.TemporaryDirectory() as tmp:
        from pathlib import Path
        tmp_path = Path(tmp)
        db = str(tmp_path / "night.db")
        scorers = 2 if QUICK else 4
        rounds = 1 if QUICK else 3
        teams = N.TEAMS[:2 * scorers]
        made = N.run_tally("event", "create", N.EVENT, "--db", db, "--format", "round-robin",
                      *["--team=%s: %s" % (t, ", ".join(ps)) for t, ps in teams])
        if made.returncode:
            raise SystemExit(made.stderr)
        sims = [N.Sim(tmp_path, 1)]
        sims += N.each(list(range(2, scorers + 1)), lambda n: N.Sim(tmp_path, n))
        syncs = 0
        decided = 0
        try:
            for sim in sims:
                out = N.run_tally("sync", "--port", sim.port, "--db", db, "--event", N.EVENT)
                sim.pushed = N.PUSHED.search(out.stdout)
                sim.wait_for(rb"status: done", 0)
            for rnd in range(1, rounds + 1):
                def play(sim):
                    m = sim.pushed
                    table = (int(m.group(1)), int(m.group(2)))
                    assert table[0] == rnd, table
                    since = sim.mark()
                    sim.keys(b"\r" if rnd == 1 else b"\r\t")
                    sim.wait_for(rb"deals first", since)
                    since = sim.mark()
                    sim.keys(N.game_keys((7, 3)))
                    sim.wait_for(rb"game over", since, 60)
                    n = 0
                    while True:         # synced until its result is in
                        since = sim.mark()
                        res = N.run_tally("sync", "--port", sim.port, "--db", db, "--event",
                                     N.EVENT)
                        n += 1
                        sim.wait_for(rb"status: done", since)
                        if "slotted:" in res.stdout:
                            break
                    while rnd < rounds and not N.PUSHED.search(res.stdout):
                        time.sleep(0.5)     # the next table is out once the round is in
                        since = sim.mark()
                        res = N.run_tally("sync", "--port", sim.port, "--db", db, "--event",
                                     N.EVENT)
                        n += 1
                        sim.wait_for(rb"status: done", since)
                    sim.pushed = N.PUSHED.search(res.stdout)
                    return n
                syncs += sum(N.each(sims, play))
                decided += len(sims)
        finally:
            for sim in sims:
                sim.stop()
        print("event.syncs_per_table_round: %.2f syncs (%d syncs for %d tables decided)"
              % (syncs / decided, syncs, decided))


def page_figure(rng_seed=7):
    import random

    from host_tools.events import late as LT
    from host_tools.events import live as LV
    from host_tools.events import serve as SV
    rng = random.Random(rng_seed)
    n = 8 if QUICK else 16
    teams = [("T%02d" % i, ["A%02d" % i, "B%02d" % i]) for i in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        database = D.open_db(os.path.join(tmp, "page.db"))
        ev = EV.create(database, EVENT, "round-robin", "42", teams=teams)
        # Two substitutes, from rounds 3 and 5: the night's own record of who plays.
        subs = {(0, "A00"): (3, "Zed"), (1, "B01"): (5, "Yan")}
        for (e, out), (r, inn) in subs.items():
            LT.substitute(database, EVENT, out, inn, r)
        ev = EV.load(database, EVENT)
        order = {e: sorted((t.round, t.table) for t in ev.tables
                           if e in t.side_a + t.side_b) for e in range(n)}
        table_of = {(t.round, t.table): t for t in ev.tables}
        done = set()
        playing = {}            # (round, table) -> hands so far
        checks = wrong = 0
        k = 0

        def next_of(e):
            return next((x for x in order[e] if x not in done), None)

        def at(e):
            here = [x for x in playing if e in table_of[x].side_a + table_of[x].side_b]
            return here[0] if here else next_of(e)

        def players(e, rnd):
            out = []
            for p in teams[e][1]:
                sub = subs.get((e, p))
                out.append(sub[1] if sub and rnd >= sub[0] else p)
            return out
        while len(done) < len(ev.tables):
            lowest = min(r for r, _ in table_of if (r, _) not in done)
            free = [x for x in table_of if x not in done and x not in playing and
                    x[0] <= lowest + 2 and all(
                        next_of(e) == x and at(e) == x
                        for e in table_of[x].side_a + table_of[x].side_b)]
            if playing and (not free or rng.random() < 0.5):
                x = rng.choice(sorted(playing))     # a game ends
                t = table_of[x]
                k += 1
                sid = "p%d" % k
                database.store(sitting_42(ev.seats(t.side_a, t.side_b, x[0]),
                                          rng.randrange(2), rng.randrange(7), sid))
                SL.slot_sitting(database, sid, ev, x[0], x[1])
                del playing[x]
                done.add(x)
            elif free:
                x = rng.choice(sorted(free))        # a game starts, its scorer heard
                t = table_of[x]
                LV.record(database, EVENT, x[0], x[1], "live-%d-%d" % x,
                          ev.seats(t.side_a, t.side_b, x[0]), [0, 0], 0)
                playing[x] = 0
            else:
                raise SystemExit("bench_club: the page's night is stuck")
            database.conn.commit()
            found = {f["player"]: f["table"] for f in SV.state_json(database, EVENT)["find"]}
            for e in range(n):
                where = at(e)
                if where is None:
                    continue
                checks += 1
                if any(found.get(p) != where[1] for p in players(e, where[0])):
                    wrong += 1
        database.close()
    print("event.page_wrong_table: %d of %d checks (%d teams, %d tables, up to two rounds "
          "ahead, two substitutes)" % (wrong, checks, n, len(table_of)))


def relabel_figure():
    import syncrig as R
    from boards.sim.flash import NorFlash
    from firmware.journal import Journal
    from engine_core.journal.reader import JournalReader
    from engine_core.air import wire as W
    from host_tools.events import inplay as IP
    from host_tools.events import radio as RA
    from host_tools.tables.assignment import not_playing
    from host_tools.serial.sync import stream_parts
    from host_tools.log.device import device_sitting_id, from_device
    teams = [("T%d" % i, ["A%d" % i, "B%d" % i]) for i in range(4)]
    relabels = tries = 0
    with tempfile.TemporaryDirectory() as tmp:
        database = D.open_db(os.path.join(tmp, "relabel.db"))
        ev = EV.create(database, EVENT, "round-robin", "42", teams=teams)
        t = ev.table(1, 1)
        image = os.path.join(tmp, "flash.img")
        R.build_image(image, 1, 0, assign=[(EVENT, 1, 1)],
                      names=ev.seats(t.side_a, t.side_b), seed=5)
        j = Journal(NorFlash(R.BLOCKS, 4096, path=image))
        j.mount()
        buf = bytearray(8192)
        stream = bytes(buf[:JournalReader(j).read(1, 0, buf)])
        key = RA.event_key(database, EVENT)
        address = b"\x02\x00\x00\x00\x00\xa1"
        sk = RA.scorer_key(key, RA.device_of(address))
        rx = RA.Receiver(database, EVENT, key)
        pos = 0
        while pos < len(stream):
            end = pos + 1 + stream[pos]
            header, events, ended = stream_parts(stream[:end])
            lines = from_device(header, events, {"id": device_sitting_id(
                "T42-0000A1", 1, header)}, ended)
            game = IP.game_in_play(lines)
            # The sync: a push tried with the sitting at this step.
            said = []
            if game is not None:
                tries += 1
                push = not_playing(game, said, IP.held_back)
                if push("T42-0000A1") is not None or not said:
                    relabels += 1
            # The radio: this item's bytes over the air.
            f = bytearray(W.MAX_FRAME)
            W.put_head(f, W.DATA, W.tag_of(sk), 1, pos, 0)
            f[W.HEAD:W.HEAD + end - pos] = stream[pos:end]
            rx.take(address, bytes(f[:W.seal(sk, address, f, W.HEAD + end - pos)]))
            sent = rx.due()
            if game is not None and pos:
                tries += 1
                relabels += len(sent)
            pos = end
        if not rx.nexts:
            raise SystemExit("bench_club: the game over brought no next table")
        database.close()
    print("event.mid_game_relabels: %d of %d pushes tried mid-game" % (relabels, tries))


def main():
    relabel_figure()
    page_figure()
    serve_figures()
    syncs_figure()


if __name__ == "__main__":
    main()
