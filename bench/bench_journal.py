# Journal wear benchmark: long use of the flash journal on the emulated NOR partition,
# with real sittings from the engine (random legal play, undos included, event bytes from
# the codec). Prints `name: value unit` lines. Run: micropython bench/bench_journal.py
# (CPython gives the same figures: they are counts, not times).

import os  # noqa: E402
from array import array  # noqa: E402

from engine_core import codec  # noqa: E402
from engine_core.codes import MAX_EVENT_BYTES  # noqa: E402
from engine_core.header import encode_header  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402
from engine_core.texas42.sitting import Sitting  # noqa: E402
from firmware.journal import Journal  # noqa: E402
from engine_core.journal.reader import JournalReader  # noqa: E402
from boards.sim.flash import NorFlash  # noqa: E402
from randsit import RandomPlayer, play  # noqa: E402

# measured, after a warm-up that fills the partition once (bench/run.py --quick: 10)
SITTINGS = 10 if os.getenv("TALLY42_BENCH_QUICK") == "1" else 300
BLOCKS = 8  # a 32 KB partition: the log wraps round it
SYNC_EVERY = 3  # the player syncs after every third sitting


class _Player:
    # Plays sittings into the journal, counting events and payload bytes.
    def __init__(self, j):
        self.j = j
        self.rules = O.resolve("42")
        self.s = Sitting(self.rules)
        self.evs = array("l", bytes(4 * 3000))
        self.ebuf = bytearray(MAX_EVENT_BYTES)
        self.k = 0
        self.events = 0
        self.payload = 0

    def sitting(self):
        j = self.j
        k = self.k
        self.k += 1
        dealer = k % self.s.seats
        self.s.restart(dealer)
        n = play(self.s, RandomPlayer(k * 31 + 7), self.evs, 3000)
        header = encode_header(self.rules, dealer, ("Ann", "Bob", "Cy", "Di"))
        j.begin_sitting(header)
        self.payload += len(header)
        for i in range(n):
            m = codec.encode_into(self.evs[i], self.ebuf, 0)
            j.append(self.ebuf[:m])
            self.payload += m
        self.events += n
        j.finish()
        if k % SYNC_EVERY == SYNC_EVERY - 1:
            for info in JournalReader(j).sittings():
                if info[1] and not info[2]:
                    j.mark_synced(info[0])


def main():
    flash = NorFlash(BLOCKS)
    j = Journal(flash)
    j.mount()
    p = _Player(j)
    while flash.erases == 0:  # warm-up: until the log has wrapped once
        p.sitting()
    programmed = flash.bytes_programmed
    erases = flash.erases
    events = p.events
    payload = p.payload
    for _ in range(SITTINGS):
        p.sitting()
    programmed = flash.bytes_programmed - programmed
    erases = flash.erases - erases
    events = p.events - events
    payload = p.payload - payload
    print("journal.bytes_programmed_per_event: %.3f bytes" % (programmed / events))
    print("journal.erases_per_1000_events: %.3f" % (erases * 1000 / events))
    print("journal.payload_bytes_per_event: %.3f bytes" % (payload / events))
    print("journal.erases_per_4096_bytes_programmed: %.3f" % (erases * 4096 / programmed))


main()
