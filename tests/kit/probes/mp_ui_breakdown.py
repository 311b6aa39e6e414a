# Where the presses of ui.presses_per_hand.* go: the same fewest paths as
# tests/kit/probes/mp_ui_search.py's fewest() (the same keys, states and dead ends; the count is
# not changed), each press charged to the screen it was made on (and its step: the
# sitting's phase on the score, the question on the gin totals). MicroPython only:
#   micropython -X heapsize=64m tests/kit/probes/mp_ui_breakdown.py 42|gin     (from the project root)
# `floor`: the least any design with an OK a question could take on the gin corpus.
import sys


import mp_ui_search as M  # noqa: E402
from boards.sim.board import SimDisplay  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402

_STEP = 3       # firmware.ui.gin_draw.STEP: the totals screen's question


def _where(a):
    # The screen a press is made on, with its step.
    if a.screen == "result" and a.scorer.s.rules.family:
        return a.screen, a.fields[_STEP]
    return a.screen, a.scorer.s.phase()


def fewest_path(a, want, limit=40000, dead=None):
    """M.fewest()'s search, returning the path found as (screen, key) pairs (None when
    none is found within `limit` presses tried); a is left where the path ends."""
    a.want = want
    a.k = 0
    start = M.snapshot(a)
    seen = {M._key(start): 1}
    level = [(start, ())]
    tried = 0
    while level and tried < limit:
        nxt = []
        for snap, path in level:
            for key in M.KEYS:
                M.restore(a, snap)
                at = _where(a)
                a.press(key)
                tried += 1
                if a.wrong or a.screen in M._NOWHERE or (dead is not None and dead(a, want)):
                    continue
                got = M.snapshot(a)
                p = path + ((at, key),)
                if a.k == len(want):
                    a.want = ()
                    return p
                kk = M._key(got)
                if kk in seen:
                    continue
                seen[kk] = 1
                nxt.append((got, p))
        level = nxt
    M.restore(a, start)
    a.want = ()
    return None


def _report(title, hands, per):
    total = 0
    for v in per.values():
        total += v
    print("%s: %d hands, %.2f presses a hand" % (title, hands, total / hands))
    for k in sorted(per):
        print("  %-28s %4d  %.2f a hand" % (k, per[k], per[k] / hands))


def gin(seed=7, sittings=2):
    # As gin_corpus_mean(): each game's sittings, the first dealer alternating.
    d = SimDisplay()
    rnd = M.Rand(seed)
    k = 0
    per = {}
    hands = {}
    for game in ("oklahoma-gin", "sequence-gin", "skarney-gin") * sittings:
        a = M.make_app(d, O.resolve(game), k % 2)
        s = a.scorer.s
        while not s.over():
            p = fewest_path(a, tuple(M.gin_hand_events(s, rnd)), 400000, M._gin_dead)
            hands[game] = hands.get(game, 0) + 1
            g = per.setdefault(game, {})
            for at, _ in p:
                g[repr(at)] = g.get(repr(at), 0) + 1
        k += 1
    for game in sorted(per):
        _report(game, hands[game], per[game])


def _ball(n):
    # The least mean presses to reach one of n equally likely values from where a screen
    # starts, with four arrow gestures (short and held, each way): at most 4k values are
    # k presses away, whatever the steps.
    total = 0
    left = n - 1
    k = 1
    while left > 0:
        m = 4 * k if 4 * k < left else left
        total += k * m
        left -= m
        k += 1
    return total / n


def gin_floor(seed=7, sittings=2):
    """The same corpus as gin(), each hand charged what any design must charge where
    each question (the turn-up, the ending, each total) is taken by its own OK and its
    value reached by the four arrow gestures from a fixed start: one OK a question, the
    turn-up's 13 cards and each total's range (gin_hand_events') at the _ball() bound, the
    ending free. Prints the floor a hand next to the search's measured mean."""
    from engine_core.gin import codec as Gc
    from engine_core.gin import rules as G
    d = SimDisplay()
    rnd = M.Rand(seed)
    k = 0
    n = 0
    floor = 0.0
    for game in ("oklahoma-gin", "sequence-gin", "skarney-gin") * sittings:
        a = M.make_app(d, O.resolve(game), k % 2)
        s = a.scorer.s
        while not s.over():
            want = M.gin_hand_events(s, rnd)
            up = s.row[G.TURNUP]
            kind = want[len(want) - 1] >> 24
            floor += 1      # the ending's OK
            if len(want) > 1:
                floor += 1 + _ball(13)
            if kind == Gc.EV_DRAWOUT:
                if not up:
                    floor += 2 * (1 + _ball(56))
            elif kind == Gc.EV_KNOCK:
                floor += 1 + _ball(42)
            else:
                floor += 1 + _ball(51 if up else 71)
            for ev in want:
                assert a.scorer.take(ev), (a.scorer.refusal, ev)
            n += 1
        k += 1
    print("ui.presses_per_hand.gin_floor: %.2f presses (%d hands)" % (floor / n, n))


def f42(seed=7, sittings=4):
    # As corpus_mean().
    d = SimDisplay()
    rnd = M.Rand(seed)
    per = {}
    n = 0
    k = 0
    while k < sittings:
        a = M.make_app(d, O.resolve("42"), k % 4)
        s = a.scorer.s
        while not s.over():
            p = fewest_path(a, M.hand_events(s, rnd))
            n += 1
            for at, _ in p:
                per[repr(at)] = per.get(repr(at), 0) + 1
        k += 1
    _report("42", n, per)


if __name__ == "__main__":
    if sys.argv[-1] == "gin":
        gin()
    elif sys.argv[-1] == "floor":
        gin_floor()
    else:
        f42()
