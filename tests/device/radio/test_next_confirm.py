# The next table's confirm and the asking for it, on the MicroPython unix port, in fake
# time: the scorer's sender (firmware/radio/sender.py) on the sim's air
# (boards/sim/radio.py) against a PC that answers as host_tools/events/radio.py does
# (the next table with the acknowledge of a game over, again every 300 ms, 40 times,
# until the confirm comes; each confirm answered with F_TAKEN).
#
# The lost confirm of bench_radio: a scorer took its next table and confirmed it once,
# then listened 3 s for the PC's resends to confirm again. A confirm lost and the resends
# of those 3 s unheard (a scorer's loop slow on a loaded CPU, someone between the scorer
# and the base), its radio went off and the PC's resends went on into nothing: the PC
# never learnt the table was taken. The scorer now sends its confirm until the PC says
# it heard it, quickly GIVE_UP times, then every SLOW_MS, the board woken for it.
import os

from boards.sim.flash import NorFlash
from boards.sim.radio import ESPNow, WLAN, Air
from firmware.journal import Journal
from engine_core.air import wire as W
from firmware.radio.air import Radio
from firmware.radio import sender as S
import scratch

_AIR = scratch.path("air-confirm")
KEY = bytes(range(16))
SCORER = b"\x02\x00\x00\x00\x00\x01"
BASE = b"\x02\x00\x00\x00\x00\x09"


def _clean():
    try:
        os.mkdir(_AIR)
    except OSError:
        pass
    for n in os.listdir(_AIR):
        os.remove(_AIR + "/" + n)


class _Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


class _Deaf:
    """The scorer's espnow with its confirms lost in the air until `until` (fake ms):
    someone stands between the scorer and the base. Everything else as the sim's."""

    def __init__(self, e, clock, until):
        self._e = e
        self._clock = clock
        self.until = until
        self.confirms = 0       # confirms sent, lost or not

    def send(self, mac, msg, sync=True):
        if msg[0] == W.CONFIRM:
            self.confirms += 1
            if self._clock() < self.until:
                return not sync     # lost: no link-level acknowledgement
        return self._e.send(mac, msg, sync)

    def __getattr__(self, name):
        return getattr(self._e, name)


class _Pc:
    """The PC behind the base, as host_tools/events/radio.Receiver answers: a data frame
    acknowledged with what is held (F_OVER once its last record is b"\\xee"), the next
    table with the acknowledge of a game over and to each ask, again every 300 ms up to
    40 times until the confirm; a confirm answered with F_TAKEN. `nexting` False: no next
    table to send yet (the PC's database busy, its next table not made)."""

    def __init__(self, espnow, clock):
        self.e = espnow
        self.clock = clock
        self.held = {}
        self.confirmed = None
        self.sends = 0
        self.due = None
        self.asks = 0
        self.nexting = True
        self.hearing = True     # False: the PC hears nothing (stalled, the base unplugged)
        self.peer = None

    def _send(self, frame):
        try:
            self.e.add_peer(self.peer)
        except OSError:
            pass
        self.e.send(self.peer, frame, False)

    def _next(self):
        f = bytearray(W.MAX_FRAME)
        k = W.put_next(f, W.tag_of(KEY), 1, 2, 3, b"Club", (b"Ann", b"Cy", b"Bob", b"Di"))
        self._send(f[:W.seal(KEY, self.peer, f, k)])
        self.sends += 1
        self.due = self.clock() + 300 if self.confirmed is None and self.sends % 40 else None

    def poll(self):
        while True:
            peer, msg = self.e.recv(0)
            if peer is None:
                break
            n = len(msg)
            if not self.hearing or not W.sound(KEY, peer, msg, n):
                continue
            self.peer = bytes(peer)
            sid = W.get_u24(msg, 5)
            a = bytearray(W.ACK_LEN)
            if msg[0] == W.CONFIRM:
                if self.confirmed is None:
                    self.confirmed = self.clock()
                self.due = None
                W.put_head(a, W.ACK, W.tag_of(KEY), sid, 0, W.F_TAKEN | W.F_HELD)
                self._send(a[:W.seal(KEY, peer, a, W.HEAD)])
                continue
            off = W.get_u24(msg, 8)
            s = self.held.setdefault(sid, bytearray())
            rec = msg[W.HEAD:n - W.MAC_LEN]
            if off <= len(s) < off + len(rec):
                s.extend(rec[len(s) - off:])
            over = len(s) and s[-1] == 0xEE and off + len(rec) <= len(s)
            asked = over and not rec
            self.asks += asked
            W.put_head(a, W.ACK, W.tag_of(KEY), sid, len(s),
                       (W.F_OVER | W.F_HELD) if over else 0)
            self._send(a[:W.seal(KEY, peer, a, W.HEAD)])
            if over and self.nexting:
                self._next()
        if self.due is not None and self.clock() >= self.due and self.nexting:
            self._next()


def _night(until=0):
    # A finished game's sitting on a scorer whose confirms are lost until `until`.
    _clean()
    clock = _Clock()
    base = Radio(lambda: (lambda w: (w, ESPNow(Air(_AIR), w)))(WLAN(BASE)))
    base.on(8192)
    deaf = []

    def make():
        w = WLAN(SCORER)
        d = _Deaf(ESPNow(Air(_AIR), w), clock, until)
        deaf.append(d)
        return w, d
    j = Journal(NorFlash(8, 4096))
    j.mount()
    taken = []

    def on_next(msg, n):
        if msg is not None:
            taken.append(W.next_parts(msg, n))
            return 1
        return 0
    s = S.Sender(j, Radio(make), KEY, clock, on_next)
    j.begin_sitting(b"H" * 10)
    for i in range(20):
        j.append(bytes([i, 1]))
    j.append(b"\xee")       # the game over
    return clock, base, _Pc(base.espnow, clock), s, taken, deaf


def _run(clock, s, pc, ms, step=10):
    # The main loop in fake time: the sender polled, the PC answering, `ms` long.
    # Returns the fake ms the radio was off with an ask or confirm due (the board asleep
    # on its timer) and the wakes asked for.
    off = 0
    wakes = []
    end = clock.now + ms
    while clock.now < end:
        s.poll()
        pc.poll()
        if s.wakes:
            off += step
            if not wakes or wakes[-1] != s.wake_at:
                wakes.append(s.wake_at)
        clock.now += step
    return off, wakes


def test_a_confirm_lost_for_longer_than_the_pcs_resends_are_heard_still_reaches_the_pc():
    # The scorer's confirms are lost for the first 5 s after it takes its next table:
    # longer than the 3 s its quick confirms (and once its listening) lasted.
    clock, base, pc, s, taken, deaf = _night(until=5000)
    off, wakes = _run(clock, s, pc, 30000)
    assert len(taken) == 1 and taken[0][1:3] == (2, 3), taken
    assert pc.confirmed is not None and pc.confirmed >= 5000, pc.confirmed
    # Confirmed quickly GIVE_UP times, then rested with the board woken at SLOW_MS.
    assert deaf[0].confirms > S.GIVE_UP, deaf[0].confirms
    assert wakes and off > 0, (wakes, off)
    # Heard: F_TAKEN ended the confirming; the radio is off and nothing is due.
    assert s._conf_sid == 0 and not s.poll() and not s._radio.active and not s.wakes
    n = deaf[0].confirms
    _run(clock, s, pc, 20000)
    assert deaf[0].confirms == n      # nothing more sent
    base.close()
    s.stop()


def test_a_confirm_heard_at_once_is_sent_once_and_the_radio_goes_off():
    clock, base, pc, s, taken, deaf = _night()
    _run(clock, s, pc, 3000)
    assert pc.confirmed is not None and len(taken) == 1
    assert deaf[0].confirms == 1, deaf[0].confirms
    assert not s._radio.active and not s.wakes and pc.sends == 1, pc.sends
    base.close()
    s.stop()


def test_at_game_over_the_ask_for_the_next_table_never_gives_up_and_rests_between():
    # The PC has no next table to send for a minute: the scorer asks quickly GIVE_UP
    # times, then every SLOW_MS with its radio off between, and gets its next table once
    # the PC sends one.
    clock, base, pc, s, taken, deaf = _night()
    pc.nexting = False
    off, wakes = _run(clock, s, pc, 60000)
    assert not taken
    # Quickly for 3 s, then about every SLOW_MS: the radio off in between.
    assert len(wakes) >= 60000 // S.SLOW_MS - 2, wakes
    assert off > 60000 - 3 * S.GIVE_UP * S.RESEND_MS - len(wakes) * S.RESEND_MS * 2, off
    assert pc.asks >= S.GIVE_UP + 60000 // S.SLOW_MS - 2, pc.asks
    pc.nexting = True
    _run(clock, s, pc, 2 * S.SLOW_MS)
    assert len(taken) == 1 and pc.confirmed is not None, (taken, pc.confirmed)
    assert not s._want and not s.wakes
    base.close()
    s.stop()


def test_a_sitting_unheard_for_seconds_goes_again_slow_minutes_before_the_next_record():
    # The PC hears nothing for 5 s (a stalled PC, the base unplugged and back): the
    # sender resends GIVE_UP times, rests with the board woken at SLOW_MS, and gets the
    # sitting through then, with no record taken to wake it (it used to wait 30 s).
    clock, base, pc, s, taken, deaf = _night()
    pc.hearing = False
    off, wakes = _run(clock, s, pc, 5000)
    assert not pc.held and wakes and not s._radio.active, (wakes, s._radio.active)
    pc.hearing = True
    _run(clock, s, pc, S.SLOW_MS + 1000)
    assert pc.held and pc.held[1][-1] == 0xEE, pc.held
    assert len(taken) == 1 and pc.confirmed is not None, (taken, pc.confirmed)
    base.close()
    s.stop()


def test_wait_for_a_round_is_asked_every_WAIT_MS_then_every_SLOW_MS_never_given_up():
    clock, base, pc, s, taken, deaf = _night()
    waits = [0]

    def wait_frame():
        # The PC's next table is "wait for round 2" (table 0) for as long as waits[0].
        f = bytearray(W.MAX_FRAME)
        k = W.put_next(f, W.tag_of(KEY), 1, 2, 0 if waits[0] else 3, b"Club",
                       () if waits[0] else (b"Ann", b"Cy", b"Bob", b"Di"))
        pc._send(f[:W.seal(KEY, pc.peer, f, k)])
        pc.sends += 1
        pc.due = None
    pc._next = wait_frame
    s._on_next = lambda msg, n: (taken.append(W.next_parts(msg, n)) or
                                 (2 if msg[8] == 0 else 1)) if msg is not None else 0
    waits[0] = 1
    _run(clock, s, pc, 120000)
    asks = pc.asks
    # 12 asks 3 s apart (36 s), then every 10 s: about 20 in two minutes, not 40.
    assert S.GIVE_UP + 5 <= asks <= S.GIVE_UP + 120000 // S.SLOW_MS, asks
    assert s._wait and s._want == 1 and not s._radio.active and s.wakes
    waits[0] = 0
    _run(clock, s, pc, S.SLOW_MS + 1000)
    assert taken[-1][1:3] == (2, 3) and not s._want and pc.confirmed is not None
    base.close()
    s.stop()
