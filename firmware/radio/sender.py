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
# After GIVE_UP resends with no answer (out of range, the base off, the PC stalled) the
# radio goes off until the journal grows, or SLOW_MS later (the board woken for it:
# wake_at), when two more go, and so on.
#
# Once the PC's acknowledge says it holds the sitting as a game over (F_OVER), the
# scorer asks for its next table: a data frame of that sitting with no records, every
# RESEND_MS until the PC's next frame comes, GIVE_UP times, then every SLOW_MS for as
# long as the game is over and no next table has come (while the PC says "wait for
# round N": every WAIT_MS, GIVE_UP times, then every SLOW_MS), the radio off between and the board woken for it (wake_at: the
# main loop's light sleep ends there). The next frame is handed to `on_next`
# (firmware/radio/nexttable.py), which takes it when no game is in play, and the scorer
# confirms it: the confirm is sent again, at the same pace, until the PC's acknowledge
# says it heard it (F_TAKEN); a confirm lost is never left to the PC's resends, which a
# radio gone off would not hear. A record taken meanwhile (an undo, a new sitting) ends
# the asking and the confirming (the new sitting's records tell the PC too).
#
# Starting the radio may fail: the esp32 port's heap grows into ESP-IDF's, and with too
# little left wlan.active(True) or ESP-NOW's start raises OSError("WiFi Out of Memory")
# (ports/esp32/network_common.c, esp_exceptions: ESP_ERR_NO_MEM; modespnow.c likewise
# through check_esp_err), an unknown code RuntimeError; the board refuses below the
# cell's low mark (boards/device.py, BoardWlan: OSError("battery low")). Then the radio
# backs off: off, tried again BACK_OFF_MS later, then twice that and so on up to
# BACK_OFF_MS x 16, the journal growing or not; `down` holds why, and the score screen says
# so (mark()). The journal keeps every record meanwhile: a sync over USB brings them.
import gc
from time import ticks_add, ticks_diff

from micropython import const

from firmware.journal import Walk
from engine_core.journal.reader import JournalReader
from engine_core.air import wire

WINDOW = const(3)           # frames past the acknowledged place
RESEND_MS = const(250)      # no acknowledge within this: send again from it
GIVE_UP = const(12)         # resends without an answer before the radio goes off
SLOW_MS = const(10000)      # ... for this long: then two more (an ask or a confirm: one)
WAIT_MS = const(3000)       # "wait for round N": asked again this often
BACK_OFF_MS = const(15000)  # the radio would not start: tried again this long after
_MAX_SHIFT = const(4)       # ... doubling, up to BACK_OFF_MS << 4 (4 minutes)
BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class Sender:
    """`Sender(journal, radio, key, ticks_ms, on_next)`: radio a firmware.radio.air.Radio,
    key the scorer's (16 bytes). poll() from the main loop: True while frames wait for
    the PC's acknowledge or a next table; stop() turns the radio off for good.
    on_next(msg, n) -> 0: not taken (a game in play), 1: taken, 2: taken, and it says
    wait; on_next(None, 0) when a new sitting begins."""

    def __init__(self, journal, radio, key, ticks_ms, on_next=None):
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
        self._want = 0              # the finished sitting whose next table is asked for
        self._wait = False          # the PC said: wait for a round
        self._took = 0              # the sitting whose next table was taken last
        self._conf_sid = 0          # ... while the PC has not said it heard the confirm
        self._conf = bytearray(wire.HEAD)   # that confirm's head
        self.wakes = False          # resting with an ask or a confirm due at wake_at:
        self.wake_at = 0            # the board sleeps no longer than that
        self._on_next = on_next
        self.frames = 0             # counters, for the power model and the tests
        self.resends = 0
        self.acks = 0
        self.nexts = 0
        self.on_ms = 0
        self._on_at = 0
        self.down = None            # why the radio would not start, until it does
        self.failures = 0           # starts that failed, in a row
        self._retry_at = 0

    # ---- the main loop's side ----
    def poll(self):
        now = self._ticks()
        self.wakes = False
        if self.down is not None and ticks_diff(now, self._retry_at) < 0:
            self.wakes = True       # backing off: the radio is off till then
            self.wake_at = self._retry_at
            return False
        if self._radio.active:
            self._hear()
        mark = self._j.free_bytes()
        if mark != self._mark:      # the journal grew: a record to send
            self._mark = mark
            self._tries = 0
            self._none = False
            self._want = 0          # an undo, or a new sitting: no next table now
            self._wait = False
            self._conf_sid = 0      # its records tell the PC the next table was taken
            if self._on_next is not None:
                self._on_next(None, 0)
            if not self._pick():
                return self._idle(now)
        elif self._tries > GIVE_UP and not (self._want or self._conf_sid):
            if ticks_diff(now, self._at) < SLOW_MS:
                self.wakes = True
                self.wake_at = ticks_add(self._at, SLOW_MS)
                return self._rest(now)
            self._tries = GIVE_UP - 1   # back in range, the PC going again: try again
        if self._sid == 0 and not self._pick():
            return self._idle(now)
        if self._held >= self._length:
            if self._finished:      # all of it held: the next sitting, if any
                self._done = self._sid
                self._sid = 0
                return self._pick() or self._idle(now)
            return self._idle(now)
        if self._sent > self._held and ticks_diff(now, self._at) >= RESEND_MS:
            self._sent = self._held     # go back to what the PC holds
            self._tries += 1
            self.resends += 1
            if self._tries > GIVE_UP:
                self.wakes = True
                self.wake_at = ticks_add(self._at, SLOW_MS)
                return self._rest(now)
        if self._sent < self._held:
            self._sent = self._held
        while self._sent < self._length and (
                self._sent - self._held < WINDOW * wire.MAX_RECORDS):
            if not self._send(now):
                break
        return self.down is None    # backing off: nothing waits on the radio

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
        n = self._transmit(now, wire.HEAD + n)
        if not n:
            return False        # the radio's buffers are full: the resend sends it
        self._sent += n - wire.HEAD - wire.MAC_LEN
        return True

    # ---- the next table ----
    def _idle(self, now):
        if self._want or self._conf_sid:
            return self._again(now)
        return self._rest(now)

    def _again(self, now):
        # The ask for the next table (a data frame of the sitting the PC holds as a game
        # over, with no records: the PC answers with its next table), or the confirm of
        # the one taken (the PC answers with F_TAKEN). Every RESEND_MS, listening between,
        # GIVE_UP times; then every SLOW_MS (WAIT_MS while the PC says wait), the radio
        # off between and the board woken for it, until the answer comes or a record is
        # taken: players at game over are never left without their next table.
        since = ticks_diff(now, self._at)
        if since < RESEND_MS:
            return True         # listening for the answer
        if self._wait or self._tries > GIVE_UP:
            # "Wait for round N": every WAIT_MS, GIVE_UP times, then every SLOW_MS.
            pace = WAIT_MS if self._wait and self._tries <= GIVE_UP else SLOW_MS
            if since < pace:
                self.wakes = True
                self.wake_at = ticks_add(self._at, pace)
                return self._rest(now)
        self._tries += 1
        f = self._frame
        if not self._want:
            f[0:wire.HEAD] = self._conf     # the confirm again
            self._transmit(now, wire.HEAD)
            return True
        length, finished = self._length_of(self._want)
        wire.put_head(f, wire.DATA, self._tag, self._want, length,
                      wire.F_FINISHED if finished else 0)
        self._transmit(now, wire.HEAD)
        return True

    def _length_of(self, sid):
        if sid == self._sid:
            return self._length, self._finished
        w = self._walk
        w.reset()
        return (w.length, w.finished) if self._j.find(sid, w) else (0, False)

    def _transmit(self, now, n):
        r = self._radio
        if not r.active:
            try:
                r.on()
            except (OSError, RuntimeError) as e:
                self._back_off(now, e)
                return False
            self.down = None
            self.failures = 0
            self._on_at = now
        n = self._mac.seal(r.mac, self._frame, n)
        try:
            r.send(self._base or BROADCAST, memoryview(self._frame)[:n])
        except OSError:
            return 0
        self.frames += 1
        self._at = now
        return n

    def _next(self, msg, n):
        sid = wire.get_u24(msg, 5)
        if sid == self._took and not self._want:
            pass                # taken already: the confirm was lost, sent again
        elif sid != self._want or self._on_next is None:
            return              # not what is asked for: late, or a sitting gone by
        else:
            got = self._on_next(msg, n)
            if not got:
                return          # a game in play: asked again once it is over
            self.nexts += 1
            if not (self._wait and got == 2):
                self._tries = 0     # (still waiting: the asks slow down as they go)
            self._wait = got == 2
            if not self._wait:
                self._want = 0
                self._took = sid
                self._conf_sid = sid    # confirmed until the PC says it heard it
                self._conf[0:wire.HEAD] = msg[0:wire.HEAD]
                self._conf[0] = wire.CONFIRM
        # The confirm: the same head, the kind changed, under the scorer's MAC.
        f = self._frame
        f[0:wire.HEAD] = msg[0:wire.HEAD]
        f[0] = wire.CONFIRM
        self._transmit(self._ticks(), wire.HEAD)

    # ---- acknowledges ----
    def _hear(self):
        r = self._radio
        while True:
            peer, msg = r.espnow.irecv(0)
            if peer is None:
                return
            n = len(msg)
            if n < wire.ACK_LEN or msg[1:5] != self._tag:
                continue        # not for this scorer's event
            if not (msg[0] == wire.ACK and n == wire.ACK_LEN or msg[0] == wire.NEXT):
                continue
            if not self._mac.sound(r.mac, msg, n):
                continue        # forged, or for another scorer
            if self._base is None:
                self._base = bytes(peer)
                self._radio.peer(self._base)
            if msg[0] == wire.NEXT:
                self._next(msg, n)
            else:
                self._ack(peer, msg)

    def _ack(self, peer, msg):
        sid = wire.get_u24(msg, 5)
        if msg[11] & wire.F_TAKEN:
            if sid == self._conf_sid:
                self._conf_sid = 0  # the PC heard the confirm
                self._tries = 0
            return
        if sid != self._sid:
            if sid == self._want and not msg[11] & (wire.F_HELD | wire.F_REFUSED):
                # Asked for its next table, the PC does not hold the sitting (it was
                # restarted): it is sent again, and the asking comes after.
                self._done = sid - 1
                self._want = 0
                self._none = False
                self._tries = 0
            return              # an old sitting's, late
        self.acks += 1
        held = wire.get_u24(msg, 8)
        flags = msg[11]
        if flags & wire.F_REFUSED:
            self._done = sid    # the PC will not take it (another scorer keeps the table)
            self._sid = 0
            if self._finished and self._on_next is not None:
                self._want = sid    # its next table all the same
                self._tries = 0
            return
        if held < self._held and self._want == sid and not flags & wire.F_OVER:
            # Asked for its next table, the PC holds less than it did (it was
            # restarted): sent again from there, and asked for after.
            self._held = self._sent = held
            self._want = 0
            self._none = False
        if held > self._held:
            self._held = held
            self._tries = 0
        if held > self._sent:
            self._sent = held
        if flags & wire.F_OVER and held >= self._length and self._on_next is not None \
                and self._want != sid:
            self._want = sid    # a game over, all of it held: its next table
            self._wait = False
            self._tries = 0
            self._at = self._ticks() - RESEND_MS

    def _back_off(self, now, e):
        # The radio would not start: all of it off (what started goes, ESP-NOW's ring
        # too), and the heap it took back in one piece.
        self.down = e.args[0] if e.args and isinstance(e.args[0], str) else "error"
        self._retry_at = ticks_add(now, BACK_OFF_MS << min(self.failures, _MAX_SHIFT))
        self.failures += 1
        self._sent = self._held     # what went out unheard goes again
        try:
            self._radio.close()
        except (OSError, RuntimeError):
            pass
        gc.collect()

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


def mark(fb):
    """The score screen's tag while the radio is off for a fault (Sender.down): top
    left, as the battery's BAT! is top right (a sync over USB still brings every record)."""
    from firmware.codes import BLACK, WHITE
    fb.fill_rect(0, 0, 76, 10, BLACK)
    fb.text("NO RADIO", 2, 1, WHITE)
