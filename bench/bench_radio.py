# Live results over the radio (docs/radio.md): 16 sim scorers (boards/sim/board.py, each its
# own MicroPython process) and a sim base station on an air that loses 30 % of frames
# both ways, the PC's relay (host_tools/events/radio.py) as `tally42 serve --base` runs
# it, and a rogue radio on the same air replaying, forging and sending another event's
# frames. Each scorer is handed its table and its key by `tally42 sync --event`, then a
# whole round robin of 32 teams is played on the 16 tables (31 rounds), every table after
# the first sent over the radio; nothing else goes over USB.
#   radio.hand_to_page_ms.p95        round 1: from a hand's last press to state.json (what
#                                    the served page shows) counting that hand
#   radio.hands_lost                 hands played that the page never counted, or that
#                                    were never stored, over the night
#   radio.duplicates                 hands or sittings stored more than once
#   radio.foreign_frames_accepted    rogue frames (replays, forgeries, another event's)
#                                    that changed anything stored
#   radio.frames_resent_share        frames the PC heard twice or more, of all heard
#   radio.next_table_ms.p95          each game over of the night: from the PC storing it to
#                                    the scorer's screen showing its next table (what the
#                                    players then take, holding OK)
#   radio.next_table_unconfirmed     next tables played that the PC never learnt were taken
#   radio.forged_by_scorer_accepted  frames one scorer of the event (its own key) made in
#                                    another scorer's name that changed anything: the
#                                    base's (those it passed to the PC, and its own count
#                                    of what it dropped as forged) and the PC's (each
#                                    also handed to the PC directly, as if a base that
#                                    checks nothing had passed it)
#   event.cables_per_night           the night's results not in over the radio (each
#                                    would need a USB sync)
# --quick (TALLY42_BENCH_QUICK=1): 2 scorers, 3 hands, 2 of the 3 rounds.
# TALLY42_RADIO_ROUNDS=N: the night's first N rounds only. TALLY42_BENCH_DEBUG=1: the
# relay's times and every next table on stderr. A scorer that stops short (no next table
# shown in 120 s) is shown on stderr: its sittings as the PC holds them, its last screens.
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time


from engine_core.air import wire as W  # noqa: E402
from host_tools.events import event as EV  # noqa: E402
from host_tools.events import state as ES  # noqa: E402
from host_tools.events import radio as RA  # noqa: E402
from host_tools.events import serve as SV  # noqa: E402
from host_tools.serial.radio import BaseStation  # noqa: E402
from host_tools.serial.transport import SerialLink  # noqa: E402
from host_tools.build.sim import build  # noqa: E402
from host_tools.sim.run import HEIGHT, WIDTH, PtyRelay, sim_command  # noqa: E402
from host_tools.sim.screen import LONG, NEXT, OK, PREV, Frames, words_lines  # noqa: E402
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
ROUNDS = 2 if QUICK else 2 * SCORERS - 1    # a round robin of 2 * SCORERS teams
ROUNDS = int(os.environ.get("TALLY42_RADIO_ROUNDS", ROUNDS))   # fewer, to try things
GAME_HANDS = 13         # the hands of a game whose marks alternate: 7-6
LOSS = 0.3
EVENT = "Radio night"
# A hand: bid 30 (NEXT, then OK held: the rest pass), trump (OK), made (PREV: < made).
HAND = bytes([NEXT, LONG | OK, OK, PREV])
BASE_MAC = b"\x02\x00\x00\x00\x00\xb0"


def p95(values):
    v = sorted(values)
    return v[min(len(v) - 1, int(0.95 * len(v) + 0.5) - 1)] if v else 0


NEXT_LINE = re.compile(r"next: table (\d+), round (\d+)|(no more tables tonight)")


class Scorer:
    """A sim scorer: keys to its stdin, its screen read as it draws it (what the players
    see: the next table it shows at game over, and when it first showed it)."""

    def __init__(self, out, tmp, n, air):
        self.chip = "0000%02X" % (0xA0 + n)
        self.device = "T42-" + self.chip
        self.link = PtyRelay()
        self.proc = subprocess.Popen(
            sim_command(out, os.path.join(tmp, "s%d.bin" % n), WIDTH, HEIGHT, self.link,
                        self.chip, air),
            cwd=out, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.table = None
        self.shown = {}         # round -> (when first shown, table); round 0: no more tables
        self.last = []          # the last screens' words, for a scorer that stops short
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        frames = Frames(WIDTH, HEIGHT)
        fd = self.proc.stdout.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            for frame in frames.feed(data):
                text = " ".join(words_lines(frame[2]))
                m = NEXT_LINE.search(text)
                if m:
                    rnd = 0 if m.group(3) else int(m.group(2))
                    if rnd not in self.shown:
                        self.shown[rnd] = (time.monotonic(), int(m.group(1) or 0))
                self.last = (self.last + [text])[-4:]

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
        self.to_pc = []             # the same, handed to the PC directly (Tap)
        self.lock = threading.Lock()

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
            with self.lock:
                self.to_pc.append((src, forged))


class Tap:
    """The base station as the relay sees it, with the rogue's forgeries by a scorer also
    handed to the PC directly (as if a base that checks nothing had passed them): the
    PC's own check is measured too, not only the base's."""

    def __init__(self, station, rogue):
        self.station = station
        self.client = station.client
        self.rogue = rogue
        self.direct = set()

    def exchange(self, acks):
        heard = self.station.exchange(acks)
        with self.rogue.lock:
            extra, self.rogue.to_pc = self.rogue.to_pc, []
        for _, frame in extra:
            self.direct.add(frame)
        return heard + extra


def _snapshot(d):
    # A copy of a dict the relay's thread writes to.
    while True:
        try:
            return list(d.items())
        except RuntimeError:
            time.sleep(0.001)


def _next_of(rx, scorer):
    """The latest next table `scorer` confirmed: (its sitting, what), or None."""
    best = None
    for (address, sid), nx in _snapshot(rx.nexts):
        if RA.device_of(address) == scorer.device and nx.confirmed is not None and (
                best is None or sid > best[0]):
            best = (sid, nx.what)
    return best


def _measure_round_one(scorers, rx, reader, rogue, taken, rng):
    # HANDS hands on each table, each timed from its last press to the page counting it.
    latencies = []
    lost = 0
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
        for table in sent:
            # Which, and what the PC held of it then: a hand late, or never stored.
            sys.stderr.write("bench_radio: round 1 hand %d of table %d not on the page in "
                             "30 s (the PC's live line: %r)\n" % (h, table,
                                                                   rx.live.get((1, table))))
        time.sleep(0.3)
    return latencies, lost


def _the_night(scorers, rx, rogue, taken, rng):
    """Each game played out; each scorer, once its screen shows its next table, takes it
    (OK held: the new sitting begins at once) and plays it, whatever the other tables do,
    until "no more tables tonight" (--quick: the night cut short). Returns the scorers
    that stopped short: {device: why}."""
    for s in scorers:
        s.keys(HAND * (GAME_HANDS - HANDS))
        s.round = 1
        s.since = time.monotonic()
    stuck = {}
    busy = list(scorers)
    attacked = 1
    while busy:
        for s in list(busy):
            if 0 in s.shown or s.round + 1 in s.shown and s.round + 1 > ROUNDS:
                busy.remove(s)
            elif s.round + 1 in s.shown:
                table = s.shown[s.round + 1][1]
                if table != s.table:
                    stuck[s.device] = "shows table %d, not its own %d" % (table, s.table)
                    busy.remove(s)
                    continue
                s.keys(bytes([LONG | OK]) + HAND * GAME_HANDS)
                s.round += 1
                s.since = time.monotonic()
            elif time.monotonic() - s.since > 120:
                stuck[s.device] = "round %d: no next table shown in 120 s (the PC's last " \
                    "confirmed: %r)" % (s.round, _next_of(rx, s))
                busy.remove(s)
        lowest = min((s.round for s in busy), default=attacked)
        if lowest > attacked:
            attacked = lowest
            rogue.attack(taken, rng)        # once a round, from frames taken so far
        time.sleep(0.05)
    return stuck


def _next_ms(rx, scorers):
    """From the PC storing each game over to its scorer's screen showing the next table
    (ms), and the next tables played whose confirm the PC never heard (nor the next
    sitting's records, which confirm it too)."""
    by_device = {s.device: s for s in scorers}
    out = []
    unconfirmed = 0
    for (address, _), nx in _snapshot(rx.nexts):
        s = by_device.get(RA.device_of(address))
        kind, a = nx.what
        rnd = a["round"] if kind == "table" else 0
        if s is None or rnd not in s.shown or kind == "wait":
            continue
        out.append((s.shown[rnd][0] - nx.first) * 1000)
        # A table the scorer went on to play: its confirm, or the records after it.
        unconfirmed += nx.confirmed is None and 0 < rnd <= s.round
    return out, unconfirmed


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
    tap = Tap(station, rogue)
    with D.open_db(db) as d:
        rogue.key = RA.scorer_key(RA.event_key(d, EVENT), "T42-0000FE")
    rng = random.Random(42)
    taken = []
    foreign_accepted = [0]
    forged_accepted = [0]
    forged_passed = [0]         # by the base, to the PC
    took = []
    stop = [False]
    held = {}

    def run_relay():
        # The relay's own connection, in its thread (as serve --base's Relay does).
        database = D.open_db(db)
        rx = held["rx"] = RA.Receiver(database, EVENT)
        take = rx.take

        def watched(address, frame):
            before = rx.accepted
            t0 = time.monotonic()
            ack = take(address, frame)
            took.append((time.monotonic() - t0, frame[0], len(frame)))
            if bytes(frame) in rogue.by_scorer:
                forged_accepted[0] += rx.accepted - before
                if bytes(frame) not in tap.direct:
                    forged_passed[0] += 1
            elif bytes(frame) in rogue.frames:
                foreign_accepted[0] += rx.accepted - before
            elif rx.accepted > before:
                taken.append((bytes(address), bytes(frame)))
            return ack
        rx.take = watched
        try:
            RA.relay(tap, rx, lambda: stop[0])
        finally:
            database.close()
    relay = threading.Thread(target=run_relay)
    relay.start()
    while "rx" not in held:
        time.sleep(0.01)
    rx = held["rx"]
    started = time.monotonic()
    base_counts = None
    try:
        latencies, lost = _measure_round_one(scorers, rx, reader, rogue, taken, rng)
        stuck = _the_night(scorers, rx, rogue, taken, rng)
        night_s = time.monotonic() - started
        # The last games' results, stored before the scorers were told "no more tables"
        # (or, under --quick, their next table): every table of the night's rounds.
        with D.open_db(db, readonly=True) as d:
            ev = EV.load(d, EVENT)
            state = ES.event_state(ev, d)
            played = [t for t in ev.tables if t.round <= ROUNDS]
            in_by_radio = sum(1 for t in played if t.device and
                              ES.table_status(ev, t, state) == "done")
    finally:
        stop[0] = True
        relay.join(5)
        errs = [s.stop() for s in scorers]
        try:
            base_counts = RA.base_counts(station)
        except Exception as e:      # the figures say it: no count from the base
            sys.stderr.write("bench_radio: the base's counts: %s\n" % e)
        station.close()         # goodbye while the base is there to answer
        link.close()
        base.stdin.close()
        base.wait(10)
        base_link.close()
    if relay.is_alive() or not stop[0]:
        raise SystemExit("bench_radio: the relay did not stop")
    if os.environ.get("TALLY42_BENCH_DEBUG"):
        took.sort()
        sys.stderr.write("takes %d: median %.3f p95 %.3f max %.3f total %.1f\n" % (
            len(took), took[len(took) // 2][0], took[int(len(took) * .95)][0], took[-1][0],
            sum(t[0] for t in took)))
        sys.stderr.write("slowest: %r\n" % took[-10:])
        for k, nx in _snapshot(rx.nexts):
            sys.stderr.write("%r %r first=%.2f made=%.2f conf=%s sends=%d\n" % (
                k, nx.what[0], nx.first - started, nx.made - started,
                nx.confirmed and "%.2f" % (nx.confirmed - started), nx.sends))
    if stuck:
        for device, why in stuck.items():
            sys.stderr.write("%s: %s\n" % (device, why))
            for (address, sid), st in sorted(_snapshot(rx.sittings)):
                if RA.device_of(address) == device:
                    nx = rx.nexts.get((address, sid))
                    sys.stderr.write("  sitting %d: %d bytes, stored %d, over %s, refused %s, "
                                     "next %s\n" % (sid, len(st.stream), st.stored, st.over,
                                                     st.refused, nx and (nx.what[0], nx.sends,
                                                                         nx.confirmed)))
            for sc, e in zip(scorers, errs):
                if sc.device == device:
                    sys.stderr.write("  its stderr: %s\n" % e[-1500:])
                    for text in sc.last:
                        sys.stderr.write("  screen: %s\n" % text)
        sys.stderr.write("notes: %s\n" % rx.notes[-20:])
    next_ms, unconfirmed = _next_ms(rx, scorers)
    database = D.open_db(db)
    rows = database.conn.execute("SELECT device, hands FROM sittings").fetchall()
    per = {}
    for device, hands in rows:
        per.setdefault(device, []).append(hands)
    # A sitting a round each scorer played (ROUNDS, unless it stopped short), every game
    # played out: GAME_HANDS hands.
    games = {s.device: min(s.round, ROUNDS) for s in scorers}
    duplicates = sum(max(0, len(v) - games.get(d, 0)) for d, v in per.items())
    stored_hands = sum(sum(v) for v in per.values())
    played_hands = sum(games.values()) * GAME_HANDS
    duplicates += max(0, stored_hands - played_hands)
    late = lost
    lost = max(lost, played_hands - stored_hands)
    database.close()
    reader.close()
    for e in errs:
        if "Traceback" in e:
            sys.stderr.write(e)
            raise SystemExit("bench_radio: a scorer failed")
    tables = ROUNDS * SCORERS
    print("radio.hand_to_page_ms.p95: %.0f ms" % p95(latencies))
    print("radio.hand_to_page_ms.median: %.0f ms" % (sorted(latencies)[len(latencies) // 2]
                                                     if latencies else 0))
    print("radio.hands_lost: %d of %d (%d not on the page within 30 s in round 1, %d never "
          "stored)" % (lost, played_hands, late, max(0, played_hands - stored_hands)))
    print("radio.duplicates: %d" % duplicates)
    print("radio.foreign_frames_accepted: %d of %d sent" % (foreign_accepted[0],
                                                            len(rogue.frames)))
    n = len(rogue.by_scorer)
    dropped = base_counts["forged"] if base_counts else -1
    print("radio.forged_by_scorer_accepted: %d of %d sent (the base passed %d on; the PC, "
          "handed all %d directly, took %d)" % (forged_passed[0] + forged_accepted[0], n,
                                                forged_passed[0], n, forged_accepted[0]))
    print("radio.forged_by_scorer_accepted.base: %d of %d sent (its own count: %d dropped "
          "as forged, %d as foreign)" % (forged_passed[0], n, dropped,
                                         base_counts["foreign"] if base_counts else -1))
    print("radio.forged_by_scorer_accepted.pc: %d of %d handed to it" % (forged_accepted[0], n))
    print("radio.next_table_ms.p95: %.0f ms (%d next tables shown)" % (p95(next_ms),
                                                                       len(next_ms)))
    print("radio.next_table_ms.median: %.0f ms" % (sorted(next_ms)[len(next_ms) // 2]
                                                   if next_ms else 0))
    # A scorer whose next table never came stops there: its later tables are not played
    # (each counted below as a cable it would need).
    print("radio.next_table_missing: %d" % len(stuck))
    print("radio.next_table_unconfirmed: %d (played, yet neither its confirm nor the next "
          "sitting's records heard)" % unconfirmed)
    # No USB sync after each scorer's first: a result not in over the radio would have
    # needed a cable, one a table.
    print("event.cables_per_night: %d (%d rounds of %d tables on the radio: %d of %d "
          "results in without one)" % (tables - in_by_radio, ROUNDS, SCORERS, in_by_radio,
                                       tables))
    print("event.night_s: %.0f s (the night's %d rounds, from the first hand)" % (night_s,
                                                                                 ROUNDS))
    print("radio.frames_heard: %d (%d duplicates, %d foreign)" % (rx.frames, rx.duplicates,
                                                                 rx.foreign))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
