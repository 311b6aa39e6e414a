"""Sims for a club night: each chip id its own flash file, one sim at a time on a
file, builds started at once that do not trip over each other, and the serial port a
sim is synced on shown on its screen whatever draws over it."""
import os
import re
import subprocess
import sys
import time

import pytest

from host_tools.build import sim as simbuild
from host_tools.sim import run as sim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAVE_MP = os.path.exists(simbuild.tool("micropython")) and os.path.exists(
    simbuild.tool("mpy-cross"))


def test_each_chip_id_has_its_own_flash_file(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    paths = {sim.default_flash(c) for c in ("0000A1", "0000a1", "0000A2")}
    assert len(paths) == 2
    assert sim.default_flash() == str(tmp_path / "tally42" / "sim-flash.bin")
    assert sim.default_flash("0000a1").endswith("sim-flash-0000A1.bin")


def test_a_flash_file_takes_one_sim_at_a_time(tmp_path):
    flash = str(tmp_path / "f.bin")
    held = sim.FlashLock(flash)
    try:
        with pytest.raises(sim.SimError, match="another sim is running on this flash"):
            sim.FlashLock(flash)
        # run() refuses before it builds or starts anything.
        with pytest.raises(sim.SimError, match="another sim is running"):
            sim.run(script=None, flash=flash, chip_id="0000B1")
        # Another process is refused too (flock is per open file, not per process).
        code = ("import sys; sys.path.insert(0, %r)\n"
                "from host_tools.sim import run as s\n"
                "try:\n    s.FlashLock(%r)\nexcept s.SimError as e:\n    print(e)\n"
                % (ROOT, flash))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert "another sim is running" in out.stdout, out.stderr
    finally:
        held.close()
    sim.FlashLock(flash).close()        # free again once the first has ended
    assert not os.path.exists(flash)    # the lock is beside the flash, not the flash


@pytest.mark.skipif(not HAVE_MP, reason="the MicroPython unix port is not set up")
def test_four_builds_at_once_into_a_fresh_folder_all_succeed(tmp_path):
    out = str(tmp_path / "build")
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from host_tools.build import sim as b\nb.build(%r)\nprint('built')\n"
            % (ROOT, out))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [p.communicate(timeout=600) for p in procs]
    for (stdout, stderr), p in zip(results, procs):
        assert p.returncode == 0 and stdout.strip() == "built", stderr
    left = [n for _, _, files in os.walk(out) for n in files if n.endswith(".tmp")]
    assert left == []
    assert os.path.getsize(os.path.join(out, simbuild.ROM)) > 0


@pytest.mark.skipif(not HAVE_MP, reason="the MicroPython unix port is not set up")
def test_the_serial_line_shows_under_every_frame_on_a_terminal(tmp_path):
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "sim", "--flash",
                             str(tmp_path / "f.bin"), "--chip-id", "0000C1"], cwd=ROOT,
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
            # A frame drawn (the cursor sent home) and the port's line after it.
            frame = seen.rfind(b"\x1b[H")
            if frame >= 0 and re.search(rb"serial: /dev/\S+", seen[frame:]):
                break
        frame = seen.rfind(b"\x1b[H")
        assert frame >= 0, seen[-400:]
        assert re.search(rb"serial: /dev/\S+", seen[frame:]), seen[-400:]
    finally:
        os.write(master, b"q")
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(master)
