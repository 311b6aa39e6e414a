# Every line of every screen fits the 296x128 panel and the T5's 250x122
# (bench/mp_ui_fit.py, ui.text_overlaps), and the check finds a line that does not.
# And the presses from a fresh scorer to a gin pad (ui.presses.setup_gin_from_power_on).
# MicroPython only: run with tests/mp_run.py.
import sys

sys.path.insert(0, "bench")

import mp_ui_fit as F  # noqa: E402
import mp_ui_search as M  # noqa: E402
from boards.sim import SimDisplay  # noqa: E402
from firmware.codes import BLACK, WHITE  # noqa: E402


def test_no_text_overlaps_a_rule_or_a_text_and_none_is_cut():
    bad = F.check()
    assert bad == [], "\n".join("%s %s: %s %s" % b for b in bad)


def test_the_check_finds_what_does_not_fit():
    d = F.FitDisplay(250, 122)
    d.fill(WHITE)
    d.text("ok", 0, 0, BLACK)
    assert F.faults(d) == []
    d.text("a line too long for the T5 panel", 0, 20, BLACK)    # 32 columns: cut
    d.hline(0, 4, 10, BLACK)                                    # through "ok"
    d.text("x", 4, 4, BLACK)                                    # over "ok"
    d.fill_rect(0, 18, 20, 4, WHITE)                            # over the long line
    got = [what for what, _ in F.faults(d)]
    assert "under a box" in got and "over a rule" in got
    assert "over text 'x'" in got
    d.fill(WHITE)
    d.text("a line too long for the T5 panel", 0, 20, BLACK)
    assert F.faults(d) == [("cut", "a line too long for the T5 panel")]


def test_a_gin_pad_is_at_most_3_presses_from_a_first_power_on():
    n = M.setup_gin_from_power_on(SimDisplay())
    assert 0 < n <= 3, n
