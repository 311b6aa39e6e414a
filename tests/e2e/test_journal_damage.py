"""The journal under damage (issue: one flipped bit lost whole blocks of sittings and
then crashed every sync): a 200-sitting image with single-bit flips at random places,
bytes set to 0x00 or 0xFF and torn blocks (tests/kit/journaldamage.py); `export --all
--from-image` and a sync from the scorer on a damaged image."""
import json
import os

import pytest

import journaldamage as JD
import syncrig as R
from host_tools import cli
from host_tools.serial import client as Y
from host_tools.serial import sync as S
from host_tools.serial.transport import SerialLink
from host_tools.log.device import from_device
from host_tools.log.lines import Meta, dump_log
from host_tools.log import image as I
from host_tools.store import db as D


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("dmg") / "flash.img")
    return path, JD.build(path)


def test_the_image_is_the_issue_s(image):
    path, data = image
    whole, damaged = I.scan(data)
    assert len(whole) == 200 and damaged == []
    assert len(JD.used(data)) >= 12     # the sittings fill most blocks of the partition


def test_a_sweep_of_damage_loses_one_sitting_a_flip_at_most_and_names_every_loss(image):
    verdicts = JD.sweep(image[1], 48, seed=5)
    assert [v for v in verdicts if v.crashed] == []
    assert [v for v in verdicts if v.unreported] == []
    flips = [v for v in verdicts if "erased" not in v.damage.what]
    assert max(v.lost for v in flips) <= 1, [v for v in flips if v.lost > 1]
    assert any(v.lost == 1 for v in flips)      # the sweep did hit sittings' records
    torn = [v for v in verdicts if "erased" in v.damage.what]
    assert torn and all(v.lost == len(v.named) for v in torn)


def test_the_judge_catches_a_changed_sitting():
    # The judge is not blind: a sitting exported changed counts as unreported.
    data = bytearray(JD.build("/tmp/jd-blind-%d.img" % os.getpid(), 20, blocks=2))
    os.remove("/tmp/jd-blind-%d.img" % os.getpid())
    baseline, _ = I.scan(bytes(data))
    cut = JD.torn_block(bytes(data), JD.used(bytes(data))[0][1] - 300)
    v = JD.judge(baseline, cut)
    assert v.lost and not v.unreported
    v = JD.judge(baseline[:-1] + [baseline[-1][:2] + (b"",) + baseline[-1][3:]], JD.Damage(
        "nothing", 0, bytes(data)))
    assert v.unreported == [baseline[-1][0]]     # a changed sitting is caught


def test_the_issue_s_flip_of_byte_5001_is_named_and_the_rest_exported(image, tmp_path,
                                                                       capsys):
    path, data = image
    d = bytearray(data)
    d[5001] ^= 0x04
    bad = tmp_path / "bad.img"
    bad.write_bytes(bytes(d))
    capsys.readouterr()
    code = cli.main(["export", "--all", "--from-image", str(bad), "--out",
                     str(tmp_path / "out") + "/"])
    out, err = capsys.readouterr()
    whole, damaged = I.scan(bytes(d))
    assert len(whole) + len(damaged) == 200 and len(damaged) <= 1
    assert len(os.listdir(tmp_path / "out")) == len(whole)
    if damaged:
        assert code == 2 and ("sitting %d damaged" % damaged[0]) in err
    else:
        assert code == 0        # the check value repaired a damaged tag


def test_a_damaged_sitting_s_hands_before_the_damage_reach_the_pc_marked_damaged(
        tmp_path, capsys):
    img = str(tmp_path / "flash.img")
    good = JD.build(img, 30)
    data = bytearray(good)
    # A flipped bit in a later record of sitting 10 (its last event): that record
    # fails its check; the hands that ended before it are whole on the scorer.
    recs = JD.records(good, 10)
    events = [r for r in recs[1:] if len(r[2]) != JD.END_ITEM]
    start, end, _ = events[-1]
    data[end - 2] ^= 0x01
    want = JD.good_hands(good, JD.Damage("bit 0 flipped", end - 2, bytes(data)), 10)
    assert 1 <= want < JD.hands_of(recs[0][2], [r[2] for r in recs[1:]])
    with open(img, "wb") as f:
        f.write(data)
    cable = R.Cable()
    scorer = R.Scorer(img, cable)
    db = str(tmp_path / "t.db")
    try:
        # A PC that cannot store it (its disk full, say): the scorer keeps sitting 10.
        with SerialLink(cable.host_path) as link:
            c = Y.Client(link, timeout=0.5, wait=5)
            c.hello()
            listed = {e.sid: e for e in c.list(unsynced=True)}
            assert listed[10].damaged and listed[10].length

            def store(lines, device_id):
                if any(isinstance(x, Meta) and x.get("damaged") for x in lines):
                    raise Y.SyncError("disk full")
                with D.open_db(db) as d:
                    st = d.store_lines(lines, source="sync", device=device_id)
                return st.status, st.id, ""
            with pytest.raises(Y.SyncError):
                S.sync(c, store)
            assert 10 in [e.sid for e in c.list(unsynced=True)]
            c.bye()
        capsys.readouterr()
        code = cli.main(["sync", "--port", cable.host_path, "--db", db, "--timeout", "0.3"])
        out, err = capsys.readouterr()
        assert code == 2 and "sitting 10 damaged" in err, (out, err)
        assert "%d hands before the damage stored" % want in err, err
        with D.open_db(db) as d:
            rows = {r["id"]: r for r in d.sittings()}
            ids = list(rows)
            assert len(rows) == 30
            bad = [r for r in rows.values() if r["damaged"]]
            assert len(bad) == 1 and bad[0]["hands"] == want and not bad[0]["accepted"]
            assert all(not r["damaged"] for r in rows.values() if r is not bad[0])
            # Its events are sitting 10's from the start, up to the damaged record.
            lines = [x for x in json_lines(d.log(bad[0]["id"])) if x.get("type") != "sitting"]
        whole = [x for x in json_lines(_whole_log(good, 10)) if x.get("type") != "sitting"]
        assert lines == whole[:len(lines)] and len(lines) < len(whole)
        # Stored, it is acknowledged: the scorer no longer lists it, the next sync is clean.
        code = cli.main(["sync", "--port", cable.host_path, "--db", db, "--timeout", "0.3"])
        out, err = capsys.readouterr()
        assert code == 0 and "nothing new on the scorer" in out, (out, err)
    finally:
        assert "Traceback" not in scorer.stop()
        cable.close()
    # Exported, it says so: the scoresheet's header and the CSV's damaged column.
    assert cli.main(["export", "--sitting", bad[0]["id"], "--format", "text", "--db", db]) == 0
    assert "DAMAGED" in capsys.readouterr()[0]
    assert cli.main(["export", "--sitting", bad[0]["id"], "--format", "csv", "--db", db]) == 0
    rows = capsys.readouterr()[0].splitlines()
    assert rows[0].endswith(",damaged") and all(r.endswith(",yes") for r in rows[1:])
    # Stats leave it out until the organiser accepts it.
    assert _stats_count(db) == 29
    assert cli.main(["accept", bad[0]["id"], "--db", db]) == 0
    assert "accepted" in capsys.readouterr()[0]
    assert _stats_count(db) == 30
    other = next(i for i in ids if i != bad[0]["id"])
    assert cli.main(["accept", other, "--db", db]) == 2     # not damaged
    assert "not damaged" in capsys.readouterr()[1]


def json_lines(text):
    return [json.loads(x) for x in text.splitlines() if x and not x.startswith("#")]


def _whole_log(data, sid):
    for n, header, events, _, _, ended in I.scan(data)[0]:
        if n == sid:
            return dump_log(from_device(header, events, None, ended))
    raise AssertionError("no sitting %d" % sid)


def _stats_count(db):
    from host_tools.store import stats
    with D.open_db(db) as d:
        players = stats.collect(d)[0]
    return max(p.sittings for p in players.values())


def _event_of(data, sid):
    # The byte of an event of sitting sid (an event's payload, after its BEGIN).
    for start, end in JD.used(bytes(data)):
        pos = start + JD.HDR2
        while pos < end - 8:
            if (data[pos] == 0xC3 and data[pos + 2] | data[pos + 3] << 8 == sid
                    and data[pos + 4] == 0):
                return pos + 6 + data[pos + 5] + 1 + 1 + 1    # BEGIN, check, tag: the event
            pos += 1
    raise AssertionError("no sitting %d" % sid)


def test_an_exported_damaged_sitting_imports_damaged_and_a_bad_mark_is_refused(tmp_path,
                                                                               capsys):
    head = ('{"type": "sitting", "variant": "42", "id": "part-1", "players": ["Ann", "Bob", '
            '"Cy", "Di"], "dealer": 0}\n')
    events = '{"type": "bid", "bid": 30}\n' + '{"type": "bid", "bid": "pass"}\n' * 3
    events += '{"type": "trump", "trump": 5}\n{"type": "result", "made": true}\n'
    db = str(tmp_path / "t.db")
    log = tmp_path / "p.jsonl"
    log.write_text(head + '#tally42 {"damaged": false}\n' + events)
    assert cli.main(["import", str(log), "--db", db]) == 2
    assert "damaged must be true" in capsys.readouterr()[1]
    log.write_text(head + '#tally42 {"damaged": true}\n' + events)
    assert cli.main(["import", str(log), "--db", db]) == 0
    with D.open_db(db) as d:
        row = d.sittings()[0]
        assert row["damaged"] == 1 and row["accepted"] == 0 and row["hands"] == 1
    capsys.readouterr()
    assert cli.main(["export", "--sitting", "part-1", "--db", db]) == 0
    assert '#tally42 {"damaged": true}' in capsys.readouterr()[0]
    # Not accepted, it is no table's result (refused before the event is looked at).
    from host_tools.events import slots as SL
    with D.open_db(db) as d:
        with pytest.raises(Exception, match="is damaged"):
            SL._slot(d, "part-1", None, 1, 1)


class _OlderScorer:
    # A scorer from before partial sittings: it answers a fetch naming a damaged sitting
    # with error 8 (its firmware/sync/journal.py refused those), and takes acknowledges.
    def __init__(self, good):
        self.info = type("Info", (), {"unsynced": 2, "device_id": "T42-OLD", "free": 0})()
        self.entries = [Y.Entry(1, 1, len(good)), Y.Entry(2, 1 | 4, 40)]
        self.good = good
        self.acked = []

    def list(self, unsynced=True):
        return [e for e in self.entries if e.sid not in self.acked]

    def fetch(self, entries, data, progress=None):
        if any(e.damaged for e in entries):
            raise Y.DeviceError(Y.E_JOURNAL, entries[0].sid, "sitting damaged")
        data[0].extend(self.good)

    def ack(self, sids):
        self.acked += sids
        return 1000


def test_an_older_scorer_that_will_not_send_a_damaged_sitting_still_syncs_the_rest(tmp_path):
    data = JD.build(str(tmp_path / "f.img"), 1, blocks=2)
    whole = I.scan(data)[0][0]
    stream = bytes([len(whole[1])]) + whole[1] + b"".join(
        bytes([len(it)]) + it for it in _items(whole[2]))
    scorer = _OlderScorer(stream)
    stored = []
    report = S.sync(scorer, lambda lines, dev: stored.append(lines) or ("stored", "x", ""))
    assert len(stored) == 1 and report.damaged == [2] and scorer.acked == [1, 2]


def _items(events):
    from engine_core import codec
    pos = 0
    while pos < len(events):
        n = codec.length_at(events, pos)
        yield events[pos:pos + n]
        pos += n
