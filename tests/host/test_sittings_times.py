"""`tally42 sittings` shows every time in the PC's local zone, the zone named (--utc: in
UTC), so that the column, ordered by instant, reads in order whatever offset each sitting
was written with."""
import os
import time

import pytest

from clihelp import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOG = open(os.path.join(ROOT, "tests", "logs", "spec_marks_sitting.jsonl")).read()


@pytest.fixture
def chicago(monkeypatch):
    monkeypatch.setenv("TZ", "America/Chicago")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _store(tmp_path, capsys, starts):
    db = str(tmp_path / "t.db")
    for i, started in enumerate(starts):
        path = tmp_path / ("s%d.jsonl" % i)
        path.write_text(LOG.replace('"spec-sample-1"', '"s%d"' % i)
                        .replace('"2024-07-04T19:30:00Z"', '"%s"' % started))
        code, _, err = run(capsys, "import", str(path), "--db", db)
        assert code == 0, err
    return db


def _column(out, name):
    lines = out.splitlines()
    head = lines[0]
    at = head.index(name)
    return [line[at:at + 16] for line in lines[2:]]


# One evening's sittings, each written with the offset of the scorer that kept it:
# 22:00Z, 23:30Z, 01:10Z the next day, 02:00Z.
STARTS = ("2025-01-10T23:00:00+01:00", "2025-01-10T23:30:00Z",
          "2025-01-10T20:10:00-05:00", "2025-01-11T08:00:00+06:00")


def test_times_are_in_the_local_zone_and_named(tmp_path, capsys, chicago):
    db = _store(tmp_path, capsys, STARTS)
    code, out, err = run(capsys, "sittings", "--db", db)
    assert code == 0, err
    assert "started (CST)" in out.splitlines()[0], out
    got = _column(out, "started (CST)")
    assert got == ["2025-01-10 16:00", "2025-01-10 17:30", "2025-01-10 19:10",
                   "2025-01-10 20:00"], out


def test_utc_shows_them_in_utc(tmp_path, capsys, chicago):
    db = _store(tmp_path, capsys, STARTS)
    code, out, err = run(capsys, "sittings", "--db", db, "--utc")
    assert code == 0, err
    assert _column(out, "started (UTC)") == ["2025-01-10 22:00", "2025-01-10 23:30",
                                             "2025-01-11 01:10", "2025-01-11 02:00"], out


def test_a_summer_and_a_winter_sitting_each_name_their_zone(tmp_path, capsys, chicago):
    db = _store(tmp_path, capsys, ("2025-01-10T23:00:00Z", "2025-07-10T23:00:00Z"))
    code, out, err = run(capsys, "sittings", "--db", db)
    assert code == 0, err
    assert "2025-01-10 17:00 CST" in out and "2025-07-10 18:00 CDT" in out, out
