"""The PC's side of the radio (host_tools/events/radio.py): frames of a real journal
stream, in any order, lost, duplicated or replayed, become one stored and slotted sitting;
frames of another event, forged ones and a second scorer at a table are refused. Then the
whole way: sim scorers, a sim base station and `tally42 serve --base`'s relay
(tests/e2e/test_club_night_radio.py plays a whole night)."""
import random

import pytest

import syncrig as R
from boards.sim.flash import NorFlash
from firmware.journal import Journal
from engine_core.journal.reader import JournalReader
from engine_core.air import wire as W
from host_tools.events import event as EV
from host_tools.events import radio as RA
from host_tools.events import serve as SV
from host_tools.store import db as D

EVENT = "Club night"
TEAMS = [("Aces", ["Ann", "Cy"]), ("Bones", ["Bob", "Di"]),
         ("Cats", ["Eve", "Gus"]), ("Dogs", ["Fay", "Hal"])]
KEY = bytes(range(16))
SCORER = b"\x02\x00\x00\x00\x00\xa1"
OTHER = b"\x02\x00\x00\x00\x00\xa2"


@pytest.fixture
def night(tmp_path):
    """A database with a four-team event and the journal stream of a sitting played at
    its round 1 table 1 by that table's players."""
    db = D.open_db(str(tmp_path / "club.db"))
    ev = EV.create(db, EVENT, "round-robin", "42", teams=TEAMS)
    t = ev.table(1, 1)
    seats = ev.seats(t.side_a, t.side_b)
    image = str(tmp_path / "flash.img")
    R.build_image(image, 1, 0, assign=[(EVENT, 1, 1)], names=seats, seed=5)
    j = Journal(NorFlash(R.BLOCKS, 4096, path=image))
    j.mount()
    buf = bytearray(8192)
    n = JournalReader(j).read(1, 0, buf)
    yield db, bytes(buf[:n])
    db.close()


def frames(stream, key=KEY, address=SCORER, sid=1, size=W.MAX_RECORDS, finished=True):
    out = []
    for off in range(0, len(stream), size):
        b = bytearray(W.MAX_FRAME)
        chunk = stream[off:off + size]
        W.put_head(b, W.DATA, W.tag_of(key), sid, off, W.F_FINISHED if finished else 0)
        b[W.HEAD:W.HEAD + len(chunk)] = chunk
        out.append(bytes(b[:W.seal(key, address, b, W.HEAD + len(chunk))]))
    return out


def _ack(ack):
    assert len(ack) == W.ACK_LEN and ack[0] == W.ACK
    assert W.sound(KEY, SCORER, ack, len(ack))
    return W.get_u24(ack, 8), ack[11]


def _stored(db):
    return db.conn.execute("SELECT id, over, hands FROM sittings").fetchall()


def test_frames_in_any_order_with_losses_and_repeats_store_one_slotted_sitting(night):
    db, stream = night
    rx = RA.Receiver(db, EVENT, KEY)
    fs = frames(stream, size=40)
    assert len(fs) > 5
    rng = random.Random(4)
    held = 0
    rounds = 0
    while held < len(stream):
        rounds += 1
        # What a scorer does: its window from what the PC holds, some of it lost,
        # some twice, out of order.
        window = [f for f in fs if held <= W.get_u24(f, 8) < held + 3 * 40]
        sent = [f for f in window if rng.random() > 0.3] + [f for f in window
                                                           if rng.random() < 0.2]
        rng.shuffle(sent)
        for f in sent:
            got, flags = _ack(rx.take(SCORER, f))
            held = max(held, got)
    assert rounds > 2
    got, flags = _ack(rx.take(SCORER, fs[-1]))
    assert got == len(stream) and flags == W.F_HELD
    rows = _stored(db)
    assert len(rows) == 1 and rows[0]["over"] == 1
    slot = db.conn.execute("SELECT round, table_no FROM event_results WHERE sitting_id = ?",
                           (rows[0]["id"],)).fetchone()
    assert tuple(slot) == (1, 1)
    assert rx.duplicates > 0 and rx.foreign == 0 and rx.refused == 0
    # The page shows the table decided; the standings count it.
    page = SV.state_json(db, EVENT)
    assert sum(r["played"] for r in page["standings"]) == 2


def test_a_table_in_progress_shows_playing_with_its_score_and_hand(night):
    db, stream = night
    rx = RA.Receiver(db, EVENT, KEY)
    end = RA.complete(stream[:len(stream) // 2])
    for f in frames(stream[:end], finished=False):
        rx.take(SCORER, f)
    live = rx.live[(1, 1)]
    page = SV.state_json(db, EVENT)
    t = [t for t in page["tables"] if t["table"] == 1][0]
    assert t["status"] == "playing" and page["provisional"]
    assert t["live"] == "playing %d-%d, hand %d" % (live["score"][0], live["score"][1],
                                                    live["hands"] + 1)
    assert t["live"] == live["line"]


def test_another_events_frames_forged_ones_and_altered_replays_are_not_taken(night):
    db, stream = night
    rx = RA.Receiver(db, EVENT, KEY)
    other = bytes(16)
    for f in frames(stream, key=other):             # another event's key
        assert rx.take(SCORER, f) is None
    for f in frames(stream, address=OTHER):         # made for another scorer
        assert rx.take(SCORER, f) is None
    forged = bytearray(frames(stream)[0])
    forged[W.HEAD + 3] ^= 1                         # a byte changed, the MAC kept
    assert rx.take(SCORER, bytes(forged)) is None
    assert _stored(db) == [] and rx.accepted == 0
    n = rx.foreign
    assert n == 2 * len(frames(stream)) + 1
    good = frames(stream)
    for f in good:
        rx.take(SCORER, f)
    assert len(_stored(db)) == 1
    # Replayed: taken as the duplicates they are, nothing stored twice, nothing changed.
    before = db.conn.execute("SELECT log, updated_at FROM sittings").fetchone()
    for f in good:
        got, _ = _ack(rx.take(SCORER, f))
        assert got == len(stream)
    assert rx.duplicates == len(good) and rx.accepted == len(good)
    assert tuple(db.conn.execute("SELECT log, updated_at FROM sittings").fetchone()) == \
        tuple(before)


def test_a_second_scorer_at_a_table_is_refused(night):
    db, stream = night
    rx = RA.Receiver(db, EVENT, KEY)
    for f in frames(stream):
        rx.take(SCORER, f)
    keeper = db.conn.execute("SELECT device FROM event_tables WHERE round = 1 AND "
                             "table_no = 1").fetchone()[0]
    assert keeper == RA.device_of(SCORER)
    fs = frames(stream, address=OTHER)
    ack = rx.take(OTHER, fs[0])
    assert W.sound(KEY, OTHER, ack, len(ack)) and ack[11] & W.F_REFUSED
    assert len(_stored(db)) == 1 and rx.refused == 1
    assert "is scored by %s" % keeper in rx.notes[-1]


def test_the_event_key_is_made_once_and_kept(night):
    db, _ = night
    k = RA.event_key(db, EVENT)
    assert len(k) == 16 and RA.event_key(db, EVENT) == k
    rx = RA.Receiver(db, EVENT)
    assert rx.key == k


@pytest.mark.parametrize("argv,says", [
    (["sim", "--base"], "--base: give the air with --radio FOLDER"),
    (["sim", "--radio", ",loss=0.3"], "--radio: give a folder for the air"),
    (["sim", "--radio", "/tmp/air,loss=2"], "--radio: loss=2 is not a fault"),
    (["sim", "--radio", "/tmp/air,wind=3"], "--radio: wind=3 is not a fault"),
])
def test_bad_radio_flags_are_refused_before_anything_runs(capsys, argv, says):
    from clihelp import run
    code, out, err = run(capsys, *argv)
    assert code != 0 and says in err, (code, out, err)


def test_serve_base_on_a_scorer_says_it_is_not_a_base_station(tmp_path, capsys):
    from clihelp import run
    db = str(tmp_path / "club.db")
    with D.open_db(db) as d:
        EV.create(d, EVENT, "round-robin", "42", teams=TEAMS)
    image = str(tmp_path / "flash.img")
    R.build_image(image, 1, 0, seed=2)
    cable = R.Cable()
    scorer = R.Scorer(image, cable, "--id", "T42-SIM001")
    try:
        code, out, err = run(capsys, "serve", EVENT, "--db", db, "--host", "127.0.0.1",
                             "--port", "0", "--base", cable.host_path)
    finally:
        scorer.stop()
        cable.close()
    assert code != 0
    assert "T42-SIM001" in err and "is a scorer, not a base station" in err, err
