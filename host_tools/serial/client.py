"""The host side of sync (protocol: docs/sync-protocol.md): a client that opens a session
with a scorer over a SerialLink, lists, fetches by offset (resuming after a pulled cable),
acknowledges what the PC has stored, and pushes the clock, names, settings and table
assignments. link/sync.py's sync() drives it."""
import time

from engine_core import wire
from host_tools.tables.assignment import ASSIGN_MINOR, check_assignment, game_settings
from host_tools.serial.transport import LinkError

# Error codes of the device's "e" reply.
E_BAD_FRAME = 1
E_NO_SESSION = 2
E_VERSION = 3
E_UNKNOWN = 4
E_BAD_ARGS = 5
E_NOT_FOUND = 6
E_OPEN = 7
E_JOURNAL = 8
E_UNSUPPORTED = 9
E_REFUSED = 10
E_STALE = 11

_REQUESTS = {"H": "hello", "L": "the list", "F": "a fetch", "A": "an acknowledge",
             "C": "the clock", "N": "the names", "S": "the settings", "B": "goodbye",
             "T": "the table assignment"}

MAX_ITEMS = 16          # sittings or ranges in one fetch or acknowledge
WINDOW = 8192           # bytes asked for in one fetch
BYE_WAIT = 2.0          # seconds a goodbye waits for its answer
RENEWALS = 3            # new sessions one request may open (the scorer closed its session)
STALL = 0.5             # seconds a read may overrun before the PC counts itself stalled


class SyncError(Exception):
    """Sync failed: a message the user can act on."""


_MEANING = {
    E_BAD_FRAME: "a request arrived damaged",
    E_NO_SESSION: "no session is open",
    E_VERSION: "another protocol version",
    E_UNKNOWN: "a command it does not know",
    E_BAD_ARGS: "a malformed request",
    E_NOT_FOUND: "no such sitting",
    E_OPEN: "the sitting is still being played",
    E_JOURNAL: "its journal failed",
    E_UNSUPPORTED: "it cannot do that",
    E_REFUSED: "refused",
    E_STALE: "a stale request",
}


class Silent(SyncError):
    """The scorer stopped answering (or never did)."""


class DeviceError(SyncError):
    """The scorer answered with an error reply: code, detail, and its message."""

    def __init__(self, code, detail, message, request=""):
        what = _MEANING.get(code, "error %d" % code)
        text = "the scorer answered %s with: %s (%s)" % (request or "a request", message, what)
        if code == E_REFUSED:
            text = "the scorer refused %s: %s" % (request or "a request", message)
        super().__init__(text)
        self.code = code
        self.detail = detail
        self.message = message


class DeviceInfo:
    def __init__(self, p, url):
        if len(p) < 24:
            raise SyncError("the scorer's hello is too short (%d bytes)" % len(p))
        self.version = p[0]
        self.minor = p[1]
        self.session = wire.get_u16(p, 2)
        self.free = wire.get_u32(p, 4)
        self.chunk = wire.get_u16(p, 8)
        self.max_request = wire.get_u16(p, 10)
        self.unsynced = wire.get_u16(p, 12)
        self.unsynced_bytes = wire.get_u32(p, 14)
        self.clock = wire.get_u32(p, 18)
        pos = 22
        strings = []
        for _ in range(2):
            if pos >= len(p) or pos + 1 + p[pos] > len(p):
                raise SyncError("the scorer's hello is malformed (its id and version)")
            strings.append(p[pos + 1:pos + 1 + p[pos]].decode("ascii", "replace"))
            pos += 1 + p[pos]
        self.device_id, self.firmware = strings
        # Minor 2: the scorer's count since power-on and its tag while its clock is not
        # set (engine_core.stamp); None from an older scorer, or once the clock is set.
        self.count = None
        if pos + 5 <= len(p) and p[pos + 4]:
            self.count = (wire.get_u32(p, pos), p[pos + 4] - 1)
        self.heard_at = time.time()     # the PC's clock as the hello came: the offset's other end
        self.url = url
        if self.version != wire.VERSION:
            raise SyncError("the scorer on %s speaks sync protocol %d, this tally42 speaks %d: "
                            "update %s" % (url, self.version, wire.VERSION,
                                           "tally42" if self.version > wire.VERSION
                                           else "the scorer's firmware"))
        if not self.session or self.max_request < 64:
            raise SyncError("the scorer's hello is malformed (session %d, requests of %d bytes)"
                            % (self.session, self.max_request))

    def describe(self):
        return "scorer %s (firmware %s, sync protocol %d.%d) on %s" % (
            self.device_id, self.firmware, self.version, self.minor, self.url)


class Entry:
    """A sitting in the scorer's journal, as its list says."""

    def __init__(self, sid, flags, length):
        self.sid = sid
        self.finished = bool(flags & 1)
        self.synced = bool(flags & 2)
        self.damaged = bool(flags & 4)     # a record fails its check: sent up to it
        self.length = length

    def __repr__(self):
        return "Entry(%d, %s%s%s, %d bytes)" % (
            self.sid, "finished" if self.finished else "open", ", synced" if self.synced
            else "", ", damaged" if self.damaged else "", self.length)


def _ranges(sids):
    # "3-7 9 12-13": consecutive ids as ranges.
    out = []
    i = 0
    while i < len(sids):
        j = i
        while j + 1 < len(sids) and sids[j + 1] == sids[j] + 1:
            j += 1
        out.append("%d" % sids[i] if i == j else "%d-%d" % (sids[i], sids[j]))
        i = j + 1
    return out


def _fetch_items(entries, taken, start):
    sids = [entries[k].sid for k in taken]
    if start:
        return ["%d:%d" % (sids[0], start)] + _ranges(sids[1:])
    return _ranges(sids)


class Client:
    """A session with the scorer on `link`.

    timeout: seconds to wait for a reply before asking again; wait: seconds without any
    answer (or with the port gone) before giving up; notice(text): told when the link goes
    quiet and when it is back."""

    def __init__(self, link, timeout=1.0, wait=30.0, window=WINDOW, notice=None):
        self.link = link
        self.timeout = timeout
        self.wait = wait
        self.window = window
        self.notice = notice or (lambda text: None)
        self.info = None
        self.first_info = None
        self.session = 0
        self.seq = 0
        self.reader = wire.ReplyReader()
        self.resumes = 0        # fetches asked again after a gap or a silence
        self._misplaced = 0     # frames in a row that were not where the fetch stood
        self._alive = time.monotonic()
        self._silent_for = 0.0  # seconds listened to the scorer since it last answered
        self._quiet = False
        self._first = False     # the first hello: no talk of cables yet

    # ---- one request, its replies ----

    def _send(self, cmd, args):
        line = wire.request(self.session, self.seq, cmd, args)
        try:
            self.link.write(line)
        except LinkError:
            self._link_down()
            self.link.write(line)

    def _frame(self, deadline):
        """The next reply frame, or None at the deadline. What has arrived is read even
        when the deadline has passed: a PC that was slow (busy, stopped) reads the replies
        that came meanwhile before it calls the scorer silent."""
        late = False
        while True:
            f = self.reader.next()
            if f is not None:
                return f
            before = time.monotonic()
            left = deadline - before
            if left <= 0:
                if late:
                    return None
                late = True
            asked = min(max(left, 0.0), 0.1)
            try:
                data = self.link.read(asked)
            except LinkError:
                self._link_down()
                continue
            # Silence is the time spent listening: a read that overran what it asked
            # for by far is a PC that did not run (stopped, swapped out, busy), and the
            # time it slept, or spent on its own work between reads, is not the scorer's.
            self._silent_for += min(time.monotonic() - before, asked + STALL)
            self.reader.feed(data)

    def _link_down(self):
        # The port went away (a pulled cable): open it again until `wait` runs out. Before
        # the scorer has ever answered there is no transfer to resume: fail at once.
        if self._first:
            raise SyncError("lost the link to the scorer on %s before it answered (was the "
                            "cable pulled?)" % self.link.url)
        self._silence()
        start = time.monotonic()
        try:
            self.link.reopen(max(0.0, self.wait - self._silent_for))
        except LinkError as e:
            raise SyncError("lost the link to the scorer (%s)" % e)
        finally:
            self._silent_for += time.monotonic() - start      # the scorer's silence too
        self.reader = wire.ReplyReader()

    def _silence(self):
        if self._silent_for > self.wait:
            raise Silent("the scorer on %s stopped answering (is the cable in? is the "
                         "scorer on?)" % self.link.url)
        if not self._quiet:
            self._quiet = True
            if not self._first:
                self.notice("the scorer does not answer: waiting up to %g s "
                            "(plug the cable back in)" % self.wait)

    def _heard(self):
        self._alive = time.monotonic()
        self._silent_for = 0.0
        if self._quiet:
            self._quiet = False
            if not self._first:
                self.notice("the scorer answers again")

    def _next_seq(self):
        self.seq = self.seq % 254 + 1     # 1..254: 0xFF marks replies to damaged requests

    def request(self, cmd, args=b""):
        """Send a request (again on silence or a damaged request) and return its first
        reply frame (kind, payload); DeviceError for an error reply."""
        self._next_seq()
        renewed = 0
        while True:
            self._send(cmd, args)
            deadline = time.monotonic() + self.timeout
            while True:
                f = self._frame(deadline)
                if f is None:
                    self._silence()
                    break           # ask again, same sequence number
                kind, seq, payload = f
                if kind == "e" and seq == 0xFF and payload[:1] == bytes([E_BAD_FRAME]):
                    break           # our request arrived damaged
                if seq != self.seq:
                    continue        # a late reply to an earlier request
                self._heard()
                if kind != "e":
                    return kind, payload
                code, detail, msg = _error(payload)
                if code == E_NO_SESSION and cmd != "H" and renewed < RENEWALS:
                    # The scorer closed the session (idle while the PC was slow, or
                    # restarted): the request was not carried out; open another session
                    # and ask again. (A scorer that answers every hello is alive: a few
                    # times, for a PC slower than the scorer's idle limit more than once.)
                    renewed += 1
                    self.hello()
                    self._next_seq()
                    break
                raise DeviceError(code, detail, msg, _REQUESTS.get(cmd, cmd))

    def replies(self):
        """Further frames of the current request's reply (list, fetch), or None when the
        scorer falls silent for `timeout`."""
        deadline = time.monotonic() + self.timeout
        while True:
            f = self._frame(deadline)
            if f is None:
                return None
            kind, seq, payload = f
            if seq == self.seq:
                self._heard()
                if kind == "e":
                    code, detail, msg = _error(payload)
                    if code == E_NO_SESSION:
                        # The session closed mid-reply (the PC was slow): as a silence,
                        # the fetch asks again from where it stands, in a new session.
                        return None
                    raise DeviceError(code, detail, msg, "a fetch or list")
                return kind, payload

    # ---- the commands ----

    def hello(self, patience=None):
        """Open a session. patience: seconds to wait for a first answer (default: wait)."""
        try:
            self.link.discard_input()   # whatever the scorer said before we asked
        except LinkError:
            pass
        self.reader = wire.ReplyReader()
        self.session = 0
        first = self._first = self.info is None
        saved = self.wait
        if patience is not None:
            self.wait = patience
            self._alive = time.monotonic()
            self._silent_for = 0.0
        try:
            kind, p = self.request("H", b"%d" % wire.VERSION)
        except Silent:
            if not first:
                raise
            raise Silent("no scorer answered on %s (asleep? press a button on the scorer "
                         "to wake it, then sync again; at the REPL, start the firmware)"
                         % self.link.url)
        finally:
            self.wait = saved
            self._first = False
        if kind != "h":
            raise SyncError("the scorer answered hello with a %r reply" % kind)
        self.info = DeviceInfo(p, self.link.url)
        if self.first_info is None:
            # The scorer's clock as this sync first found it (the sync sets it after):
            # what its sittings' times are placed by (host_tools/serial/clock.py).
            self.first_info = self.info
        self.session = self.info.session
        return self.info

    def list(self, unsynced=True):
        """The scorer's sittings ([Entry]): finished ones not yet synced, or all."""
        kind, p = self.request("L", b"u" if unsynced else b"")
        out = []
        while True:
            if kind not in "lL" or len(p) % 7:
                raise SyncError("the scorer's list is malformed (%r reply of %d bytes)"
                                % (kind, len(p)))
            for i in range(0, len(p), 7):
                e = Entry(wire.get_u24(p, i), p[i + 3], wire.get_u24(p, i + 4))
                if out and e.sid <= out[-1].sid:
                    raise SyncError("the scorer's list is out of order at sitting %d" % e.sid)
                out.append(e)
            if kind == "L":
                return out
            f = self.replies()
            if f is None:   # a list is short: ask for all of it again
                self._silence()
                kind, p = self.request("L", b"u" if unsynced else b"")
                out = []
            else:
                kind, p = f

    def fetch(self, entries, data, progress=None):
        """Fetch sittings into `data` (one bytearray each, resuming from their length);
        returns after one window. Asks again from where it stands after a gap or a silence."""
        i = 0
        while i < len(entries) and len(data[i]) >= entries[i].length:
            i += 1
        if i == len(entries):
            return
        args, count, last = self._fetch_args(entries, data, i)
        kind, p = self.request("F", args)
        pos = [i, len(data[i])]
        got = 0
        while True:
            if kind not in "dD" or len(p) < 6:
                raise SyncError("the scorer answered a fetch with a %r reply" % kind)
            sid, off = wire.get_u24(p, 0), wire.get_u24(p, 3)
            self._skip_ended(entries, pos, last)
            at = entries[pos[0]] if pos[0] <= last else None
            if at is not None and sid == at.sid and off == pos[1]:
                self._misplaced = 0
                got += self._take(entries, data, pos, last, memoryview(p)[6:])
                if progress:
                    progress(len(p) - 6)
            elif self._behind(entries, data, sid, off):
                # Bytes already here (the request was answered twice): skip them.
                if kind == "D":
                    self.resumes += 1
                    return
            else:
                # A frame lost on the way: ask again from here (but not for ever).
                self.resumes += 1
                self._misplaced += 1
                if self._misplaced > 8:
                    raise SyncError("the scorer keeps sending sitting %d from byte %d where "
                                    "byte %d of sitting %d is due" % (
                                        sid, off, pos[1], entries[min(pos[0], last)].sid))
                return
            if kind == "D":
                if got < count and not self._complete(entries, data, i, last):
                    raise SyncError("the scorer sent %d bytes of sittings %d to %d where its "
                                    "list promised %d" % (got, entries[i].sid,
                                                          entries[last].sid, count))
                return
            f = self.replies()
            if f is None:
                self._silence()
                self.resumes += 1
                return
            kind, p = f

    def _fetch_args(self, entries, data, i):
        # "count item...": sittings from entries[i] on (its first one from where it
        # stands), up to the window, as few items as the request line holds.
        start = len(data[i])
        limit = self.info.max_request - 18 - 12
        taken = [i]
        count = entries[i].length - start
        j = i + 1
        while j < len(entries) and count < self.window:
            items = _fetch_items(entries, taken + [j], start)
            if len(items) > MAX_ITEMS or len(" ".join(items)) > limit:
                break
            taken.append(j)
            count += entries[j].length
            j += 1
        items = _fetch_items(entries, taken, start)
        count = min(count, self.window)
        return ("%d %s" % (count, " ".join(items))).encode("ascii"), count, taken[-1]

    @staticmethod
    def _skip_ended(entries, pos, last):
        while pos[0] <= last and pos[1] >= entries[pos[0]].length:
            pos[0] += 1
            pos[1] = 0

    @staticmethod
    def _behind(entries, data, sid, off):
        # A frame of bytes already here (a request answered twice): nothing to do.
        for e, d in zip(entries, data):
            if e.sid == sid:
                return off < len(d)
        return False

    def _take(self, entries, data, pos, last, chunk):
        n = 0
        while n < len(chunk):
            self._skip_ended(entries, pos, last)
            if pos[0] > last:
                raise SyncError("the scorer sent more bytes than sittings %d to %d hold"
                                % (entries[0].sid, entries[last].sid))
            e = entries[pos[0]]
            k = min(len(chunk) - n, e.length - pos[1])
            data[pos[0]].extend(chunk[n:n + k])
            pos[1] += k
            n += k
        return n

    @staticmethod
    def _complete(entries, data, i, last):
        return all(len(data[k]) >= entries[k].length for k in range(i, last + 1))

    def ack(self, sids):
        """Tell the scorer the PC holds these sittings; returns its free journal bytes."""
        free = None
        items = _ranges(sorted(sids))
        while items:
            part = []
            while items and len(part) < MAX_ITEMS and len(" ".join(part + items[:1])) < 200:
                part.append(items.pop(0))
            kind, p = self.request("A", " ".join(part).encode("ascii"))
            if kind != "a" or len(p) < 6:
                raise SyncError("the scorer answered an acknowledge with a %r reply" % kind)
            free = wire.get_u32(p, 2)
        return free

    def set_clock(self, when=None):
        """Set the scorer's clock to `when` (Unix seconds; now by default) and this PC's
        offset from UTC."""
        when = int(time.time() if when is None else when)
        offset = _utc_offset_minutes(when)
        self._ok(self.request("C", b"%d %d" % (when, offset)), "clock")

    def push_names(self, kind, names):
        """Player ("p") or team ("t") names for the scorer."""
        args = kind.encode("ascii") + b"".join(b" " + wire.escape(n.encode("utf-8"))
                                                 for n in names)
        self._ok(self.request("N", args), "names")

    def push_settings(self, pairs):
        args = b" ".join(wire.escape(k.encode("utf-8")) + b"=" + wire.escape(v.encode("utf-8"))
                         for k, v in pairs)
        self._ok(self.request("S", args), "settings")

    @staticmethod
    def _ok(reply, what):
        if reply[0] != "k":
            raise SyncError("the scorer answered %s with a %r reply" % (what, reply[0]))

    def push_assignment(self, assignment):
        """Push a table assignment (check_assignment's form) for the scorer's next
        sitting: event, round and table first (a scorer that does not know them refuses,
        and nothing has changed), then the players by seat, then the game: its variant
        and every option, resolved, so nothing of the last setup stays."""
        a = check_assignment(assignment)
        if self.info is not None and self.info.minor < ASSIGN_MINOR:
            raise DeviceError(E_UNKNOWN, ord("T"), "no table assignments in firmware %s"
                              % self.info.firmware, _REQUESTS["T"])
        self._ok(self.request("T", b"%d %d %s" % (a["round"], a["table"], wire.escape(
            a["event"].encode("utf-8")))), "the table assignment")
        if a.get("players"):
            self.push_names("p", a["players"])
        pairs = game_settings(a)
        while pairs:
            part = [pairs.pop(0)]
            while pairs and len(" ".join("%s=%s" % p for p in part + pairs[:1])) < 150:
                part.append(pairs.pop(0))
            self.push_settings(part)

    def bye(self):
        """Close the session. A scorer that has gone (unplugged, asleep, stopped) is given
        BYE_WAIT seconds, not the whole wait: its session times out there anyway."""
        saved = self.wait, self._first
        self.wait = min(self.wait, BYE_WAIT)
        self._alive = time.monotonic()
        self._silent_for = 0.0
        self._first = True      # no talk of cables, no reopening of a port that is gone
        try:
            self.request("B")
        except (SyncError, LinkError):
            pass
        finally:
            self.wait, self._first = saved
        self.session = 0


def _error(p):
    if len(p) < 5:
        return 0, 0, "a malformed error reply"
    return p[0], wire.get_u32(p, 1), p[5:].decode("ascii", "replace")


def _utc_offset_minutes(when):
    local = time.localtime(when)
    return int(getattr(local, "tm_gmtoff", 0) or 0) // 60
