# The MicroPython side of bench/bench_ui.py (run by it from the sim's .mpy build, with
# the sim's 110K heap). Not a bench on its own.
#   make FLASH HANDS    a sitting of HANDS hands on FLASH
#   measure FLASH       boot on it; print the figures
#   presses N SEED GIN  presses a hand (mp_ui_search.py): the typical hand, each trump,
#                       N sittings of the corpus from SEED, gin sittings of each game
#                       (GIN hands of one each, 0: two whole sittings each), the presses from
#                       a 42 sitting (and from a fresh scorer's first power-on) to a new gin
#                       pad; the hidden actions, opposite holds and preset unknowns
#                       (mp_ui_hidden.py); the text that does not fit (mp_ui_fit.py)
# (arguments after the launcher's name: see bench_ui.py)
import gc
from time import ticks_diff, ticks_ms, ticks_us

from firmware.codes import HOME, LONG

# Logical buttons (firmware.buttons).
PREV = 1
NEXT = 2
OK = 3


def make(path, hands):
    from boards.sim import board as sim
    from engine_core import codes as C
    from engine_core.texas42 import options as O
    from firmware import app as A
    b = sim.Board(path)
    a = A.App(b.display, b.flash, b.settings_path)
    a.boot()
    # Points to 9999, so that the sitting is still going after `hands` hands.
    from firmware.ui import setup
    setup.new_sitting(a, O.resolve("42", {"scoring": "points", "target": 9999}), 0)
    s = a.scorer.s
    k = 0
    while s.hands() < hands:
        k += 1
        a.take(C.event(C.EV_BID, 30 + k % 12))
        while s.phase() == 0:
            a.take(C.event(C.EV_BID, 0))
        a.take(C.event(C.EV_TRUMP, k % 7))
        a.take(C.event(C.EV_POINTS, 20 + k % 22))
    b.close()


def gin_typical_hand(a):
    # Oklahoma Gin from the score screen before a hand: turn-up 8, seat 1 knocks with 6,
    # seat 0 is left with 23. Each press is the one the cursor on show asks for (the
    # short way round for the turn-up; seat 1 on the right; a held arrow for a step of 5).
    from firmware.ui import gin_draw as GD
    s = a.scorer.s
    f = a.fields
    hands = s.hands()
    n = 0
    while s.hands() == hands:
        if a.screen == HOME and s.phase() == 4:           # the turn-up
            d = (8 - a.cur) % 13
            key = OK if d == 0 else (NEXT if d <= 6 else PREV)
        elif a.screen == HOME and not f[GD.STAGE]:        # who went out: seat 1, right
            key = NEXT
        elif a.screen == HOME:                            # how the hand ended
            key = OK if f[GD.K] == 6 else (PREV if f[GD.K] > 6 else NEXT)
        elif a.cur < 0:                                     # unset: the first arrow, 25
            key = NEXT
        else:                                               # the opponent's total
            d = 23 - a.cur
            if d == 0:
                key = OK
            elif d >= 5 or d <= -5:
                key = LONG | (NEXT if d > 0 else PREV)
            else:
                key = NEXT if d > 0 else PREV
        a.press(key)
        n += 1
    assert s.score(1) == 23 and a.screen == HOME
    return n


def measure(path):
    t0 = ticks_ms()
    from boards.sim import board as sim  # the order of boards/sim/board.py's main
    from firmware import app as A
    t1 = ticks_ms()
    b = sim.Board(path)
    gc.collect()
    t2 = ticks_us()
    a = A.App(b.display, b.flash, b.settings_path)
    a.boot()
    a.render()
    t3 = ticks_us()
    hands = a.scorer.s.hands()
    # Boot again (the modules loaded): the journal scan, the replay, the first screen.
    times = []
    for _ in range(5):
        a = None
        gc.collect()
        t = ticks_us()
        a = A.App(b.display, b.flash, b.settings_path)
        a.boot()
        a.render()
        times.append(ticks_diff(ticks_us(), t))
    times.sort()
    print("hands", hands)
    print("boot_us_first", ticks_diff(t3, t2))
    print("boot_us", times[2])
    print("imports_ms", ticks_diff(t1, t0))
    # Renders: every screen of a hand, each drawn again a few times once loaded.
    total = 0
    count = 0
    for key in (OK, NEXT, OK, OK, OK, OK, OK, OK):
        a.press(key)
        for _ in range(3):
            t = ticks_us()
            a.render()
            total += ticks_diff(ticks_us(), t)
            count += 1
    print("render_us", total // count)
    print("screens", count // 3)
    # Presses: a typical hand of Oklahoma Gin (the 42 family's: presses(), by search).
    from engine_core.texas42 import options as O
    from firmware.ui import setup
    setup.new_sitting(a, O.resolve("oklahoma-gin"), 0)
    a.render()
    print("presses_gin_typical", gin_typical_hand(a))
    b.close()


def presses(sittings, seed, gin_hands, hands42=0):
    # The fewest presses a hand takes, found by searching the screens (mp_ui_search):
    # the typical hand, the same naming each trump, and a corpus of realistic sittings.
    from boards.sim import board as sim
    from engine_core import codes as C
    from engine_core.texas42 import options as O
    import mp_ui_search as M
    d = sim.SimDisplay()
    rules = O.resolve("42")
    bid = C.event(C.EV_BID, 30)
    npass = C.event(C.EV_BID, C.PASS)
    made = C.event(C.EV_MADE, 1)
    # The typical hand names the trump the cursor starts on (firmware.ui.contract.START).
    from firmware.ui import contract
    a = M.make_app(d, rules)
    print("presses_typical", M.fewest(a, (bid, npass, npass, npass,
                                          C.event(C.EV_TRUMP, contract.START), made)))
    n = 0
    for trump in M.TRUMPS:
        a = M.make_app(d, rules)
        n += M.fewest(a, (bid, npass, npass, npass, C.event(C.EV_TRUMP, trump), made))
    print("presses_any_trump_x100", 100 * n // len(M.TRUMPS))
    hands, total, most = M.corpus_mean(d, sittings, seed, hands=hands42 or None)
    print("corpus_hands", hands)
    print("corpus_presses", total)
    print("corpus_most", most)
    hands, floor = M.corpus_floor(sittings, seed)
    print("corpus_floor_x100", floor)
    hands, total, most = M.gin_corpus_mean(d, seed, hands=gin_hands or None,
                                           sittings=1 if gin_hands else 2)
    print("gin_hands", hands)
    print("gin_presses", total)
    print("gin_most", most)
    print("setup_gin", M.setup_gin(d))
    print("setup_gin_from_power_on", M.setup_gin_from_power_on(d))
    import mp_ui_hidden
    mp_ui_hidden.report(sim.SimDisplay(record=True))
    import mp_ui_fit
    mp_ui_fit.report()


def main(argv):
    if argv[0] == "make":
        make(argv[1], int(argv[2]))
    elif argv[0] == "presses":
        presses(int(argv[1]), int(argv[2]), int(argv[3]), int(argv[4]) if argv[4:] else 0)
    else:
        measure(argv[1])
