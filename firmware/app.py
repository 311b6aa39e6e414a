# The hub a button press passes through: it goes to the screen on show (firmware/ui/, by
# name), which may hand the scorer an event (firmware/scorer.py: on flash before any
# screen shows it as taken); the screen is then redrawn from the state, never patched.
# The USB line and a sync session with the PC are the link's (firmware/link.py).
import gc

from engine_core.codes import BIDDING, EV_UNDO, OVER, TRUMP
from firmware import transient
from firmware.codes import (BID, CONFIRM, CONTRACT, GIN_SCREENS, HOME, LONG, MENU,
                            MENU_SCREEN, NEXT, OK, OVER_SCREEN, PREV, RESULT, SETUP, SYNC,
                            TRACKER, WHITE)
from firmware.link import Clock, Link
from firmware.scorer import ENDED, Scorer


class App:
    """The scorer's screens: the one on show, its cursor, what follows a press."""

    def __init__(self, display, flash, settings_path=None, line=None, device_id=None,
                 rtc=None):
        self.fb = display
        self.clock = Clock(rtc)
        self.scorer = Scorer(flash, self.clock, settings_path)
        self.link = Link(self, line, device_id or "T42")
        self.air = None             # the board, when it has a radio (boards/)
        self.board = None           # the board (firmware/start.py): the self-test reads it
        self.radio = None           # the radio's sender, in an event (firmware/radio/)
        self.radio_busy = False     # it waits for the PC's acknowledge
        self.next_table = None      # the next table the radio brought, for game over
        self.redraw = False         # the main loop draws the screen again (the radio)
        self.safe = False           # safe mode: no resume, the sync screen
        self.screen = HOME          # the screen on show, by name (firmware/codes.py)
        self.cur = 0                # the screen's cursor (a legal-walk position or an item)
        self.top = 0                # first line shown of a list
        self.edit = False           # setup: a value being changed
        self.fields = bytearray(12)  # Moon tricks by seat; a gin hand being keyed in
        self.banner = None          # a refusal, shown until the next press
        self.undone = -1            # the event BACK just took back, for the cursor of the
                                    # screen it shows (until that screen has entered)
        self.note = None            # a hand saved by a held key, shown until the next press
        self._noted = False         # the note was on show when this press came
        self.battery_low = False    # the score screen warns (firmware/battery.py)
        self.full = True            # the next show is a full refresh
        self.draft = None           # setup: the Rules being edited (before, the family the
                                    # menu asked for: 0 or 1), and the first dealer
        self.draft_dealer = 0
        self.lines = None           # history: the lines on show
        self._mod = None            # the screen's module, once loaded
        self._mod_name = None       # its name under firmware/ui/
        self._label = getattr(display, "label", None)   # the sim names its screenshots
        self._entered = False

    # ---- boot ----
    def boot(self, safe=False):
        """Mount the journal and resume its open sitting at the exact state. safe: safe
        mode (a button held at power-on): no resume, the sync screen, so that a journal
        this code cannot resume still reaches the PC."""
        scorer = self.scorer
        sid = scorer.mount()
        self.safe = safe
        if safe:
            self.link.status = "safe mode: waiting for the PC"
            self.banner = "safe mode: the sitting is not resumed"
            self.go(SYNC)
        elif sid is None:
            self.go(SETUP)
        else:
            refused = scorer.resume(sid)
            self.follow()
            if refused:
                self.banner = "%d saved events refused: sync, the PC has them" % refused
        self.full = True

    # ---- the event path ----
    def take(self, ev):
        """The scorer takes ev: False (and a banner) when refused."""
        return self._taken(self.scorer.take(ev))

    def _taken(self, got):
        if not got:
            self.banner = self.scorer.refusal
            return False
        if got == ENDED:
            self.full = True    # a hand ended: a full refresh back to the score
        return True

    def undo(self):
        """BACK: take back the last event; a finished hand asks first, unless the press
        before saved it and the screen says so (the note: `BACK undoes`)."""
        if self.scorer.s is None:
            return
        if self.scorer.hand_closed() and not self._noted:
            self.go(CONFIRM)
            return
        self.really_undo()

    def really_undo(self):
        ev = self.scorer.s.last_event()
        if self.take(EV_UNDO << 24):
            self.undone = ev
            self.follow()

    # ---- screens ----
    def module(self):
        """The module of the screen on show. Only that one is kept loaded."""
        name = self.screen
        if self.scorer.gin:
            name = GIN_SCREENS.get(name, name)
        if name != self._mod_name:
            self._unload()
            gc.collect()
            self._mod = __import__("firmware.ui." + name, None, None, ("draw",))
            self._mod_name = name
        return self._mod

    def drop_screen(self):
        """The screen's module and what the screens share out of the heap (a sync session
        is opening): they load again, and the screen enters, at the next render."""
        self._unload()
        transient.unload("firmware.ui")      # the screens' shared code too
        transient.unload("firmware.fonts")
        self._entered = False

    def _unload(self):
        if self._mod_name is not None:
            transient.unload("firmware.ui." + self._mod_name)
        self._mod = None
        self._mod_name = None

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
        m = self.module()
        if hasattr(m, "enter"):
            m.enter(self)
        self.undone = -1
        return m

    def follow(self):
        """Show the screen the sitting's state asks for."""
        scorer = self.scorer
        s = scorer.s
        if s is None:
            self.go(SETUP)
            return
        p = s.phase()
        if p == OVER:
            self.go(OVER_SCREEN)
        elif scorer.gin:
            self.go(HOME)       # the gin score screen asks for the turn-up and the ending
        elif p == BIDDING:
            self.go(HOME if scorer.fresh_deal() else BID)
        elif p == TRUMP:
            self.go(CONTRACT)
        elif scorer.hand_mode == 1 or (scorer.hand_mode == 0 and (
                scorer.tracker or s.tricks_played())):
            self.go(TRACKER)
        else:
            self.go(RESULT)

    def pushed(self, refusal):
        """The PC pushed the next sitting's setup (refusal: None when it was taken): the
        setup screen starts again from it. Returns refusal."""
        if refusal is None and self.screen != SETUP:
            self.draft = None
        elif refusal is None and self.draft == 2:
            self.go(SETUP)      # asking what we play (firmware/ui/setup.py): the PC said
            self.draft = None
        return refusal

    # ---- a press ----
    def press(self, key):
        """Handle one logical button (LONG or-ed in for a long press), then redraw."""
        self.handle(key)
        self.render()

    def handle(self, key):
        """Handle one logical button without drawing: the main loop draws once the panel
        is idle, for every press taken meanwhile (firmware/loop.py)."""
        self.banner = None
        self._noted = self.note is not None
        self.note = None
        if self.safe:   # the sitting not resumed must not be finished by a new one
            self.banner = "safe mode: sync with the PC, or restart"
            return
        if key & LONG and key & 0xF != PREV and key & 0xF != NEXT and not (
                key & 0xF == OK and self._entered and hasattr(self.module(), "HOLD_OK")):
            key &= 0xF      # the arrows have a long meaning, OK where a screen says so
        if key == MENU and self.screen != MENU_SCREEN and self.screen != SETUP:
            self.go(MENU_SCREEN)
        else:
            m = self.module() if self._entered else self._enter()
            m.press(self, key)

    def poll_link(self):
        """Called from the main loop between buttons: the USB line (firmware/link.py).
        True while a sync session is open. The radio's sender, in an event, is polled
        too: radio_busy while it waits for the PC's acknowledge (the board stays awake)."""
        if self.link.poll():
            return True
        if self.radio is not None:
            try:
                self.radio_busy = self.radio.poll()
            except MemoryError:     # the radio gives way; it comes back when there is room
                self.switch_radio(False)
                self.switch_radio(True)
        return False

    def switch_radio(self, on):
        """Start the radio's sender (a scorer in an event; firmware/radio/join.py) or stop
        it (the USB line wants the heap)."""
        if self.air is not None:
            from firmware.radio import join
            join.start(self) if on else join.stop(self)

    def rest(self):
        """Before a deep sleep: the score on the panel, which keeps it unpowered."""
        if self.scorer.s is not None and self.link.sync is None:
            self.go(HOME)
            self.full = True
            self.render()

    def render(self):
        fb = self.fb
        m = self._enter() if not self._entered else self.module()
        fb.fill(WHITE)
        m.draw(self, fb)
        if self.battery_low and self.screen == HOME:
            from firmware.battery import mark
            mark(fb)
        if self.screen == HOME and getattr(self.radio, "down", None) is not None:
            from firmware.radio.sender import mark
            mark(fb)    # the radio would not start (firmware/radio/sender.py)
        if self.banner:
            from firmware.ui import draw
            draw.banner(fb, self.banner)
            transient.release()     # the refusal's messages
        if self._label is not None:
            self._label(self._mod_name)
        fb.show(self.full)
        self.full = False
