# `tally42 sync` at an event (host_tools/commands/sync.py): a synced sitting that carries
# an event, round and table is slotted in as that table's result; with --event the
# scorer is then handed its next table. The scorer is the sync endpoint in a MicroPython
# process on a pseudo-terminal (tests/kit/syncrig.py), serving a journal of real sittings
# whose headers carry the table they were played at.
import os

import pytest

import syncrig as R
from host_tools import cli
from host_tools.events import event as EV
from host_tools.store import db as D

FAST = ["--timeout", "0.3"]
EVENT = "Club night"
TEAMS = [("Aces", ["Ann", "Cy"]), ("Bones", ["Bob", "Di"]),
         ("Cats", ["Eve", "Gus"]), ("Dogs", ["Fay", "Hal"])]


def _seats(ev, rnd, table):
    t = ev.table(rnd, table)
    return ev.seats(t.side_a, t.side_b)


@pytest.fixture
def night(tmp_path, db_url):
    """An event of four teams (two tables a round) in a fresh database (SQLite, then
    PostgreSQL), and a scorer factory: scorer(assign, names) serves finished sittings
    played at those tables."""
    db = db_url
    with D.open_db(db) as d:
        ev = EV.create(d, EVENT, "round-robin", "42", teams=TEAMS)
    made = []

    class Scorer:
        def __init__(self, assign, names=R.NAMES, device="T42-SIM001", open_events=0,
                     open_assign=None, open_names=R.NAMES):
            self.image = str(tmp_path / ("flash%d.img" % len(made)))
            self.record = str(tmp_path / ("record%d.txt" % len(made)))
            self.played = R.build_image(self.image, len(assign), open_events, assign=assign,
                                        names=names, seed=len(made) + 3,
                                        open_assign=open_assign, open_names=open_names)
            self.cable = R.Cable()
            made.append(self)
            self.proc = R.Scorer(self.image, self.cable, "--id", device, record=self.record)

        def sync(self, *extra):
            return cli.main(["sync", "--port", self.cable.host_path, "--db", db]
                            + FAST + list(extra))

        def recorded(self):
            if not os.path.exists(self.record):
                return []
            with open(self.record) as f:
                return f.read().splitlines()

    yield db, ev, Scorer
    for s in made:
        err = s.proc.stop()
        s.cable.close()
        assert "Traceback" not in err, err


def _rows(db):
    with D.open_db(db) as d:
        return {r["id"]: r for r in (dict(x) for x in d.conn.execute(
            "SELECT id, event, round, table_no, over FROM sittings"))}


def _slots(db):
    with D.open_db(db) as d:
        return {r[0]: (r[1], r[2], r[3]) for r in d.conn.execute(
            "SELECT sitting_id, event, round, table_no FROM event_results")}


def test_a_synced_sitting_is_slotted_and_the_scorer_gets_the_next_free_table(night, capsys):
    db, ev, Scorer = night
    rnd, table = 1, 1
    s = Scorer([(EVENT, rnd, table)], names=_seats(ev, rnd, table))
    assert s.sync("--event", EVENT) == 0
    out = capsys.readouterr().out
    [(sid, row)] = _rows(db).items()
    assert (row["event"], row["round"], row["table_no"]) == (EVENT, rnd, table)
    assert _slots(db) == {sid: (EVENT, rnd, table)}
    assert "slotted: sitting %s as the result of %s round %d table %d" % (
        sid, EVENT, rnd, table) in out
    # Its own table is decided: the other table of the round is free, and it goes to
    # this scorer, with the players by seat and the game.
    other = [t for t in ev.tables if t.round == rnd and t.table != table]
    assert len(other) == 1
    o = other[0]
    seats = ev.seats(o.side_a, o.side_b)
    assert ("pushed: %s round %d table %d: %s+%s v %s+%s" % (
        (EVENT, rnd, o.table) + (seats[0], seats[2], seats[1], seats[3]))) in out
    rec = s.recorded()
    assert "assign %s|%d|%d" % (EVENT, rnd, o.table) in rec
    assert "names p %s" % "|".join(seats) in rec
    assert any(line.startswith("settings variant=42") for line in rec)
    # Synced again: the same table (handed to it, not decided) goes again.
    assert s.sync("--event", EVENT) == 0
    out = capsys.readouterr().out
    assert "nothing new on the scorer" in out and "slotted" not in out
    assert "pushed: %s round %d table %d" % (EVENT, rnd, o.table) in out
    with D.open_db(db) as d:
        assert EV.load(d, EVENT).table(rnd, o.table).device == "T42-SIM001"


def test_without_event_a_sitting_is_slotted_and_nothing_is_pushed(night, capsys):
    db, ev, Scorer = night
    rnd, table = 2, 2
    s = Scorer([(EVENT, rnd, table), ("Other night", 1, 1)], names=_seats(ev, rnd, table))
    assert s.sync() == 0
    out = capsys.readouterr().out
    rows = _rows(db)
    assert len(rows) == 2
    [slotted] = [sid for sid, r in rows.items() if r["event"] == EVENT]
    [loose] = [sid for sid, r in rows.items() if r["event"] == "Other night"]
    assert _slots(db) == {slotted: (EVENT, rnd, table)}
    assert ("sitting %s was played as Other night round 1 table 1: no event Other night "
            "in the database, so it is not slotted" % loose) in out
    assert "pushed" not in out and not any(x.startswith("assign") for x in s.recorded())


def test_a_sitting_that_does_not_fit_its_table_stays_stored_and_is_named(night, capsys):
    db, ev, Scorer = night
    rnd, table = 1, 1
    wrong = (1, 2)                          # played by the players of table 1
    names = _seats(ev, rnd, table)
    s = Scorer([(EVENT, rnd, table), (EVENT, rnd, table), (EVENT,) + wrong,
                (EVENT, 9, 1)], names=names)
    code = s.sync("--event", EVENT)
    out, err = capsys.readouterr()
    assert code == 2
    rows = _rows(db)
    assert len(rows) == 4                   # every one stored, and acknowledged
    assert len(R.journal_sittings(s.image)) == 4
    assert all(synced for _, _, synced, _ in R.journal_sittings(s.image))
    first, second, third, fourth = sorted(rows, key=lambda sid: int(sid.rsplit("-", 1)[1]))
    assert _slots(db) == {first: (EVENT, rnd, table)}
    assert "slotted: sitting %s" % first in out
    lines = err.splitlines()
    assert ("tally42: sitting %s not slotted into %s round %d table %d: the table is "
            "decided: no result goes there (it stays stored; `tally42 event slot` puts it "
            "right by hand)" % (second, EVENT, rnd, table)) in lines, err
    assert any(line.startswith("tally42: sitting %s not slotted into %s round %d table %d: "
                               "sitting %s was played by %s;" % ((third, EVENT) + wrong + (
                                   third, ", ".join(names)))) for line in lines), err
    assert any(line.startswith("tally42: sitting %s not slotted into %s round 9 table 1: "
                               "%s has no table 1 in round 9" % (fourth, EVENT, EVENT))
               for line in lines), err
    # The scorer still gets its next table: the other one of the round.
    assert "pushed: %s round 1 table 2" % EVENT in out
    # Synced again: nothing new, nothing refused.
    assert s.sync("--event", EVENT) == 0
    assert "not slotted" not in capsys.readouterr().err


def test_a_round_is_handed_out_only_once_the_one_before_is_in(night, capsys):
    db, ev, Scorer = night
    r1 = [t for t in ev.tables if t.round == 1]
    first = Scorer([], device="T42-AAA001")
    second = Scorer([], device="T42-AAA002")
    third = Scorer([], device="T42-AAA003")
    assert first.sync("--event", EVENT) == 0
    assert "pushed: %s round 1 table 1" % EVENT in capsys.readouterr().out
    assert second.sync("--event", EVENT) == 0
    assert "pushed: %s round 1 table 2" % EVENT in capsys.readouterr().out
    assert third.sync("--event", EVENT) == 0
    out = capsys.readouterr().out
    assert "pushed:" not in out
    assert ("nothing to push: %s has no open table for scorer T42-AAA003" % EVENT) in out
    assert not any(x.startswith("assign") for x in third.recorded())
    assert len(r1) == 2


@pytest.mark.parametrize("argv, why", [
    (["--event", "Nope"], "--event: no event Nope (events: Club night)"),
    (["--event", EVENT, "--assign", "Club night:1:1"], "--event and --assign: give one"),
    (["--event", EVENT, "--players", "Ann,Bob,Cy,Di"], "--event: the event gives the scorer"),
    (["--event", EVENT, "--set", "target=250"], "leave out --players and --set"),
])
def test_bad_event_flags_are_refused_before_the_port_opens(night, capsys, tmp_path, argv,
                                                            why):
    db = night[0]
    code = cli.main(["sync", "--port", str(tmp_path / "no-such-port"), "--db", db] + argv)
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("tally42: ") and why in err, err
    assert "no-such-port" not in err and "Traceback" not in err
    assert _rows(db) == {} and _slots(db) == {}


def test_event_on_a_missing_database_is_refused_and_makes_none(tmp_path, capsys):
    db = tmp_path / "none.db"
    code = cli.main(["sync", "--port", str(tmp_path / "no-such-port"), "--db", str(db),
                     "--event", EVENT])
    err = capsys.readouterr().err
    assert code == 2 and "no database at" in err and not db.exists(), err


def test_the_slotted_results_make_the_standings(night, capsys):
    db, ev, Scorer = night
    s = Scorer([(EVENT, 1, 1)], names=_seats(ev, 1, 1))
    assert s.sync() == 0
    capsys.readouterr()
    [(score, _)] = s.played.values()
    assert cli.main(["event", "standings", EVENT, "--db", db, "--format", "csv"]) == 0
    rows = {r.split(",")[1]: r.split(",") for r in capsys.readouterr().out.splitlines()[1:]}
    # Seated as the table says: side 0 is the table's side A.
    t = ev.table(1, 1)
    aces, bones = rows[ev.entrants[t.side_a[0]]], rows[ev.entrants[t.side_b[0]]]
    idle = [n for n in ev.entrants if n not in (aces[1], bones[1])]
    assert [int(x) for x in aces[2:8]] == [1, int(score[0] > score[1]),
                                          int(score[0] < score[1]), score[0], score[1],
                                          score[0] - score[1]]
    assert [int(x) for x in bones[5:7]] == [score[1], score[0]]
    assert all(rows[n][2:] == ["0"] * 6 for n in idle) and len(idle) == 2


@pytest.mark.parametrize("chip", ["xyz", "0000A", "0000A1F", "G000A1"])
def test_a_bad_sim_chip_id_is_refused(chip, tmp_path, capsys):
    flash = tmp_path / "f.bin"
    code = cli.main(["sim", "--script", str(tmp_path / "none.txt"), "--flash", str(flash),
                     "--chip-id", chip])
    err = capsys.readouterr().err
    assert code == 2 and err == "tally42: --chip-id %s: 6 hex digits, such as 0000A1 (the " \
        "scorer is then T42-0000A1)\n" % chip, err
    assert not flash.exists()


# ---- a game in play is never changed; another event only when asked ----

def test_a_scorer_with_a_game_open_is_pushed_nothing_and_told_why(night, capsys):
    db, ev, Scorer = night
    # A finished sitting at round 1 table 1, and a game open on the scorer after it.
    s = Scorer([(EVENT, 1, 1)], names=_seats(ev, 1, 1), open_events=3)
    assert s.sync("--event", EVENT) == 0
    out = capsys.readouterr().out
    assert "slotted: sitting" in out            # its result is in all the same
    assert "pushed" not in out.replace("not pushed", "")
    assert "not pushed: the scorer is playing a game at no event's table, hand 1" in out
    assert not any(x.startswith(("assign", "names")) for x in s.recorded()), s.recorded()
    with D.open_db(db) as d:
        # Nothing claimed for it either: the table goes when the game has ended.
        assert all(t.device is None for t in EV.load(d, EVENT).tables if t.round > 1)


def test_a_table_decided_elsewhere_while_its_scorer_plays_it_is_a_conflict_at_once(
        night, capsys, tmp_path):
    db, ev, Scorer = night
    seats = _seats(ev, 1, 1)
    # Round 1 table 1 decided by another scorer's sitting (as by hand).
    first = Scorer([(EVENT, 1, 1)], names=seats, device="T42-SIM002")
    assert first.sync() == 0
    capsys.readouterr()
    s = Scorer([], open_events=3, open_assign=(EVENT, 1, 1), open_names=seats)
    assert s.sync("--event", EVENT) == 2
    cap = capsys.readouterr()
    assert ("conflict: %s round 1 table 1 is decided" % EVENT) in cap.err
    assert "while scorer T42-SIM001 plays it" in cap.err
    assert "not pushed: the scorer is playing %s round 1 table 1, hand 1" % EVENT in cap.out
    assert not any(x.startswith("assign") for x in s.recorded())


def test_a_sync_to_another_event_asks_for_switch_and_changes_nothing(night, capsys):
    db, ev, Scorer = night
    with D.open_db(db) as d:
        EV.create(d, "County", "round-robin", "42", teams=TEAMS)
    s = Scorer([])
    assert s.sync("--event", EVENT) == 0
    out = capsys.readouterr().out
    assert "pushed: %s round 1 table 1" % EVENT in out
    before = s.recorded()
    assert s.sync("--event", "County") == 2
    cap = capsys.readouterr()
    assert ("scorer T42-SIM001 keeps a table of %s, not County: nothing changed on it "
            "(`--switch` moves it to County" % EVENT) in cap.err
    assert s.recorded() == before               # not even the clock
    with D.open_db(db) as d:
        assert EV.load(d, EVENT).table(1, 1).device == "T42-SIM001"
    assert s.sync("--event", "County", "--switch") == 0
    out = capsys.readouterr().out
    assert "switched: scorer T42-SIM001 left its table in %s" % EVENT in out
    assert "pushed: County round 1 table 1" in out
    with D.open_db(db) as d:
        assert EV.load(d, EVENT).table(1, 1).device is None
