# A gin pad set up from the PC: `tally42 sync --players Ann,Bob --set variant=oklahoma-gin`
# pushes two names and the game in one session; the next sitting is that game, with those
# names in its header (so its log, and the PC's statistics, carry them).
# MicroPython only (the app): tests/mp_run.py.
from apphelp import boot, press
from engine_core import header as H
from firmware.codes import SETUP, SYNC
from engine_core.journal.reader import JournalReader


class _Link:
    # What Session.end reads of firmware/link.py's Link once a session is done.
    def __init__(self):
        self.sync = self
        self.requests = 3
        self.acked = 0
        self.status = "connected"
        self.back = SETUP

    def close(self):
        self.sync = None


def test_two_names_and_a_gin_game_pushed_together_make_the_next_sitting():
    a = boot()
    assert a.screen == SETUP and a.scorer.s is None
    from firmware.sync.session import Session
    a.go(SYNC)              # as a hello does (firmware/link.py)
    s = Session(a)
    assert s.set_names("p", ["Ann", "Bob"]) is None
    assert s.set_settings([("variant", "oklahoma-gin"), ("target", "150")]) is None
    s.end(_Link())
    rules, dealer, names = H.decode_header(a.scorer.last_setup)
    assert rules.name == "oklahoma-gin" and rules.target == 150 and names == ["Ann", "Bob"]
    a.go(SETUP)
    a.render()
    while a.screen == SETUP:
        press(a, "ok" if a.cur == 0 else "prev")
    j = a.scorer.journal
    r = JournalReader(j)
    buf = bytearray(255)
    n = r.next_event(r.cursor(j.open_sitting()), buf)
    rules, dealer, names = H.decode_header(bytes(buf[:n]))
    assert rules.name == "oklahoma-gin" and names == ["Ann", "Bob"], (rules.name, names)
