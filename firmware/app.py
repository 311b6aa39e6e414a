# The scorer's main loop: a button goes to the screen on show, which may hand the engine
# an event; a taken event is on flash (the journal) before any screen shows it as taken.
# The screen is then redrawn from the state, never patched.
# The sitting, the endpoint and the USB line are made by modules loaded when needed
# (firmware/resume.py, session.py, hello.py), out of the checker's sight:
# pyright: reportAttributeAccessIssue=false
import gc

from micropython import const

from firmware.journal import Journal, JournalError

# Copies of engine_core/codes.py (private: no heap on the device; tests/test_private_codes.py)
_BIDDING = const(0)
_TRUMP = const(1)
_MAX_EVENT_BYTES = const(3)
_OVER = const(3)
_EV_UNDO = const(7)
# Copies of engine_core/variants.py (private: no heap on the device; tests/test_private_codes.py)
_TEAMS = const(1)
# Copies of firmware/codes.py (private: no heap on the device; tests/test_private_codes.py)
_PREV = const(1)
_WHITE = const(1)
_NEXT = const(2)
_OK = const(3)
_MENU = const(5)
_LONG = const(0x10)

# Screens, in the order of their modules under firmware/ui/.
_HOME = const(0)
_BID = const(1)
_CONTRACT = const(2)
_RESULT = const(3)
_TRACKER = const(4)
_CONFIRM = const(5)
_OVER_SCREEN = const(6)
_HISTORY = const(7)
_SYNC = const(8)
_SETUP = const(9)
_MENU_SCREEN = const(10)
SCREEN_NAMES = ("score", "bidding", "contract", "result", "tracker", "confirm", "over",
                "history", "sync", "setup", "menu")
# The gin pads bring their own modules for these screens (HOME, RESULT, CONFIRM).
GIN_SCREENS = ("gin_score", None, None, "gin_totals", None, "gin_confirm", None, None,
               None, None, None)

FIRMWARE = "0.1.0"
_HELLO = const(1)   # firmware.hello's answers
_REPL = const(2)
_EPOCH = const(1704067200)     # 2024-01-01T00:00:00Z in Unix seconds
_TEAM_NAMES = ("Us", "Them")


class App:
    """The scorer: a sitting, its journal, the screen on show and its cursor."""

    def __init__(self, display, flash, settings_path=None, link=None, device_id=None,
                 rtc=None):
        self.fb = display
        self.journal = Journal(flash)
        self.settings_path = settings_path
        self.last_setup = None      # the last sitting header set up (firmware.settings)
        self.tracker = 0            # 1: hands are played by tracking their tricks
        self.link = link            # the board's USB serial link, or None
        self.sync = None            # the sync endpoint (firmware.sync), once attached
        self.sync_status = "idle"
        self.s = None
        self.gin = 0                # 1: the sitting is a gin pad's (screens: GIN_SCREENS)
        self.names = None           # seat names
        self.assign = None          # the sitting's table assignment: (event, round, table)
        self.teams = _TEAM_NAMES
        self.screen = _HOME
        self.cur = 0                # the screen's cursor (a legal-walk position or an item)
        self.top = 0                # first line shown of a list
        self.edit = False           # setup: a value being changed
        self.fields = bytearray(12)  # Moon tricks by seat; a gin hand being keyed in
        self.hand_mode = 0          # this hand: 0 as settings say, 1 track tricks, 2 result
        self.banner = None          # a refusal, shown until the next press
        self.full = True            # the next show is a full refresh
        self.draft = None           # setup: the Rules being edited, and the first dealer
        self.draft_dealer = 0
        self.lines = None           # history: the lines on show
        self._mods = [None] * len(SCREEN_NAMES)
        self._ev = bytearray(_MAX_EVENT_BYTES)
        self._evs = (None, bytearray(1), bytearray(2), bytearray(3))
        self._label = getattr(display, "label", None)   # the sim names its screenshots
        self._entered = False
        self.device_id = device_id or "T42"
        self._port = None           # the USB line as the sync endpoint reads it
        self._peek = bytearray(64)  # a sync's hello, before the endpoint loads
        self._gate = None           # firmware.hello: what on the line may open a sync
        self.to_repl = _no_kbd      # the REPL tools asked in (a device: to the REPL)
        self.safe = False           # safe mode: no resume, the sync screen
        self._back = _HOME
        self._pending = None        # house options pushed by the PC, applied after the sync
        self._clock = 0
        self._clock_at = 0
        self.utc_offset = 0
        self.rtc = rtc              # the board's clock (boards.device.RtcClock), or None

    # ---- boot and resume ----
    def boot(self, safe=False):
        """Mount the journal and resume its open sitting at the exact state. safe: safe
        mode (a button held at power-on): no resume, the sync screen, so that a journal
        this code cannot resume still reaches the PC."""
        from firmware import resume     # boot-only: unloaded once done
        try:
            resume.boot(self, safe)
        finally:
            resume = None
            forget("firmware.resume")
            gc.collect()

    # ---- the event path ----
    def take(self, ev):
        """Check ev, put it on flash, apply it. False (and a banner) when refused."""
        s = self.s
        err = s.check(ev)
        if err:
            self.banner = s.reason(err, ev)
            return False
        if self.journal.open_sitting() is None:
            self.banner = "sent to the PC: MENU for a new sitting"
            return False
        n = s.codec.encode_into(ev, self._ev, 0)
        out = self._evs[n]
        i = 0
        while i < n:
            out[i] = self._ev[i]
            i += 1
        try:
            self.journal.append(out)
        except JournalError as e:
            self.banner = e.args[0] if e.args else "journal error"
            return False
        hands = s.hands()
        s.apply(ev)
        if s.hands() != hands or s.over():
            self.hand_mode = 0
            self.full = True    # a hand ended: a full refresh back to the score
            if s.over():    # its end on flash (unless it has one since its last event)
                self.journal.end(self.clock(), self.utc_offset)
        return True

    def undo(self):
        """BACK: take back the last event; a finished hand asks first."""
        if self.s is None:
            return
        if self.hand_closed():
            self.go(_CONFIRM)
            return
        self.really_undo()

    def really_undo(self):
        if self.take(_EV_UNDO << 24):
            self.follow()

    def hand_closed(self):
        """The last event finished a hand (or the sitting)."""
        s = self.s
        if self.gin:
            return s.over() or (s.fresh_hand() and s.hands() > 0)
        return s.phase() == _OVER or (self.fresh_deal() and s.hands() > 0)

    def fresh_deal(self):
        """No bid or pass made yet on the deal in progress."""
        s = self.s
        return (s.phase() == _BIDDING and s.high_bid() < 0
                and s.seat() == (s.dealer() + 1) % s.seats)

    # ---- screens ----
    def module(self, screen):
        """The screen's module. Only one is kept loaded (and the errors' messages only
        while a refusal is drawn): the heap is an ESP32's."""
        m = self._mods[screen]
        if m is None:
            self._forget_screens()
            forget("engine_core.options")   # the setup's checks; Rules stay (rules.py)
            forget("engine_core.gin.options")
            forget("engine_core.header")    # a sitting header's code: once a sitting
            forget("firmware.journal.reader")  # the journal's reading (history, sync)
            forget("engine_core.games")     # the history's replay, a sitting's start
            gc.collect()
            m = __import__("firmware.ui." + self.screen_name(screen), None, None, ("draw",))
            self._mods[screen] = m
        return m

    def screen_name(self, screen):
        """The module name of a screen for the sitting's family."""
        if self.gin and GIN_SCREENS[screen]:
            return GIN_SCREENS[screen]
        return SCREEN_NAMES[screen]

    def go(self, screen):
        """Show `screen` next; its module loads (and sets its cursor) at the next render,
        once the screen that asked has returned and can be unloaded."""
        self.screen = screen
        self.cur = 0
        self.top = 0
        self.edit = False
        self.lines = None
        self._entered = False

    def _enter(self):
        self._entered = True
        m = self.module(self.screen)
        if hasattr(m, "enter"):
            m.enter(self)
        return m

    def follow(self):
        """Show the screen the sitting's state asks for."""
        s = self.s
        if s is None:
            self.go(_SETUP)
            return
        p = s.phase()
        if p == _OVER:
            self.go(_OVER_SCREEN)
        elif self.gin:
            self.go(_HOME)       # the gin score screen asks for the turn-up and the ending
        elif p == _BIDDING:
            self.go(_HOME if self.fresh_deal() else _BID)
        elif p == _TRUMP:
            self.go(_CONTRACT)
        elif self.hand_mode == 1 or (self.hand_mode == 0 and (
                self.tracker or s.tricks_played())):
            self.go(_TRACKER)
        else:
            self.go(_RESULT)

    def press(self, key):
        """Handle one logical button (LONG or-ed in for a long press), then redraw."""
        self.handle(key)
        self.render()

    def handle(self, key):
        """Handle one logical button without drawing: the main loop draws once the panel
        is idle, for every press taken meanwhile (firmware/loop.py)."""
        self.banner = None
        if key & _LONG and key & 0xF != _PREV and key & 0xF != _NEXT and not (
                key & 0xF == _OK and self._entered
                and hasattr(self.module(self.screen), "HOLD_OK")):
            key &= 0xF      # the arrows have a long meaning, OK where a screen says so
        if key == _MENU and self.screen != _MENU_SCREEN and self.screen != _SETUP:
            self.go(_MENU_SCREEN)
        else:
            m = self.module(self.screen) if self._entered else self._enter()
            m.press(self, key)

    def rest(self):
        """Before a deep sleep: the score on the panel, which keeps it unpowered."""
        if self.s is not None and self.sync is None:
            self.go(_HOME)
            self.full = True
            self.render()

    def render(self):
        fb = self.fb
        m = self._enter() if not self._entered else self.module(self.screen)
        fb.fill(_WHITE)
        m.draw(self, fb)
        if self.banner:
            from firmware.ui import draw
            draw.banner(fb, self.banner)
            forget("engine_core.messages")
        if self._label is not None:
            self._label(self.screen_name(self.screen))
        fb.show(self.full)
        self.full = False

    def save_settings(self):
        from firmware import settings
        settings.save(self.settings_path, self.last_setup, self.tracker)
        forget("firmware.settings")

    # ---- the USB serial link: sync with the PC ----
    def poll_link(self):
        """Called from the main loop between buttons. Bytes arriving on the USB line bring
        in the sync endpoint and its screen until the PC's session ends; the rest of the
        time neither takes heap. True while the endpoint is loaded (poll again soon)."""
        try:
            port = self._link_port()
            if port is None:
                return False
            if self.sync is None:
                from time import ticks_ms
                what = self._gate.poll(port, ticks_ms())
                if what == _REPL:
                    self.to_repl()
                if what != _HELLO:
                    return False
                from firmware import session    # unloaded when the session ends
                self.sync = session.begin(self, port, self._gate.n)
            busy = self.sync.poll()
            # The panel keeps the sync screen drawn when the session opened (its modules
            # are out of the heap meanwhile); the outcome is drawn when the session ends.
            self.sync_status = self.sync.status
            if not busy:
                from firmware import session
                session.end(self)
                session = None
                forget("firmware.session")
                gc.collect()
                self.render()
        except MemoryError:
            self._sync_failed()
            return False
        return busy

    def _link_port(self):
        if self._port is None and self.link is not None:
            from firmware import hello
            hello.open_link(self)
        return self._port

    def _sync_failed(self):
        # No room for the endpoint or a reply: close the session (which gives Ctrl-C
        # back), unload it and go back to scoring. The PC's sync times out and says so;
        # what it asks for again is refused the same way until the heap has room.
        sync = self.sync
        self.sync = None
        self._unload_sync()
        if sync is not None:
            sync.close()
        sync = None
        self._drop_screens()
        gc.collect()
        self.sync_status = "failed: not enough memory"
        self.banner = "sync failed: not enough memory"
        self.go(_HOME if self.s is not None else _SETUP)
        self.full = True
        try:
            self.render()
        except MemoryError:
            # Not even room for the score screen (the heap is held elsewhere): it is drawn
            # at the next press or poll, the banner with it; the scorer goes on.
            self._drop_screens()
            gc.collect()

    def _unload_sync(self):
        for name in ("firmware.session", "firmware.sync", "firmware.syncjournal",
                     "engine_core.wire", "engine_core.header", "firmware.journal.reader"):
            forget(name)

    def _forget_screens(self):
        i = 0
        while i < len(self._mods):
            if self._mods[i] is not None:
                self._mods[i] = None
                forget("firmware.ui." + SCREEN_NAMES[i])
                if GIN_SCREENS[i]:
                    forget("firmware.ui." + GIN_SCREENS[i])
            i += 1

    def _drop_screens(self):
        # Every screen module and what they share out of the heap (they load again at the
        # next render).
        self._forget_screens()
        self._entered = False
        for name in _NOT_IN_SYNC:
            forget(name)

    def clock(self):
        """The PC-set clock in seconds since 2024-01-01T00:00Z (0 until a sync set it).
        A board's RTC keeps it through deep sleep and restarts; ticks_ms wraps after
        about six days, so without one the count stays right as long as the scorer is
        synced or restarted within that."""
        if not self._clock and self.rtc is not None:
            unix, offset = self.rtc.now()
            if unix > _EPOCH:
                from time import ticks_ms
                self._clock = unix - _EPOCH
                self._clock_at = ticks_ms()
                self.utc_offset = offset
        if not self._clock:
            return 0
        # `import time`, not `from time import ...`, which allocates: a game's end puts
        # its time on flash from the event path
        import time
        return self._clock + time.ticks_diff(time.ticks_ms(), self._clock_at) // 1000

    def now(self):
        """The PC-set clock in Unix seconds (0 until a sync has set it), for the hello."""
        t = self.clock()
        return t + _EPOCH if t else 0

    # ---- names ----
    def side_name(self, side):
        """A team's name, or a seat's in the games where each plays alone."""
        if self.s.row[_TEAMS]:
            return self.teams[side]
        return self.names[side]


def forget(name):
    """Unload a module (it is imported again when next needed)."""
    import sys
    m = sys.modules.pop(name, None)
    if m is not None:
        pkg, _, leaf = name.rpartition(".")
        parent = sys.modules.get(pkg)
        if parent is not None and leaf in parent.__dict__:
            delattr(parent, leaf)


# Modules the sync screen does without, unloaded while the endpoint is in (the screens
# load them again when they need them).
_NOT_IN_SYNC = ("engine_core.options", "firmware.ui.walk", "firmware.ui.draw",
                "firmware.fonts")


def _no_kbd(*args):
    # The sim's line is not the REPL's: nothing to switch, nothing to interrupt.
    return None


def _pair(names, team):
    a = names[team]
    b = names[team + 2]
    return a[:4] + "/" + b[:4]


_warm = False


def warm():
    """Load every screen once, then unload it, early in the boot. Its names stay interned
    (MicroPython never frees them) and the interned-name table grows here, while the heap
    still has room in one piece, rather than in the middle of a hand. A no-op the second
    time; cheap with frozen modules, whose names live in flash."""
    global _warm
    if _warm:
        return
    _warm = True
    forget("engine_core.messages")
    for name in SCREEN_NAMES:
        gc.collect()
        __import__("firmware.ui." + name)
        forget("firmware.ui." + name)
    forget("engine_core.options")       # the setup's, and the sync screen's reading
    forget("firmware.journal.reader")
    gc.collect()


def run(board):
    """The scorer on `board` until the board says stop (firmware/start.py: boot, the
    crash screen, safe mode; firmware/loop.py: the main loop)."""
    from firmware import start
    return start.run(board)
