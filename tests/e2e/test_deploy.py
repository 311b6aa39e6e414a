"""tally42 deploy without a board: the build, the mpremote plan, the partition table."""
import hashlib
import struct
import subprocess
import sys

import pytest

from host_tools.deploy import deploy


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
    assert "engine_core/texas42/sitting.mpy" in files
    assert "boards/%s.mpy" % board in files
    assert "boards/device.mpy" in files     # what every ESP32 board file imports
    assert "boards/sim/board.mpy" not in files and "boards/sim/__init__.mpy" not in files
    assert not any(f.startswith("host_tools") for f in files)
    # The sim's NOR flash stays on the PC; the manifests are the build's, not modules.
    for host_only in ("boards/sim/flash.mpy", "engine_core/manifest.mpy", "firmware/manifest.mpy"):
        assert host_only not in files
    for shared in ("engine_core/codes.mpy", "engine_core/texas42/variants.mpy", "firmware/codes.mpy",
                   "engine_core/gin/sitting.mpy"):
        assert shared in files
    assert "engine_core/texas42/rules.mpy" in files
    for f in files:
        assert (tmp_path / f).stat().st_size > 0
    main = (tmp_path / "main.py").read_text()
    assert 'start.main("%s")' % board in main


def test_mpremote_plan_makes_folders_before_copying(tmp_path):
    files = ["engine_core/texas42/sitting.mpy", "firmware/ui/score.mpy", "main.py"]
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
    runs = [line for line in out.stdout.splitlines() if line.startswith("would run: ")]
    assert len(runs) == 3, out.stdout
    assert runs[0].endswith(" -m esptool --port /dev/null --after no-reset erase-region "
                            "0x200000 0x2000")
    assert runs[1].endswith(" -m esptool --port /dev/null write-flash 0x8000 %s"
                            % (tmp_path / "b" / "partitions.bin"))
    assert " -m host_tools.deploy.quietremote connect /dev/null " in runs[2]
    # Every step is one line that bash takes as one command as it is.
    for line in runs:
        r = subprocess.run(["bash", "-n", "-c", line[len("would run: "):]])
        assert r.returncode == 0, line
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
    from host_tools.build import sim as simbuild
    r = subprocess.run([simbuild.tool("micropython"), "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    listing, app_file = r.stdout.strip().split("\n")
    assert listing == "['__init__.mpy', 'device.mpy', 'esp32_epd29.mpy']"
    assert app_file == "/rom/firmware/app.mpy"
    args = deploy.mpremote_args("/dev/ttyUSB0", str(tmp_path), files)
    text = " ".join(args)
    assert args[2:5] == ["romfs", "deploy", image]
    assert text.index("_rm(p)") < text.index(":main.py") and args[-1] == "reset"
    assert ":firmware" not in text      # nothing but main.py goes to the file system


# ---- what deploy checks on the board first (host_tools/deploy/boardcheck.py) ----

from host_tools.deploy import boardcheck as B  # noqa: E402

STOCK = [(0, 0, 0x10000, 0x1F0000, "factory"), (1, 2, 0x9000, 0x6000, "nvs"),
         (1, 0x81, 0x200000, 0x200000, "vfs")]
OURS = [(0, 0, 0x10000, 0x1F0000, "factory"), (1, 0x81, 0x200000, 0x1F0000, "vfs"),
        (1, 0x40, 0x3F0000, 0x10000, "journal")]
ELSEWHERE = [(0, 0, 0x10000, 0x1F0000, "factory"), (1, 0x81, 0x200000, 0x1E0000, "vfs"),
             (1, 0x40, 0x3E0000, 0x20000, "journal")]
DEPLOYED = ["engine_core/codec.mpy", "firmware/app.mpy", "boards/esp32_epd29.mpy"]


def _found(parts=OURS, unsynced=0, files=(), frozen=False, version=(1, 24, 1),
           machine="Generic ESP32 module with ESP32", orphans=0):
    return B.Found({"version": version, "machine": machine, "parts": parts,
                    "files": list(files), "frozen": frozen, "unsynced": unsynced,
                    "orphans": orphans})


def test_a_stock_partition_table_is_refused_without_partition_and_says_why():
    plan = B.check(_found(STOCK, unsynced=None), deploy.PARTITIONS, False, DEPLOYED)
    assert "no journal partition: deploy with --partition" in plan.refusal
    assert "journal partition: none" in "\n".join(plan.notes)
    plan = B.check(_found(STOCK, unsynced=None, orphans=3), deploy.PARTITIONS, False, DEPLOYED)
    assert "puts it back over them" in plan.refusal
    assert "journal blocks found in flash at 0x3f0000: 3" in "\n".join(plan.notes)
    # Writing our table puts the journal back where its blocks are: that is allowed.
    plan = B.check(_found(STOCK, unsynced=None, orphans=3), deploy.PARTITIONS, True, DEPLOYED)
    assert plan.refusal is None


def test_a_table_that_would_overwrite_unsynced_sittings_is_refused_unless_forced():
    found = _found(ELSEWHERE, unsynced=2)
    plan = B.check(found, deploy.PARTITIONS, True, DEPLOYED)
    assert plan.refusal.startswith("the new partition table would overwrite the journal at "
                                   "0x3e0000 (2 sittings not yet on the PC): run tally42 "
                                   "sync first")
    plan = B.check(found, deploy.PARTITIONS, True, DEPLOYED, force=True)
    assert plan.refusal is None and any("--force" in n for n in plan.notes)
    # Nothing unsynced there, or the journal already where the table puts it: no harm.
    assert B.check(_found(ELSEWHERE, unsynced=0), deploy.PARTITIONS, True, DEPLOYED).refusal is None
    assert B.check(_found(OURS, unsynced=5), deploy.PARTITIONS, True, DEPLOYED).refusal is None
    # Sittings that could not be counted count as unsynced.
    plan = B.check(_found(ELSEWHERE, unsynced=None), deploy.PARTITIONS, True, DEPLOYED)
    assert "could not be counted" in plan.refusal


def test_old_micropython_and_other_chips_are_refused():
    plan = B.check(_found(version=(1, 19, 1)), deploy.PARTITIONS, False, DEPLOYED, force=True)
    assert plan.refusal.startswith("MicroPython 1.19.1 is too old: Tally 42 needs 1.23.0")
    plan = B.check(_found(machine="Raspberry Pi Pico with RP2040"), deploy.PARTITIONS, False,
                   DEPLOYED)
    assert "not an ESP32" in plan.refusal


def test_stale_copies_are_removed_and_frozen_modules_not_shadowed():
    files = DEPLOYED + ["firmware/app.py", "firmware/gone.mpy", "boards/lilygo_t5_213.mpy"]
    plan = B.check(_found(files=files), deploy.PARTITIONS, False, DEPLOYED)
    assert plan.refusal is None and plan.copy_modules
    assert plan.remove == ["boards/lilygo_t5_213.mpy", "firmware/app.py", "firmware/gone.mpy"]
    assert "6 copies on the board, 3 stale to remove" in "\n".join(plan.notes)
    assert "stock MicroPython runs the modules from RAM" in "\n".join(plan.notes)
    plan = B.check(_found(files=files, frozen=True), deploy.PARTITIONS, False, DEPLOYED)
    assert not plan.copy_modules and plan.remove == sorted(files)
    assert "frozen into the firmware" in "\n".join(plan.notes)
    assert "runs the modules from RAM" not in "\n".join(plan.notes)


def test_deploy_says_what_it_found_removes_stale_copies_then_copies(tmp_path, monkeypatch,
                                                                    capsys):
    from host_tools import cli
    calls = []
    found = _found(files=["firmware/app.py", "firmware/app.mpy"])
    monkeypatch.setattr(deploy, "probe", lambda port: found)
    monkeypatch.setattr(deploy.subprocess, "call", lambda cmd, **kw: calls.append(cmd) or 0)
    assert cli.main(["deploy", "--port", "/dev/ttyX", "--board", "esp32_epd29",
                     "--build", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "board: MicroPython 1.24.1 on Generic ESP32" in out
    assert "journal partition: 64 KB at 0x3f0000 (0 sittings not yet on the PC)" in out
    assert "1 stale to remove (firmware/app.py)" in out
    text = " ".join(calls[0])
    assert "os.remove(p)" in text and "'firmware/app.py'" in text
    assert text.index("os.remove(p)") < text.index(":firmware/app.mpy")
    # Frozen firmware: only main.py goes over, every module copy goes.
    calls.clear()
    monkeypatch.setattr(deploy, "probe", lambda port: _found(files=["firmware/app.mpy"],
                                                              frozen=True))
    assert cli.main(["deploy", "--port", "/dev/ttyX", "--board", "esp32_epd29",
                     "--build", str(tmp_path / "c")]) == 0
    copied = [a for a in calls[0] if a.startswith(":")]
    assert copied == [":main.py"]
    # A refusal: a message, a non-zero exit, nothing run but the board's restart (the
    # probe stopped it at the REPL).
    calls.clear()
    monkeypatch.setattr(deploy, "probe", lambda port: _found(STOCK, unsynced=None))
    assert cli.main(["deploy", "--port", "/dev/ttyX", "--board", "esp32_epd29",
                     "--build", str(tmp_path / "d")]) == 2
    assert "tally42: the board has no journal partition" in capsys.readouterr().err
    assert [c[3:] for c in calls] == [["connect", "/dev/ttyX", "reset"]]


def test_a_board_without_a_boot_py_loses_the_one_another_board_left(tmp_path):
    for rom in (False, True):
        files = deploy.build("esp32_epd29", str(tmp_path / str(rom)), rom)
        text = " ".join(deploy.mpremote_args("/dev/ttyUSB0", str(tmp_path / str(rom)), files))
        assert "os.remove(p)" in text and "'boot.py'" in text, rom
    files = deploy.build("m5stack_coreink", str(tmp_path / "ink"))
    text = " ".join(deploy.mpremote_args("/dev/ttyUSB0", str(tmp_path / "ink"), files))
    assert "'boot.py'" not in text and ":boot.py" in text


def test_the_coreink_gets_a_boot_py_that_sets_its_power_latch_first(tmp_path):
    files = deploy.build("m5stack_coreink", str(tmp_path))
    assert "boot.py" in files
    boot = (tmp_path / "boot.py").read_text()
    code = [line for line in boot.splitlines() if line and not line.startswith("#")]
    assert code == ["from machine import Pin", "Pin(12, Pin.OUT, value=1)"]
    assert "boot.py" not in deploy.build("esp32_epd29", str(tmp_path / "x"))


@pytest.mark.parametrize("board", deploy.BOARDS)
def test_frozen_manifests_carry_the_main_py_deploy_writes(board, tmp_path, monkeypatch):
    import os
    manifest = open(os.path.join(deploy.ROOT, "boards", "manifest_%s.py" % board)).read()
    assert 'include("manifest.py", board="%s")' % board in manifest
    monkeypatch.setattr(deploy, "device_sources", lambda board: [])     # the scripts only
    files = deploy.build(board, str(tmp_path))
    folder = os.path.join(deploy.ROOT, "boards", "main", board)
    for name in ("main.py", "boot.py"):
        if os.path.exists(os.path.join(folder, name)):
            assert name in files
            assert (tmp_path / name).read_text() == open(os.path.join(folder, name)).read()
        else:
            assert name not in files


def test_each_module_is_compiled_under_its_own_name_as_the_sim_does(tmp_path, monkeypatch):
    # The source name mpy-cross stores is interned on the device when the module loads:
    # the module's name (interned anyway), not a path (one name more a module).
    calls = []
    real = subprocess.run

    def run(cmd, **kw):
        calls.append(cmd)
        return real(cmd, **kw)
    monkeypatch.setattr(deploy.subprocess, "run", run)
    deploy.build("esp32_epd29", str(tmp_path))
    names = {c[c.index("-s") + 1] for c in calls if "-s" in c}
    assert {"firmware.app", "firmware.ui.score", "engine_core", "boards"} <= names, names
    assert not any("/" in n for n in names), names


def test_a_board_whose_mpy_version_differs_from_mpy_cross_is_refused(tmp_path):
    plan = B.check(_found(), deploy.PARTITIONS, False, DEPLOYED, mpy=6)
    assert plan.refusal is None         # an old firmware that does not say: not refused
    found = B.Found({"version": (1, 22, 2), "machine": "ESP32", "parts": OURS, "mpy": 0x0A06})
    found.version = (1, 24, 0)
    assert B.check(found, deploy.PARTITIONS, False, DEPLOYED, mpy=6).refusal is None
    found.mpy = 0x0A05
    plan = B.check(found, deploy.PARTITIONS, False, DEPLOYED, force=True, mpy=6)
    assert plan.refusal.startswith("the board's MicroPython 1.24.0 loads .mpy version 5, "
                                   "this mpy-cross writes version 6")
    # The version deploy compares: the byte mpy-cross wrote, the one this unix port loads.
    files = deploy.build("esp32_epd29", str(tmp_path))
    assert files and deploy.mpy_version(str(tmp_path)) == 6


def test_mpremote_opens_the_port_with_dtr_and_rts_released(monkeypatch):
    import serial
    from mpremote import transport_serial
    from host_tools.deploy import quietremote
    plain = transport_serial.SerialTransport("loop://")
    assert plain.serial.dtr and plain.serial.rts     # pyserial's default: both asserted
    plain.close()
    monkeypatch.setattr(quietremote, "_serial_for_url", serial.serial_for_url)
    monkeypatch.setattr(serial, "serial_for_url", quietremote.released)
    t = transport_serial.SerialTransport("loop://")
    assert t.serial.is_open and (t.serial.dtr, t.serial.rts) == (False, False)
    t.close()


def test_shell_lines_keep_every_word_as_it_was():
    import esp32boot
    argv = ["mpremote", "exec", "import os\ntry: os.mkdir('a b')\nexcept OSError: pass",
            "+", "cp", "/tmp/x y.mpy", ":x.mpy", "back\\slash"]
    line = deploy.shell(argv)
    assert "\n" not in line
    # bash reads the line back into the same words (and so does the boot test's reader).
    r = subprocess.run(["bash", "-c", "printf '%s\\0' " + line[len("mpremote "):]],
                       capture_output=True, text=True)
    assert r.stdout.split("\0")[:-1] == argv[1:]
    assert esp32boot.split(line) == argv


def test_make_deploy_takes_dryrun():
    import os
    args = ["make", "-n", "-s", "deploy", "PORT=/dev/ttyUSB0", "BOARD=esp32_epd29",
            "PARTITION=1"]
    with_it = subprocess.run(args + ["DRYRUN=1"], cwd=deploy.ROOT, capture_output=True,
                             text=True, env=dict(os.environ, MAKEFLAGS=""))
    line = [x for x in with_it.stdout.splitlines() if " deploy " in x][-1]
    assert line.split()[-1] == "--dry-run" and "--partition" in line.split()
    without = subprocess.run(args, cwd=deploy.ROOT, capture_output=True, text=True,
                             env=dict(os.environ, MAKEFLAGS=""))
    assert "--dry-run" not in without.stdout


def _board_on_a_pty(answer):
    """A pty whose far end plays a board: answer(bytes it got) -> bytes to send."""
    import os
    import threading
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def run():
        import select
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    got = os.read(master, 256)
                except OSError:
                    return
                out = answer(got)
                if out:
                    os.write(master, out)
    t = threading.Thread(target=run, daemon=True)
    t.start()

    def close():
        stop.set()
        t.join(2)
        os.close(master)
        os.close(slave)
    return os.ttyname(slave), close


def test_deploy_waits_for_the_prompt_after_esptools_reset():
    # The banner went by before the port was open: a carriage return asks for the prompt.
    asked = []
    port, close = _board_on_a_pty(lambda got: asked.append(got) or (
        b"\r\n>>> " if b"\r" in got else b""))
    try:
        deploy.wait_for_repl(port, timeout=60)
    finally:
        close()
    assert asked and asked[0] == b"\r"
    # The port's inisetup stuck on an old file system: said at once, not waited out.
    port, close = _board_on_a_pty(lambda got: b"The filesystem appears to be corrupted. ")
    try:
        with pytest.raises(deploy.DeployError, match="file system is corrupted"):
            deploy.wait_for_repl(port, timeout=60)
    finally:
        close()
    # A board that never answers: the timeout, with what to do.
    port, close = _board_on_a_pty(lambda got: b"")
    try:
        with pytest.raises(deploy.DeployError, match="did not start within 1 s"):
            deploy.wait_for_repl(port, timeout=1)
    finally:
        close()


def _wedged_board():
    """A board that enters the raw REPL and soft-resets, as mpremote asks, then says
    nothing more: mpremote reads the raw-paste answer with no time limit
    (transport_serial.py exec_raw_no_follow) and would wait for ever."""
    state = {"reset": False}

    def answer(got):
        if b"\x01" in got:
            return b"raw REPL; CTRL-B to exit\r\n>"
        if b"\x04" in got and not state["reset"]:
            state["reset"] = True
            return b"soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"
        return b""
    return _board_on_a_pty(answer)


def test_a_board_that_stops_answering_ends_the_probe_and_the_restart_in_their_time(capsys):
    import time
    port, close = _wedged_board()
    try:
        t0 = time.monotonic()
        with pytest.raises(deploy.DeployError, match="did not answer in 3 s: press a button"):
            deploy.probe(port, timeout=3)
        took = time.monotonic() - t0
        # mpremote was still waiting when the time ran out: the limit ended it.
        assert 3 <= took < 30, took
    finally:
        close()
    port, close = _wedged_board()
    try:
        deploy.restart(port, timeout=3)
    finally:
        close()
    assert "did not take the restart in 3 s: press its reset button" in capsys.readouterr().err


def test_a_partition_deploy_runs_esptool_then_waits_then_copies(tmp_path, monkeypatch, capsys):
    from host_tools import cli
    order = []
    monkeypatch.setattr(deploy, "probe", lambda port: _found(STOCK, unsynced=None))
    monkeypatch.setattr(deploy.subprocess, "call", lambda cmd: order.append(cmd) or 0)
    monkeypatch.setattr(deploy, "wait_for_repl", lambda port: order.append("wait"))
    assert cli.main(["deploy", "--port", "/dev/ttyX", "--board", "esp32_epd29",
                     "--build", str(tmp_path / "b"), "--partition"]) == 0
    steps = [c if c == "wait" else c[c.index("--port") + 2] if "esptool" in c else "mpremote"
             for c in order]
    assert steps == ["--after", "write-flash", "wait", "mpremote"], steps
    assert order[0][-3:] == ["erase-region", "0x200000", "0x2000"]
    # esptool failing: nothing after it runs.
    order.clear()
    monkeypatch.setattr(deploy.subprocess, "call", lambda cmd: order.append(cmd) or 2)
    assert cli.main(["deploy", "--port", "/dev/ttyX", "--board", "esp32_epd29",
                     "--build", str(tmp_path / "c"), "--partition"]) == 2
    assert len(order) == 1 and "esptool could not write to /dev/ttyX (erase-region)" in (
        capsys.readouterr().err)
