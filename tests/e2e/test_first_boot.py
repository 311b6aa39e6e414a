"""A board's first deploy, an update and the ROMFS form, booted: deploy's own dry-run
plan applied to a 4 MB ESP32 flash as the ESP32_GENERIC download leaves it, then the
esp32 port's own _boot.py and inisetup.py run over it on the unix port
(tests/esp32boot.py). The board must come up with a mounted file system holding the
scorer, and the journal must be kept (or start empty on a first deploy)."""
import os

import pytest

import esp32boot as E
from firmware.journal import Journal
from host_tools import cli
from host_tools.deploy import deploy
from host_tools.log import image as I

# Needs the MicroPython source make mp32 unpacks: make test runs it after the builds (pytest-builds).
pytestmark = pytest.mark.builds

JOURNAL_AT, JOURNAL_SIZE = 0x3F0000, 0x10000

try:
    E.port_dir()
except E.mp32.Missing as e:     # no MicroPython source beside the project
    pytest.skip(str(e), allow_module_level=True)


def _dry_run(capsys, tmp, board, *flags):
    out_dir = os.path.join(str(tmp), "build-%s%s" % (board, "".join(flags)))
    assert cli.main(["deploy", "--port", "/dev/ttyUSB0", "--board", board, "--build",
                     out_dir, "--dry-run"] + list(flags)) == 0
    return capsys.readouterr().out


def _apply(image, output, tmp):
    """Apply a dry run's plan to the image as the board would live it: esptool's steps,
    the boot after them, mpremote's copies (and ROMFS image), its reset and the boot
    after. Returns that last boot."""
    steps = E.plan_steps(output)
    assert steps, output
    copies = []         # mpremote's steps on the board, in order
    rom = None
    for argv in steps:
        if "esptool" in argv:
            E.esptool(image, argv)
            continue
        assert "host_tools.deploy.quietremote" in argv, argv
        words = argv[argv.index("connect") + 2:]
        for step in _chain(words):
            if step[0] == "cp":
                assert step[2].startswith(":"), step
                copies.append(("cp", step[1], step[2][1:]))
            elif step[0] == "exec":
                copies.append(("exec", step[1]))
            elif step[:2] == ["romfs", "deploy"]:
                rom = step[2]
            else:
                assert step == ["reset"], step
    # The board started by esptool (or as it was), then mpremote's copies.
    first = E.boot(image, copies, str(tmp))
    assert first["mounted"] and not first["corrupted"], first["out"]
    assert copies, "the plan copies nothing: %s" % output
    if rom:
        table = E.table_parts(image)
        part = [p for p in table if p[4] == "romfs"]
        assert part, "no romfs partition for the ROMFS image"
        with open(rom, "rb") as f:
            data = f.read()
        assert len(data) <= part[0][3], "the ROMFS image is larger than its partition"
        E.write(image, part[0][2], data)
    return E.boot(image)                        # mpremote's reset


def _chain(words):
    """mpremote's chained commands ("a + b + c") as lists of words."""
    out = [[]]
    for w in words:
        if w == "+":
            out.append([])
        else:
            out[-1].append(w)
    return [c for c in out if c]


def _journal_with_a_sitting():
    flash = I.RamFlash(b"\xff" * JOURNAL_SIZE)
    j = Journal(flash)
    j.mount()
    j.begin_sitting(b"\x01header")
    j.append(b"\x1e")
    j.finish()
    return bytes(flash.mem)


@pytest.fixture(scope="module")
def stock(tmp_path_factory):
    """A stock ESP32_GENERIC flash after its first boot, made once and copied."""
    path = str(tmp_path_factory.mktemp("stock") / "stock.bin")
    first = E.stock_board(path)
    assert first["mounted"] and first["files"] == {"boot.py": first["files"]["boot.py"]}
    assert "Performing initial setup" in first["out"]
    with open(path, "rb") as f:
        return f.read()


def _board(tmp, data):
    path = os.path.join(str(tmp), "flash.bin")
    with open(path, "wb") as f:
        f.write(data)
    return path


def _scorer_on(result, rom=False):
    files = result["files"]
    assert "main.py" in files
    if rom:
        assert not [f for f in files if f.endswith(".mpy")], files
    else:
        for module in ("firmware/app.mpy", "engine_core/texas42/sitting.mpy", "boards/device.mpy"):
            assert files.get(module, 0) > 0, (module, sorted(files))


def test_the_stock_table_is_the_ports_own_with_its_vfs_from_2_mb_to_the_end(tmp_path, stock):
    # The stock board's file system: 0x200000 to the end of a 4 MB flash (main.c adds
    # it when the table has none, as partitions-4MiBplus.csv leaves it).
    path = _board(tmp_path, stock)
    parts = E.table_parts(path)
    assert [p[4] for p in parts][:3] == ["nvs", "phy_init", "factory"]
    lfs = E.read(path, 0x200000, 64)
    assert b"littlefs" in lfs


@pytest.mark.parametrize("board", deploy.BOARDS)
def test_a_first_deploy_with_partition_boots_to_the_scorer_on_a_stock_board(
        tmp_path, capsys, stock, board):
    path = _board(tmp_path, stock)
    out = _dry_run(capsys, tmp_path, board, "--partition")
    result = _apply(path, out, tmp_path)
    assert result["mounted"] and not result["corrupted"], result["out"]
    _scorer_on(result)
    # The port's own boot.py (inisetup's) is removed, but for the CoreInk's, which
    # sets its power latch.
    assert ("boot.py" in result["files"]) == (board == "m5stack_coreink"), result["files"]
    parts = {p[4]: p for p in E.table_parts(path)}
    assert parts["journal"][2:4] == (JOURNAL_AT, JOURNAL_SIZE)
    assert parts["vfs"][2] + parts["vfs"][3] <= JOURNAL_AT
    # An empty journal: what was there (the old file system's blocks) holds no sitting.
    assert I.sittings(E.read(path, JOURNAL_AT, JOURNAL_SIZE)) == []
    # MicroPython itself (bootloader, app) is left as it was.
    assert E.read(path, 0x1000, 10) == b"BOOTLOADER"
    assert E.read(path, 0x10000, 15) == b"MICROPYTHON APP"


def test_the_romfs_form_boots_with_its_image_in_the_romfs_partition(tmp_path, capsys, stock):
    path = _board(tmp_path, stock)
    out = _dry_run(capsys, tmp_path, "esp32_epd29", "--partition", "--romfs")
    result = _apply(path, out, tmp_path)
    assert result["mounted"] and not result["corrupted"], result["out"]
    _scorer_on(result, rom=True)
    rom = [p for p in E.table_parts(path) if p[4] == "romfs"][0]
    assert E.read(path, rom[2], 4)[:2] == b"\xd2\xcd"      # a ROMFS image's header


def test_an_update_keeps_the_file_system_and_the_journal(tmp_path, capsys, stock):
    path = _board(tmp_path, stock)
    first = _dry_run(capsys, tmp_path, "esp32_epd29", "--partition")
    _apply(path, first, tmp_path)
    journal = _journal_with_a_sitting()
    E.write(path, JOURNAL_AT, journal)
    # A file of the player's own on the board's file system.
    own = tmp_path / "notes.txt"
    own.write_text("keep me")
    assert E.boot(path, [("cp", str(own), "notes.txt")], str(tmp_path))["mounted"]
    out = _dry_run(capsys, tmp_path, "esp32_epd29")
    assert not [s for s in E.plan_steps(out) if "esptool" in s], out
    result = _apply(path, out, tmp_path)
    assert result["mounted"] and not result["corrupted"]
    _scorer_on(result)
    assert result["files"]["notes.txt"] == 7
    assert E.read(path, JOURNAL_AT, JOURNAL_SIZE) == journal
    assert len(I.sittings(journal)) == 1

    # MicroPython then written whole by mistake: the stock table is back, and the stock
    # firmware finds a file system of another size: the port's corrupted loop.
    E.write(path, 0x8000, E.table_from_csv(E.stock_csv()))
    broken = E.boot(path)
    assert broken["corrupted"] and not broken["mounted"]
    assert "The filesystem appears to be corrupted" in broken["out"]
    # --partition again: the board boots with the scorer, the journal found where it was.
    again = _apply(path, first, tmp_path)
    assert again["mounted"] and not again["corrupted"]
    _scorer_on(again)
    assert E.read(path, JOURNAL_AT, JOURNAL_SIZE) == journal
