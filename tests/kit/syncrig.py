# The rig of the sync end-to-end tests and bench (CPython): journal images holding real
# sittings, a MicroPython scorer process serving them on a pseudo-terminal, and a cable
# between that terminal and the host's one which counts the bytes each way and can be
# pulled, plugged back, or made to rewrite what the scorer says.
import os
import select
import subprocess
import threading
import time
import tty
from engine_core.codes import MAX_EVENT_BYTES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from array import array  # noqa: E402

from engine_core import codec  # noqa: E402
from engine_core.header import encode_header  # noqa: E402
from engine_core.texas42 import options as O  # noqa: E402
from engine_core import wire  # noqa: E402
from engine_core.texas42.sitting import Sitting  # noqa: E402
from firmware.journal import Journal  # noqa: E402
from engine_core.journal.log import Log  # noqa: E402
from engine_core.journal.reader import JournalReader  # noqa: E402
from boards.sim.flash import NorFlash  # noqa: E402
from randsit import RandomPlayer, play  # noqa: E402

from host_tools.build.sim import tool  # noqa: E402

MICROPYTHON = tool("micropython")
BLOCKS = 16
NAMES = ("Ann", "Bob", "Cy", "Di")


def mounted(flash):
    """A Journal on flash (a NorFlash, a RamFlash), mounted as the scorer's boot mounts
    it: Log.mount's scan, without Journal.mount's last step, firmware/transient.py's
    release(). On the device that unloads the scan's module from a few dozen loaded; in
    a CPython test process it walks every attribute of the thousand modules pytest has
    loaded (a quarter of a second a mount, and more the more tests a worker has run),
    and it reads and writes no byte of the flash."""
    j = Journal(flash)
    Log.mount(j)
    return j


def build_image(path, sittings, open_events=3, blocks=BLOCKS, seed=1, variant="42",
                assign=None, names=NAMES, open_assign=None, open_names=NAMES):
    """A journal image with `sittings` finished sittings of random legal play and an open
    one; returns {sitting id: (score by side, events)} of the finished ones. assign: a
    table assignment (event, round, table) for each finished sitting's header (a list),
    names: the players by seat of each (one list for all, or a list of them); open_assign
    and open_names: the open sitting's."""
    flash = NorFlash(blocks, 4096, path=path)
    j = mounted(flash)
    rules = O.resolve(variant)
    s = Sitting(rules)
    evs = array("l", [0] * 3000)
    ebuf = bytearray(MAX_EVENT_BYTES)
    out = {}
    for k in range(sittings):
        dealer = k % s.seats
        s.restart(dealer)
        n = play(s, RandomPlayer(seed * 1000 + k * 31 + 7), evs, 3000)
        who = names[k] if isinstance(names[0], (list, tuple)) else names
        sid = j.begin_sitting(encode_header(rules, dealer, who,
                                                  assign=assign[k] if assign else None))
        for i in range(n):
            m = codec.encode_into(evs[i], ebuf, 0)
            j.append(ebuf[:m])
        j.finish()
        out[sid] = ([s.score(i) for i in range(s.sides)], n)
    if open_events:
        j.begin_sitting(encode_header(rules, 0, open_names, assign=open_assign))
        s.restart(0)
        n = play(s, RandomPlayer(seed), evs, open_events)
        for i in range(n):
            m = codec.encode_into(evs[i], ebuf, 0)
            j.append(ebuf[:m])
    flash.close()
    return out


def journal_sittings(path, blocks=BLOCKS):
    """[(id, finished, synced, length)] of the image at path, mounted afresh."""
    flash = NorFlash(blocks, 4096, path=path)
    j = mounted(flash)
    out = JournalReader(j).sittings()
    flash.close()
    return out


def stream_bytes(path, sid, blocks=BLOCKS):
    flash = NorFlash(blocks, 4096, path=path)
    j = mounted(flash)
    r = JournalReader(j)
    out = bytearray()
    buf = bytearray(256)
    while True:
        n = r.read(sid, len(out), buf)
        if not n:
            break
        out.extend(buf[:n])
    flash.close()
    return bytes(out)


class Cable:
    """Two pseudo-terminals joined by a thread, like a USB cable: the scorer opens
    `device_path`, the host `host_path`. `to_host`/`to_device` count the bytes carried,
    `host_said` keeps what the host sent.
    cut() drops every byte both ways until mend(); cut_at(n) cuts once n bytes have gone
    to the host. `rewrite(kind, seq, payload)`, when set, sees each reply on its way to
    the host and returns the payload to pass on (None drops the reply)."""

    def __init__(self):
        self._dm, self._ds = os.openpty()
        self._hm, self._hs = os.openpty()
        for fd in (self._ds, self._hs):
            tty.setraw(fd)      # no echo, no line editing, before anyone opens them
        for fd in (self._dm, self._hm):
            os.set_blocking(fd, False)
        self.device_path = os.ttyname(self._ds)
        self.host_path = os.ttyname(self._hs)
        self.to_host = 0
        self.to_device = 0
        self.dropped = 0
        self.cut_off = False
        self.cut_after = None
        self.rewrite = None
        self.inject = bytearray()   # extra bytes for the scorer, sent as they come
        self.host_said = bytearray()    # every byte the host sent, in order
        self._reader = wire.ReplyReader()
        self._pending = {self._dm: bytearray(), self._hm: bytearray()}
        self._stop = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def cut(self):
        self.cut_off = True

    def mend(self):
        self.cut_off = False

    def cut_at(self, n):
        self.cut_after = n

    def send_to_device(self, data):
        with self._lock:
            self.inject.extend(data)

    def close(self):
        if self._stop:
            return
        self._stop = True
        self._thread.join(2)
        for fd in (self._dm, self._ds, self._hm, self._hs):
            try:
                os.close(fd)
            except OSError:
                pass

    def _carry_to_host(self, data):
        if self.cut_after is not None and self.to_host + len(data) >= self.cut_after:
            keep = max(0, self.cut_after - self.to_host)
            self.dropped += len(data) - keep
            data = data[:keep]
            self.cut_off = True
            self.cut_after = None
        if self.rewrite is not None:
            self._reader.feed(data)
            data = bytearray()
            while True:
                f = self._reader.next()
                if f is None:
                    break
                payload = self.rewrite(*f)
                if payload is not None:
                    buf = bytearray(wire.HEAD + len(payload) + wire.TAIL)
                    buf[wire.HEAD:wire.HEAD + len(payload)] = payload
                    n = wire.reply_into(buf, ord(f[0]), f[1], len(payload))
                    data += buf[:n]
        self.to_host += len(data)
        self._pending[self._hm] += data

    def _run(self):
        dm, hm = self._dm, self._hm
        while not self._stop:
            with self._lock:
                if self.inject and not self.cut_off:
                    self._pending[dm] += self.inject
                    self.to_device += len(self.inject)
                    self.inject = bytearray()
            wfds = [fd for fd in (dm, hm) if self._pending[fd]]
            try:
                r, w, _ = select.select([dm, hm], wfds, [], 0.02)
            except (OSError, ValueError):
                return
            for fd in r:
                try:
                    data = os.read(fd, 65536)
                except (BlockingIOError, OSError):
                    continue
                if self.cut_off:
                    self.dropped += len(data)
                elif fd == dm:
                    self._carry_to_host(data)
                else:
                    self.host_said += data
                    self.to_device += len(data)
                    self._pending[dm] += data
            for fd in w:
                buf = self._pending[fd]
                try:
                    n = os.write(fd, buf)
                except (BlockingIOError, OSError):
                    continue
                del buf[:n]


class Scorer:
    """The MicroPython scorer process (tests/kit/sync_device.py) on the cable's device end."""

    def __init__(self, image, cable, *options, record=None):
        args = [MICROPYTHON, "tests/kit/sync_device.py", image, cable.device_path]
        if record:
            args += ["--record", record]
        args += [str(o) for o in options]
        self.proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE,
                                     env=dict(os.environ, MICROPYPATH=".frozen:.:tests/kit/chip"))
        line = self.proc.stdout.readline()
        if line.strip() != b"ready":
            err = self.proc.stderr.read().decode(errors="replace")
            raise RuntimeError("the scorer did not start: %r %s" % (line, err))

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        """End the process; what it wrote on stderr (once)."""
        if self.proc.stderr.closed:
            return ""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace")
        self.proc.stdout.close()
        self.proc.stderr.close()
        return err


def wait_for(cond, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return False


def ctrl_c_reaches_it():
    """preexec_fn of a child the tests stop with SIGINT, as Ctrl-C at a terminal: a test
    run started in the background (`make test &`, nohup, a CI step) ignores SIGINT, a
    child inherits an ignored signal, and a Python child then never sees its Ctrl-C
    (each stop waited out, then killed). The child gets SIGINT's default back."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class HeldSim:
    """`tally42 sim --script SCRIPT --flash FLASH --hold` in its own process: the serial
    port it offers, keys on its standard input. Its stdout and stderr are read as they
    come, by threads: a pipe nobody reads fills, and a sim blocked writing its screen to
    it would neither go on nor stop."""

    def __init__(self, script, flash, keys=False):
        import sys
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_tools", "sim", "--script", str(script), "--flash",
             str(flash), "--hold"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            stdin=subprocess.PIPE if keys else subprocess.DEVNULL,
            preexec_fn=ctrl_c_reaches_it)
        first = self.proc.stdout.readline().decode()
        if not first.startswith("serial: /dev/"):
            raise RuntimeError("the sim did not start: %r %s"
                               % (first, self.proc.stderr.read().decode(errors="replace")))
        self.port = first.split()[1]
        self._out, self._err = [], []
        self._readers = [threading.Thread(target=self._read, args=(s, into), daemon=True)
                         for s, into in ((self.proc.stdout, self._out),
                                         (self.proc.stderr, self._err))]
        for t in self._readers:
            t.start()

    @staticmethod
    def _read(stream, into):
        while True:
            data = stream.read1(65536)
            if not data:
                return
            into.append(data)

    def keys(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def stop(self, timeout=60):
        """Ctrl-C, as at a terminal; returns what the sim wrote on stderr. A sim that
        does not stop within `timeout` s is killed."""
        import signal
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for t in self._readers:
            t.join(timeout)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        return b"".join(self._err).decode(errors="replace")
