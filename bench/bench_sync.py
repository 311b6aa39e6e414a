# Sync benchmark: 100 finished sittings of random legal 42 play, served by the sync
# endpoint in a MicroPython unix-port process on a pseudo-terminal, fetched, stored in a
# fresh SQLite database and acknowledged by the host client through pyserial. Prints
#   sync.payload_bytes_per_s.pty          sitting bytes / seconds of the sync session
#                                         (hello to goodbye) less the time spent storing
#   sync.efficiency                       sitting bytes / wire bytes, both directions,
#                                         the whole session (hello, list, acknowledges)
#   sync.efficiency.fetch                 the same over the fetches alone
#   sync.seconds_for_100_sittings_at_115200   the wire bytes at 10 bits a byte, both
#                                         directions one after the other (no overlap)
#   sync.seconds_for_100_sittings.pty     the whole session, storing included
# Everything is measured on the run; nothing is assumed.
import os
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import syncrig as R  # noqa: E402
from host_tools.serial import client as YC  # noqa: E402
from host_tools.serial import sync as Y  # noqa: E402
from host_tools.serial.transport import SerialLink  # noqa: E402
from host_tools.store import db as D  # noqa: E402

SITTINGS = 5 if os.environ.get("TALLY42_BENCH_QUICK") == "1" else 100     # bench/run.py --quick: 5
BAUD_BYTES_PER_S = 115200 / 10     # 8 data bits, a start and a stop bit


def main():
    with tempfile.TemporaryDirectory() as tmp:
        image = os.path.join(tmp, "flash.img")
        R.build_image(image, SITTINGS, open_events=0, blocks=32)
        payload = sum(s[3] for s in R.journal_sittings(image, 32) if s[1])
        cable = R.Cable()
        scorer = R.Scorer(image, cable, "--blocks", "32")
        database = D.open_db(os.path.join(tmp, "bench.db"))
        try:
            with SerialLink(cable.host_path) as link:
                wire0 = cable.to_host + cable.to_device
                t0 = time.perf_counter()
                client = YC.Client(link)
                fetch_wire = _count_fetch_bytes(client, link)
                client.hello()
                store = _Store(database)
                report = Y.sync(client, store)
                client.bye()
                seconds = time.perf_counter() - t0
            R.wait_for(lambda: cable.to_host + cable.to_device >= wire0 + link.rx_bytes
                       + link.tx_bytes, 2)
            wire = cable.to_host + cable.to_device - wire0
        finally:
            database.close()
            scorer.stop()
            cable.close()
    if len(report.stored) != SITTINGS or report.payload != payload:
        raise SystemExit("bench_sync: stored %d of %d sittings, %d of %d bytes"
                         % (len(report.stored), SITTINGS, report.payload, payload))
    print("sync.payload_bytes_per_s.pty: %d bytes/s" % (payload / (seconds - store.seconds)))
    print("sync.efficiency: %.2f" % (payload / wire))
    print("sync.efficiency.fetch: %.2f" % (payload / fetch_wire[0]))
    print("sync.seconds_for_100_sittings_at_115200: %.1f s" % (wire / BAUD_BYTES_PER_S))
    print("sync.seconds_for_100_sittings.pty: %.2f s" % seconds)


def _count_fetch_bytes(client, link):
    # The wire bytes, both ways, while the client fetches.
    total = [0]
    fetch = client.fetch

    def counted(*args):
        before = link.rx_bytes + link.tx_bytes
        fetch(*args)
        total[0] += link.rx_bytes + link.tx_bytes - before
    client.fetch = counted
    return total


class _Store:
    # The database, timed.
    def __init__(self, database):
        self.database = database
        self.seconds = 0.0

    def __call__(self, lines, device_id):
        t = time.perf_counter()
        st = self.database.store_lines(lines, source="sync", device=device_id)
        self.seconds += time.perf_counter() - t
        return st.status, st.id, st.describe()


main()
