# A soak of the sync: many sittings on a scorer (tests/kit/sync_device.py on the MicroPython
# unix port), synced by the real `tally42 sync` again and again while the line between
# them misbehaves: bytes dropped (the cable cut for a while), garbage and stray Ctrl-Cs
# sent to the scorer, replies lost, a second reader on the PC's end of the line taking
# bytes, and the scorer reset (its process killed and started again on its flash). In
# the end every sitting must be in the database exactly once, and marked synced on the
# scorer. Used by tests/e2e/sync/test_sync_soak.py and bench/bench_sync_soak.py.
import contextlib
import io
import os
import random
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import syncrig as R  # noqa: E402
from host_tools import cli  # noqa: E402
from host_tools.log import image as I  # noqa: E402
from host_tools.log import sittinglog as L  # noqa: E402
from host_tools.log.device import device_sitting_id  # noqa: E402
from host_tools.store import db as D  # noqa: E402

DEVICE_ID = "T42-SIM001"    # tests/kit/sync_device.py's


class Faults:
    """The line's faults, one at a time at random moments, from a thread: drop, garbage,
    lost, reader, reset. counts: how many of each happened."""

    def __init__(self, rig, seed, every=(0.05, 0.4)):
        self.rig = rig
        self.rnd = random.Random(seed)
        self.every = every
        self.counts = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join(30)
        self.rig.cable.mend()
        self.rig.cable.rewrite = None

    def _run(self):
        rnd = self.rnd
        while not self._stop.wait(rnd.uniform(*self.every)):
            what = rnd.choice(("drop", "drop", "garbage", "garbage", "lost", "reader",
                               "reset"))
            self.counts[what] = self.counts.get(what, 0) + 1
            getattr(self, "_" + what)()

    def _drop(self):
        # The cable cut for a moment: whatever is on the way either side is lost.
        c = self.rig.cable
        c.cut()
        self._stop.wait(self.rnd.uniform(0.02, 0.6))
        c.mend()

    def _garbage(self):
        # Noise to the scorer: random bytes, a lone Ctrl-C among them, a "~" that starts
        # a request it never finishes.
        junk = bytes(self.rnd.randrange(256) for _ in range(self.rnd.randrange(1, 80)))
        junk = junk.replace(b"\r", b"\n") + self.rnd.choice((b"\x03", b"~12", b""))
        self.rig.cable.send_to_device(junk)

    def _lost(self):
        # Replies lost on the way to the PC for a moment (one frame in three).
        c = self.rig.cable
        c.rewrite = lambda kind, seq, payload: None if self.rnd.random() < 0.33 else payload
        self._stop.wait(self.rnd.uniform(0.05, 0.5))
        c.rewrite = None

    def _reader(self):
        # A second program opens the PC's end of the line and reads from it for a while.
        try:
            fd = os.open(self.rig.cable.host_path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError:
            return
        try:
            end = time.monotonic() + self.rnd.uniform(0.05, 0.4)
            while time.monotonic() < end and not self._stop.is_set():
                try:
                    os.read(fd, 64)
                except OSError:
                    pass
                time.sleep(0.005)
        finally:
            os.close(fd)

    def _reset(self):
        # The scorer restarts (a pulled battery, a reset button): its process is killed
        # and started again on its flash image. One that does not start again is said
        # (the soak then fails), and started once more.
        try:
            self.rig.restart()
        except RuntimeError as e:
            self.rig.errors.append("Traceback: %s\n" % e)
            self.rig.scorer = None
            self.rig.restart()


class Rig:
    """A scorer with `sittings` finished sittings on a flash image of `blocks` 4 KB blocks,
    on a Cable, and a database for the PC."""

    def __init__(self, tmp, sittings, blocks, seed=1):
        self.image = os.path.join(str(tmp), "flash.img")
        self.db = os.path.join(str(tmp), "soak.db")
        self.blocks = blocks
        R.build_image(self.image, sittings, open_events=0, blocks=blocks, seed=seed)
        with open(self.image, "rb") as f:
            whole, damaged = I.scan(f.read())
        assert len(whole) == sittings and not damaged
        # What the database must hold in the end: each sitting's id, and its score.
        self.expected = {}
        for sid, header, events, _, _, ended in whole:
            self.expected[device_sitting_id(DEVICE_ID, sid, header)] = (header, events, ended)
        self.cable = R.Cable()
        self.scorer = None
        self.errors = []        # what a scorer said on stderr when it failed
        self._lock = threading.Lock()
        self.restart()

    def restart(self):
        with self._lock:
            if self.scorer is not None:
                self.scorer.proc.kill()
                err = self.scorer.stop()
                if "Traceback" in err:
                    self.errors.append(err)
            self.scorer = R.Scorer(self.image, self.cable, "--blocks", self.blocks)

    def sync(self):
        """One `tally42 sync` (its output swallowed); its exit status."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                return cli.main(["sync", "--port", self.cable.host_path, "--db", self.db,
                                 "--timeout", "0.3", "--wait", "2", "--no-clock"])
            except SystemExit as e:
                return e.code

    def unsynced(self):
        with self._lock, open(self.image, "rb") as f:
            whole, _ = I.scan(f.read())
        return sum(1 for s in whole if not s[4])

    def tally(self):
        """(sittings lost, duplicates): expected sittings the database lacks or holds
        changed, and rows beyond one a sitting (or of sittings that never were)."""
        with D.open_db(self.db) as d:
            ids = d.ids()
            logs = {sid: d.log(sid) for sid in ids}
        lost = 0
        for sid, (header, events, ended) in self.expected.items():
            log = logs.get(sid)
            if log is None or _events_of(log) != _events_of_device(header, events, ended):
                lost += 1
        duplicates = len(ids) - len(set(ids) & set(self.expected))
        return lost, duplicates

    def close(self):
        err = self.scorer.stop() if self.scorer else ""
        self.cable.close()
        return "".join(self.errors) + err


def _events_of(log_text):
    # What makes a sitting the same: its hands as the engine replays them.
    return L.report(L.replay(log_text.encode("utf-8")))["hands"]


def _events_of_device(header, events, ended):
    from host_tools.log.device import from_device
    from host_tools.log.lines import dump_log
    return _events_of(dump_log(from_device(header, events, None, ended)))


def soak(tmp, sittings, blocks, seed=1, rounds=60, faults=True):
    """Sync `sittings` sittings under faults until the scorer has none unsynced (at most
    `rounds` syncs), then on a quiet line until it has none (at most 5 syncs more). Returns (lost, duplicates, syncs,
    sittings the scorer still holds unsynced, fault counts, the scorer's stderr)."""
    rig = Rig(tmp, sittings, blocks, seed)
    f = Faults(rig, seed) if faults else None
    syncs = 0
    try:
        if f:
            f.start()
        while syncs < rounds:
            rig.sync()
            syncs += 1
            if rig.unsynced() == 0:
                break
        if f:
            f.stop()
        # Then on a quiet line, until the scorer holds nothing unsynced (a few at most:
        # what was stored is acknowledged, what was not yet fetched is).
        quiet = 0
        while quiet < 5:
            rig.sync()
            syncs += 1
            quiet += 1
            if rig.unsynced() == 0:
                break
        lost, duplicates = rig.tally()
        left = rig.unsynced()
    finally:
        if f:
            f.stop()
        err = rig.close()
    return lost, duplicates, syncs, left, dict(f.counts) if f else {}, err
