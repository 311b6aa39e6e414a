"""tally42 rescue: the journal read off a board over esptool (its esptool steps applied
to a flash image, tests/esp32boot.py), into a file that export --from-image reads."""
import pytest

import esp32boot as E
from engine_core import codec
from engine_core.header import encode_header
from firmware.journal import Journal
from host_tools import cli
from host_tools.deploy import deploy, rescue
from host_tools.log import image as I
from eventlogs import random_sitting


def _journal(seed):
    header, events = random_sitting(seed, 0, 120, ["Ann", "Bob", "Cy", "Di"])
    flash = I.RamFlash(b"\xff" * 0x10000)
    j = Journal(flash)
    j.mount()
    j.begin_sitting(encode_header(header.rules, header.dealer, header.players))
    buf = bytearray(8)
    for ev in events:
        n = codec.encode_into(ev, buf, 0)
        j.append(bytes(buf[:n]))
    j.finish()
    return bytes(flash.mem)


def _board(tmp_path, table, journal_at, journal):
    path = str(tmp_path / "flash.bin")
    with open(path, "wb") as f:
        f.write(b"\xff" * E.FLASH_SIZE)
    E.write(path, 0x8000, table)
    E.write(path, journal_at, journal)
    return path


def _run_on(image, calls):
    def run(argv):
        calls.append(argv)
        E.esptool(image, argv)
        return 0
    return run


def _exported(capsys, path):
    assert cli.main(["export", "--all", "--from-image", path, "--format", "csv"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("rom", [False, True])
def test_rescue_reads_the_journal_partition_into_a_file_export_takes(tmp_path, capsys, rom):
    journal = _journal(7)
    image = _board(tmp_path, deploy.partition_table(deploy.table_for(rom)), 0x3F0000, journal)
    calls = []
    out = str(tmp_path / "journal.bin")
    said = []
    assert rescue.rescue("/dev/ttyUSB0", out, run=_run_on(image, calls),
                         say=said.append) == (0x3F0000, 0x10000)
    assert [c[5:7] for c in calls] == [["read-flash", "0x8000"], ["read-flash", "0x3f0000"]]
    assert open(out, "rb").read() == journal
    assert "journal: 64 KB at 0x3f0000 (the journal partition)" in said
    capsys.readouterr()
    rows = _exported(capsys, out).splitlines()
    assert len(rows) > 2 and "Ann" in rows[1] and rows[1].startswith("1,")


def test_a_journal_elsewhere_is_read_where_the_table_puts_it(tmp_path, capsys):
    table = deploy.partition_table(deploy.PARTITIONS[:3] + (
        ("vfs", 1, 0x81, 0x200000, 0x1E0000), ("journal", 1, 0x40, 0x3E0000, 0x20000)))
    journal = _journal(8) + b"\xff" * 0x10000
    image = _board(tmp_path, table, 0x3E0000, journal)
    out = str(tmp_path / "j.bin")
    assert rescue.rescue("p", out, run=_run_on(image, []), say=lambda s: None) == (
        0x3E0000, 0x20000)
    assert len(I.sittings(open(out, "rb").read())) == 1


def test_a_stock_table_or_none_still_reads_where_deploy_put_the_journal(tmp_path, capsys):
    journal = _journal(9)
    for table in (E.table_from_csv(E.stock_csv()), b"\xff" * 0xC00):
        image = _board(tmp_path, table, 0x3F0000, journal)
        said = []
        out = str(tmp_path / "j.bin")
        rescue.rescue("p", out, run=_run_on(image, []), say=said.append)
        assert said[0].startswith("journal: 64 KB at 0x3f0000 (")
        assert ("no journal partition" in said[0]) == (table[:1] == b"\xaa")
        assert open(out, "rb").read() == journal


def test_the_command_refuses_to_overwrite_and_says_when_esptool_fails(tmp_path, capsys,
                                                                      monkeypatch):
    out = tmp_path / "j.bin"
    out.write_bytes(b"x")
    assert cli.main(["rescue", "--port", "p", "--out", str(out)]) == 2
    assert "j.bin exists" in capsys.readouterr().err
    monkeypatch.setattr(rescue.subprocess, "call", lambda argv: 2)
    assert cli.main(["rescue", "--port", "p", "--out", str(out), "--force"]) == 2
    assert "esptool could not read the board on p" in capsys.readouterr().err
    assert out.read_bytes() == b"x"
    assert cli.main(["rescue", "--port", "p", "--out", str(out), "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("-m esptool --port p read-flash 0x8000 0xc00 TABLE.bin")
    assert lines[-1].endswith("read-flash 0x3f0000 0x10000 %s" % out)
