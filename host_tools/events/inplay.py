"""A scorer's game in play, as a sync finds it (the log lines of its open sitting), and
what the desk may do about it: nothing is pushed to a scorer with a game open (its
table and players stay as they are until that game has ended), a scorer is moved to
another event only when asked (`sync --switch`), and a table decided elsewhere while its
scorer plays it is a conflict, said at once."""
from host_tools.events import slots as SL
from host_tools.events.event import EventError, load
from host_tools.events.state import event_state, table_status
from host_tools.log.lines import LogError, dump_log
from host_tools.log.text import printable


def open_lines(client):
    """The scorer's open sitting's log lines (host_tools.serial.sync.open_sitting), or
    None: none open, or a firmware that sends only finished sittings."""
    from host_tools.serial.client import DeviceError
    from host_tools.serial.sync import open_sitting
    try:
        return open_sitting(client)
    except DeviceError:
        return None


def open_game(client, database, pushing=False):
    """At a sync: (the open sitting's progress recorded for the page when it is at an
    event's table, live.record_log's; the game in play, game_in_play's), each or None.
    Asked only where there are events or a push: a sync of a database without any
    costs no more than it did."""
    from host_tools.events import live as LV
    from host_tools.events.event import names
    from host_tools.store.db import DbError
    if not pushing and not names(database):
        return None, None
    lines = open_lines(client)
    if lines is None:
        return None, None
    game = game_in_play(lines)
    try:
        return LV.record_log(database, lines, client.info.device_id), game
    except (EventError, DbError):
        return None, game


def game_in_play(lines):
    """The open sitting's {"event", "round", "table", "hands", "score", "id"} (event None
    when it is at no event's table) while it is a game in play; None when it is over, or
    does not replay."""
    from host_tools.log.sittinglog import replay, report
    if lines is None:
        return None
    try:
        rp = replay(dump_log(lines).encode("utf-8"))
    except LogError:
        return None
    r = report(rp)
    if r["over"]:
        return None
    x = rp.header.extra
    return {"event": x.get("event"), "round": x.get("round"), "table": x.get("table"),
            "hands": len(r["hands"]), "score": r["score"], "id": x.get("id", "?")}


def where(game):
    """The game in play as the sync says it."""
    at = ("%s round %s table %s" % (game["event"], game["round"], game["table"])
          if game["event"] else "a game at no event's table")
    return "%s, hand %d" % (at, game["hands"] + 1)


def held_back(game):
    """What the sync says when it pushes nothing because of the game in play."""
    return ("not pushed: the scorer is playing %s; its next table goes when that game "
            "has ended (over the radio, or at the next sync)" % where(game))


def conflict(database, game, device_id):
    """Why the table the scorer plays is in conflict (decided elsewhere: a result typed
    by hand, another scorer's), or None."""
    if not game or not game["event"] or game["round"] is None:
        return None
    try:
        ev = load(database, game["event"])
        table = ev.table(game["round"], game["table"])
    except EventError:
        return None
    state = event_state(ev, database, only=(game["round"], game["table"]))
    if table_status(ev, table, state) != "done":
        return None
    games = state["results"].get((game["round"], game["table"]), [])
    by = games[-1].sitting if games else "?"
    return ("conflict: %s round %d table %d is decided (sitting %s) while scorer %s "
            "plays it (sitting %s, hand %d): one of the two results is wrong; `tally42 "
            "event slot` or `tally42 delete` puts it right" % (
                ev.name, game["round"], game["table"], printable(str(by)), device_id,
                printable(str(game["id"])), game["hands"] + 1))


def home_event(database, device_id):
    """The event whose table the scorer keeps (its table number for the night, or a
    table handed to it and not decided), or None."""
    conn = database.conn
    row = conn.execute("SELECT event FROM event_scorers WHERE device = ? ORDER BY event",
                       (device_id,)).fetchone()
    if row is not None:
        return row[0]
    for (name,) in conn.execute("SELECT DISTINCT event FROM event_tables WHERE device = ? "
                                "ORDER BY event", (device_id,)).fetchall():
        try:
            ev = load(database, name)
        except EventError:
            continue
        state = event_state(ev, database)
        if any(t.device == device_id and table_status(ev, t, state) in ("ready", "playing")
               for t in ev.tables):
            return name
    return None


def switch_event(database, device_id, event):
    """Free the scorer's tables in every event but `event` (sync --switch). Returns the
    events it left."""
    left = []
    while True:
        home = home_event(database, device_id)
        if home is None or home == event:
            return left
        SL.release(database, home, device_id=device_id)
        left.append(home)


def other_event(database, event, device_id, switch, game_now):
    """sync --event to a scorer that keeps a table of another event: (refusal, [])
    (nothing is to change on it) unless `switch`, which frees its table there first:
    (None, [events left]). A game in play there (game_now() -> game_in_play's) is never
    moved. (None, []) when the scorer is in no other event."""
    home = home_event(database, device_id)
    if home is None or home == event:
        return None, []
    if not switch:
        return ("scorer %s keeps a table of %s, not %s: nothing changed on it (`--switch` "
                "moves it to %s, freeing its table in %s)" % (device_id, home, event, event,
                                                               home)), []
    game = game_now()
    if game is not None:
        return ("scorer %s is playing %s: it moves to %s when that game has ended; "
                "nothing changed on it" % (device_id, where(game), event)), []
    return None, switch_event(database, device_id, event)


def note_conflict(database, event, device_id, clash):
    """The conflict on the desk too (host_tools/events/desk.py): [] or [why not]."""
    from host_tools.events import desk as DK
    from host_tools.store.db import DbError
    try:
        DK.note(database, event, device_id, conflict=clash)
    except (EventError, DbError) as e:
        return ["the desk not told of the conflict: %s" % e]
    return []
