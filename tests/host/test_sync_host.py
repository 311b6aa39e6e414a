# The host side of sync without a scorer: which ports are taken for one, how a fetch is
# asked for, how a sitting's stream splits into header and events, and the errors of a
# port where nothing answers.
import time
from types import SimpleNamespace

import pytest

from engine_core import wire
from host_tools import cli
from host_tools.serial import client as YC
from host_tools.serial import sync as Y
from host_tools.serial import transport as T
from host_tools.log import device as DV


def _port(device, vid, pid, description="USB serial"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, description=description)


def test_candidate_ports_are_the_esp32_usb_bridges(monkeypatch):
    ports = [_port("/dev/ttyUSB1", 0x1A86, 0x7523), _port("/dev/ttyS0", None, None),
             _port("/dev/ttyUSB0", 0x10C4, 0xEA60), _port("/dev/ttyACM0", 0x303A, 0x1001),
             _port("/dev/ttyACM1", 0x2341, 0x0043, "Arduino Uno"),
             _port("/dev/ttyUSB2", 0x1A86, 0x55D4), _port("/dev/ttyUSB3", 0x0403, 0x6001),
             _port("/dev/ttyUSB4", 0x0403, 0x6015)]
    monkeypatch.setattr(T.list_ports, "comports", lambda: ports)
    assert [d for d, _ in T.candidate_ports()] == [
        "/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyUSB1", "/dev/ttyUSB2", "/dev/ttyUSB3"]


def test_sync_auto_without_a_scorer_says_what_to_do(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(T.list_ports, "comports", lambda: [])
    assert cli.main(["sync", "--db", str(tmp_path / "x.db")]) == 2
    assert capsys.readouterr().err == ("tally42: no scorer found: no ESP32 USB serial port is "
                                       "connected (plug the scorer in, or give --port)\n")
    assert not (tmp_path / "x.db").exists()


def test_a_port_where_nothing_answers(tmp_path, capsys):
    # loop:// hands the requests back: no reply frame ever comes.
    assert cli.main(["devices", "--port", "loop://", "--timeout", "0.2"]) == 2     # the port asked for has no scorer
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(
        "tally42: loop://: no scorer (no scorer answered on loop:// (asleep? "
        "press a button on the scorer to wake it")
    # The first answer is given 3 s at most, whatever --wait allows later.
    t = time.monotonic()
    assert cli.main(["sync", "--port", "loop://", "--db", str(tmp_path / "x.db"),
                     "--timeout", "0.2"]) == 2
    assert time.monotonic() - t < 5
    assert capsys.readouterr().err == (
        "tally42: no scorer answered on loop:// (asleep? press a button on the scorer to wake "
        "it, then sync again; at the REPL, start the firmware)\n")
    assert cli.main(["sync", "--port", str(tmp_path / "no-such-tty"), "--db",
                     str(tmp_path / "x.db")]) == 2
    assert capsys.readouterr().err.startswith("tally42: cannot open %s" % (tmp_path / "no-such-tty"))


def test_stream_parts_takes_the_last_end_record():
    # An END item (5 bytes: u32 seconds since 2024, the UTC offset in quarter hours) is no
    # event; the last one is when the sitting ended.
    first = bytes([0x10, 0x27, 0, 0, 0xE8])                 # 10000 s, -360 min
    last = bytes([0x20, 0x4E, 0, 0, 0x04])                  # 20000 s, +60 min
    data = b"\x02AB\x01\x10\x05" + first + b"\x01\xfe\x05" + last
    assert Y.stream_parts(data) == (b"AB", b"\x10\xfe", (20000, 60))
    assert Y.stream_parts(b"\x02AB\x01\x10") == (b"AB", b"\x10", None)
    assert Y.split_stream(data) == (b"AB", b"\x10\xfe")
    assert DV.end_item(first) == (10000, -360)


def test_split_stream():
    assert Y.split_stream(b"\x02AB\x01\x10\x02\xc2\x1c") == (b"AB", b"\x10\xc2\x1c")
    assert Y.split_stream(b"\x00") == (b"", b"")
    for bad, why in ((b"", "no bytes"), (b"\x05AB", "the header runs past the end"),
                     (b"\x01A\x00", "byte 2 is not an event's length"),
                     (b"\x01A\x06abcdef", "byte 2 is not an event's length"),
                         (b"\x01A\x05abcd", "byte 2 is not an event's length"),
                     (b"\x01A\x02\x10", "byte 2 is not an event's length")):
        with pytest.raises(ValueError, match=why):
            Y.split_stream(bad)


class _Info:
    max_request = wire.MAX_REQUEST


def _client(window=YC.WINDOW):
    c = YC.Client(SimpleNamespace(url="test"), window=window)
    c.info = _Info()
    return c


def test_fetch_asks_from_the_offset_for_a_window_in_few_items():
    es = [YC.Entry(sid, 1, 100) for sid in (3, 4, 5, 7, 8, 20)]
    data = [bytearray(b"x" * 40)] + [bytearray() for _ in es[1:]]
    args, count, last = _client()._fetch_args(es, data, 0)
    assert args == b"560 3:40 4-5 7-8 20" and count == 560 and last == 5
    args, count, last = _client(window=250)._fetch_args(es, data, 0)
    assert args == b"250 3:40 4-5" and count == 250 and last == 2
    args, count, last = _client()._fetch_args(es, [bytearray()] * 6, 1)
    assert args == b"500 4-5 7-8 20"


def test_fetch_items_fit_the_scorer_limits():
    # Scattered ids: at most 16 items, and the request line within the scorer's limit.
    es = [YC.Entry(1000000 + 2 * k, 1, 10) for k in range(100)]
    data = [bytearray() for _ in es]
    args, count, last = _client()._fetch_args(es, data, 0)
    items = args.split()[1:]
    assert len(items) == YC.MAX_ITEMS and count == 160 and last == 15
    assert len(wire.request(0xFFFF, 254, "F", args)) <= wire.MAX_REQUEST
    es = [YC.Entry(16000000 + 2 * k, 1, 10) for k in range(100)]
    args, _, _ = _client()._fetch_args(es, data, 0)
    assert len(wire.request(0xFFFF, 254, "F", args)) <= wire.MAX_REQUEST


def test_a_port_that_is_gone_fails_at_once(tmp_path):
    # A USB serial port is a device file that goes with the cable: the sync stops at once
    # instead of waiting out --wait for a name the port may not come back under.
    import os
    import pty

    from host_tools.serial.transport import LinkError, SerialLink
    master, slave = pty.openpty()
    port = tmp_path / "ttyUSB9"
    os.symlink(os.ttyname(slave), str(port))
    link = SerialLink(str(port))
    os.remove(str(port))
    t = time.monotonic()
    try:
        link.reopen(30)
        raise AssertionError("opened a port that is gone")
    except LinkError as e:
        assert "is gone (was the cable pulled out?)" in str(e)
    assert time.monotonic() - t < 1
    link.close()
    os.close(master)
    os.close(slave)


def test_goodbye_to_a_scorer_that_has_gone_waits_seconds_not_the_whole_wait():
    # loop:// hands the request back: no answer comes, as from a base station or a
    # scorer unplugged at the end of a session (serve --base stopping, a sync's end).
    link = T.SerialLink("loop://")
    c = YC.Client(link, timeout=0.2, wait=30.0)
    c.info = _Info()
    c.session = 7
    c._first = False
    t = time.monotonic()
    c.bye()
    took = time.monotonic() - t
    assert YC.BYE_WAIT <= took < YC.BYE_WAIT + 1.5, took
    assert c.session == 0 and c.wait == 30.0 and not c._first
    link.close()
