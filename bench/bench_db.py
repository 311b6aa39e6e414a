# Database benchmark: storing synced sittings in SQLite and in PostgreSQL, and two
# processes storing the same sittings in one PostgreSQL database at once. Prints
#   db.store_ms_per_sitting.sqlite        one synced 20-hand sitting of random legal 42
#                                         play (store_lines, as `tally42 sync` stores it):
#                                         the median over 100 sittings, a file database
#   db.store_ms_per_sitting.postgresql    the same on a PostgreSQL server started here
#                                         (tests/pg.py: a temp cluster on a unix socket)
#   db.concurrent_duplicates.postgresql   two `tally42 import` processes given the same
#                                         200 sittings at once, on a new database: the
#                                         sittings both said they stored (each is one row:
#                                         the id is the key; goal 0)
#   db.concurrent_split.postgresql        how many each process stored (both > 0 shows the
#                                         two really ran at the same time)
# Without PostgreSQL the .postgresql lines say why they were not measured.
import os
import statistics
import subprocess
import sys
import tempfile
import time
from array import array

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tests", "engine"))

import pg as PG  # noqa: E402
from randsit import RandomPlayer, play  # noqa: E402
from engine_core import options as O  # noqa: E402
from engine_core.sitting import Sitting  # noqa: E402
from host_tools import db as D  # noqa: E402
from host_tools import sittinglog as L  # noqa: E402

HANDS = 20
STORES = 100
CONCURRENT = 200


def twenty_hands(seed, sid):
    """The log lines of a sitting of random legal 42 play (to 21 marks, so it goes on)
    cut right after its 20th hand; None if the game ended before."""
    rules = O.resolve("42", {"target": 21})
    s = Sitting(rules, seed % 4)
    out = array("l", bytes(8 * 4000))
    n = play(s, RandomPlayer(seed), out, 4000)
    header = L.Header(rules, seed % 4, ["Ann", "Bob", "Cy", "Di"],
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


def concurrent(url, tmp):
    paths = []
    for i, lines in enumerate(sittings(CONCURRENT, "two")):
        path = os.path.join(tmp, "s%03d.jsonl" % i)
        with open(path, "w") as f:
            f.write(L.dump_log(lines))
        paths.append(path)
    procs = [subprocess.Popen([sys.executable, "-m", "host_tools", "import"] + paths
                              + ["--db", url], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    said = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        if p.returncode:
            raise SystemExit("bench_db: tally42 import failed: %s" % err)
        said.append(sum(1 for ln in out.splitlines() if ": stored sitting " in ln))
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
