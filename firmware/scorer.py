# The sitting on the table and its journal. The event path take(): the engine checks an
# event, the journal puts it on flash, then the sitting applies it, so that no screen
# shows an event as taken before it is on flash. Also a sitting's start and the settings
# file, and the resume of the open sitting at boot: what only a resume runs (the header's
# code, the journal's reader) is imported there and leaves the heap after
# (firmware/transient.py). What the PC sets for the next sitting is firmware/nextsetup.py's.
from micropython import const

from engine_core.codes import BIDDING, MAX_EVENT_BYTES, OVER
from engine_core.texas42.variants import SEATS, TEAMS
from firmware import settings, transient
from firmware.journal import Journal, JournalError

TEAM_NAMES = ("Us", "Them")
SEAT_NAMES = {2: ("P1", "P2"), 3: ("N", "E", "W"), 4: ("N", "E", "S", "W"),
              6: ("1", "2", "3", "4", "5", "6")}

_HEADER_MAX = const(255)
_END_ITEM = const(5)    # the journal's END record as next_event gives it

# take()'s answers
REFUSED = const(0)
TAKEN = const(1)
ENDED = const(2)        # taken, and it ended a hand (or the sitting)


class Scorer:
    def __init__(self, flash, clock, settings_path=None):
        self.journal = Journal(flash)
        self.clock = clock          # firmware.link.Clock: a game's end is stamped
        self.settings_path = settings_path
        self.last_setup = None      # the last sitting header set up (firmware.settings)
        self.tracker = 0            # 1: hands are played by tracking their tricks
        self.s = None               # the sitting (engine_core), None before the first
        self.gin = 0                # 1: the sitting is a gin pad's
        self.first_dealer = 0
        self.names = None           # seat names
        self.teams = TEAM_NAMES
        self.assign = None          # the sitting's table assignment: (event, round, table)
        self.hand_mode = 0          # this hand: 0 as settings say, 1 track tricks, 2 result
        self.refusal = None         # why take() refused its event
        self._ev = bytearray(MAX_EVENT_BYTES)
        self._evs = (None, bytearray(1), bytearray(2), bytearray(3))

    # ---- the event path ----
    def take(self, ev):
        """Check ev, put it on flash, apply it: TAKEN, ENDED, or REFUSED (the reason in
        self.refusal). Allocates nothing when the event is taken."""
        s = self.s
        err = s.check(ev)
        if err:
            self.refusal = s.reason(err, ev)
            return REFUSED
        j = self.journal
        if j.open_sitting() is None:
            self.refusal = "sent to the PC: MENU for a new sitting"
            return REFUSED
        n = s.codec.encode_into(ev, self._ev, 0)
        out = self._evs[n]
        i = 0
        while i < n:
            out[i] = self._ev[i]
            i += 1
        try:
            j.append(out)
        except JournalError as e:
            self.refusal = e.args[0] if e.args else "journal error"
            return REFUSED
        hands = s.hands()
        s.apply(ev)
        if s.hands() == hands and not s.over():
            return TAKEN
        self.hand_mode = 0
        if s.over():    # its end on flash (unless it has one since its last event)
            j.end(self.clock.now(), self.clock.utc_offset)
        return ENDED

    def hand_closed(self):
        """The last event finished a hand (or the sitting)."""
        s = self.s
        if self.gin:
            return s.over() or (s.fresh_hand() and s.hands() > 0)
        return s.phase() == OVER or (self.fresh_deal() and s.hands() > 0)

    def fresh_deal(self):
        """No bid or pass made yet on the deal in progress."""
        s = self.s
        return (s.phase() == BIDDING and s.high_bid() < 0
                and s.seat() == (s.dealer() + 1) % s.seats)

    def side_name(self, side):
        """A team's name, or a seat's in the games where each plays alone."""
        if self.s.row[TEAMS]:
            return self.teams[side]
        return self.names[side]

    # ---- boot and a sitting's start ----
    def mount(self):
        """The settings read, the journal mounted: the open sitting's id, or None."""
        self.last_setup, self.tracker = settings.load(self.settings_path)
        return self.journal.mount()

    def resume(self, sid):
        """Start on the sitting `sid` and replay its events from the journal, to the exact
        state it was left in (a boot's); returns how many of them the engine refused (the
        PC gets them all with the next sync)."""
        from engine_core import header
        from engine_core.journal.reader import JournalReader
        r = JournalReader(self.journal)
        buf = bytearray(_HEADER_MAX)
        cur = r.cursor(sid)
        n = r.next_event(cur, buf)
        try:
            head = bytes(buf[:n])
            rules, dealer, names = header.decode_header(head)
            assign = header.header_assignment(head)
        except ValueError as e:
            raise JournalError("the open sitting cannot be resumed (%s): hold a button "
                               "at power-on for safe mode, then sync" % e)
        self.start(rules, dealer, names, assign)
        s = self.s
        refused = 0
        while True:
            n = r.next_event(cur, buf)
            if n < 0:
                break
            if n == _END_ITEM:
                continue        # an END record (when the game ended), not an event
            if s.apply(s.codec.decode_at(buf, 0)):
                refused += 1
        transient.release()     # the header's code, the journal's reader
        return refused

    def start(self, rules, dealer, names=None, assign=None):
        """A new sitting of `rules` (`names`: seat names, `assign`: its table assignment),
        its first dealer `dealer`."""
        from engine_core.games import new_sitting
        self.s = None
        self.assign = assign
        self.gin = rules.family
        self.s = new_sitting(rules, dealer)
        self.first_dealer = dealer
        seats = rules.row[SEATS]
        self.names = tuple(names) if names and len(names) == seats else SEAT_NAMES[seats]
        if names and rules.row[TEAMS]:
            self.teams = (pair(self.names, 0), pair(self.names, 1))
        else:
            self.teams = TEAM_NAMES
        self.hand_mode = 0

    def finish(self):
        """The open sitting goes to the PC with a sync: a sitting played out gets its END
        (unless it has one), then the journal closes it."""
        j = self.journal
        if self.s is not None and self.s.over():
            j.end(self.clock.now(), self.clock.utc_offset)
        j.finish()

    # ---- the next sitting's setup ----
    def save_settings(self):
        settings.save(self.settings_path, self.last_setup, self.tracker)


def pair(names, team):
    """A team's name from its players' names: "Ann/Cy"."""
    return names[team][:4] + "/" + names[team + 2][:4]
