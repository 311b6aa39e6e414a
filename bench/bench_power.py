# runs on: micropython
# Battery life from a current model: the firmware's main loop run on the sim board in
# fake time (tests/kit/fakes.py), each firmware step charged its device cost (the cost clock,
# tests/kit/costclock.py), a panel that refreshes in 600 ms (2.5 s full), and the time it
# spends awake at each CPU clock, in light sleep, in deep sleep and refreshing, times the
# datasheet currents in docs/hardware.md.
#   power.hours_per_1000mAh.playing   a hand every 3 minutes (9 presses), for an hour
#   power.hours_per_1000mAh.idle      a sitting on show, nobody pressing, for 24 hours
#   power.hours_per_1000mAh.playing.devkit   playing, with a DevKit's AMS1117 regulator
#   power.ma.playing / power.ma.idle          the average currents
#   power.awake_share.playing         the share of the time the CPU was awake
import os


from boardrig import START_MS, costed, fake_board, run_loop, script  # noqa: E402
from costclock import CostClock  # noqa: E402

# Datasheet currents in mA (docs/hardware.md says where each comes from).
CPU_160MHZ = 44.0       # ESP32, CPU on, radio off, 160 MHz (upper figure)
CPU_80MHZ = 31.0        # ESP32, CPU on, radio off, 80 MHz (upper figure)
LIGHT_SLEEP = 0.8       # ESP32 light sleep
DEEP_SLEEP = 0.01       # ESP32 deep sleep, RTC timer and memory on
PANEL_REFRESH = 8.0     # e-paper while refreshing: 26.4 mW at 3.3 V
REGULATOR = 0.05        # a low-quiescent LDO (ME6211-class: 40-70 uA) and pull-downs
DEVKIT_REGULATOR = 5.0  # AMS1117 quiescent current (typical)

HAND = (("ok", 0), ("next", 3), ("next", 4), ("ok", 5), ("ok", 10), ("ok", 15),
        ("ok", 20), ("ok", 30), ("ok", 170))      # seconds into the hand
HAND_EVERY_S = 180


def playing(hands):
    presses = [(START_MS + 500, 2)]     # OK: start the sitting
    idx = {"prev": 0, "next": 1, "ok": 2, "back": 3, "menu": 4}
    t0 = START_MS + 5000
    for h in range(hands):
        for name, s in HAND:
            presses.append((t0 + (h * HAND_EVERY_S + s) * 1000, idx[name]))
    end = t0 + hands * HAND_EVERY_S * 1000
    return presses, end


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
