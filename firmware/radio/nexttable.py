# The next table that came over the radio (engine_core/air/wire.py, a next frame): kept
# as the next sitting's setup, as a USB sync's push is (firmware/nextsetup.py), and the
# line the game-over screen shows ("next: table 3, round 2: Ann/Bob v Cy/Di", "wait for
# round 3"). Never while a game is in play: a sitting open and not over keeps its
# players and table, and the frame is not taken (the sender asks again once it is over).
# Loaded with the radio's modules (the firmware.radio phase, firmware/transient.py).
from firmware import transient
from engine_core.air import wire

NOT_TAKEN = 0
TAKEN = 1
WAIT = 2


class NextTable:
    """`NextTable(app)`: the sender's on_next."""

    def __init__(self, app):
        self.app = app

    def __call__(self, msg, n):
        app = self.app
        if msg is None:     # a new sitting begun: the line said is old
            if app.next_table is not None:
                app.next_table = None
                app.redraw = True
            return NOT_TAKEN
        s = app.scorer.s
        if s is not None and not s.over():
            return NOT_TAKEN    # never a game in play
        parts = wire.next_parts(msg, n)
        if parts is None:
            return NOT_TAKEN
        _, rnd, table, event, names = parts
        if table == 0:
            app.next_table = ("wait for round " + str(rnd)) if rnd else \
                "no more tables tonight"
            app.full = True
            app.redraw = True
            return WAIT if rnd else TAKEN
        try:
            event = event.decode()
            names = tuple(b.decode() for b in names)
        except UnicodeError:
            return NOT_TAKEN
        from firmware import nextsetup
        refusal = nextsetup.update(app.scorer, None, names, (event, rnd, table))
        transient.release()     # nextsetup, loaded for this alone
        if app.pushed(refusal) is not None:
            app.banner = "next table from the PC: " + refusal
            return NOT_TAKEN
        app.next_table = line(rnd, table, names)
        app.full = True
        app.redraw = True
        return TAKEN


def line(rnd, table, names):
    """What the game-over screen says of a next table."""
    out = "next: table " + str(table) + ", round " + str(rnd)
    if len(names) == 4:
        out += ": " + names[0] + "/" + names[2] + " v " + names[1] + "/" + names[3]
    elif names:
        out += ": " + " v ".join(names)
    return out
