# The scorer's radio: each record sent to the base station as it is taken, from the
# journal, which stays the record. Loaded only on a scorer that holds an event's radio
# key (firmware/radio/join.py). Frames: engine_core/air/wire.py; the protocol:
# docs/radio.md.
#
# The sittings not yet synced over USB are sent oldest first, each as its journal stream
# from where the PC's acknowledge says it holds it up to. At most WINDOW frames go out
# past the acknowledged place; when no acknowledge moves it on within RESEND_MS, the
# frames go again from there (go-back-N), read again from the journal: nothing is kept
# in RAM but one frame's buffer and a few numbers, all made once (a scorer's heap is
# fragmented by what comes and goes, and the radio adds as little to that as it can).
# After a reboot the numbers start at 0 and the PC's first acknowledge says where it is.
# After GIVE_UP resends with no answer (out of range, the base off) the radio goes off
# until the journal grows, or the board is awake AGAIN_MS later.
import gc
from time import ticks_diff

from micropython import const

from firmware.journal import Walk
from engine_core.journal.reader import JournalReader
from engine_core.air import wire

WINDOW = const(3)           # frames past the acknowledged place
RESEND_MS = const(250)      # no acknowledge within this: send again from it
GIVE_UP = const(12)         # resends without an answer before the radio goes off
AGAIN_MS = const(30000)     # then, once awake this long after, two more tries
BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class Sender:
    """`Sender(journal, radio, key, ticks_ms)`: radio a firmware.radio.air.Radio, key
    the event's (16 bytes). poll() from the main loop: True while frames wait for the
    PC's acknowledge; stop() turns the radio off for good."""

    def __init__(self, journal, radio, key, ticks_ms):
        self._j = journal
        self._radio = radio
        self._tag = wire.tag_of(key)
        self._ticks = ticks_ms
        self._reader = JournalReader(journal)
        self._frame = bytearray(wire.MAX_FRAME)
        self._records = memoryview(self._frame)[wire.HEAD:wire.HEAD + wire.MAX_RECORDS]
        self._mac = wire.Mac(key)
        self._walk = Walk()
        self._base = None           # the base station's address, once it has answered
        self._sid = 0               # the sitting being sent, 0: look for one
        self._done = 0              # every sitting up to this one is held by the PC
        self._length = 0            # its stream's length, as the journal has it
        self._finished = False
        self._held = 0              # what the PC holds of it (its acknowledge)
        self._sent = 0              # sent up to here
        self._at = 0                # ticks of the last frame sent
        self._tries = 0             # resends without the acknowledge moving on
        self._mark = -1             # the journal's free bytes when last looked at
        self._none = False          # nothing to send at that mark: no walk till it moves
        self.frames = 0             # counters, for the power model and the tests
        self.resends = 0
        self.acks = 0
        self.on_ms = 0
        self._on_at = 0

    # ---- the main loop's side ----
    def poll(self):
        now = self._ticks()
        if self._radio.active:
            self._hear()
        mark = self._j.free_bytes()
        if mark != self._mark:      # the journal grew: a record to send
            self._mark = mark
            self._tries = 0
            self._none = False
            if not self._pick():
                return self._rest(now)
        elif self._tries > GIVE_UP:
            if ticks_diff(now, self._at) < AGAIN_MS:
                return self._rest(now)
            self._tries = GIVE_UP - 1   # after a sleep, or back in range: try again
        if self._sid == 0 and not self._pick():
            return self._rest(now)
        if self._held >= self._length:
            if self._finished:      # all of it held: the next sitting, if any
                self._done = self._sid
                self._sid = 0
                return self._pick() or self._rest(now)
            return self._rest(now)
        if self._sent > self._held and ticks_diff(now, self._at) >= RESEND_MS:
            self._sent = self._held     # go back to what the PC holds
            self._tries += 1
            self.resends += 1
            if self._tries > GIVE_UP:
                return self._rest(now)
        if self._sent < self._held:
            self._sent = self._held
        while self._sent < self._length and (
                self._sent - self._held < WINDOW * wire.MAX_RECORDS):
            if not self._send(now):
                break
        return True

    def stop(self):
        """The radio off, ESP-NOW too (a new key, none, or a sync session)."""
        self._rest(self._ticks())
        self._radio.close()

    # ---- the journal's side ----
    def _pick(self):
        # The oldest sitting not synced over USB and not all held by the PC, or the one
        # being sent, with its length: False when there is nothing to send.
        if self._none:
            return False
        j = self._j
        w = self._walk
        w.reset()
        if self._sid and j.find(self._sid, w) and not w.synced:
            self._length = w.length
            self._finished = w.finished
            return True
        self._sid = 0
        j.walk(w)
        while j.walk_next(w):
            if w.sid > self._done and not w.synced:
                self._sid = w.sid
                self._length = w.length
                self._finished = w.finished
                self._held = 0
                self._sent = 0
                return True
        self._none = True
        return False

    def _send(self, now):
        f = self._frame
        wire.put_head(f, wire.DATA, self._tag, self._sid, self._sent,
                      wire.F_FINISHED if self._finished else 0)
        n = self._reader.read(self._sid, self._sent, self._records)
        if not n:
            return False
        r = self._radio
        if not r.active:
            r.on()
            self._on_at = now
        n = self._mac.seal(r.mac, f, wire.HEAD + n)
        try:
            r.send(self._base or BROADCAST, memoryview(f)[:n])
        except OSError:
            return False        # the radio's buffers are full: the resend sends it
        self.frames += 1
        self._sent += n - wire.HEAD - wire.MAC_LEN
        self._at = now
        return True

    # ---- acknowledges ----
    def _hear(self):
        r = self._radio
        while True:
            peer, msg = r.espnow.irecv(0)
            if peer is None:
                return
            if len(msg) != wire.ACK_LEN or msg[0] != wire.ACK or msg[1:5] != self._tag:
                continue        # not for this event
            if not self._mac.sound(r.mac, msg, len(msg)):
                continue        # forged, or for another scorer
            self._ack(peer, msg)

    def _ack(self, peer, msg):
        sid = wire.get_u24(msg, 5)
        if sid != self._sid:
            return              # an old sitting's, late
        self.acks += 1
        if self._base is None:
            self._base = bytes(peer)
            self._radio.peer(self._base)
        held = wire.get_u24(msg, 8)
        flags = msg[11]
        if flags & wire.F_REFUSED:
            self._done = sid    # the PC will not take it (another scorer keeps the table)
            self._sid = 0
            return
        if held > self._held:
            self._held = held
            self._tries = 0
        if held > self._sent:
            self._sent = held

    def _rest(self, now):
        # Nothing waits: the radio off, and the reader and the frame out of the heap.
        r = self._radio
        if r.active:
            r.off()
            self.on_ms += ticks_diff(now, self._on_at)
            # The frames' garbage (digests, views) goes now, before the screens load
            # around it and leave it as holes.
            gc.collect()
        return False

