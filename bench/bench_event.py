# Event benchmark: a 64-team round robin of 42 (63 rounds, 2016 tables), every table a
# finished sitting stored through the database (checked by the engine) and slotted into
# the event. Prints
#   event.standings_ms.64_teams_2016_sittings   the median of 9 runs of what a standings
#       page costs: load the event, read and orient every slotted sitting, rank
# The database: a fresh SQLite file in a temp folder, or the one named on the command
# line (`python bench/bench_event.py DB`; it must not hold an event "Bench 64" already).
import os
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from eventlogs import sitting_42  # noqa: E402
from host_tools import db as D  # noqa: E402
from host_tools import events as EV  # noqa: E402
from host_tools import standings as ST  # noqa: E402

TEAMS = 64
NAME = "Bench 64"


def build(database):
    teams = [("T%d" % i, ["a%d" % i, "b%d" % i]) for i in range(TEAMS)]
    ev = EV.create(database, NAME, "round-robin", "42", {}, teams=teams)
    rng = random.Random(64)
    for t in ev.tables:
        sid = "bench64-%d-%d" % (t.round, t.table)
        database.store(sitting_42(ev.seats(t.side_a, t.side_b), rng.randrange(2),
                                  rng.randrange(7), sid))
        EV.slot_sitting(database, sid, ev, t.round, t.table)
    return len(ev.tables)


def standings(database):
    ev = EV.load(database, NAME)
    return ST.compute(ev, EV.event_state(ev, database))


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory() as tmp:
        with D.open_db(target or os.path.join(tmp, "bench.db")) as database:
            tables = build(database)
            rows = standings(database)
            assert sum(r.played for r in rows) == 2 * tables == 2 * 2016
            times = []
            for _ in range(9):
                t0 = time.perf_counter()
                standings(database)
                times.append((time.perf_counter() - t0) * 1000)
    print("event.standings_ms.64_teams_2016_sittings: %.1f ms" % statistics.median(times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
