# runs on: micropython
# Battery life from a current model: the firmware's main loop run on the sim board in
# fake time (tests/kit/chip/fakes.py), each firmware step charged its device cost (the cost clock,
# tests/kit/costclock.py), a panel that refreshes in 600 ms (2.5 s full), and the time it
# spends awake at each CPU clock, in light sleep, in deep sleep and refreshing, times the
# datasheet currents in docs/hardware.md.
#   power.hours_per_1000mAh.playing   a hand every 3 minutes (9 presses), for an hour
#   power.hours_per_1000mAh.idle      a sitting on show, nobody pressing, for 24 hours
#   power.hours_per_1000mAh.playing.devkit   playing, with a DevKit's AMS1117 regulator
#   power.ma.playing / power.ma.idle          the average currents
#   power.awake_share.playing         the share of the time the CPU was awake
import os


from boardrig import (CPU_160MHZ, CPU_80MHZ, DEEP_SLEEP, DEVKIT_REGULATOR, HAND,  # noqa: E402, F401
                      HAND_EVERY_S, LIGHT_SLEEP, PANEL_REFRESH, REGULATOR, START_MS, costed,
                      fake_board, playing, run_loop, script)
from costclock import CostClock  # noqa: E402


def measure(presses, end):
    b = costed(fake_board(presses, stop_ms=end, light=True, clock=CostClock(START_MS)))

    def deep_sleep():       # asleep until the end of the window (no press comes)
        b.clock.t = end
    b.deep_sleep = deep_sleep
    lp = run_loop(b)
    total = b.clock.t - START_MS
    pw = lp.power
    light = pw.light_ms
    slow = pw.slow_ms
    deep = pw.deep_ms
    fast = total - light - slow - deep
    charge = (fast * CPU_160MHZ + slow * CPU_80MHZ + light * LIGHT_SLEEP
              + deep * DEEP_SLEEP + b.display.busy_ms * PANEL_REFRESH)
    return charge / total, (fast + slow) / total, lp


# bench/run.py --quick: 2 hands, and an hour idle.
QUICK = os.getenv("TALLY42_BENCH_QUICK") == "1"


def main():
    presses, end = playing(2 if QUICK else 20)
    ma, awake, lp = measure(presses, end)
    hours = 1000 / (ma + REGULATOR)
    print("power.hours_per_1000mAh.playing: %.0f h" % hours)
    print("power.hours_per_1000mAh.playing.devkit: %.0f h" % (1000 / (ma + DEVKIT_REGULATOR)))
    print("power.ma.playing: %.2f mA" % (ma + REGULATOR))
    print("power.awake_share.playing: %.1f %%" % (awake * 100))
    print("power.presses.playing: %d of %d taken" % (lp.keys, len(presses)))
    ma, awake, lp = measure(script(("ok",), 100), START_MS + (1 if QUICK else 24) * 3600 * 1000)
    print("power.hours_per_1000mAh.idle: %.0f h" % (1000 / (ma + REGULATOR)))
    print("power.ma.idle: %.3f mA" % (ma + REGULATOR))


if __name__ == "__main__":
    main()
