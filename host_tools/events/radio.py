"""An event's radio: its key, and the results that come over the air from the base
station (host_tools/serial/radio.py), checked, stored and slotted as they come, so that
`tally42 serve` shows each table live ("playing 3-2, hand 5") and the standings so far.

Each scorer's sittings arrive as their journal streams (engine_core/air/wire.py): a frame
is taken only if its MAC is right under the event's key; its bytes must follow on from
what is held (a gap is not taken: the acknowledge says where to go on from), and bytes
held already are counted as duplicates and never stored twice. The sitting is stored
under the id a USB sync gives it, so a sync later finds it stored (or stores the longer
log): the radio's copy and the sync's are the same sitting. One scorer per table: a
table pushed to one scorer (or first heard from one) refuses every other's sittings.

Each scorer has a key of its own, derived from the event's key and its device id when
it is synced (`scorer_key`): a frame made under one scorer's key fails the MAC of every
other's address, so no scorer of the event can pass for another. Once a scorer's
finished sitting is held (or refused: its table decided elsewhere), its next table goes
back with the acknowledge, and again whenever the scorer asks, until it confirms
(host_tools/events/nexttable.py)."""
import datetime
import json
import os
import sys
import time

from engine_core.header import header_assignment, header_stamp
from engine_core.stamp import power_on_tag
from engine_core.air import keys as AK
from engine_core.air import wire as W
from host_tools.events import desk as DK
from host_tools.events import event as EV
from host_tools.events import nexttable as NT
from host_tools.events import slots as SL
from host_tools.serial.client import E_UNKNOWN, DeviceError, SyncError
from host_tools.serial.sync import stream_parts
from host_tools.log.device import END_ITEM, device_sitting_id, device_time, from_device
from host_tools.log.lines import LogError
from host_tools.store import db as D

FLUSH = 0.1     # seconds of frames taken before the acknowledges so far go out

_KEYS = ("CREATE TABLE IF NOT EXISTS event_radio (event TEXT PRIMARY KEY REFERENCES "
         "events(name) ON DELETE CASCADE, radio_key TEXT NOT NULL)")


def event_key(database, name):
    """The event's radio key (16 bytes), made the first time it is asked for; pushed to
    each scorer by `tally42 sync --event` (the setting radio=HEX)."""
    with EV.Transaction(database, "make the radio key of %s" % name):
        conn = database.conn
        conn.execute(_KEYS)
        row = conn.execute("SELECT radio_key FROM event_radio WHERE event = ?",
                           (name,)).fetchone()
        if row is not None:
            return bytes.fromhex(row[0])
        key = os.urandom(W.KEY_LEN)
        conn.execute("INSERT INTO event_radio (event, radio_key) VALUES (?, ?)",
                     (name, key.hex()))
    return key


def scorer_key(key, device_id):
    """A scorer's own radio key: HMAC-SHA256 under the event's key over "T42 scorer" and
    its device id (`T42-` and its chip id), its first 16 bytes (engine_core/air/keys.py,
    which the base station derives it by too). Pushed to the scorer at its sync; the PC
    derives it again from the address a frame comes from."""
    return AK.scorer_key(bytes(key), device_id)


def device_of(address):
    """A scorer's device id from its radio address (engine_core/air/keys.py)."""
    return AK.device_of(address)


def complete(stream):
    """The length of the stream's prefix made of whole items (the header first)."""
    pos = 0
    while pos < len(stream):
        n = stream[pos]
        if pos + 1 + n > len(stream) or (pos and not 1 <= n <= END_ITEM):
            break
        pos += 1 + n
    return pos


class Sitting:
    """What is held of one scorer's sitting: its stream so far, and what it was stored as."""

    def __init__(self):
        self.stream = bytearray()
        self.stored = 0         # stream bytes stored in the database
        self.over = False       # what is stored is a game over
        self.id = None
        self.refused = None     # why the PC will not take it
        self.start_count = None     # its header's stamp (seconds)
        # The PC's time when it was first heard of: its start time when the scorer's
        # clock was not set (a restart without a sync); and when its end was first heard.
        self.heard = _pc_now()
        self.end_heard = None

    def place(self, seconds, offset_minutes):
        # Where a stamp goes (log.device.from_device's place): a clock the PC set, as
        # stamped; a count from the scorer's power-on (engine_core.stamp), the PC's
        # clock when the radio brought it (the start's header, the END record).
        if power_on_tag(offset_minutes) < 0:
            return device_time(seconds, offset_minutes), "scorer"
        if seconds == self.start_count:
            return self.heard, "pc"
        if self.end_heard is None:
            self.end_heard = _pc_now()
        return self.end_heard, "pc"


def _pc_now():
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


class Next:
    """A next table made for a scorer's finished sitting: what (nexttable.next_for), the
    frame, when it was made and confirmed, when it is due to go out again."""

    def __init__(self, what, frame, made):
        self.what = what
        self.frame = frame
        self.made = made
        self.first = made       # when it was first made: the result just stored
        self.confirmed = None
        self.due = 0
        self.sends = 0


class Receiver:
    """`Receiver(database, event name)`: take(address, frame) -> the acknowledge to send
    (or None); live: {(round, table): what the page shows of it}."""

    def __init__(self, database, name, key=None, clock=time.monotonic):
        self.database = database
        self.name = name
        self.key = key or event_key(database, name)
        self.clock = clock
        self.sittings = {}      # (address, journal number) -> Sitting
        self.live = {}
        self.frames = 0
        self.accepted = 0       # frames that brought new bytes
        self.duplicates = 0     # frames whose bytes were all held already
        self.foreign = 0        # another event's, forged, or not the scorer's
        self.refused = 0        # a table kept by another scorer, or not this event's
        self.base_checks = None     # the base station checks the scorers' keys too (relay)
        self.notes = []
        self.nexts = {}         # (address, sitting) -> Next: the next table sent
        self.conflicts = []     # (round, table, device, why): decided elsewhere mid-game
        self.resend = 0.3       # seconds between sends of a next table not confirmed
        self._scorers = AK.Scorers(self.key, None)  # each scorer's tag and Mac
        self._told = {}         # address -> when the desk was last told it was heard
        self._buf = bytearray(W.MAX_FRAME)

    def scorer(self, address):
        """(tag, Mac) of the scorer at `address`, under its own key."""
        return self._scorers.of(address)

    def take(self, address, frame):
        self.frames += 1
        if self._scorers.check(address, frame, len(frame)) != AK.SOUND:
            self.foreign += 1
            return None
        n = len(frame)
        sid = W.get_u24(frame, 5)
        self._heard(address)
        if frame[0] == W.CONFIRM:
            self._confirmed(address, sid, frame)
            return self._heard_confirm(address, sid)
        offset = W.get_u24(frame, 8)
        records = bytes(frame[W.HEAD:n - W.MAC_LEN])
        s = self.sittings.setdefault((bytes(address), sid), Sitting())
        if records:
            self._moved_on(address, sid)
        if not records:
            pass                # a finished sitting's scorer asks for its next table
        elif s.refused is None:
            held = len(s.stream)
            if offset > held:
                pass            # a gap: the acknowledge says where to go on from
            elif offset + len(records) <= held:
                if s.stream[offset:offset + len(records)] == records:
                    self.duplicates += 1
                else:
                    self.foreign += 1   # other bytes where the journal has some: not ours
                    return None
            else:
                if s.stream[offset:] != records[:held - offset]:
                    self.foreign += 1
                    return None
                s.stream.extend(records[held - offset:])
                self.accepted += 1
                self._store(address, sid, s)
        return self._ack(address, sid, s, frame[11] & W.F_FINISHED)

    def _ack(self, address, sid, s, finished):
        b = self._buf
        whole = s.stored == len(s.stream) and s.stored
        over = s.over and whole and not s.refused
        flags = W.F_REFUSED if s.refused else (W.F_HELD if finished and whole else 0) | (
            W.F_OVER if over else 0)
        tag, mac = self.scorer(address)
        W.put_head(b, W.ACK, tag, sid, s.stored, flags)
        n = mac.seal(address, b, W.HEAD)
        if over or (finished and s.refused):
            self._offer(address, sid)
        return bytes(b[:n])

    # ---- the next table ----
    def _offer(self, address, sid):
        # The next table of the scorer whose sitting `sid` is over and held (or
        # refused), made once (again while it says wait), and sent now.
        key = (bytes(address), sid)
        nx = self.nexts.get(key)
        now = self.clock()
        if nx is None or (nx.what[0] == "wait" and now - nx.made >= 1.0):
            device = device_of(address)
            try:
                what = NT.next_for(self.database, self.name, device)
            except (D.DbError, EV.EventError) as e:
                self.notes.append("%s: no next table yet: %s" % (device, e))
                return
            tag, mac = self.scorer(address)
            if nx is None or nx.what != what:
                try:
                    f = NT.frame(tag, mac, address, sid, what)
                except ValueError:
                    self.notes.append("%s: its next table (%s) is too long for the radio: "
                                      "sync it over USB" % (device, NT.describe(what)))
                    return
                nx = self.nexts[key] = Next(what, f, now)
                self._desk(address, next_text=NT.describe(what),
                           next_state="wait" if what[0] == "wait" else "sent")
            nx.made = now
        nx.due = 0              # goes out with this acknowledge (asked: wanted again)

    def _heard_confirm(self, address, sid):
        # The answer to a confirm: F_TAKEN, the PC heard it (the scorer sends it again
        # until this comes: a confirm lost is not left to the next table's resends, which
        # a scorer whose radio is off would not hear). Any sound confirm is answered, a
        # PC restarted since too; no next table goes with it.
        s = self.sittings.get((bytes(address), sid))
        b = self._buf
        tag, mac = self.scorer(address)
        W.put_head(b, W.ACK, tag, sid, s.stored if s is not None else 0,
                   W.F_TAKEN | W.F_HELD)
        return bytes(b[:mac.seal(address, b, W.HEAD)])

    def _confirmed(self, address, sid, frame):
        nx = self.nexts.get((bytes(address), sid))
        if nx is not None and bytes(frame[8:11]) == nx.frame[8:11]:
            if nx.confirmed is None:
                nx.confirmed = self.clock()
                self._desk(address, next_state="confirmed")
            nx.due = None

    # ---- what the desk sees (host_tools/events/desk.py) ----
    def _desk(self, address, **fields):
        try:
            DK.note(self.database, self.name, device_of(address), **fields)
        except (D.DbError, EV.EventError) as e:
            self.notes.append("the desk not told: %s" % e)

    def _heard(self, address):
        # At most every 2 s a scorer: a window of frames is one write.
        now = self.clock()
        if now - self._told.get(bytes(address), -10.0) >= 2.0:
            self._told[bytes(address)] = now
            self._desk(address, heard_at=True)

    def _moved_on(self, address, sid):
        # A later sitting's records: the scorer took its next table (a confirm lost).
        for (a, older), nx in self.nexts.items():
            if a == address and older < sid and nx.confirmed is None:
                nx.confirmed = self.clock()
                nx.due = None
                self._desk(address, next_state="confirmed")

    def due(self):
        """The next frames to send now [(address, frame)]: each not yet confirmed, at
        most every `resend` seconds, 40 times; the scorer's asking starts it again."""
        now = self.clock()
        out = []
        for (address, _), nx in self.nexts.items():
            if nx.due is None or now < nx.due:
                continue
            out.append((address, nx.frame))
            nx.sends += 1
            nx.due = now + self.resend if (nx.confirmed is None and nx.sends % 40) else None
        return out

    def _store(self, address, sid, s):
        end = complete(s.stream)
        if end <= s.stored or end == 0:
            return
        device = device_of(address)
        try:
            header, events, ended = stream_parts(bytes(s.stream[:end]))
            stamp = header_stamp(header)
            s.start_count = stamp[1] if stamp else None
            lines = from_device(header, events, {"id": device_sitting_id(device, sid, header)},
                                ended, s.place)
        except ValueError as e:
            s.refused = "damaged (%s)" % e
            self.refused += 1
            return
        assign = header_assignment(header)
        if assign is None or assign[0] != self.name:
            s.refused = "not played as a table of %s" % self.name
            self.refused += 1
            return
        _, rnd, table = assign
        try:
            refusal = self._keeper(rnd, table, device)
            if refusal is None:
                st = self.database.store_lines(lines, source="sync", device=device)
                if not lines[0].get("started"):
                    self.database.set_started(st.id, s.heard)
        except (LogError, D.Conflict) as e:
            refusal = str(e)        # it does not replay, or its id holds another log
        except (D.DbError, EV.EventError) as e:
            # The database busy or gone for now: not held, so the scorer sends it again.
            self.notes.append("%s: not stored yet: %s" % (device, e))
            return
        if refusal is not None:
            s.refused = refusal
            self.refused += 1
            self.notes.append("%s: %s" % (device, refusal))
            return
        s.stored = end
        s.id = st.id
        try:
            SL.slot_sitting(self.database, st.id, self.name, rnd, table)
        except EV.EventError as e:
            self.notes.append(str(e))
            if "is decided" in str(e):
                # Its result came another way (by hand, another sitting) while this
                # scorer played it: the desk is told at once.
                self.conflicts.append((rnd, table, device, str(e)))
                self._desk(address, conflict="round %d table %d is decided while %s "
                           "played it: %s" % (rnd, table, device, e))
                sys.stderr.write("tally42: conflict: %s\n" % e)
        s.over = self._show(rnd, table, device, st)

    def _keeper(self, rnd, table, device):
        # None when `device` keeps the table (it was pushed to it, or it is the first
        # heard from at it and now keeps it), else why its sittings there are refused.
        # One write transaction: two PCs relaying at once give the table to one scorer.
        where = "round %s table %s" % (rnd, table)
        with EV.Transaction(self.database, "keep %s for %s" % (where, device)):
            conn = self.database.conn
            row = conn.execute("SELECT device FROM event_tables WHERE event = ? AND "
                               "round = ? AND table_no = ?", (self.name, rnd, table)).fetchone()
            if row is None:
                return "%s has no %s" % (self.name, where)
            if row[0] is None:
                conn.execute("UPDATE event_tables SET device = ? WHERE event = ? AND "
                             "round = ? AND table_no = ?", (device, self.name, rnd, table))
                # Its table number for the night too, as its first push would claim it
                # (slots.next_assignment), when no other scorer holds that number.
                if SL.scorer_table(self.database, self.name, device) is None and \
                        conn.execute("SELECT 1 FROM event_scorers WHERE event = ? AND "
                                     "table_no = ?", (self.name, table)).fetchone() is None:
                    conn.execute("INSERT INTO event_scorers (event, device, table_no) "
                                 "VALUES (?, ?, ?)", (self.name, device, table))
                return None
        return None if row[0] == device else "%s is scored by %s" % (where, row[0])

    def _show(self, rnd, table, device, st):
        row = self.database.conn.execute(
            "SELECT score, hands, over FROM sittings WHERE id = ?", (st.id,)).fetchone()
        score = json.loads(row[0])
        self.live[(rnd, table)] = {
            "device": device, "sitting": st.id, "score": score[:2], "hands": row[1],
            "over": bool(row[2]), "at": self.clock(),
            "line": ("over %d-%d after %d hands" if row[2] else "playing %d-%d, hand %d")
            % (score[0], score[1], row[1] + (0 if row[2] else 1))}
        return bool(row[2])

    def figures(self):
        return {"frames": self.frames, "accepted": self.accepted,
                "duplicates": self.duplicates, "foreign": self.foreign,
                "refused": self.refused}


# ---- the base station's own check (firmware/radio/base.py) ----
# The PC hands it the event's key over the USB line when it opens the base (K), and the
# base derives each scorer's key from it and the address a frame comes from, as the PC
# does (engine_core/air/keys.py), and drops what fails before the PC fetches it. Q asks
# the base what it heard and dropped.

BASE_FIELDS = ("heard", "dropped", "foreign", "forged", "sent")


def give_key(station, key):
    """Hand the base at `station` (host_tools/serial/radio.BaseStation, open) the event's
    key: True once it checks the frames, False when its firmware has no such request
    (an older base: the PC's check is then the only one). SyncError as the link raises."""
    try:
        kind, _ = station.client.request("K", bytes(key).hex().upper().encode())
    except DeviceError as e:
        if e.code == E_UNKNOWN:     # a base from before the check
            return False
        raise
    if kind != "k":
        raise SyncError("the base station answered K with a %r reply" % kind)
    return True


def base_counts(station):
    """The base's counts {heard, dropped, foreign, forged, sent, checks}; None when its
    firmware has no such request."""
    try:
        kind, p = station.client.request("Q")
    except DeviceError as e:
        if e.code == E_UNKNOWN:
            return None
        raise
    if kind != "q" or len(p) < 4 * len(BASE_FIELDS) + 1:
        raise SyncError("the base station answered Q with a %r reply of %d bytes"
                        % (kind, len(p)))
    out = {f: int.from_bytes(p[4 * i:4 * i + 4], "little") for i, f in enumerate(BASE_FIELDS)}
    out["checks"] = bool(p[4 * len(BASE_FIELDS)])
    return out


def relay(station, receiver, stop, pause=0.01, flush=FLUSH, clock=time.monotonic):
    """Fetch from the base station and answer until stop() (a thread of `tally42 serve
    --base`): the base handed the event's key first (it then drops what fails a
    scorer's key before the PC sees it), each frame taken, its acknowledge sent back
    with the next fetch. A burst (many tables ending at once: each game over is stored,
    slotted and its next table handed out, tens of milliseconds each) is taken `flush`
    seconds at a time, the acknowledges and next tables made so far sent between, and
    the frames that cost nothing to answer (a scorer asking for its next table, a
    confirm) first: a scorer waiting for its next table is answered within its asking,
    however many results arrive with its ask."""
    receiver.base_checks = give_key(station, receiver.key)
    if not receiver.base_checks:
        sys.stderr.write("tally42: the base station's firmware does not check the scorers' "
                         "keys: the PC checks each frame alone (deploy the base again)\n")
    acks = []
    waiting = []
    while not stop():
        heard, acks, waiting = relay_step(station, receiver, acks, waiting, flush, clock)
        if not heard and not acks and not waiting:
            time.sleep(pause)


def relay_step(station, receiver, acks, waiting, flush=FLUSH, clock=time.monotonic):
    """One fetch of relay(): `acks` sent, what was heard queued behind `waiting` (asks and
    confirms ahead), then frames taken for `flush` seconds, in one write transaction (a
    commit a slice, not several a frame: what a game over costs is mostly its commits).
    Returns (heard, the acknowledges to send next, the frames still waiting)."""
    heard = station.exchange(acks)
    acks = []
    waiting = [f for f in heard if _quick(f[1])] + waiting + [
        f for f in heard if not _quick(f[1])]
    if waiting:
        start = clock()
        with receiver.database.batch():
            while waiting and clock() - start < flush:
                address, frame = waiting.pop(0)
                ack = receiver.take(address, frame)
                if ack is not None:
                    acks.append((address, ack))
    acks.extend(receiver.due())
    return heard, acks, waiting


def _quick(frame):
    # A frame with no records: a scorer's ask for its next table, or its confirm.
    return len(frame) == W.HEAD + W.MAC_LEN


class Relay:
    """`tally42 serve --base PORT`: a thread that fetches from the base station on PORT
    and stores what the scorers send, with its own connection to the database at
    db_path. start() opens the base (SyncError, LinkError when it cannot); stop() ends."""

    def __init__(self, db_path, name, url):
        self.db_path = db_path
        self.name = name
        self.url = url
        self.receiver = None
        self.error = None
        self._stop = False
        self._thread = None
        self._station = None

    def start(self):
        import threading

        from host_tools.serial.radio import BaseStation
        from host_tools.serial.transport import SerialLink
        link = SerialLink(self.url)
        link.open()
        self._station = BaseStation(link)
        try:
            self._station.open()
        except Exception:
            link.close()
            raise
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self._station.info

    def _run(self):
        from host_tools.serial.transport import LinkError
        database = D.open_db(self.db_path)
        try:
            self.receiver = Receiver(database, self.name)
            relay(self._station, self.receiver, lambda: self._stop)
        except (SyncError, LinkError) as e:
            # The page goes on from what is stored; the desk is told the radio stopped.
            self.error = str(e)
            sys.stderr.write("tally42: the base station on %s: %s (the page shows what "
                             "is stored; start serve again for the radio)\n" % (self.url, e))
        finally:
            database.close()

    def stop(self):
        self._stop = True
        if self._thread is not None:
            self._thread.join(2)
        if self._station is not None:
            self._station.close()
            self._station.client.link.close()
