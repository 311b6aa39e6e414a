# The main loop on a board in fake time (tests/fakes.py): a slow e-paper panel, presses
# from a script. MicroPython only: run with tests/mp_run.py.
from apphelp import boot, press, same_state
from boardrig import fake_board, run_loop, script
from engine_core.codes import TRUMP

# Start plain 42, then a hand (E bids 32, three passes, trump, made), then the next hand
# begun (S bids 30): 15 presses, many of them during a refresh.
PLAY = ("ok",                                   # start the sitting (a full refresh)
        "next", "ok", "ok", "ok", "ok", "ok", "ok",   # E bids 30, 3 passes, trump, made
        "next", "ok", "ok", "ok", "ok")               # S bids 30, 3 passes


def _played_one_at_a_time():
    a = boot()
    press(a, *PLAY)
    return a


def test_no_press_is_lost_to_a_slow_refresh_and_the_order_is_kept():
    presses = script(PLAY, 150)
    b = fake_board(presses, stop_ms=presses[-1][0] + 6000)
    lp = run_loop(b)
    a = lp.app
    want = _played_one_at_a_time()
    assert lp.keys == len(PLAY), lp.keys
    assert b.keys.dropped == 0
    assert a.s.hands() == 1 and a.s.score(1) == 1
    assert a.s.high_value() == 30 and a.s.phase() == TRUMP  # hand 2: S bid 30, 3 passes
    assert same_state(a.s, want.s)
    # The panel was busy for most of the presses; it shows the last state in the end.
    assert b.display.busy_ms > 150 * len(PLAY)
    assert lp.draws < len(PLAY)
    assert a.fb.name == "contract" and "S bid 30" in b.display.screen_text()

