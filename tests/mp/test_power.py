# Power (firmware/power.py) on the sim board in fake time (tests/fakes.py): the CPU clock
# down and light sleep while idle, a press waking it and counting, deep sleep after ten
# idle minutes with the score on the panel. MicroPython only: run with tests/mp_run.py.
from boardrig import START_MS, fake_board, run_loop, script
from firmware import power as P
from firmware.codes import BID, HOME


def test_idle_board_slows_light_sleeps_and_a_press_wakes_it():
    presses = script(("ok", "ok"), 20000)       # start a sitting; 20 s later a new hand
    b = fake_board(presses, stop_ms=presses[1][0] + 4000, light=True, deep=True)
    lp = run_loop(b)
    pw = lp.power
    assert lp.keys == 2 and lp.app.screen == BID     # the waking press counted
    assert b.freqs[:2] == [P.SLOW_HZ, P.FAST_HZ]
    assert pw.light_sleeps >= 1
    # Asleep from AWAKE_MS after the first screen to the second press, less the refresh.
    assert pw.light_ms >= 20000 - P.AWAKE_MS - 3000, pw.light_ms
    assert b.display.sleeps >= 1 and b.deep == []


def test_ten_idle_minutes_draw_the_score_then_deep_sleep():
    presses = script(("ok", "ok", "ok"), 200)   # a sitting, a bid made
    stop = START_MS + P.DEEP_SLEEP_MS + 10000
    b = fake_board(presses, stop_ms=stop, light=True, deep=True)
    lp = run_loop(b)
    assert len(b.deep) == 1
    idle_from = presses[-1][0]
    assert P.DEEP_SLEEP_MS <= b.deep[0] - idle_from < P.DEEP_SLEEP_MS + 5000
    assert lp.app.screen == HOME and b.display.name == "score"
    # The ten minutes were spent asleep, not polling every 10 ms.
    assert lp.power.light_ms > P.DEEP_SLEEP_MS - 10000
    assert lp.power.light_sleeps < 10


def test_no_sleep_while_the_panel_refreshes_or_a_button_is_down():
    presses = script(("ok",), 100)
    b = fake_board(presses, stop_ms=START_MS + 4000, light=True, full_ms=6000)
    lp = run_loop(b)
    assert lp.power.light_sleeps == 0   # the full refresh outlasted the stop
