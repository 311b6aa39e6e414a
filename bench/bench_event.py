# Event benchmark: a 64-team round robin of 42 (63 rounds, 2016 tables), every table a
# finished sitting stored through the database (checked by the engine) and slotted into
# the event. Prints
#   event.standings_ms.64_teams_2016_sittings             the median of 9 runs of what a
#       standings page costs (load the event, read and orient every slotted sitting,
#       rank), on a SQLite file in a temp folder
#   event.standings_ms.64_teams_2016_sittings.postgresql  the same on a PostgreSQL
#       server started here (tests/kit/pg.py: a temp cluster on a unix socket); without
#       PostgreSQL the line says why it was not measured
# `python bench/bench_event.py DB` measures on the database DB names instead (a file or a
# postgresql:// URL; it must not hold an event "Bench 64" already), printing one line.
import os
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

import pg as PG  # noqa: E402
from eventlogs import sitting_42  # noqa: E402
from host_tools.events import event as EV  # noqa: E402
from host_tools.events import slots as SL  # noqa: E402
from host_tools.events import standings as ST  # noqa: E402
from host_tools.events import state as ES  # noqa: E402
from host_tools.store import db as D  # noqa: E402

TEAMS = 6 if os.environ.get("TALLY42_BENCH_QUICK") == "1" else 64     # bench/run.py --quick: 6
NAME = "Bench 64"
FIGURE = "event.standings_ms.64_teams_2016_sittings"


def build(database):
    teams = [("T%d" % i, ["a%d" % i, "b%d" % i]) for i in range(TEAMS)]
    ev = EV.create(database, NAME, "round-robin", "42", {}, teams=teams)
    rng = random.Random(64)
    with database.batch():      # the set-up in one transaction: one commit, not 4032
        for t in ev.tables:
            sid = "bench64-%d-%d" % (t.round, t.table)
            database.store(sitting_42(ev.seats(t.side_a, t.side_b), rng.randrange(2),
                                      rng.randrange(7), sid))
            SL.slot_sitting(database, sid, ev, t.round, t.table)
    return len(ev.tables)


def standings(database):
    ev = EV.load(database, NAME)
    return ST.compute(ev, ES.event_state(ev, database))


def measure(db):
    """The median standings time on db (built there first), in ms; and the set-up's s."""
    with D.open_db(db) as database:
        t0 = time.perf_counter()
        tables = build(database)
        built = time.perf_counter() - t0
        rows = standings(database)
        assert sum(r.played for r in rows) == 2 * tables == TEAMS * (TEAMS - 1)
        times = []
        for _ in range(9):
            t0 = time.perf_counter()
            standings(database)
            times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), built


def main():
    if len(sys.argv) > 1:
        ms, built = measure(sys.argv[1])
        suffix = ".postgresql" if D.is_url(sys.argv[1]) else ""
        print("%s%s: %.1f ms  (set-up %.1f s)" % (FIGURE, suffix, ms, built))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        ms, built = measure(os.path.join(tmp, "bench.db"))
    print("%s: %.1f ms  (set-up %.1f s)" % (FIGURE, ms, built))
    why = PG.missing()
    if why:
        print("%s.postgresql: not measured (%s)" % (FIGURE, why))
        return 0
    server = PG.Server()
    try:
        ms, built = measure(server.new_database("event"))
    finally:
        server.stop()
    print("%s.postgresql: %.1f ms  (set-up %.1f s)" % (FIGURE, ms, built))
    return 0


if __name__ == "__main__":
    sys.exit(main())
