"""tally42 deploy without a board: the build, the mpremote plan, the partition table."""
import hashlib
import struct
import subprocess
import sys

import pytest

from host_tools import deploy


def _parse_table(data):
    entries = []
    pos = 0
    while data[pos:pos + 2] == b"\xaa\x50":
        magic, ptype, sub, offset, size, label, flags = struct.unpack_from("<HBBII16sI", data, pos)
        entries.append((label.rstrip(b"\0").decode(), ptype, sub, offset, size))
        pos += 32
    assert data[pos:pos + 2] == b"\xeb\xeb"
    assert data[pos + 16:pos + 32] == hashlib.md5(data[:pos]).digest()
    return entries


def test_partition_table_has_a_journal_and_no_overlaps():
    data = deploy.partition_table()
    assert len(data) == 0xC00
    entries = _parse_table(data)
    assert [e[0] for e in entries] == ["nvs", "phy_init", "factory", "vfs", "journal"]
    end = deploy.TABLE_OFFSET + 0x1000
    for label, ptype, sub, offset, size in entries:
        assert offset >= end, label
        assert offset % 0x1000 == 0 and size % 0x1000 == 0
        end = offset + size
    assert end <= 4 * 1024 * 1024
    journal = entries[-1]
    assert journal[1] == 1 and journal[4] == 0x10000


@pytest.mark.parametrize("board", deploy.BOARDS)
def test_build_compiles_every_device_module(tmp_path, board):
    files = deploy.build(board, str(tmp_path))
    assert "main.py" in files
    assert "engine_core/sitting.mpy" in files
    assert "boards/%s.mpy" % board in files
    assert not any(f.startswith("host_tools") for f in files)
    for f in files:
        assert (tmp_path / f).stat().st_size > 0
    main = (tmp_path / "main.py").read_text()
    assert 'start.main("%s")' % board in main


def test_mpremote_plan_makes_folders_before_copying(tmp_path):
    files = ["engine_core/sitting.mpy", "firmware/ui/score.mpy", "main.py"]
    args = deploy.mpremote_args("/dev/ttyUSB0", str(tmp_path), files)
    assert args[:2] == ["connect", "/dev/ttyUSB0"]
    text = " ".join(args)
    assert text.index("os.mkdir('firmware/ui')") < text.index(":firmware/ui/score.mpy")
    assert text.index("os.mkdir('firmware')") < text.index("os.mkdir('firmware/ui')")
    assert args[-1] == "reset"


def test_deploy_dry_run_and_unknown_board(tmp_path):
    out = subprocess.run([sys.executable, "-m", "host_tools", "deploy", "--port", "/dev/null",
                          "--board", "esp32_epd29", "--build", str(tmp_path / "b"),
                          "--dry-run", "--partition"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "would run: mpremote connect /dev/null" in out.stdout
    assert "write-flash 0x8000" in out.stdout
    assert (tmp_path / "b" / "partitions.bin").exists()
    bad = subprocess.run([sys.executable, "-m", "host_tools", "deploy", "--port", "x",
                          "--board", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("tally42: unknown board")


def test_romfs_partition_table_keeps_the_journal_where_it_was():
    entries = _parse_table(deploy.partition_table(deploy.PARTITIONS_ROMFS))
    assert [e[0] for e in entries] == ["nvs", "phy_init", "factory", "vfs", "romfs", "journal"]
    end = deploy.TABLE_OFFSET + 0x1000
    for label, ptype, sub, offset, size in entries:
        assert offset >= end, label
        end = offset + size
    assert end == 4 * 1024 * 1024
    romfs = entries[4]
    assert romfs[1:3] == (1, 0x8F) and romfs[4] >= 0x20000
    plain = _parse_table(deploy.partition_table())
    assert entries[-1] == plain[-1]     # switching layouts leaves the journal in place


def test_romfs_build_is_an_image_the_firmware_imports_from(tmp_path):
    files = deploy.build("esp32_epd29", str(tmp_path), rom=True)
    assert files == [deploy.ROMFS_NAME, "main.py"]
    assert '"/rom"' in (tmp_path / "main.py").read_text()
    image = str(tmp_path / deploy.ROMFS_NAME)
    code = ("import vfs, sys\nf = open(%r, 'rb')\nrom = f.read()\n"
            "vfs.mount(vfs.VfsRom(rom), '/rom')\nsys.path[:] = ['/rom']\n"
            "import os\nprint(sorted(os.listdir('/rom/boards')))\n"
            "from firmware import app\nprint(app.__file__)\n" % image)
    from host_tools import sim
    r = subprocess.run([sim.tool("micropython"), "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    listing, app_file = r.stdout.strip().split("\n")
    assert listing == "['__init__.mpy', 'esp32_epd29.mpy']"
    assert app_file == "/rom/firmware/app.mpy"
    args = deploy.mpremote_args("/dev/ttyUSB0", str(tmp_path), files)
    text = " ".join(args)
    assert args[2:5] == ["romfs", "deploy", image]
    assert text.index("_rm(p)") < text.index(":main.py") and args[-1] == "reset"
    assert ":firmware" not in text      # nothing but main.py goes to the file system
