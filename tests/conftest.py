# The one place the tests' import path is set (the MicroPython suites' twin is
# tests/mp_run.py, the bench's bench/run.py): the test kit (tests/kit/: rigs, fakes,
# probes, the engine's sittings) and tools/. No test module is imported by another.
# tests/device holds MicroPython-only tests (framebuf, heap_lock): run by tests/mp_run.py.
collect_ignore = ["device", "mp_run.py"]

import os
import signal
import sys

import pytest

# A run started in the background (`make test &`, nohup, a CI step) inherits SIGINT
# ignored, and every child would too: a sim or a server the tests stop with Ctrl-C would
# never see it (each stop waited out, then killed). With a handler here, each child
# starts with SIGINT's default (exec resets a handled signal), as at a terminal.
signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIT = ("tests/kit", "tests/kit/chip", "tests/kit/engine", "tests/kit/probes", "tests/kit/web", "tools")
sys.path[:0] = [os.path.join(ROOT, p) for p in KIT if os.path.join(ROOT, p) not in sys.path]


# ---- PostgreSQL: a real server, started here (tests/kit/pg.py) ----

@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server of our own for the session. Without PostgreSQL (or psycopg) the
    tests that need it are skipped, with the reason; under CI=true they fail instead."""
    import pg as PG
    if os.environ.get("TALLY42_NO_PG") == "1":     # make check: PostgreSQL's in make test
        pytest.skip("no PostgreSQL: TALLY42_NO_PG=1 (make check; make test runs them)")
    why = PG.missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail("the PostgreSQL tests cannot run: %s" % why)
        pytest.skip("no PostgreSQL: %s" % why)
    server = PG.Server()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """A fresh, empty PostgreSQL database: its postgresql:// URL."""
    return pg_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """Each test that takes it runs twice: on a SQLite file's path, and on a fresh
    PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "t.db")
    return request.getfixturevalue("pg_url")


def pytest_terminal_summary(terminalreporter):
    # The one line that says why the PostgreSQL tests were skipped (-q hides the reasons).
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = {str(r.longrepr[2]) for r in skipped if isinstance(r.longrepr, tuple)}
    for reason in sorted(x for x in reasons if x.startswith("Skipped: no PostgreSQL")):
        terminalreporter.write_line("PostgreSQL tests skipped: %s" % reason.split(": ", 2)[2])
