"""The next table a scorer is sent over the radio once its table's result is stored
(by the radio, a USB sync, or by hand): the same assignment a USB sync pushes
(host_tools/events/slots.next_assignment, which claims it for the scorer, so the radio
and the cable never disagree), or, when the scorer has no open table yet, the round to
wait for. Made into the radio's next frame (engine_core/air/wire.py put_next)."""
from engine_core.air import wire as W
from host_tools.events import slots as SL
from host_tools.events.event import EventError, load
from host_tools.events.state import event_state, table_status


def next_for(database, event, device_id):
    """What `device_id` plays next in `event`: ("table", assignment) as slots.next_assignment
    gives it, ("wait", round) when its table number's next round is not open to it yet,
    or ("none", 0) when the event has no table left for it."""
    a = SL.next_assignment(database, device_id, event)
    if a is not None:
        return "table", a
    try:
        ev = load(database, event)
    except EventError:
        return "none", 0
    state = event_state(ev, database)
    home = SL.scorer_table(database, event, device_id)
    later = [t.round for t in ev.tables if table_status(ev, t, state) not in (
        "done", "not needed") and (home is None or t.table == home)]
    return ("wait", min(later)) if later else ("none", 0)


def frame(tag, mac, address, sitting, what):
    """The next frame (sealed for the scorer at `address`) of next_for's answer."""
    kind, a = what
    buf = bytearray(W.MAX_FRAME)
    if kind == "table":
        names = [p.encode("utf-8") for p in a.get("players") or ()]
        n = W.put_next(buf, tag, sitting, a["round"], a["table"], a["event"].encode("utf-8"),
                       names)
    else:
        n = W.put_next(buf, tag, sitting, a if kind == "wait" else 0, 0, b"", ())
    return bytes(buf[:mac.seal(address, buf, n)])


def describe(what):
    """The next table as the desk and the tests say it."""
    kind, a = what
    if kind == "table":
        p = a.get("players") or []
        names = ": %s/%s v %s/%s" % (p[0], p[2], p[1], p[3]) if len(p) == 4 else ""
        return "table %d, round %d%s" % (a["table"], a["round"], names)
    return "wait for round %d" % a if kind == "wait" else "no more tables"
