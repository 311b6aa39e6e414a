"""The maker's guide's wiring pictures (docs/boards/<board>-wiring.svg) are drawn from
the board files' WIRING tables by tools/wiring.py: they are up to date, and every pin a
board file's code opens is in its table."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import wiring as W    # tools/: on the path (tests/conftest.py)


@pytest.mark.parametrize("board", W.BOARDS)
def test_the_picture_is_the_one_the_board_files_table_draws(board):
    with open(W.picture_path(board)) as f:
        assert f.read() == W.svg(board), "run: python tools/wiring.py"


@pytest.mark.parametrize("board", W.BOARDS)
def test_every_pin_the_code_opens_is_in_the_wiring_table(board):
    groups, _ = W.table(board)
    wired = {pin for _, wires in groups for _, pin, _ in wires if isinstance(pin, int)}
    used = W.code_pins(board)
    assert used, board
    assert used <= wired, "pins the code opens but the WIRING table omits: %s" % sorted(
        used - wired)
    # Every button and the panel's SPI lines are in the picture.
    labels = " ".join(label for _, wires in groups for label, _, _ in wires)
    for word in ("MOSI", "SCK", "CS", "DC", "RST", "BUSY", "PREV", "NEXT", "OK"):
        assert word in labels, (board, word)


def test_a_table_that_lost_a_pin_is_caught(tmp_path, monkeypatch):
    text = open(W.board_file("esp32_epd29")).read().replace(
        "#   BUSY              GPIO4\n", "")
    fake = tmp_path / "esp32_epd29.py"
    fake.write_text(text)
    monkeypatch.setattr(W, "board_file", lambda board: str(fake))
    groups, _ = W.table("esp32_epd29")
    wired = {pin for _, wires in groups for _, pin, _ in wires}
    assert 4 not in wired and 4 in W.code_pins("esp32_epd29")
    assert W.svg("esp32_epd29") != open(W.picture_path("esp32_epd29")).read()


def test_check_mode_says_what_is_out_of_date():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "wiring.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    bad = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "wiring.py"), "nope"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown board nope" in bad.stderr
