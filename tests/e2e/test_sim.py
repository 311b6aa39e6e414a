"""`tally42 sim` end to end: the firmware from .mpy files on the MicroPython unix port with
a 110K heap, scripted buttons in; the flash image out, exported with `tally42 export
--from-image` and scored with `tally42 replay`, as played; PNG screens; resume after a
quit in the middle of a hand; the interactive terminal through a pseudo-terminal."""
import json
import os
import re
import select
import struct
import sys
import time
import zlib

import pytest

from host_tools.cli import main as tally42
from host_tools.log import image
from host_tools.build import sim as simbuild
from host_tools.sim import run as sim
from host_tools.sim import screen as simscreen

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAVE_MP = os.path.exists(simbuild.tool("micropython")) and os.path.exists(simbuild.tool("mpy-cross"))
# Run again on the 32-bit MicroPython build by `make test` (TALLY42_MICROPYTHON).
pytestmark = [pytest.mark.skipif(not HAVE_MP, reason="the MicroPython unix port is not set up"),
              pytest.mark.mp32]

# Five hands of 42 for marks: Them (E, W) win hand 1, Us the next four: 4-1 to Us.
NEW_HAND_MADE = ["next", "long ok", "ok", "prev"]   # on the score: 30 and the rest pass,
NEW_HAND_SET = ["next", "long ok", "ok", "next"]   # trump, < made; ... > set
SITTING = (["ok"] + NEW_HAND_MADE + NEW_HAND_MADE + NEW_HAND_SET + NEW_HAND_MADE
           + NEW_HAND_SET)


def _script(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("# %s\n" % name + "\n".join(lines) + "\n")
    return str(path)


def _sim(capfd, *args):
    rc = tally42(["sim"] + [str(a) for a in args])
    out, err = capfd.readouterr()
    return rc, out, err


def _export(capfd, flash, out, sitting=1):
    # The image's sitting `sitting` (its number on the scorer), by the id export gives it.
    sid = [lines[0]["id"] for n, lines in image.read_image_report(str(flash))[0]
           if n == int(sitting)][0]
    rc = tally42(["export", "--from-image", str(flash), "--sitting", sid, "--out", str(out)])
    capfd.readouterr()
    assert rc == 0
    rc = tally42(["replay", str(out), "--json"])
    report, err = capfd.readouterr()
    assert rc == 0, err
    return json.loads(report)


def test_scripted_sitting_exports_and_replays_to_the_score_played(tmp_path, capfd):
    flash = tmp_path / "flash.bin"
    screens = tmp_path / "screens"
    rc, out, err = _sim(capfd, "--script", _script(tmp_path, "s.txt", SITTING),
                        "--flash", flash, "--screens", screens)
    assert rc == 0, err
    assert re.match(r"serial: /dev/pts/\d+\n", out), out
    report = _export(capfd, flash, tmp_path / "s.jsonl")
    assert report["score"] == [4, 1]
    assert [h["made"] for h in report["hands"]] == [True, True, False, True, False]
    assert report["next"]["phase"] == "bidding" and report["next"]["dealer"] == 1
    # The last screen drawn is the score, after a full refresh.
    names = sorted(os.listdir(screens))
    assert names[-1].endswith("-score.png")
    assert len(names) == len(SITTING) + 1      # the boot screen, then one a press


def test_screens_are_1bit_pngs_at_true_pixel_size(tmp_path, capfd):
    screens = tmp_path / "png"
    rc, _, err = _sim(capfd, "--script", _script(tmp_path, "s.txt", ["ok", "ok"]),
                      "--flash", tmp_path / "f.bin", "--screens", screens)
    assert rc == 0, err
    names = sorted(os.listdir(screens))
    assert names == ["0001-setup.png", "0002-score.png", "0003-bidding.png"]
    data = (screens / names[-1]).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert (w, h, depth, colour) == (296, 128, 1, 0)
    # Some ink, mostly paper.
    idat = data[data.index(b"IDAT") + 4:data.index(b"IEND") - 8]
    raw = zlib.decompress(idat)
    assert len(raw) == 128 * (1 + 37)
    black = sum(8 - bin(b).count("1") for i, b in enumerate(raw) if i % 38)
    assert 300 < black < 296 * 128 // 3


def test_resume_after_quitting_in_the_middle_of_a_hand(tmp_path, capfd):
    # Played in two runs, quitting after two bids of hand 3...
    flash = tmp_path / "two.bin"
    cut = 1 + 4 + 4 + 2
    rc, _, err = _sim(capfd, "--script", _script(tmp_path, "a.txt", SITTING[:cut]),
                      "--flash", flash)
    assert rc == 0, err
    mid = image.read_image(str(flash))[0][1]
    assert [x["type"] for x in mid[-2:]] == ["bid", "bid"]
    rc, _, err = _sim(capfd, "--script", _script(tmp_path, "b.txt", SITTING[cut:]),
                      "--flash", flash)
    assert rc == 0, err
    # ... is the same sitting as played in one run.
    one = tmp_path / "one.bin"
    rc, _, err = _sim(capfd, "--script", _script(tmp_path, "c.txt", SITTING), "--flash", one)
    assert rc == 0, err
    assert image.read_image(str(flash)) == image.read_image(str(one))
    assert _export(capfd, flash, tmp_path / "two.jsonl")["score"] == [4, 1]


def test_settings_persist_between_runs(tmp_path, capfd):
    flash = tmp_path / "f.bin"
    # A new scorer asks what we play: the rows (the last line). Points scoring: next, next
    # (to the scoring row), ok, next (points), ok, start...
    setup = ["prev", "ok", "next", "next", "ok", "next", "ok", "prev", "prev", "ok"]
    rc, _, err = _sim(capfd, "--script", _script(tmp_path, "a.txt", setup), "--flash", flash)
    assert rc == 0, err
    # A game over is not needed to start another: menu, new sitting, same game, start.
    again = ["menu", "prev", "prev", "ok", "ok"]
    rc, _, err = _sim(capfd, "--script", _script(tmp_path, "b.txt", again), "--flash", flash)
    assert rc == 0, err
    logs = image.read_image(str(flash))
    assert len(logs) == 2
    assert [log[0]["options"]["scoring"] for _, log in logs] == ["points", "points"]


def test_a_bad_script_line_is_reported(tmp_path, capfd):
    rc, out, err = _sim(capfd, "--script", _script(tmp_path, "bad.txt", ["ok", "jump"]),
                        "--flash", tmp_path / "f.bin")
    assert rc != 0
    assert "script line 3: unknown button jump" in err


def test_missing_script_is_a_tally42_error(tmp_path, capfd):
    rc, _, err = _sim(capfd, "--script", tmp_path / "none.txt", "--flash", tmp_path / "f.bin")
    assert rc == 2 and "tally42: " in err and "cannot read" in err


def test_interactive_sim_in_a_terminal(tmp_path):
    # `make sim`: keys on a terminal; Enter starts a sitting, q quits; the frame fits 80x40.
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "host_tools", "sim", "--flash",
                                  str(tmp_path / "i.bin")])
    out = b""

    def read_for(seconds):
        nonlocal out
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return
    read_for(5)
    os.write(fd, b"\r")
    read_for(2)
    os.write(fd, b"q")
    read_for(60)            # until the sim has gone (the terminal closes)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    text = out.decode("utf-8", "replace")
    assert "\u2800" in text         # braille cells
    assert "Enter ok" in text       # the help line under the screen
    frame = [line for line in text.split("\n") if "\u2502" in line]
    assert frame and max(len(line.strip("\r")) for line in frame) <= 80
    # The screen's words under the picture: what we play, then the score Enter started.
    assert "42, marks to 7" in text and "E bids < pass >" in text
    assert "Us N/S  hand 1, N deals  Them E/W" in text
    logs = image.read_image(str(tmp_path / "i.bin"))
    assert len(logs) == 1           # Enter started a sitting


def test_a_long_session_through_every_screen_fits_the_heap(tmp_path, capfd):
    # Every kind of screen, a tracked hand, undo across a hand, a second sitting for
    # points, the history of many hands: all on the 110K heap.
    tracked = ["menu", "next", "next", "ok", "menu",            # tracker on
               "next", "long ok", "ok",                           # bid 30, passes, trump
               "next", "next", "ok", "next", "next", "ok", "next", "next", "ok",
               "ok",                                              # close: made
               "menu", "next", "next", "ok", "menu"]              # tracker off
    lines = ["ok"] + tracked + NEW_HAND_MADE + ["back", "back", "back", "ok"]
    lines += ["ok"] + NEW_HAND_MADE
    lines += ["menu", "next", "ok", "prev", "next", "prev", "ok"]              # history
    lines += ["menu", "next", "next", "next", "ok", "back"]                    # sync
    for _ in range(5):
        lines += NEW_HAND_MADE + ["menu", "next", "ok", "ok"]   # a hand, then the history
    # A second sitting, for points (menu, new sitting), and 12 hands of it.
    lines += ["menu", "prev", "prev", "ok", "next", "next", "ok", "next", "ok", "prev", "prev", "ok"]
    for k in range(12):
        lines += ["next", "long ok", "ok", "next"] + ["next"] * (k % 5) + ["ok"]
    lines += ["menu", "next", "ok"] + ["prev"] * 12 + ["ok", "menu", "prev", "prev", "ok", "back"]
    flash = tmp_path / "long.bin"
    rc, out, err = _sim(capfd, "--script", _script(tmp_path, "long.txt", lines),
                        "--flash", flash)
    assert rc == 0, err
    assert err == ""
    logs = image.read_image(str(flash))
    assert len(logs) == 2
    for sid, _ in logs:
        report = _export(capfd, flash, tmp_path / ("%d.jsonl" % sid), str(sid))
    assert report["options"]["scoring"] == "points"
    assert len(report["hands"]) == 12


def test_the_firmware_runs_from_its_romfs_image_with_110k_of_heap(tmp_path):
    # The modules are imported from the image (bytecode in place, as from a device's
    # flash), the image is rebuilt when a module changes, and the heap the firmware gets
    # is the ESP32's 110K, not less for the image below it.
    out = simbuild.build()
    rom = os.path.join(out, simbuild.ROM)
    simbuild.write_script(out, "romcheck.py",
                     "from firmware import app\nfrom boards.sim import board as sim\n"
                     "print(app.__file__, sim.__file__, FIRMWARE_FREE)\n")
    import subprocess
    r = subprocess.run(simbuild.command(out, [], simbuild.HEAP, "romcheck.py"), cwd=out,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    app_file, board_file, free = r.stdout.split()
    assert app_file == "/rom/firmware/app.mpy" and board_file == "/rom/boards/sim/board.mpy"
    plain = subprocess.run([simbuild.tool("micropython"), "-X", "heapsize=" + simbuild.HEAP, "-c",
                            "import gc; gc.collect(); print(gc.mem_free())"],
                           capture_output=True, text=True)
    assert abs(int(free) - int(plain.stdout)) <= 512, (free, plain.stdout)
    before = os.path.getmtime(os.path.join(out, "firmware", "fonts.mpy")) - 10
    os.utime(rom, (before, before))     # as if fonts.py was recompiled after the image
    simbuild.write_rom(out)
    assert os.path.getmtime(rom) > before


def test_a_file_that_is_not_a_flash_image_is_refused_and_left_alone(tmp_path, capfd):
    log = tmp_path / "s.jsonl"
    log.write_text('{"type": "sitting", "variant": "42"}\n')
    big = tmp_path / "big.bin"
    big.write_bytes(b"\x00" * sim.FLASH_SIZE)
    for path, why in ((log, "not a flash image of the sim (37 bytes"),
                      (big, "not a flash image of the sim (no journal in it)"),
                      (tmp_path, "a folder")):
        before = path.read_bytes() if path.is_file() else None
        rc, out, err = _sim(capfd, "--script", _script(tmp_path, "s.txt", ["ok"]),
                            "--flash", path)
        assert rc == 2 and err.startswith("tally42: --flash ") and why in err, err
        assert before is None or path.read_bytes() == before


def test_a_script_that_is_not_text_and_a_panel_it_cannot_draw_are_refused(tmp_path, capfd):
    binary = tmp_path / "b.txt"
    binary.write_bytes(bytes(range(256)) * 4)
    rc, out, err = _sim(capfd, "--script", binary, "--flash", tmp_path / "f.bin")
    assert rc == 2 and err == "tally42: %s: not a script: not UTF-8 text\n" % binary
    for panel in ("0x0", "10x10", "5000x128", "-296x128", "x"):
        rc, out, err = _sim(capfd, "--panel", panel, "--flash", tmp_path / "f.bin")
        assert rc == 2 and err.startswith("tally42: ") and "--panel" in err, (panel, err)
    assert not (tmp_path / "f.bin").exists()


def test_hold_takes_the_keyboard_after_the_script(tmp_path):
    import subprocess
    flash = tmp_path / "h.bin"
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "sim", "--script",
         _script(tmp_path, "h.txt", ["ok"]), "--hold", "--flash", str(flash)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline().startswith(b"serial: /dev/")
        # A hand on the keys: setup (Enter is OK), the first seat bids 30 (right arrow)
        # and the rest pass (Tab: OK held), trump, made (left arrow); q.
        proc.stdin.write(b"\r\x1b[C\t\r\x1b[Dq")
        proc.stdin.flush()
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    logs = image.read_image(str(flash))
    assert len(logs) == 1 and [ln["type"] for ln in logs[0][1]].count("result") == 1

def _frame_of(tmp_path, capfd, presses):
    # The last refresh of a scripted run, as the board sent it: (words, frame bytes).
    got = []
    real = simscreen.Frames.feed

    def feed(self, data):
        out = real(self, data)
        got.extend(out)
        return out

    simscreen.Frames.feed = feed
    try:
        rc, _, err = _sim(capfd, "--script", _script(tmp_path, "w.txt", presses),
                          "--flash", tmp_path / "w.bin")
    finally:
        simscreen.Frames.feed = real
    assert rc == 0, err
    return got[-1][2], got[-1][3]


def test_terminal_draws_full_size_when_wide_and_the_words_under_it(tmp_path, capfd,
                                                                   monkeypatch):
    import io
    words, frame = _frame_of(tmp_path, capfd, ["ok", "ok", "next"])     # S's bid
    out = io.StringIO()
    term = simscreen.Terminal(296, 128, out)
    for columns, width in ((160, 150), (100, 76)):
        monkeypatch.setattr(term, "columns", lambda c=columns: c)
        out.seek(0)
        out.truncate()
        term.draw(False, "bidding", words, frame, 3)
        lines = out.getvalue().replace("\x1b[K", "").replace("\x1b[J", "")[3:].split("\r\n")
        box = [line for line in lines if line.startswith("\u2502")]
        assert len(box) == 32 and {len(line) for line in box} == {width}
        # Under the picture, the words a player reads on it, line by line.
        after = lines[lines.index("\u2514" + "\u2500" * (width - 2) + "\u2518") + 1:]
        assert after[:5] == ["  hand 1  N deals  Us 0-0 Them", "  bids: E pass",
                             "  S bids  <  30  >", "  < pass   31 >",
                             "  <> bid  hold >: +5  hold <: 42/84"], after


def test_words_lines_join_texts_level_with_each_other():
    words = [(0, 0, 8, 0, "hand 1"), (200, 0, 8, 0, "Them"), (20, 27, 36, 0, "30"),
             (2, 37, 16, 0, "E bids"), (0, 60, 8, 1, "made")]
    assert simscreen.words_lines(words) == ["hand 1  Them", "E bids  30", "[made]"]
