# Every action reachable from a screen is named on it (ui.hidden_actions, by
# bench/mp_ui_hidden.py): each screen of both families in the states a table meets it
# in, each button short and held. MicroPython only: run with tests/mp_run.py.
import sys

sys.path.insert(0, "bench")

import mp_ui_hidden as H  # noqa: E402
from boards.sim import SimDisplay  # noqa: E402
from firmware.codes import LONG, NEXT, OK, PREV  # noqa: E402


def test_the_check_reads_button_names_as_the_footers_write_them():
    assert H.named("<> bid  OK/BACK return", NEXT) and H.named("OK/BACK return", 4)
    assert H.named("hold >: +5  hold <: 42/84", LONG | PREV)
    assert not H.named("hold >: +5", NEXT) and not H.named("<> bid", LONG | NEXT)
    assert not H.named("OK take it (hold: set)", LONG | OK)
    assert H.named("M menu", 5) and not H.named("Menu", 5)


def test_no_screen_hides_an_action():
    hidden, met = H.check(SimDisplay(record=True))
    assert [m for m in H.SCREENS if m not in met] == []
    assert hidden == [], "\n".join("%s (%s): %s" % (label, m, H.key_name(k))
                                   for label, m, k in hidden)
