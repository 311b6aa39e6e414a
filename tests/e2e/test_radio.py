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
from host_tools.events import slots as SL
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


def key_of(address=SCORER):
    """The scorer's own key, as its sync pushes it."""
    return RA.scorer_key(KEY, RA.device_of(address))


def frames(stream, key=None, address=SCORER, sid=1, size=W.MAX_RECORDS, finished=True):
    key = key or key_of(address)
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
    assert W.sound(key_of(), SCORER, ack, len(ack))
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
    assert got == len(stream) and flags == W.F_HELD | W.F_OVER
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
        _, flags = _ack(rx.take(SCORER, f))
        assert not flags & W.F_OVER     # a game in play: no next table asked for
    assert rx.due() == [] and rx.nexts == {}
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
    assert W.sound(key_of(OTHER), OTHER, ack, len(ack)) and ack[11] & W.F_REFUSED
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
def test_bad_radio_flags_are_refused_before_anything_runs(capsys, monkeypatch, argv, says):
    from clihelp import run
    from host_tools.sim import run as simrun

    def build(*a, **kw):
        raise AssertionError("the sim was built before its flags were checked")
    monkeypatch.setattr(simrun, "build", build)
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


# ---- the next table, sent back over the air ----

class _Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def _confirm(nframe, address=SCORER):
    b = bytearray(nframe[:W.HEAD])
    b[0] = W.CONFIRM
    return bytes(b[:W.seal(key_of(address), address, b, W.HEAD)])


def _ask(stream, address=SCORER, sid=1):
    b = bytearray(W.MAX_FRAME)
    W.put_head(b, W.DATA, W.tag_of(key_of(address)), sid, len(stream), W.F_FINISHED)
    return bytes(b[:W.seal(key_of(address), address, b, W.HEAD)])


def test_a_finished_sitting_sends_its_scorer_the_next_table_until_it_confirms(night):
    db, stream = night
    clock = _Clock()
    rx = RA.Receiver(db, EVENT, KEY, clock=clock)
    fs = frames(stream)
    for f in fs[:-1]:
        rx.take(SCORER, f)
    assert rx.due() == []           # not over yet: no next table
    _ack(rx.take(SCORER, fs[-1]))
    out = rx.due()
    assert [a for a, _ in out] == [SCORER]
    nframe = out[0][1]
    assert nframe[0] == W.NEXT and W.sound(key_of(), SCORER, nframe, len(nframe))
    assert not W.sound(key_of(OTHER), SCORER, nframe, len(nframe))
    sid, rnd, table, event, names = W.next_parts(nframe, len(nframe))
    # The same table a USB sync would push: the scorer keeps its table number.
    a = SL.next_assignment(db, RA.device_of(SCORER), EVENT)
    assert (sid, event.decode(), rnd, table) == (1, EVENT, 2, 1) == (
        1, a["event"], a["round"], a["table"])
    assert [n.decode() for n in names] == a["players"]
    assert rx.due() == []           # not again at once
    clock.t += 0.5
    assert rx.due() == [(SCORER, nframe)]     # resent, not confirmed
    # The scorer asks (its copy was lost): the same frame, with the acknowledge.
    got, flags = _ack(rx.take(SCORER, _ask(stream)))
    assert got == len(stream) and flags == W.F_HELD | W.F_OVER
    assert rx.due() == [(SCORER, nframe)]
    # The confirm is answered: F_TAKEN (the scorer stops sending it), no next table.
    got, flags = _ack(rx.take(SCORER, _confirm(nframe)))
    assert got == len(stream) and flags & W.F_TAKEN and not flags & W.F_OVER, flags
    assert rx.nexts[(SCORER, 1)].confirmed == clock.t
    assert rx.due() == []
    clock.t += 5
    assert rx.due() == []
    assert rx.duplicates == 0       # asks are not duplicates


def test_a_confirm_or_an_ask_from_another_scorer_of_the_event_is_foreign(night):
    db, stream = night
    rx = RA.Receiver(db, EVENT, KEY)
    for f in frames(stream):
        rx.take(SCORER, f)
    nframe = rx.due()[0][1]
    forged = bytearray(_confirm(nframe, OTHER))     # OTHER's key, SCORER's name
    assert rx.take(SCORER, bytes(forged)) is None
    assert rx.nexts[(SCORER, 1)].confirmed is None
    # Data frames one scorer makes for another's address under its own key.
    n = rx.foreign
    for f in frames(stream, key=key_of(OTHER), address=SCORER, sid=2):
        assert rx.take(SCORER, f) is None
    assert rx.foreign == n + len(frames(stream)) + 0 and rx.accepted == len(frames(stream))


def test_a_table_decided_by_hand_while_its_scorer_plays_is_a_conflict_and_it_moves_on(
        night, tmp_path, capsys):
    db, stream = night
    ev = EV.load(db, EVENT)
    t = ev.table(1, 1)
    image = str(tmp_path / "typed.img")
    R.build_image(image, 1, 0, assign=[(EVENT, 1, 1)], names=ev.seats(t.side_a, t.side_b),
                  seed=9)
    j = Journal(NorFlash(R.BLOCKS, 4096, path=image))
    j.mount()
    buf = bytearray(8192)
    typed = bytes(buf[:JournalReader(j).read(1, 0, buf)])
    # The organiser's result for the table, stored and slotted with no scorer keeping it
    # (as `event result` does).
    other = RA.Receiver(db, EVENT, KEY)
    for f in frames(typed, address=OTHER):
        other.take(OTHER, f)
    db.conn.execute("UPDATE event_tables SET device = NULL")
    db.conn.execute("DELETE FROM event_scorers")
    db.conn.commit()
    capsys.readouterr()
    rx = RA.Receiver(db, EVENT, KEY)
    for f in frames(stream):
        rx.take(SCORER, f)
    assert [c[:3] for c in rx.conflicts] == [(1, 1, RA.device_of(SCORER))]
    assert "conflict" in capsys.readouterr().err
    # The scorer's sitting stays stored, not slotted; it is sent its next table.
    nframe = rx.due()[0][1]
    assert W.next_parts(nframe, len(nframe))[1:3] == (2, 1)


def test_no_open_table_for_the_scorer_says_wait_for_the_round(night):
    from host_tools.events import nexttable as NT
    db, stream = night
    # Every later table with this scorer's number handed to another scorer.
    db.conn.execute("UPDATE event_tables SET device = 'T42-0000FF' WHERE round > 1 AND "
                    "table_no = 1")
    db.conn.commit()
    rx = RA.Receiver(db, EVENT, KEY)
    for f in frames(stream):
        rx.take(SCORER, f)
    nframe = rx.due()[0][1]
    assert W.next_parts(nframe, len(nframe)) == (1, 2, 0, b"", [])
    assert NT.describe(NT.next_for(db, EVENT, RA.device_of(SCORER))) == "wait for round 2"
    # That round decided everywhere: nothing more tonight.
    db.conn.execute("DELETE FROM event_tables WHERE table_no = 1 AND round > 1")
    db.conn.commit()
    assert NT.next_for(db, EVENT, RA.device_of(SCORER)) == ("none", 0)


def test_a_sitting_from_a_scorer_without_a_clock_starts_when_the_pc_first_heard_it(night):
    from host_tools.serial.sync import stream_parts
    from host_tools.log.device import device_sitting_id, from_device
    db, stream = night
    rx = RA.Receiver(db, EVENT, KEY)
    half = RA.complete(stream[:len(stream) // 2])
    for f in frames(stream[:half], finished=False):
        rx.take(SCORER, f)
    heard = rx.sittings[(SCORER, 1)].heard
    assert "T" in heard and heard[-6] in "+-"      # ISO 8601 with the PC's offset
    row = db.conn.execute("SELECT id, started, started_utc, log FROM sittings").fetchone()
    assert '"started"' not in row["log"].split("\n")[0]     # the scorer's log has none
    assert row["started"] == heard and row["started_utc"] is not None
    # The whole sitting stored from the scorer's own log (a USB sync): it is longer, the
    # row is made again, and the PC's start time stays.
    header, events, ended = stream_parts(stream)
    lines = from_device(header, events, {"id": device_sitting_id(RA.device_of(SCORER), 1,
                                                                 header)}, ended)
    assert db.store_lines(lines).status == "updated"
    assert db.conn.execute("SELECT started FROM sittings").fetchone()[0] == heard


def test_the_desk_shows_each_scorer_its_table_next_table_and_when_it_was_heard(
        night, capsys):
    from clihelp import run
    from host_tools.events import desk as DK
    db, stream = night
    clock = _Clock()
    rx = RA.Receiver(db, EVENT, KEY, clock=clock)
    half = RA.complete(stream[:len(stream) // 2])
    for f in frames(stream[:half], finished=False):
        rx.take(SCORER, f)
    d = DK.desk(db, EVENT)
    [row] = d["scorers"]
    assert row["device"] == RA.device_of(SCORER) and row["at"] == (1, 1)
    assert row["home"] == 1 and row["live"].startswith("playing ")
    assert row["heard"].endswith("s ago") and row["next"] is None
    assert d["unscored"] == [(1, 2)]
    for f in frames(stream):
        rx.take(SCORER, f)
    nframe = rx.due()[0][1]
    row = DK.desk(db, EVENT)["scorers"][0]
    assert row["next"].startswith("table 1, round 2: ") and row["next_state"] == "sent"
    text = DK.text(DK.desk(db, EVENT))
    assert "pending: %s has not confirmed its next table (table 1, round 2" % (
        RA.device_of(SCORER)) in text
    rx.take(SCORER, _confirm(nframe))
    row = DK.desk(db, EVENT)["scorers"][0]
    assert row["next_state"] == "confirmed" and row["at"] == (2, 1)
    # The command prints the same.
    path = db.path
    db.conn.commit()
    code, out, err = run(capsys, "event", "desk", EVENT, "--db", path)
    assert code == 0, err
    assert RA.device_of(SCORER) in out and "round 2 table 1" in out
    assert "(confirmed)" in out and "pending" not in out


def test_a_scorers_key_is_rfc_2104_hmac_the_same_on_the_pc_and_the_base():
    # engine_core/air/keys.py (the base station's and the PC's) against the standard
    # library's HMAC, for several event keys and device ids.
    import hashlib
    import hmac
    for key, device in ((KEY, "T42-0000A1"), (bytes(16), "T42-FFFFFF"), (b"\xff" * 16,
                                                                          "T42-00A10B")):
        want = hmac.new(key, b"T42 scorer " + device.encode(), hashlib.sha256).digest()[:16]
        assert RA.scorer_key(key, device) == want
    assert RA.device_of(b"\x02\x00\x00\x00\xa1\x0b") == "T42-00A10B"


def test_the_relay_hands_the_base_the_event_key_before_it_fetches(night):
    db, _ = night

    class Station:
        def __init__(self):
            self.client = self
            self.asked = []

        def request(self, cmd, args=b""):
            self.asked.append((cmd, args))
            return ("k", b"") if cmd == "K" else ("q", bytes(21))

        def exchange(self, acks):
            self.asked.append(("R", len(acks)))
            return []
    st = Station()
    rx = RA.Receiver(db, EVENT, key=KEY)
    stops = iter([False, True])
    RA.relay(st, rx, lambda: next(stops), pause=0)
    assert st.asked[0] == ("K", KEY.hex().upper().encode()) and st.asked[1][0] == "R"
    assert rx.base_checks is True


def test_a_burst_of_results_is_taken_a_slice_at_a_time_asks_first_acks_between():
    # Ten frames that store something (each 50 ms of the fake clock) and an ask heard in
    # the same fetch: the ask is answered at the next fetch, and the stores' acks go out
    # a slice (FLUSH) at a time, not after the whole burst.
    t = [0.0]
    rec = bytearray(W.HEAD + 5 + W.MAC_LEN)
    ask = bytes(W.HEAD + W.MAC_LEN)

    batches = []

    class Batch:
        def __enter__(self):
            batches.append(t[0])

        def __exit__(self, *exc):
            return False

    class Db:
        def batch(self):
            return Batch()

    class Rx:
        key = KEY
        base_checks = None
        notes = []
        database = Db()

        def take(self, address, frame):
            if len(frame) > len(ask):
                t[0] += 0.05
            return b"ack" + bytes(frame[:1])

        def due(self):
            return []

    class Station:
        client = None

        def __init__(self):
            self.sent = []
            self.calls = 0

        def exchange(self, acks):
            self.calls += 1
            self.sent.append([a for _, a in acks])
            if self.calls == 1:
                return [(SCORER, bytes([n]) + bytes(rec[1:])) for n in range(10)] + [
                    (OTHER, ask)]
            return []
    st = Station()
    rounds = iter(range(8))
    import host_tools.events.radio as RAD
    real = RAD.give_key
    RAD.give_key = lambda station, key: True
    try:
        RAD.relay(st, Rx(), lambda: next(rounds, None) is None, pause=0,
                  clock=lambda: t[0])
    finally:
        RAD.give_key = real
    # The ask's ack first, with the first slice's (0.1 s: two or three stores).
    assert st.sent[1][0] == b"ack\x00" and 3 <= len(st.sent[1]) <= 4, st.sent
    assert all(1 <= len(x) <= 3 for x in st.sent[2:5]), st.sent
    assert sum(len(x) for x in st.sent) == 11, st.sent
    assert 4 <= len(batches) <= 5, batches      # one write transaction a slice
