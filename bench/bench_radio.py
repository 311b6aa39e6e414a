# Live results over the radio (docs/radio.md): 16 sim scorers (boards/sim/board.py, each its
# own MicroPython process) and a sim base station on an air that loses 30 % of frames
# both ways, the PC's relay (host_tools/events/radio.py) as `tally42 serve --base` runs
# it, and a rogue radio on the same air replaying, forging and sending another event's
# frames. Each scorer is handed its table and the event's key by `tally42 sync --event`,
# then plays hands on its buttons; nothing else goes over USB.
#   radio.hand_to_page_ms.p95        from a hand's last press to state.json (what the
#                                    served page shows) counting that hand
#   radio.hands_lost                 hands played that the page never counted
#   radio.duplicates                 hands or sittings stored more than once
#   radio.foreign_frames_accepted    rogue frames (replays, forgeries, another event's)
#                                    that changed anything stored
#   radio.frames_resent_share        frames the PC heard twice or more, of all heard
#   radio.next_table_ms.p95          once the hands are counted, each game is played out:
#                                    from the PC storing the game over to hearing the
#                                    scorer's confirm of its next table (sent as it takes
#                                    it, drawn at the loop's next round)
#   radio.forged_by_scorer_accepted  frames one scorer of the event (its own key) made
#                                    in another scorer's name that changed anything
#   event.cables_per_night           then round 2 played on the tables the radio sent:
#                                    its results not in over the radio (each would need
#                                    a USB sync)
# --quick (TALLY42_BENCH_QUICK=1): 2 scorers, 3 hands.
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time


from engine_core.air import wire as W  # noqa: E402
from host_tools.events import event as EV  # noqa: E402
from host_tools.events import slots as SL  # noqa: E402
from host_tools.events import state as ES  # noqa: E402
from host_tools.events import radio as RA  # noqa: E402
from host_tools.events import serve as SV  # noqa: E402
from host_tools.serial.radio import BaseStation  # noqa: E402
from host_tools.serial.transport import SerialLink  # noqa: E402
from host_tools.build.sim import build  # noqa: E402
from host_tools.sim.run import HEIGHT, WIDTH, PtyRelay, sim_command  # noqa: E402
from host_tools.sim.screen import LONG, NEXT, OK, PREV  # noqa: E402
from host_tools.store import db as D  # noqa: E402

QUICK = os.getenv("TALLY42_BENCH_QUICK") == "1"
# The sims on the 32-bit MicroPython when it is built (make mp32): the ESP32's object
# sizes, so its heap (tools/mp32.py).
_MP32 = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build",
                     "mp32", "micropython-stock")
if os.path.exists(_MP32) and "TALLY42_MICROPYTHON" not in os.environ:
    os.environ["TALLY42_MICROPYTHON"] = _MP32
SCORERS = 2 if QUICK else 16
HANDS = 3 if QUICK else 8
GAME_HANDS = 13         # the hands of a game whose marks alternate: 7-6
LOSS = 0.3
EVENT = "Radio night"
# A hand: bid 30 (NEXT, then OK held: the rest pass), trump (OK), made (PREV: < made).
HAND = bytes([NEXT, LONG | OK, OK, PREV])
BASE_MAC = b"\x02\x00\x00\x00\x00\xb0"


def p95(values):
    v = sorted(values)
    return v[min(len(v) - 1, int(0.95 * len(v) + 0.5) - 1)] if v else 0


class Scorer:
    def __init__(self, out, tmp, n, air):
        self.chip = "0000%02X" % (0xA0 + n)
        self.device = "T42-" + self.chip
        self.link = PtyRelay()
        self.proc = subprocess.Popen(
            sim_command(out, os.path.join(tmp, "s%d.bin" % n), WIDTH, HEIGHT, self.link,
                        self.chip, air),
            cwd=out, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        self.table = None

    def keys(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise SystemExit("bench_radio: scorer %s stopped: %s" % (
                self.device, self.proc.stderr.read().decode(errors="replace")[-3000:]))

    def stop(self):
        try:
            self.proc.stdin.write(b"\xff")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.link.close()
        return self.proc.stderr.read().decode(errors="replace")


def sync(db, scorer):
    for _ in range(3):
        r = subprocess.run([sys.executable, "-m", "host_tools", "sync", "--port",
                            scorer.link.name, "--db", db, "--event", EVENT, "--wait", "20"],
                           capture_output=True, text=True, timeout=120)
        if r.returncode == 0:
            break
    if r.returncode:
        raise SystemExit("bench_radio: sync of %s failed: %s" % (scorer.device, r.stderr))
    for line in r.stdout.splitlines():
        if line.startswith("pushed: %s round 1 table " % EVENT):
            scorer.table = int(line.split()[6].rstrip(":"))
    if scorer.table is None:
        raise SystemExit("bench_radio: no table pushed to %s: %s" % (scorer.device, r.stdout))


class Rogue:
    """A radio on the same air that is not the event's: it replays frames the PC took,
    sends them with a byte changed, and sends frames under another event's key."""

    def __init__(self, air):
        self.air = air
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.frames = set()
        self.by_scorer = set()      # made by a scorer of the event in another's name
        self.key = None             # that scorer's own key (RA.scorer_key)

    def send(self, src, frame):
        try:
            with open(os.path.join(self.air, BASE_MAC.hex())) as f:
                port = int(f.read())
        except (OSError, ValueError):
            return
        self.frames.add(bytes(frame))
        self.sock.sendto(src + b"\x00" + frame, ("127.0.0.1", port))

    def attack(self, taken, rng):
        if not taken:
            return
        src, frame = rng.choice(taken)
        self.send(src, frame)                               # a replay
        bad = bytearray(frame)
        bad[rng.randrange(W.HEAD, len(bad))] ^= 1 << rng.randrange(8)
        self.send(src, bytes(bad))                          # a forgery
        other = bytearray(frame[:-W.MAC_LEN])
        key = bytes(16)
        other[1:5] = W.tag_of(key)
        self.send(src, bytes(other[:W.seal(key, src, other, len(other))]))   # another event
        if self.key is not None:
            # A scorer of the event with its own key, in another scorer's name: the
            # frame's bytes changed (new records) and sealed again.
            mine = bytearray(frame[:-W.MAC_LEN])
            mine[1:5] = W.tag_of(self.key)
            mine[W.HEAD:] = bytes(rng.randrange(256) for _ in range(len(mine) - W.HEAD))
            forged = bytes(mine[:W.seal(self.key, src, mine, len(mine))])
            self.by_scorer.add(forged)
            self.send(src, forged)


def main():
    tmp = tempfile.mkdtemp(prefix="tally42-radio-")
    air = os.path.join(tmp, "air")
    faults = ",loss=%s,delay=2,reorder=0.05,dup=0.02" % LOSS
    db = os.path.join(tmp, "night.db")
    with D.open_db(db) as d:
        EV.create(d, EVENT, "round-robin", "42",
                  teams=[("T%02d" % i, ["A%02d" % i, "B%02d" % i]) for i in range(2 * SCORERS)])
    out = build()
    base_link = PtyRelay()
    base = subprocess.Popen(sim_command(out, os.path.join(tmp, "base.bin"), WIDTH, HEIGHT,
                                        base_link, "0000B0", air + faults, True),
                            cwd=out, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    scorers = [Scorer(out, tmp, n, air + faults) for n in range(SCORERS)]
    time.sleep(1.0)
    threads = [threading.Thread(target=sync, args=(db, s)) for s in scorers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in scorers:
        s.keys(bytes([OK, OK]))     # the sync's outcome away; the pushed table started
    link = SerialLink(base_link.name)
    link.open()
    station = BaseStation(link)
    station.open()
    reader = D.open_db(db, readonly=True)
    rogue = Rogue(air)
    with D.open_db(db) as d:
        rogue.key = RA.scorer_key(RA.event_key(d, EVENT), "T42-0000FE")
    rng = random.Random(42)
    taken = []
    foreign_accepted = [0]
    forged_accepted = [0]
    stop = [False]
    held = {}

    def run_relay():
        # The relay's own connection, in its thread (as serve --base's Relay does).
        database = D.open_db(db)
        rx = held["rx"] = RA.Receiver(database, EVENT)
        take = rx.take

        def watched(address, frame):
            before = rx.accepted
            ack = take(address, frame)
            if bytes(frame) in rogue.by_scorer:
                forged_accepted[0] += rx.accepted - before
            elif bytes(frame) in rogue.frames:
                foreign_accepted[0] += rx.accepted - before
            elif rx.accepted > before:
                taken.append((bytes(address), bytes(frame)))
            return ack
        rx.take = watched
        try:
            RA.relay(station, rx, lambda: stop[0])
        finally:
            database.close()
    relay = threading.Thread(target=run_relay)
    relay.start()
    while "rx" not in held:
        time.sleep(0.01)
    rx = held["rx"]
    latencies = []
    lost = 0
    try:
        for h in range(1, HANDS + 1):
            sent = {}
            for s in scorers:
                s.keys(HAND)
                sent[s.table] = time.monotonic()
            rogue.attack(taken, rng)
            deadline = time.monotonic() + 30
            while sent and time.monotonic() < deadline:
                for table in list(sent):
                    live = rx.live.get((1, table))
                    if live and live["hands"] >= h:
                        page = reader.conn.execute("BEGIN") and SV.state_json(reader, EVENT)
                        reader.conn.execute("COMMIT")
                        shown = [t for t in page["tables"] if t["table"] == table]
                        if shown and shown[0]["hands"] >= h:
                            latencies.append((time.monotonic() - sent.pop(table)) * 1000)
                time.sleep(0.005)
            lost += len(sent)
            time.sleep(0.3)
        time.sleep(1.0)
        # Each game played out (the bidder's side alternates: 7-6 after 13 hands), and
        # each scorer's next table sent back until it confirms.
        for s in scorers:
            s.keys(HAND * (GAME_HANDS - HANDS))
        next_ms = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            done = [nx for (a, _), nx in list(rx.nexts.items()) if nx.confirmed is not None]
            if len(done) >= SCORERS:
                break
            time.sleep(0.05)
        for (address, _), nx in list(rx.nexts.items()):
            if nx.confirmed is not None:
                next_ms.append((nx.confirmed - nx.first) * 1000)
        missing_next = SCORERS - len(next_ms)
        with D.open_db(db) as d:
            # The same table a USB sync would push (round 2, the scorer's number).
            for s in scorers:
                a = SL.next_assignment(d, s.device, EVENT)
                if a is None or (a["round"], a["table"]) != (2, s.table):
                    raise SystemExit("bench_radio: %s would be pushed %r" % (s.device, a))
        # Round 2 on the tables the radio sent, no cable: OK held (a new sitting, set up
        # as sent), OK (start it), the game played out; every result must come in.
        for s in scorers:
            s.keys(bytes([LONG | OK, OK]) + HAND * GAME_HANDS)
        deadline = time.monotonic() + 120
        in_by_radio = 0
        while time.monotonic() < deadline:
            with D.open_db(db, readonly=True) as d:
                ev = EV.load(d, EVENT)
                state = ES.event_state(ev, d)
                in_by_radio = sum(1 for t in ev.tables if t.round == 2 and t.device and
                                  ES.table_status(ev, t, state) == "done")
            if in_by_radio >= SCORERS:
                break
            time.sleep(0.5)
    finally:
        stop[0] = True
        relay.join(5)
        errs = [s.stop() for s in scorers]
        station.close()         # goodbye while the base is there to answer
        link.close()
        base.stdin.close()
        base.wait(10)
        base_link.close()
    if relay.is_alive() or not stop[0]:
        raise SystemExit("bench_radio: the relay did not stop")
    database = D.open_db(db)
    rows = database.conn.execute("SELECT device, hands FROM sittings").fetchall()
    per = {}
    for device, hands in rows:
        per.setdefault(device, []).append(hands)
    # Two sittings a scorer (rounds 1 and 2), every game played out: GAME_HANDS hands.
    duplicates = sum(max(0, len(v) - 2) for v in per.values())
    stored_hands = sum(sum(v) for v in per.values())
    duplicates += max(0, stored_hands - 2 * SCORERS * GAME_HANDS)
    lost = max(lost, 2 * SCORERS * GAME_HANDS - stored_hands)
    database.close()
    reader.close()
    for e in errs:
        if "Traceback" in e:
            sys.stderr.write(e)
            raise SystemExit("bench_radio: a scorer failed")
    print("radio.hand_to_page_ms.p95: %.0f ms" % p95(latencies))
    print("radio.hand_to_page_ms.median: %.0f ms" % (sorted(latencies)[len(latencies) // 2]
                                                     if latencies else 0))
    print("radio.hands_lost: %d" % lost)
    print("radio.duplicates: %d" % duplicates)
    print("radio.foreign_frames_accepted: %d of %d sent" % (foreign_accepted[0],
                                                            len(rogue.frames)))
    print("radio.forged_by_scorer_accepted: %d of %d sent" % (forged_accepted[0],
                                                              len(rogue.by_scorer)))
    print("radio.next_table_ms.p95: %.0f ms" % p95(next_ms))
    print("radio.next_table_ms.median: %.0f ms" % (sorted(next_ms)[len(next_ms) // 2]
                                                   if next_ms else 0))
    print("radio.next_table_missing: %d" % missing_next)
    # No USB sync after each scorer's first: a result not in over the radio would have
    # needed a cable, one a table.
    print("event.cables_per_night: %d (2 rounds of %d tables on the radio: %d of %d round-2 "
          "results in without one)" % (SCORERS - in_by_radio, SCORERS, in_by_radio, SCORERS))
    print("radio.frames_heard: %d (%d duplicates, %d foreign)" % (rx.frames, rx.duplicates,
                                                                 rx.foreign))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
