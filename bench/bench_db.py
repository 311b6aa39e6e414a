# Database benchmark: storing synced sittings in SQLite and in PostgreSQL, and two
# processes storing the same sittings in one PostgreSQL database at once. Prints
#   db.store_ms_per_sitting.sqlite        one synced 20-hand sitting of random legal 42
#                                         play (store_lines, as `tally42 sync` stores it):
#                                         the median over 100 sittings, a file database
#   db.store_ms_per_sitting.postgresql    the same on a PostgreSQL server started here
#                                         (tests/kit/pg.py: a temp cluster on a unix socket)
#   db.concurrent_duplicates.postgresql   two processes storing the same 200 synced
#                                         sittings on a new database, each sitting by
#                                         both at the same instant (one every 50 ms): the
#                                         sittings both said they stored (goal 0; each is
#                                         one row, the id is the key, so a duplicate
#                                         would show here or as a failed store, which
#                                         stops the bench)
#   db.concurrent_split.postgresql        how many each process stored (both well above 0:
#                                         the races were real, either could win)
# Without PostgreSQL the .postgresql lines say why they were not measured.
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from array import array

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import pg as PG  # noqa: E402
from randsit import RandomPlayer, play  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402
from engine_core.texas42.sitting import Sitting  # noqa: E402
from host_tools.log import lines as LN  # noqa: E402
from host_tools.log import sittinglog as L  # noqa: E402
from host_tools.store import db as D  # noqa: E402

HANDS = 20
QUICK = os.environ.get("TALLY42_BENCH_QUICK") == "1"     # bench/run.py --quick
STORES = 3 if QUICK else 100
CONCURRENT = 10 if QUICK else 200


def twenty_hands(seed, sid):
    """The log lines of a sitting of random legal 42 play (to 21 marks, so it goes on)
    cut right after its 20th hand; None if the game ended before."""
    rules = O.resolve("42", {"target": 21})
    s = Sitting(rules, seed % 4)
    out = array("l", bytes(8 * 4000))
    n = play(s, RandomPlayer(seed), out, 4000)
    header = LN.Header(rules, seed % 4, ["Ann", "Bob", "Cy", "Di"],
                      {"id": sid, "started": "2025-04-01T19:00:00"})
    s = Sitting(rules, seed % 4)
    for i in range(n):
        s.apply(out[i])
        if s.hands() == HANDS:
            return L.log_lines(header, list(out[:i + 1]))
    return None


def sittings(n, prefix):
    out = []
    seed = 1
    while len(out) < n:
        lines = twenty_hands(seed, "%s-%03d" % (prefix, len(out)))
        seed += 1
        if lines is not None:
            out.append(lines)
    return out


def store_ms(db, logs):
    times = []
    with D.open_db(db) as database:
        for lines in logs:
            t0 = time.perf_counter()
            st = database.store_lines(lines, source="sync", device="T42-BENCH")
            times.append((time.perf_counter() - t0) * 1000)
            if st.status != "stored" or len(st.facts.hands) != HANDS:
                raise SystemExit("bench_db: %s %s" % (st.status, st.id))
    return statistics.median(times)


# One writer: stores each sitting as `tally42 sync` does, sitting i at the instant
# t0 + i * SLOT (t0 from the go file): the two writers race for every sitting.
SLOT = 0.05
WRITER = r"""
import json, os, sys, time
from host_tools.store import db as D
url, logs, go, slot = sys.argv[1:5]
with open(logs) as f:
    texts = json.load(f)
database = D.open_db(url)
print("ready", flush=True)
while not os.path.exists(go) or not os.path.getsize(go):
    time.sleep(0.001)
with open(go) as f:
    t0 = float(f.read())
for i, text in enumerate(texts):
    wait = t0 + i * float(slot) - time.time()
    if wait > 0:
        time.sleep(wait)
    print(database.store(text, source="sync", device="T42-BENCH").status, flush=True)
database.close()
"""


def concurrent(url, tmp):
    logs = os.path.join(tmp, "logs.json")
    with open(logs, "w") as f:
        json.dump([LN.dump_log(lines) for lines in sittings(CONCURRENT, "two")], f)
    go = os.path.join(tmp, "go")
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, url, logs, go, str(SLOT)],
                              cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for p in procs:
        if p.stdout.readline() != "ready\n":
            raise SystemExit("bench_db: a writer did not start: %s" % p.communicate()[1])
    with open(go + ".tmp", "w") as f:
        f.write(repr(time.time() + 0.2))
    os.replace(go + ".tmp", go)
    said = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        if p.returncode:
            raise SystemExit("bench_db: a writer failed: %s" % err)
        said.append(out.splitlines().count("stored"))
    with D.open_db(url, readonly=True) as database:
        rows = database.conn.execute("SELECT COUNT(*) FROM sittings").fetchone()[0]
    if rows != CONCURRENT:
        raise SystemExit("bench_db: %d sittings stored of %d" % (rows, CONCURRENT))
    return sum(said) - rows, said


def main():
    logs = sittings(STORES, "bench")
    with tempfile.TemporaryDirectory() as tmp:
        print("db.store_ms_per_sitting.sqlite: %.2f ms"
              % store_ms(os.path.join(tmp, "bench.db"), logs))
    why = PG.missing()
    if why:
        for name in ("store_ms_per_sitting", "concurrent_duplicates"):
            print("db.%s.postgresql: not measured (%s)" % (name, why))
        return
    server = PG.Server()
    try:
        print("db.store_ms_per_sitting.postgresql: %.2f ms"
              % store_ms(server.new_database("bench"), logs))
        with tempfile.TemporaryDirectory() as tmp:
            dups, said = concurrent(server.new_database("two"), tmp)
        print("db.concurrent_duplicates.postgresql: %d (of %d sittings)" % (dups, CONCURRENT))
        print("db.concurrent_split.postgresql: %d + %d stored" % tuple(said))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
