# One sync session with the PC, the scorer's side: the endpoint opened on the USB line
# with the hello already read, and what the PC may set (the clock, names, house options,
# the next table). Made by firmware/link.py when a PC's hello arrives; this module and
# the endpoint's are the firmware.sync phase's (firmware/transient.py): out of the heap once
# the session ends.
import gc

from firmware import transient
from firmware import nextsetup
from firmware.codes import SETUP, SYNC
from firmware.sync.endpoint import SyncEndpoint
from firmware.syncport import PrefixPort


class Session:
    def __init__(self, app):
        self.app = app
        self.pending = None     # house options pushed by the PC, checked after the session
        self.names = None       # players pushed by the PC: set up again with those options

    def open(self, port, hello, n, firmware, kbd_intr, interrupt):
        """The endpoint on `port`, the hello's first n bytes already read into `hello`."""
        app = self.app
        app.switch_radio(False)     # the radio gives the session its heap
        gc.collect()            # the endpoint's buffers want room in one piece
        scorer = app.scorer
        return SyncEndpoint(
            PrefixPort(port, hello, n), scorer.journal, app.link.device_id, firmware,
            clock=scorer.clock.set, names=self.set_names, settings=self.set_settings,
            assign=self.set_assign, now=scorer.clock.unix, count=scorer.clock.count, kbd_intr=kbd_intr,
            interrupt=interrupt)

    def end(self, link):
        """The PC's session is over (`link.sync` is done): the endpoint out of the heap,
        the house options pushed by the PC checked and kept, the outcome's screen next."""
        app = self.app
        served = link.sync.requests
        link.status = "done, %d sent to the PC" % link.sync.acked if served else "idle"
        pending = self.pending
        names = self.names
        link.close()
        gc.collect()
        if pending:
            # The names go with the game they were pushed for (two for a gin pad, when
            # the game pushed with them is one).
            refusal = app.pushed(nextsetup.update(app.scorer, pending, names))
            transient.release()     # the option checks
            if refusal:
                app.banner = "settings from the PC: " + refusal
        if served or link.back == SYNC:
            app.go(SYNC)        # the outcome stays on show until OK or BACK
        elif app.scorer.s is None:
            app.go(SETUP)
        else:
            app.go(link.back)
        app.full = True
        app.switch_radio(True)      # with the key pushed now, or the one kept

    def set_names(self, kind, names):
        """Players ("p"): for the sitting on the table (on screen) and every new one;
        teams ("t"): on screen. The names a sitting starts with are in its header on
        flash."""
        scorer = self.app.scorer
        if kind == "t":
            if len(names) != 2:
                return "2 team names, not %d" % len(names)
            scorer.teams = (names[0][:8], names[1][:8])
            return None
        self.names = tuple(n[:12] for n in names)
        return self.app.pushed(nextsetup.set_names(scorer, self.names))

    def set_settings(self, pairs):
        """House options for the next sitting set up (and the tracker switch). They are
        checked by the engine's option rules once the session is over (the checks and
        the endpoint do not fit in the heap together); a refusal is shown then."""
        scorer = self.app.scorer
        for key, value in pairs:
            if key == "tracker":
                scorer.tracker = 1 if value in ("1", "true", "on", "yes") else 0
                scorer.save_settings()
            elif key == "radio":    # an event's radio key (firmware/radio/join.py)
                from firmware.radio import join
                refusal = join.save(join.path_of(scorer.settings_path), value)
                if refusal:
                    return refusal
            else:
                if self.pending is None:
                    self.pending = {}
                # (a variant's name may be digits, "42"; nello_doubles is a list even
                # of one)
                self.pending[key] = (value if key == "variant" else value.split(",")
                                     if key == "nello_doubles" else _value(value))
        return None

    def set_assign(self, assign):
        """The next sitting's table assignment (event, round, table), None to drop it; the
        players and the game come as names and settings. None, or why it is refused."""
        if assign is not None:
            event, rnd, table = assign
            if not 0 < rnd < 256 or not 0 < table < 256:
                return "round and table from 1 to 255"
            if not event or len(event.encode()) > 32:
                return "an event name of 1 to 32 bytes"
        return self.app.pushed(nextsetup.update(self.app.scorer, None, None, assign))


def _value(text):
    # A setting pushed from the PC as the log would write it: a number, true/false, a
    # list of names (comma-separated), or a word.
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    return text.split(",") if "," in text else text
