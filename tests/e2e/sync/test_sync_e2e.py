# End to end: the sync endpoint in a MicroPython unix-port process, on a pseudo-terminal
# set raw with VMIN = VTIME = 0, serving a journal of real sittings; `tally42 sync` on the
# other end through pyserial. Between them a cable (tests/kit/syncrig.py) that counts bytes,
# can be pulled and plugged back, and can rewrite what the scorer says.
import json
import os
import threading

import pytest

import syncrig as R
from engine_core import wire
from host_tools import cli
from host_tools.log import sittinglog as L
from host_tools.store import db as D

# Run again on the 32-bit MicroPython build by `make test` (TALLY42_MICROPYTHON).
pytestmark = pytest.mark.mp32

FAST = ["--timeout", "0.3"]


@pytest.fixture
def rig(tmp_path):
    made = []

    class Rig:
        def __init__(self, sittings=5, *options, open_events=3):
            self.image = str(tmp_path / "flash.img")
            self.db = str(tmp_path / "tally42.db")
            self.record = str(tmp_path / "record.txt")
            self.played = R.build_image(self.image, sittings, open_events)
            self.cable = R.Cable()
            made.append(self)
            self.scorer = R.Scorer(self.image, self.cable, *options, record=self.record)

        def sync(self, *extra):
            return cli.main(["sync", "--port", self.cable.host_path, "--db", self.db]
                            + FAST + list(extra))

        def stored(self):
            if not os.path.exists(self.db):
                return {}
            with D.open_db(self.db) as d:
                return {sid: d.log(sid) for sid in d.ids()}

        def synced(self):
            return [s[0] for s in R.journal_sittings(self.image) if s[2]]

        def recorded(self):
            if not os.path.exists(self.record):
                return []
            with open(self.record) as f:
                return f.read().splitlines()

        def stop(self):
            err = self.scorer.stop()
            self.cable.close()
            return err

    yield Rig
    for r in made:
        err = r.stop()
        assert "Traceback" not in err, err


def _score(log_text):
    return L.report(L.replay(log_text.encode("utf-8")))["score"]


def test_sync_stores_every_finished_sitting_once_and_they_replay(rig, capsys):
    r = rig(5)
    assert r.sync() == 0
    out = capsys.readouterr().out
    assert "scorer T42-SIM001 (firmware 0.1.0-sim, sync protocol 1.2)" in out
    assert "5 new, 0 updated, 0 already stored" in out
    stored = r.stored()
    assert sorted(stored) == ["T42-SIM001-%d" % i for i in range(1, 6)]
    for sid, (score, events) in r.played.items():
        log = stored["T42-SIM001-%d" % sid]
        assert _score(log) == score
        assert len(log.splitlines()) == 1 + events
    # Only the finished sittings are marked synced; the one in play is not.
    assert r.synced() == [1, 2, 3, 4, 5]
    assert [s[0] for s in R.journal_sittings(r.image) if not s[1]] == [6]
    # The PC's clock reached the scorer.
    clock = [line for line in r.recorded() if line.startswith("clock ")]
    assert len(clock) == 1 and abs(int(clock[0].split()[1]) - int(__import__("time").time())) < 60
    # Again: nothing new, nothing stored twice, and almost nothing on the wire.
    before = r.cable.to_host
    assert r.sync() == 0
    assert "nothing new on the scorer" in capsys.readouterr().out
    assert r.stored() == stored and r.cable.to_host - before < 200


def test_synced_sittings_export_to_logs_that_replay_to_the_scores_played(rig, tmp_path, capsys):
    r = rig(3)
    assert r.sync() == 0
    capsys.readouterr()
    for sid, (score, _) in r.played.items():
        out = str(tmp_path / ("s%d.jsonl" % sid))
        assert cli.main(["export", "--db", r.db, "--sitting", "T42-SIM001-%d" % sid,
                         "--format", "jsonl", "--out", out]) == 0
        capsys.readouterr()
        assert cli.main(["replay", out, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["score"] == score


def test_names_settings_and_clock_reach_the_scorer_and_a_refusal_is_named(rig, capsys):
    r = rig(1)
    assert r.sync("--players", "Ann,Bo Jo,Zoë,D%*~", "--teams", "Us,Them",
                  "--set", "target=7", "--set", "nello_doubles=low,suit", "--no-clock") == 0
    assert r.recorded() == ["names p Ann|Bo Jo|Zoë|D%*~", "names t Us|Them",
                            "settings target=7 nello_doubles=low,suit"]
    out = capsys.readouterr().out
    assert "players set on the scorer: Ann, Bo Jo, Zoë, D%*~\n" in out
    assert "teams set on the scorer: Us, Them\n" in out
    # Names and settings the scorer could not take are refused on the PC, before any
    # word goes to the scorer.
    for args, why in ((("--players", "a,b,c,d,e,f,g"), "--players: 4 names"),
                      (("--players", "Ann,B\x1b[2J,C,D"), "has a control character"),
                      (("--players", "Ann,Bartholomew Jr,C,D"), "longer than the 12"),
                      (("--set", "bogus=1"), "--set bogus: unknown option"),
                      (("--set", "scoring=banana"), "option scoring must be one of"),
                      (("--set", "variant=moon", "--set", "nello=true"),
                       "option nello does not apply to moon"),
                      (("--set", "tracker=maybe"), "on or off")):
        assert r.sync(*args) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("tally42: ") and why in err, err
        assert "\x1b" not in err
    assert len(r.recorded()) == 3
    # What the scorer refuses is said at the end; the sync goes on all the same.
    assert r.sync("--players", "Ann,Nobody,Cy,Di", "--no-clock") == 2
    out, err = capsys.readouterr()
    assert err == "tally42: the scorer refused the names: nobody is called Nobody\n"
    assert "players set on the scorer" not in out and "scorer journal free" in out


def test_devices_names_the_scorer_on_a_port(rig, capsys):
    r = rig(2)
    assert cli.main(["devices", "--port", r.cable.host_path]) == 0
    out = capsys.readouterr().out
    assert out.startswith(r.cable.host_path + "  T42-SIM001  firmware 0.1.0-sim  protocol 1.2")
    assert "2 sittings to sync" in out
    assert r.synced() == []


def test_a_cable_pulled_mid_transfer_resumes_from_where_it_stopped(rig, capsys):
    r = rig(40)
    payload = sum(s[3] for s in R.journal_sittings(r.image) if s[1])
    r.cable.cut_at(4000)
    # Plugged back 1.5 s later, while the host is still asking.
    threading.Timer(1.5, r.cable.mend).start()
    assert r.sync("--wait", "10") == 0
    captured = capsys.readouterr()
    assert "the scorer does not answer" in captured.err and "answers again" in captured.err
    assert r.cable.dropped > 0
    stored = r.stored()
    assert len(stored) == 40 and r.synced() == list(range(1, 41))
    for sid, (score, _) in r.played.items():
        assert _score(stored["T42-SIM001-%d" % sid]) == score
    # It went on from its offset: the fetch after the cut starts mid-sitting, and starting
    # over would have carried the first 4000 bytes twice. (What the scorer sent into the
    # pulled cable is in `dropped`.)
    fetches = [line[8:line.index(b"*")] for line in r.cable.host_said.split(b"\n")
               if line[7:8] == b"F"]
    first = fetches[-1].split()[1]
    assert len(fetches) >= 2 and b":" in first and int(first.split(b":")[1]) > 0, fetches
    assert r.cable.to_host < payload + 2000


def test_a_cable_pulled_for_good_loses_nothing_and_the_next_sync_finishes(rig, capsys):
    r = rig(60)
    r.cable.cut_at(10500)
    assert r.sync("--wait", "1.5") == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert err[0] == "tally42: the scorer does not answer: waiting up to 1.5 s (plug the cable back in)"
    assert err[-1].startswith("tally42: the scorer on %s stopped answering" % r.cable.host_path)
    stored = r.stored()
    synced = r.synced()
    # Whole sittings only, and every one the scorer counts as synced is on the PC.
    assert 0 < len(stored) < 60 and synced
    assert set("T42-SIM001-%d" % s for s in synced) <= set(stored)
    # What it stored before the cable went is reported.
    assert captured.out.count("stored sitting T42-SIM001-") == len(stored)
    assert "(stored so far: the next sync goes on from there)" in captured.out
    for sid in stored:
        assert _score(stored[sid]) == r.played[int(sid.rsplit("-", 1)[1])][0]
    r.cable.mend()
    assert r.sync() == 0
    assert len(r.stored()) == 60 and r.synced() == list(range(1, 61))


def _rewrite_reply(kinds_wanted, fn):
    def rewrite(kind, seq, payload):
        return fn(bytearray(payload)) if kind in kinds_wanted else payload
    return rewrite


def _set(buf, i, v):
    buf[i] = v
    return bytes(buf)


@pytest.mark.parametrize("kind, change, message", [
    ("h", lambda p: _set(p, 0, 9), "speaks sync protocol 9, this tally42 speaks 1: "
                                   "update tally42"),
    ("h", lambda p: bytes(p[:10]), "the scorer's hello is too short (10 bytes)"),
    ("h", lambda p: _set(p, 22, 200), "the scorer's hello is malformed (its id and version)"),
    ("L", lambda p: bytes(p[:-1]), "the scorer's list is malformed"),
    ("L", lambda p: bytes(p[7:14] + p[:7] + p[14:]), "the scorer's list is out of order"),
    ("D", lambda p: bytes(p) + b"\x05\x05", "the scorer sent more bytes than sittings"),
    # The first data frame, a `d` or (when the fetch fits one frame) the `D`.
    ("dD", lambda p: _set(p, 3, p[3] + 1), "the scorer keeps sending sitting 1 from byte 1 "
                                          "where byte 0 of sitting 1 is due"),
])
def test_malformed_replies_give_clear_errors_and_store_nothing(rig, capsys, kind, change,
                                                                message):
    r = rig(3)
    r.cable.rewrite = _rewrite_reply(kind, change)
    assert r.sync("--wait", "1") == 2
    err = capsys.readouterr().err
    assert err.startswith("tally42: ") and message in err, err
    assert r.stored() == {} and r.synced() == []


def _damage(r, sid, off, value):
    # Rewrite the byte at (sitting, offset) of the stream as it passes in a data frame.
    lengths = {s[0]: s[3] for s in R.journal_sittings(r.image)}

    def rewrite(kind, seq, payload):
        if kind not in "dD":
            return payload
        p = bytearray(payload)
        at, pos = wire.get_u24(p, 0), wire.get_u24(p, 3)
        i = 6
        while i < len(p):
            if pos >= lengths[at]:
                at, pos = at + 1, 0
                continue
            if (at, pos) == (sid, off):
                p[i] = value
            i += 1
            pos += 1
        return bytes(p)
    return rewrite


def test_a_damaged_sitting_is_not_stored_nor_acknowledged_and_is_named(rig, capsys):
    r = rig(5)
    # Sitting 3's first event (a bid) made a result: the engine refuses it.
    hlen = R.stream_bytes(r.image, 3)[0]
    r.cable.rewrite = _damage(r, 3, 1 + hlen + 1, 0xC1)
    assert r.sync() == 2
    err = capsys.readouterr().err
    assert err.startswith("tally42: sitting 3 from the scorer does not replay (line 2: ")
    assert err.rstrip().endswith("not stored, the scorer keeps it")
    # The others are stored and acknowledged: one bad sitting stops no sync.
    assert sorted(r.stored()) == ["T42-SIM001-%d" % i for i in (1, 2, 4, 5)]
    assert r.synced() == [1, 2, 4, 5]
    # A length byte that is not one: the stream itself is damaged.
    r.cable.rewrite = _damage(r, 3, 1 + hlen, 9)
    assert r.sync() == 2
    assert "sitting 3 from the scorer is damaged (byte %d is not an event's length)" % (
        1 + hlen) in capsys.readouterr().err
    assert r.synced() == [1, 2, 4, 5]
    r.cable.rewrite = None
    assert r.sync() == 0
    assert len(r.stored()) == 5 and r.synced() == [1, 2, 3, 4, 5]


def test_garbage_truncated_and_replayed_requests_leave_the_scorer_scoring(rig, capsys):
    # A first scorer is synced, and everything the host said to it is kept...
    first = rig(4)
    assert first.sync() == 0
    said = bytes(first.cable.host_said)
    assert said.count(b"~") >= 6        # hello, clock, list, fetch, acknowledge, bye
    first.stop()
    # ...and said again to a second scorer holding the same sittings, unsynced, between
    # garbage and truncated requests, while it goes on scoring.
    os.remove(first.image)
    r = rig(4, "--play", "10")
    before = {sid: R.stream_bytes(r.image, sid) for sid in range(1, 5)}
    open_before = R.journal_sittings(r.image)[-1][3]
    junk = bytes((i * 73 + 11) % 256 for i in range(4000)).replace(b"\x03", b"\x04")
    junk = junk.replace(b"\x0d", b"~").replace(b"\x0e", b"\n")
    line = wire.request(0x1234, 9, "A", b"1-4")
    r.cable.send_to_device(junk + said + line[:12] + junk[:500] + said[40:] + line)
    assert R.wait_for(lambda: R.journal_sittings(r.image)[-1][3] > open_before + 40)
    assert r.scorer.alive()
    assert r.synced() == []
    assert {sid: R.stream_bytes(r.image, sid) for sid in range(1, 5)} == before
    # It still syncs: the sittings are on the PC already, and now the scorer knows.
    capsys.readouterr()
    assert r.sync() == 0
    assert "already on the PC: T42-SIM001-1, T42-SIM001-2, T42-SIM001-3, T42-SIM001-4" in (
        capsys.readouterr().out)
    assert len(r.stored()) == 4 and r.synced() == [1, 2, 3, 4]


def test_the_scorer_read_like_an_esp32_stdin_syncs_too(rig, capsys):
    r = rig(6, "--stream")
    assert r.sync() == 0
    assert len(r.stored()) == 6 and r.synced() == [1, 2, 3, 4, 5, 6]


def test_a_conflicting_sitting_is_named_and_the_others_are_stored(rig, capsys, tmp_path):
    # Sitting 3 of this scorer (an older firmware's id, by journal number) is stored
    # already with another game: a true conflict. The sync stores the rest, names it,
    # and once the stored one is renamed the next sync stores it too.
    r = rig(5)
    other = tmp_path / "other.jsonl"
    other.write_text('{"type": "sitting", "variant": "moon", "id": "T42-SIM001-3"}\n')
    assert cli.main(["import", str(other), "--db", r.db]) == 0
    capsys.readouterr()
    assert r.sync() == 2
    out, err = capsys.readouterr()
    assert err == ("tally42: sitting T42-SIM001-3 is already stored with another header: "
                   "not stored, the scorer keeps it (`tally42 rename T42-SIM001-3 NEW_ID` "
                   "the stored one, then sync again)\n")
    assert "4 new, 0 updated, 0 already stored, 1 not stored" in out
    assert sorted(r.stored()) == ["T42-SIM001-%d" % i for i in range(1, 6)]
    assert r.synced() == [1, 2, 4, 5]
    assert cli.main(["rename", "T42-SIM001-3", "moon-3", "--db", r.db]) == 0
    assert r.sync() == 0
    assert "stored sitting T42-SIM001-3 " in capsys.readouterr().out
    assert r.synced() == [1, 2, 3, 4, 5]
    assert json.loads(r.stored()["moon-3"].splitlines()[0])["variant"] == "moon"
