# Where a synced sitting's times come from (host_tools/serial/clock.py): the scorer's own
# stamps when its clock was set and has kept time, else the PC's clock; a count from an
# earlier power-on is no time at all, and never a date. Over the radio (issue of a club
# night: a scorer restarted, no sync since), the PC's clock when the frames came.
from types import SimpleNamespace

import pytest

import syncrig as R
from boards.sim.flash import NorFlash
from engine_core.air import wire as W
from engine_core.header import encode_header
from engine_core.journal.reader import JournalReader
from engine_core.stamp import TAGS, power_on_tag, unset_offset
from engine_core.texas42 import options as O
from firmware.journal import Journal
from host_tools.events import event as EV
from host_tools.events import radio as RA
from host_tools.log import sittinglog as L
from host_tools.log.device import DEVICE_EPOCH, from_device
from host_tools.log.lines import LogError, dump_log
from host_tools.log.times import instant
from host_tools.serial.clock import DRIFT, ScorerClock
from host_tools.serial.sync import stream_parts
from host_tools.store import db as D

PC = 1796112755         # 2026-12-01 08:12:35 UTC: the PC's clock at the hello


def _clock(scorer=0, count=None):
    return ScorerClock(SimpleNamespace(heard_at=PC + 0.6, clock=scorer, count=count))


def test_the_tags_are_no_utc_offset_and_read_back():
    for tag in range(TAGS):
        off = unset_offset(tag)
        assert not -1440 < off < 1440 and power_on_tag(off) == tag
        assert power_on_tag(encode_q(off) * 15) == tag      # through the stamp's byte
    for off in range(-1425, 1440, 15):
        assert power_on_tag(off) == -1


def encode_q(minutes):
    q = (minutes // 15) & 0xFF
    return q - 256 if q > 127 else q


def test_a_count_of_this_power_on_is_placed_before_the_hello_by_what_it_ran_since():
    c = _clock(count=(5000, 7))
    when, how = c.place(1400, unset_offset(7))
    assert how == "pc" and instant(when) == PC - 3600
    # Another power-on's tag, or a count past the hello's (it ran longer before the
    # power-on than since): the time is lost, never shown as a date.
    assert c.place(1400, unset_offset(8)) == (None, "lost")
    assert c.place(5001, unset_offset(7)) == (None, "lost")
    # A hello without a count (an older scorer, or a clock set since): lost as well.
    assert _clock().place(1400, unset_offset(7)) == (None, "lost")
    assert _clock().place(0, 0) == (None, None)


def test_a_set_clock_within_the_drift_allowed_is_kept_as_stamped_one_beyond_it_is_moved():
    stamp = PC - DEVICE_EPOCH - 7200
    kept = _clock(scorer=PC - DRIFT)
    when, how = kept.place(stamp, -360)
    assert how == "scorer" and when.endswith("-06:00") and instant(when) == PC - 7200
    slow = _clock(scorer=PC - DRIFT - 600)          # 12 minutes slow at the hello
    when, how = slow.place(stamp, -360)
    assert how == "pc" and when.endswith("-06:00") and instant(when) == PC - 7200 + DRIFT + 600


def _stream(tmp_path, t0, off0, t1, off1, assign=None, names=R.NAMES):
    # One finished sitting's journal stream, its start and end stamped so.
    from array import array

    from engine_core import codec
    from engine_core.codes import MAX_EVENT_BYTES
    from engine_core.texas42.sitting import Sitting
    from randsit import RandomPlayer, play
    flash = NorFlash(R.BLOCKS, 4096, path=str(tmp_path / "flash.img"))
    j = Journal(flash)
    j.mount()
    rules = O.resolve("42")
    s = Sitting(rules)
    evs = array("l", [0] * 3000)
    ebuf = bytearray(MAX_EVENT_BYTES)
    n = play(s, RandomPlayer(3), evs, 3000)
    sid = j.begin_sitting(encode_header(rules, 0, names, 0x2A, t0, off0, assign))
    for i in range(n):
        j.append(ebuf[:codec.encode_into(evs[i], ebuf, 0)])
    j.end(t1, off1)
    j.finish()
    buf = bytearray(16384)
    got = JournalReader(j).read(sid, 0, buf)
    flash.close()
    return bytes(buf[:got])


def test_without_a_hello_a_count_is_no_time(tmp_path):
    # What `export --from-image` does: no hello to place it by, as a clock not set was.
    header, events, ended = stream_parts(_stream(tmp_path, 300, unset_offset(3), 900,
                                                 unset_offset(3)))
    lines = from_device(header, events, {"id": "x"}, ended)
    facts = L.replay(dump_log(lines).encode("utf-8"))
    x = facts.header.extra
    assert "started" not in x and "ended" not in x and "clock" not in x
    text = dump_log(lines)
    assert "2024-01-01" not in text and "2000-01-01" not in text


def test_the_clock_field_is_checked_on_import(tmp_path):
    good = ('{"type": "sitting", "variant": "42"}\n#tally42 {"clock": "pc"}\n')
    assert L.replay(good.encode()).header.extra["clock"] == "pc"
    with D.open_db(str(tmp_path / "x.db")) as d:
        with pytest.raises(LogError, match='clock must be "pc" or "lost"'):
            d.store(good.replace('"pc"', '"rc"'))
        assert d.ids() == []


def _frames(stream, key, address, sid=1):
    out = []
    for off in range(0, len(stream), W.MAX_RECORDS):
        b = bytearray(W.MAX_FRAME)
        chunk = stream[off:off + W.MAX_RECORDS]
        W.put_head(b, W.DATA, W.tag_of(key), sid, off, W.F_FINISHED)
        b[W.HEAD:W.HEAD + len(chunk)] = chunk
        out.append(bytes(b[:W.seal(key, address, b, W.HEAD + len(chunk))]))
    return out


def test_over_the_radio_a_count_takes_the_pcs_time_and_a_usb_sync_after_agrees(tmp_path):
    teams = [("Aces", ["Ann", "Cy"]), ("Bones", ["Bob", "Di"])]
    key, address = bytes(range(16)), b"\x02\x00\x00\x00\x00\xa1"
    with D.open_db(str(tmp_path / "club.db")) as db:
        ev = EV.create(db, "Club night", "round-robin", "42", teams=teams)
        t = ev.table(1, 1)
        stream = _stream(tmp_path, 300, unset_offset(3), 2100, unset_offset(3),
                         ("Club night", 1, 1), ev.seats(t.side_a, t.side_b))
        rx = RA.Receiver(db, "Club night", key)
        for f in _frames(stream, RA.scorer_key(key, RA.device_of(address)), address):
            rx.take(address, f)
        s = rx.sittings[(address, 1)]
        row = db.conn.execute("SELECT id, started, ended, log FROM sittings").fetchone()
        assert row["started"] == s.heard and row["ended"] == s.end_heard
        x = L.replay(row["log"].encode("utf-8")).header.extra
        assert x["started"] == s.heard and x["clock"] == "pc"
        # The next USB sync places the start by the hello: seconds off what the radio
        # heard, and still the same sitting (not a conflict).
        header, events, ended = stream_parts(stream)
        hello = _clock(count=(2500, 3))
        lines = from_device(header, events, {"id": row["id"]}, ended, hello.place)
        assert lines[0]["started"] != s.heard
        assert db.store_lines(lines).status == "already stored"


def test_a_restart_in_the_middle_of_a_sitting_loses_its_start_and_places_its_end(tmp_path):
    # Begun on power-on 3's count, ended on power-on 4's (the cell ran out mid-game).
    header, events, ended = stream_parts(_stream(tmp_path, 3000, unset_offset(3), 200,
                                                 unset_offset(4)))
    lines = from_device(header, events, {"id": "x"}, ended, _clock(count=(1000, 4)).place)
    x = L.replay(dump_log(lines).encode("utf-8")).header.extra
    assert "started" not in x and instant(x["ended"]) == PC - 800 and x["clock"] == "lost"
