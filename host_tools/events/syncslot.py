"""Sittings synced into a club night's event: each stored sitting that carries an event,
round and table slotted into it, and the next table a desk's scorer is handed
(`tally42 sync --event`)."""
import json

from host_tools.events import event as EV
from host_tools.events import slots as SL
from host_tools.store import db as D


def next_table(database, event, refusals, said):
    # sync --event: the scorer's next table, claimed for it once its sittings are stored
    # and slotted (a table just decided can open the next round).

    def assignment_for(device_id):
        try:
            a = SL.next_assignment(database, device_id, event)
        except (EV.EventError, D.DbError) as e:
            refusals.append("no table pushed: %s" % e)
            return None
        if a is None:
            home = SL.scorer_table(database, event, device_id)
            said.append("nothing to push: %s has no open table for scorer %s (%s)" % (
                event, device_id, "its table %d is decided in every round" % home
                if home is not None else "every table of the round has its scorer; "
                "`tally42 event release` frees one"))
        return a
    return assignment_for


class Slotter:
    """Each synced sitting that carries an event, round and table is slotted into that
    event once stored (host_tools.events.slots.slot_sitting): what was slotted, and what was
    refused (the sitting stays stored, the sync goes on)."""

    def __init__(self, database, only=None):
        self.database = database
        self.only = only        # sync --event: the event this desk runs
        self.slotted = []       # lines for stdout
        self.notes = []
        self.refused = []       # messages for stderr; the exit status is then 2
        self.nothing = []       # sync --event: why no table was pushed
        self._events = {}

    def __call__(self, sitting_id):
        conn = self.database.conn
        row = conn.execute("SELECT event, round, table_no, score, over FROM sittings "
                           "WHERE id = ?", (sitting_id,)).fetchone()
        if row is None or row["event"] is None:
            return
        name, rnd, table = row["event"], row["round"], row["table_no"]
        where = "%s round %s table %s" % (name, rnd, table)
        if self.only is not None and name != self.only:
            self.refused.append("sitting %s was played at %s, not in %s: not slotted (it "
                                "stays stored; `tally42 event slot` puts it in by hand)"
                                % (sitting_id, where, self.only))
            return
        try:
            ev = self._events.get(name)
            if ev is None:
                if conn.execute("SELECT 1 FROM events WHERE name = ?",
                                (name,)).fetchone() is None:
                    self.notes.append("sitting %s was played as %s: no event %s in the "
                                      "database, so it is not slotted" % (
                                          sitting_id, where, name))
                    return
                ev = self._events[name] = EV.load(self.database, name)
            done = SL.slot_sitting(self.database, sitting_id, ev, rnd, table)
        except (EV.EventError, D.DbError) as e:
            why = str(e)
            if why.startswith(where + " "):
                why = "the table" + why[len(where):]
            self.refused.append("sitting %s not slotted into %s: %s (it stays stored; "
                                "`tally42 event slot` puts it right by hand)"
                                % (sitting_id, where, why))
            return
        if done == "slotted":
            score = json.loads(row["score"])
            self.slotted.append("slotted: sitting %s as the result of %s (%s%s)" % (
                sitting_id, where, "-".join(str(s) for s in score),
                "" if row["over"] else ", still playing"))
