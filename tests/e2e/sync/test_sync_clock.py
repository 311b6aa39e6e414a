# A sitting's times when the scorer's clock is not to be trusted: a board without a clock
# chip keeps time in the ESP32's RTC, which reads 2000-01-01 at power-on and drifts
# several % in deep sleep. The scorer (tests/kit/sync_device.py with --rtc: the firmware's
# Clock on boards.device.RtcClock over the fake machine.RTC) stamps its sittings; the
# PC's sync places them on its own clock by what the hello says (host_tools/serial/clock.py).
import time
from array import array

import pytest

import syncrig as R
from engine_core import codec
from engine_core.codes import MAX_EVENT_BYTES
from engine_core.texas42.sitting import Sitting
from randsit import RandomPlayer, play
from engine_core.header import encode_header
from engine_core.stamp import unset_offset
from engine_core.texas42 import options as O
from firmware.journal import Journal
from boards.sim.flash import NorFlash
from host_tools import cli
from host_tools.log import sittinglog as L
from host_tools.log.times import instant
from host_tools.store import db as D

pytestmark = pytest.mark.mp32

EPOCH = 1704067200      # the scorer's set clock counts from 2024-01-01T00:00Z
NOW_TAG = 5             # the tag of the scorer's current power-on
OLD_TAG = 17            # an earlier power-on's


def _image(path, stamps):
    # A journal of one sitting of random legal play a stamp: (start seconds, start
    # offset minutes, end seconds, end offset minutes), as the firmware's Clock stamps
    # them; then an open one.
    flash = NorFlash(R.BLOCKS, 4096, path=path)
    j = Journal(flash)
    j.mount()
    rules = O.resolve("42")
    s = Sitting(rules)
    evs = array("l", [0] * 3000)
    ebuf = bytearray(MAX_EVENT_BYTES)
    for k, (t0, off0, t1, off1) in enumerate(stamps):
        s.restart(0)
        n = play(s, RandomPlayer(k + 1), evs, 40)
        j.begin_sitting(encode_header(rules, 0, R.NAMES, 0x100 + k, t0, off0))
        for i in range(n):
            j.append(ebuf[:codec.encode_into(evs[i], ebuf, 0)])
        j.end(t1, off1)
    j.begin_sitting(encode_header(rules, 0, R.NAMES, 0x1FF, 0, 0))
    flash.close()


def _sync(tmp_path, capsys, stamps, rtc):
    image = str(tmp_path / "flash.img")
    _image(image, stamps)
    cable = R.Cable()
    scorer = R.Scorer(image, cable, "--rtc", rtc)
    db = str(tmp_path / "tally42.db")
    try:
        before = int(time.time())
        code = cli.main(["sync", "--port", cable.host_path, "--db", db, "--timeout", "0.3"])
        after = int(time.time())
    finally:
        err = scorer.stop()
        cable.close()
    assert "Traceback" not in err, err
    said = capsys.readouterr()
    assert code == 0, said
    out = {}
    with D.open_db(db) as d:
        for sid in d.ids():
            # Every one replays; its header's times, and the #tally42 line's.
            out[sid] = L.replay(d.log(sid).encode("utf-8")).header.extra
    return said.out, out, before, after


def _at(text):
    return instant(text)


def test_a_scorer_whose_clock_counts_from_power_on_gets_the_pcs_times(tmp_path, capsys):
    # Power-on 3000 s before the sync, no clock set since: the RTC reads 2000-01-01 00:50.
    stamps = [(100, unset_offset(NOW_TAG), 1300, unset_offset(NOW_TAG)),
              (1400, unset_offset(NOW_TAG), 2900, unset_offset(NOW_TAG))]
    said, stored, before, after = _sync(tmp_path, capsys, stamps, "3000:%d" % NOW_TAG)
    assert ("times from this PC's clock: T42-SIM001-00000100, T42-SIM001-00000101 (the "
            "scorer's clock was not set, or had drifted)") in said
    heads = [stored["T42-SIM001-%08X" % (0x100 + k)] for k in range(2)]
    for head, (t0, _, t1, _) in zip(heads, stamps):
        # The PC's time of the hello, less the seconds the count ran on since the stamp.
        assert before - (3000 - t0) - 2 <= _at(head["started"]) <= after - (3000 - t0) + 2
        assert _at(head["ended"]) - _at(head["started"]) == t1 - t0
        assert head["clock"] == "pc"
        assert not head["started"].startswith(("2000", "2024"))


def test_a_restart_between_sittings_loses_only_the_earlier_power_ons_times(tmp_path, capsys):
    # Sitting 1 was stamped on an earlier power-on's count (the board was switched off
    # since, and its count began again); sitting 2 and the hello are on this one's.
    stamps = [(2500, unset_offset(OLD_TAG), 2800, unset_offset(OLD_TAG)),
              (200, unset_offset(NOW_TAG), 900, unset_offset(NOW_TAG))]
    said, stored, before, after = _sync(tmp_path, capsys, stamps, "1000:%d" % NOW_TAG)
    assert "times from this PC's clock: T42-SIM001-00000101 (" in said
    assert ("times not known: T42-SIM001-00000100 (stamped before the scorer was last "
            "switched off or lost power; stored without them)") in said
    old, new = stored["T42-SIM001-00000100"], stored["T42-SIM001-00000101"]
    assert "started" not in old and "ended" not in old and old["clock"] == "lost"
    assert before - 800 - 2 <= _at(new["started"]) <= after - 800 + 2
    assert new["clock"] == "pc"
    # The sittings list shows no date for it, and no 2000 or 2024 one.
    assert cli.main(["sittings", "--db", str(tmp_path / "tally42.db")]) == 0
    out = capsys.readouterr().out
    assert "2000-" not in out and "2024-" not in out


def test_a_scorer_with_a_set_clock_keeps_its_times(tmp_path, capsys):
    now = int(time.time())
    stamps = [(now - EPOCH - 3600, 60, now - EPOCH - 1800, 60)]
    said, stored, _, _ = _sync(tmp_path, capsys, stamps, "set:%d:60" % now)
    assert "times from" not in said and "times not known" not in said
    head = stored["T42-SIM001-00000100"]
    assert _at(head["started"]) == now - 3600 and head["started"].endswith("+01:00")
    assert _at(head["ended"]) == now - 1800
    assert "clock" not in head


def test_a_set_clock_that_drifted_is_moved_by_the_hellos_offset(tmp_path, capsys):
    # Set at the last sync, then days in deep sleep on the RC oscillator: 40 minutes slow.
    now = int(time.time())
    slow = now - 2400
    stamps = [(slow - EPOCH - 3600, -360, slow - EPOCH - 600, -360)]
    said, stored, before, after = _sync(tmp_path, capsys, stamps, "set:%d:-360" % slow)
    assert "times from this PC's clock: T42-SIM001-00000100 (" in said
    head = stored["T42-SIM001-00000100"]
    assert before - 3600 - 2 <= _at(head["started"]) <= after - 3600 + 2
    assert _at(head["ended"]) - _at(head["started"]) == 3000
    assert head["started"].endswith("-06:00") and head["clock"] == "pc"


@pytest.mark.parametrize("rtc, said", [
    ("3000:5", "clock not set (on for 50 min: times from the PC's clock at the sync)"),
    (-7200, "clock 2 h slow (times moved by the PC's clock at the sync)"),
    (0, "clock right")])
def test_devices_says_how_the_scorers_clock_stands(tmp_path, capsys, rtc, said):
    if isinstance(rtc, int):        # a set clock so many seconds off the PC's, now
        rtc = "set:%d:0" % (int(time.time()) + rtc)
    image = str(tmp_path / "flash.img")
    _image(image, [])
    cable = R.Cable()
    scorer = R.Scorer(image, cable, "--rtc", rtc)
    try:
        assert cli.main(["devices", "--port", cable.host_path]) == 0
    finally:
        scorer.stop()
        cable.close()
    assert capsys.readouterr().out.rstrip("\n").endswith("  " + said)
