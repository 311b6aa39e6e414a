"""The firmware on a bare-metal MicroPython: MicroPython's qemu port on an emulated
Cortex-M3 (MPS2-AN385), built by `make qemu` with the firmware frozen in, driven over its
UARTs (host_tools/sim/qemu.py, boards/sim/qemu_mps2.py). The engine and device suites through the
raw REPL; a sitting scored by presses on the button UART, then `tally42 devices` and
`tally42 sync` over the REPL UART, which the scorer shares with the REPL; mpremote
breaking in; garbage on the line; deploy's board probe. Skipped (one line) where the
build or QEMU is missing, a failure under CI."""
import json
import re
import subprocess
import sys

import pytest

# Needs the bare-metal build (make qemu): make test runs it after the builds (pytest-builds).
pytestmark = pytest.mark.builds


import qemurig as R  # noqa: E402

from host_tools.sim import qemu as Q  # noqa: E402

ROOT = R.ROOT
TALLY = [sys.executable, "-m", "host_tools"]
PREV, NEXT, OK, BACK, MENU, LONG = 1, 2, 3, 4, 5, 0x10
# The emulator gets a share of a busy PC: its clock and its answers can be seconds late.
SLOW = ["--timeout", "30"]

# Device tests left out on this board, and why. mptest and mptest32 run them all on the
# unix port.
LEAVE_OUT = (
    # a writable file system (the port has only its ROMFS)
    "test_app.test_settings_persist",
    "test_app.test_setup_after_a_sitting_says_its_choices_are_the_last_games",
    "test_app.test_first_boot_asks_what_we_play_and_remembers_it",
    "test_journal.test_nor_file_backed_keeps_contents",
    # the probe lists module copies in the current folder: here the ROMFS of the suites
    "test_probe_board.test_the_probe_counts_unsynced_sittings_and_lists_partitions",
    # the time of day from time.mktime, which the port lacks (an ESP32 has it): the
    # clock reads an ESP32 board's RTC as the App is made
    "test_rtc.test_the_clock_survives_a_deep_sleep_in_the_rtc",
    "test_rtc.test_the_coreink_keeps_the_time_in_its_bm8563_through_the_esp32s_drift",
    "test_rtc.test_a_games_end_reads_the_clock_without_allocating_set_or_not",
    "test_rtc.test_a_clock_never_set_counts_from_power_on_under_a_tag_deep_sleep_keeps",
    "test_power.test_a_restart_after_a_hang_says_so",
    "test_power.test_below_the_floor_a_last_screen_then_deep_sleep_and_no_full_refresh",
    # minutes of emulated CPU (seconds to a minute each on the unix port)
    "test_heap_lock", "test_journal_powercut", "test_gin_powercut", "test_search",
    # a pure-Python model of the panel's RAM, pixel by pixel: a second on the unix ports,
    # a minute of emulated CPU; the drivers' command flows are checked here all the same
    "test_display.test_ssd1680_keeps_the_old_image_in_its_ram_not_in_the_heap",
    "test_display.test_ssd1680_landscape_296x128_rotate_0_lands_on_gate_x_source_127_minus_y",
    "test_display.test_ssd1680_landscape_296x128_rotate_180_lands_on_gate_295_minus_x_source_y",
    "test_display.test_t5_250x122_keeps_the_frame_on_visible_sources_0_to_121",
    # the sim's radio is ESP-NOW carried over UDP sockets, which the port has not (a
    # device board's radio, boards/sim/chip/wifi.py, is that one behind the port's network)
    "test_radio", "test_board_radio", "test_base", "test_next_confirm",
    # a writable file system: the first boot writes its settings file
    "test_selftest.test_a_device_boards_first_boot_shows_the_self_test_then_the_setup",
)


def _script_keys():
    # tests/e2e/sync/test_sync_sim.py's sitting: setup with the defaults (42, marks to 7), then
    # seven hands of one bid of 30 and three passes, made on even hands and set on odd
    # ones: team 1 (E and W) takes every mark, 7-0.
    keys = [OK]
    for h in range(7):
        keys += [NEXT, LONG | OK, OK] + ([PREV] if h % 2 == 0 else [NEXT])    # < made, > set
    return keys


def _run(*args, timeout=120):
    return subprocess.run(TALLY + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    """The scorer's QEMU for the module (110 KB heap), the journal's RAM kept in a file
    when it stops."""
    elf = R.firmware()
    flash = str(tmp_path_factory.mktemp("qemu") / "flash.bin")
    with Q.Machine(elf, flash=flash) as m:
        yield m


@pytest.fixture(scope="module")
def suites():
    """The test suites' QEMU: the 1 MB heap build, the suites' ROMFS image mapped."""
    with Q.Machine(R.firmware("tests"), rom=R.suite_rom()) as m:
        yield m


@pytest.fixture(scope="module")
def scored(machine, tmp_path_factory):
    """The sitting of _script_keys() scored on the board by presses on its button UART,
    then synced: (the sync's stdout, the database)."""
    machine.start_scorer()
    machine.press(_script_keys())
    machine.wait_for("over")
    db = str(tmp_path_factory.mktemp("qemudb") / "t.db")
    out = _run("sync", "--port", machine.repl, "--db", db, "--wait", "60", *SLOW)
    assert out.returncode == 0, out.stderr
    return out.stdout, db


def _outcome_aside(machine):
    """OK until the sync's outcome has stepped aside for game over. The scorer closes the
    session after the PC's goodbye, on a loaded machine seconds after the sync returned:
    an OK it takes before that leaves the sync screen, and the outcome is drawn after it
    (as a player pressing too soon would see it, and press again)."""
    for _ in range(3):
        drawn = len(machine.frames)
        machine.press([OK])
        machine.wait_idle(since=drawn)
        if machine.frames[-1][1] == "over":
            return
    raise Q.QemuError("the sync's outcome did not step aside (the panel shows %s)"
                      % machine.frames[-1][1])


@pytest.mark.suites
def test_engine_suite_on_the_bare_metal_build(suites):
    passed, failed, report = R.run_suite(suites, "tests/engine")
    assert failed == 0 and passed > 100, report


@pytest.mark.suites
def test_device_suite_on_the_bare_metal_build(suites):
    passed, failed, report = R.run_suite(suites, "tests/device", LEAVE_OUT)
    assert failed == 0 and passed > 100, report


def test_the_panel_is_busy_while_it_refreshes(machine):
    out = machine.exec(
        "from boards.sim import qemu_mps2 as b\n"
        "from time import ticks_ms, ticks_diff\n"
        "p = b.Panel(b.Uart(0x40006000))\n"
        "p.show(True)\n"
        "t = ticks_ms()\n"
        "busy = not p.ready()\n"
        "p.wait_until_ready(5000)\n"
        "print(busy, ticks_diff(ticks_ms(), t) >= 2000, p.refreshes, p.fulls)\n", soft_reset=True)
    assert out.split() == ["True", "True", "1", "1"], out


def test_a_sitting_scored_by_presses_syncs_and_replays_as_on_the_sim(machine, scored, tmp_path):
    out, db = scored
    m = re.search(r"stored sitting (T42-QEMU-[0-9A-F]{8}) ", out)
    assert m, out
    log = tmp_path / "s.jsonl"
    exp = _run("export", "--db", db, "--sitting", m.group(1), "--format", "jsonl",
               "--out", str(log))
    assert exp.returncode == 0, exp.stderr
    report = _run("replay", str(log), "--json")
    assert report.returncode == 0, report.stderr
    r = json.loads(report.stdout)
    # tests/e2e/sync/test_sync_sim.py's sitting on the sim scores the same
    assert r["score"] == [0, 7] and r["over"] and r["winner"] == 1
    assert len(r["hands"]) == 7


def test_devices_finds_the_scorer_on_the_repl_uart(machine, scored):
    out = _run("devices", "--port", machine.repl, *SLOW)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "T42-QEMU" in out.stdout and "0 sittings to sync" in out.stdout, out.stdout


def test_mpremote_breaks_in_and_the_scorer_comes_back_with_its_sitting(machine, scored):
    # A new sitting, one bid into its first hand. Then mpremote's way in (CR Ctrl-C,
    # then CR Ctrl-A) stops the scorer and a command runs on the REPL; started again,
    # the scorer resumes that sitting from the journal in RAM, on the same screen.
    _outcome_aside(machine)         # game over on show (a held OK on the outcome only
    machine.press([LONG | OK])      # dismisses it); then a new sitting of the same game
    machine.wait_for("score")
    drawn = len(machine.frames)
    machine.press([NEXT, OK])       # E bids 30
    machine.wait_idle(since=drawn)  # its frames drawn, not the quiet before them (a loaded
    screen = machine.frames[-1][1]  # machine's emulator takes the presses seconds late)
    assert screen in ("score", "bidding"), screen
    out = subprocess.run([sys.executable, "-m", "mpremote", "connect", machine.repl,
                          "exec", "import sys; print(sys.platform, sys.maxsize)"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "qemu 2147483647" in out.stdout, out.stdout
    listed = machine.exec("from firmware.journal import Journal\n"
                          "from engine_core.journal.reader import JournalReader\n"
                          "from boards.sim import qemu_mps2 as b\n"
                          "j = Journal(b.RamFlash())\n"
                          "j.mount()\n"
                          "print([s[1] for s in JournalReader(j).sittings()])\n", soft_reset=True)
    assert listed.strip().endswith("[True, False]"), listed    # synced; open
    before = len(machine.frames)
    machine.start_scorer()
    machine.wait_for(screen, since=before)     # drawn anew by the restarted scorer
    out = _run("devices", "--port", machine.repl, *SLOW)
    assert out.returncode == 0 and "T42-QEMU" in out.stdout, out.stdout + out.stderr


def test_garbage_on_the_line_leaves_the_scorer_scoring_and_syncing(machine, scored, tmp_path):
    import serial
    link = serial.serial_for_url(machine.repl, timeout=0.2)
    link.write(b"\x00\xff\x03garbage\r\n#T42 not a request\n" + bytes(range(256)))
    link.flush()
    link.read(4096)     # whatever error frames it answered with
    link.close()
    before = len(machine.frames)
    machine.press([NEXT])           # the scorer still takes presses
    machine.wait_idle(since=before)     # QemuError if no frame comes
    out = _run("sync", "--port", machine.repl, "--db", str(tmp_path / "t.db"),
               "--wait", "60", *SLOW)
    assert out.returncode == 0, out.stderr


def test_deploys_board_probe_reads_the_bare_metal_board(machine):
    # What tally42 deploy asks a board before it writes anything (host_tools/
    # board_probe.py through mpremote exec): the version, that the firmware is frozen
    # in, no file system copies, no ESP32 partitions.
    from host_tools.deploy import deploy
    found = deploy.probe(machine.repl)
    assert found.version[:2] == (1, 29) and "mps2-an385" in found.machine, found.machine
    assert found.frozen and not found.files and not found.parts
    # A deploy for an ESP32 board stops at the probe: this is no ESP32.
    out = _run("deploy", "--port", machine.repl, "--board", "esp32_epd29", timeout=180)
    assert out.returncode != 0 and "not an ESP32" in out.stderr, out.stdout + out.stderr


def _export_one(flash, folder):
    """The one sitting on the flash, exported as its log (its name is the random id the
    scorer gave it): a CompletedProcess whose stdout is that log."""
    out = _run("export", "--all", "--from-image", str(flash), "--out", str(folder) + "/")
    logs = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    assert len(logs) == 1, (out.stderr, logs)
    out.stdout = logs[0].read_text()
    return out


def test_sim_qemu_runs_a_script_and_keeps_its_flash(tmp_path):
    R.firmware()
    script = tmp_path / "hand.txt"
    script.write_text("ok\nnext\nlong ok\nok\nprev\n")    # setup, then a hand: 30, made
    flash = tmp_path / "f.bin"
    out = _run("sim", "--qemu", "--script", str(script), "--flash", str(flash), "--text",
               timeout=180)
    assert out.returncode == 0, out.stderr
    assert re.match(r"serial: /dev/pts/\d+$", out.stderr.splitlines()[0]), out.stderr
    assert flash.stat().st_size == 64 * 1024
    # --text: the screen the presses left (the second hand's bidding), with its words,
    # not the setup screen drawn before the presses were taken.
    words = [line for line in out.stdout.splitlines() if line and line[0] not in "│┌└"]
    assert words[0] == "Us N/S  hand 2, E deals  Them E/W", out.stdout
    assert "New 42 sitting" not in out.stdout
    # One sitting on the flash, named by the random id the scorer gave it.
    log = _export_one(flash, tmp_path / "first")
    assert log.returncode == 0, log.stderr
    assert '{"type": "bid", "bid": 30}' in log.stdout and '"made"' in log.stdout, log.stdout
    # Again on the same file: the sitting resumes from it and takes a second hand.
    script.write_text("next\nlong ok\nok\nprev\n")
    again = _run("sim", "--qemu", "--script", str(script), "--flash", str(flash),
                 timeout=180)
    assert again.returncode == 0, again.stderr
    log = _export_one(flash, tmp_path / "again")
    assert log.stdout.count('{"type": "bid", "bid": 30}') == 2, log.stdout
