# Engine benchmarks: prints `name: value unit` lines. Run with CPython (it runs itself on
# the MicroPython unix port too) or directly with micropython.
# TALLY42_BENCH_QUICK=1 (bench/run.py --quick): a few sittings, to show that it runs.
import gc
import os
import sys

from array import array  # noqa: E402

from engine_core.codes import MAX_EVENT_BYTES  # noqa: E402
from engine_core.header import encode_header  # noqa: E402
import frames  # noqa: E402 (tests/kit/engine/frames.py)
from engine_core.texas42 import options as O  # noqa: E402
from engine_core.gin import rules as G  # noqa: E402
from engine_core.texas42 import variants as V  # noqa: E402
from engine_core.codes import EV_BID, EV_TRUMP, EV_MADE, event  # noqa: E402
from engine_core.texas42.sitting import Sitting  # noqa: E402
from randsit import RandomPlayer, play  # noqa: E402
from engine_core.games import new_sitting  # noqa: E402
from ginrand import RandomGinPlayer  # noqa: E402

MICRO = sys.implementation.name == "micropython"
# A bare-metal port (bench/bench_qemu.py) has no environment: the full count there.
SITTINGS = 4 if getattr(os, "getenv", lambda k: None)("TALLY42_BENCH_QUICK") == "1" else 60

if MICRO:
    import time

    def now_us():
        return time.ticks_us()

    def elapsed_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)
else:
    import time

    def now_us():
        return time.perf_counter()

    def elapsed_us(t0):
        return (time.perf_counter() - t0) * 1e6


def corpus(variant, undo_rate):
    """Random sittings of a variant as (dealer, events array, count)."""
    rules = O.resolve(variant)
    s = new_sitting(rules)
    gin = rules.family
    out = []
    buf = array("l", bytes(8 * 3000))
    for k in range(SITTINGS):
        s.restart(k % s.seats)
        p = (RandomGinPlayer if gin else RandomPlayer)(k * 31 + 7, undo_rate=undo_rate)
        n = play(s, p, buf, 3000)
        out.append((k % s.seats, buf[:n], n))
    return rules, out


def events_per_s(rules, sittings):
    s = new_sitting(rules)
    total = 0
    t0 = now_us()
    for dealer, buf, n in sittings:
        s.restart(dealer)
        i = 0
        while i < n:
            s.apply(buf[i])
            i += 1
        total += n
    us = elapsed_us(t0)
    return total * 1000000 // max(1, int(us))


def bytes_per_hand(rules, sittings):
    """Framed bytes a hand: each deal's frame (its event bytes + 2 framing). The sitting
    header's frame, once a sitting, is counted apart: (per hand, header bytes)."""
    s = new_sitting(rules)
    ev_codec = s.codec
    scratch = bytearray(MAX_EVENT_BYTES)
    total = 0
    header = 0
    hands = 0
    for dealer, buf, n in sittings:
        s.restart(dealer)
        header += len(encode_header(rules, dealer)) + 2
        pending = 0     # event bytes of the deal in progress
        i = 0
        while i < n:
            h = s.hands()
            s.apply(buf[i])
            pending += ev_codec.encode_into(buf[i], scratch, 0)
            if s.hands() != h:
                total += pending + 2
                pending = 0
            i += 1
        total += pending + 2 if pending else 0
        hands += s.hands()
    return total / max(1, hands), header / max(1, len(sittings))


def typical_hand_bytes():
    s = Sitting(O.resolve("42"))
    for ev in (event(EV_BID, 30), event(EV_BID, 0), event(EV_BID, 0), event(EV_BID, 0),
               event(EV_TRUMP, 5), event(EV_MADE, 1)):
        s.apply(ev)
    out = bytearray(16)
    return frames.frame_into(s.hist, 0, s.hlen, out, 0)


def typical_gin_hand_bytes():
    # Oklahoma Gin: the turn-up 8, a knock with 6 against 23, in one frame.
    from engine_core.gin import sitting as Gn
    s = new_sitting(O.resolve("oklahoma-gin"))
    s.apply(Gn.turnup(8))
    s.apply(Gn.knock(1, 6, 23))
    out = bytearray(16)
    return frames.frame_into(s.hist, 0, s.hlen, out, 0)


def micro_only(rules, sittings):
    # Allocation a event, with the collector off, and the heap one sitting holds.
    s = new_sitting(rules)
    gc.collect()
    gc.disable()
    total = 0
    before = gc.mem_alloc()
    for dealer, buf, n in sittings:
        s.restart(dealer)
        i = 0
        while i < n:
            s.apply(buf[i])
            i += 1
        total += n
    after = gc.mem_alloc()
    gc.enable()
    gc.collect()
    base = gc.mem_alloc()
    held = new_sitting(rules)
    gc.collect()
    state = gc.mem_alloc() - base
    del held
    return (after - before) / total, state


def main():
    impl = "micropython" if MICRO else "cpython"
    rules, sittings = corpus("42", 40)
    print("engine.events_per_s.%s: %d events/s" % (impl, events_per_s(rules, sittings)))
    if MICRO:
        per_event, state = micro_only(rules, sittings)
        print("engine.alloc_bytes_per_event: %s bytes" % per_event)
        print("engine.state_bytes: %d bytes" % state)
        for name in V.NAMES + G.NAMES:
            r, c = corpus(name, 40)
            print("engine.events_per_s.micropython.%s: %d events/s" % (name, events_per_s(r, c)))
        for name in G.NAMES:
            r, c = corpus(name, 40)
            per_event, state = micro_only(r, c)
            print("engine.alloc_bytes_per_event.%s: %s bytes" % (name, per_event))
            print("engine.state_bytes.%s: %d bytes" % (name, state))
        return
    print("codec.bytes_per_hand.typical: %d bytes" % typical_hand_bytes())
    _, clean = corpus("42", 0)
    print("codec.bytes_per_hand.mean: %.2f bytes" % bytes_per_hand(rules, clean)[0])
    print("codec.bytes_per_hand.typical.oklahoma-gin: %d bytes" % typical_gin_hand_bytes())
    for name in V.NAMES + G.NAMES:
        r, c = corpus(name, 0)
        per_hand, header = bytes_per_hand(r, c)
        print("codec.bytes_per_hand.mean.%s: %.2f bytes" % (name, per_hand))
        print("codec.header_bytes.%s: %d bytes" % (name, header))
    import subprocess
    mp = os.path.join(".venv", "bin", "micropython")
    if os.path.exists(mp):
        sys.stdout.flush()
        subprocess.run([mp, "bench/bench_engine.py"], check=True)


main()
