"""`tally42 event publish NAME DIR`: a static folder of the event's results to copy to a
club's web site, nothing in it that needs a server:

  index.html        the standings (and the head-to-head grid), links to each round
  round-N.html      round N's results sheet: its tables, each with its result, and the
                    standings after it (one to print a round)
  rounds.html       every round on one page
  standings.csv     the standings (as `event standings --format csv`)
  rounds.csv        round, table, side A, side B, seats, result: a line a table
  hands.csv         every hand of every result: sitting, round, table, then the hand
  prizes.html       the prize list (the first three, with their players)
  event.json        all of it: the event, its rounds and tables with their sittings,
                    the hands, the standings

Written from one reading of the database; files already in DIR under these names are
replaced, nothing else in it is touched."""
import csv
import html
import io
import json
import os

from host_tools.events import schedule as SC
from host_tools.events import standings as ST
from host_tools.events.event import EventError, load
from host_tools.events.state import event_state, schedule_rounds

_HAND_COLUMNS = ("number", "dealer", "thrown_in", "bidder", "bid", "bid_name", "contract",
                 "trump", "made", "points", "award", "score")


def _csv(rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for r in rows:
        w.writerow([_cell(c) for c in r])
    return out.getvalue()


def _cell(v):
    # A value a spreadsheet would take for a formula is written as text.
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@") and not _number(v):
        return "'" + v
    return "" if v is None else v


def _number(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


def _results(database, ev):
    """{(round, table): [sitting ids]} of the event's results, and {sitting id: [hand
    dicts]}."""
    conn = database.conn
    slots = {}
    for r in conn.execute("SELECT round, table_no, sitting_id FROM event_results WHERE "
                          "event = ? AND sitting_id IN (SELECT id FROM sittings) "
                          "ORDER BY round, table_no, game", (ev.name,)):
        slots.setdefault((r[0], r[1]), []).append(r[2])
    hands = {}
    for ids in slots.values():
        for sid in ids:
            rows = conn.execute("SELECT %s FROM hands WHERE sitting_id = ? ORDER BY number"
                                % ", ".join(_HAND_COLUMNS), (sid,)).fetchall()
            hands[sid] = [dict(zip(_HAND_COLUMNS, r)) for r in rows]
            for h in hands[sid]:
                for k in ("award", "score"):
                    if isinstance(h[k], str):
                        h[k] = json.loads(h[k])
    return slots, hands


def files(database, name):
    """{file name: text} of the published folder."""
    ev = load(database, name)
    state = event_state(ev, database)
    rounds = schedule_rounds(ev, state)
    rows = ST.compute(ev, state)
    slots, hands = _results(database, ev)
    title = "%s: %s, %s" % (ev.name, ev.format, ev.variant)
    out = {}
    links = "".join('<li><a href="round-%d.html">Round %d</a></li>' % (r[0], r[0])
                    for r in rounds)
    out["index.html"] = SC.html_page(
        "%s: standings" % ev.name,
        ST.html_table(ev, rows) + "\n" + ST.head_to_head_html(rows) +
        '\n<h2>Rounds</h2>\n<ul>%s<li><a href="rounds.html">All rounds</a></li></ul>\n'
        '<p>Also: <a href="standings.csv">standings.csv</a>, <a href="rounds.csv">'
        'rounds.csv</a>, <a href="hands.csv">hands.csv</a>, <a href="event.json">'
        'event.json</a></p>' % links)
    out["rounds.html"] = SC.html_page(title, SC.html_rounds(rounds))
    for r in rounds:
        after = ST.compute(ev, state, through=r[0])
        out["round-%d.html" % r[0]] = SC.html_page(
            "%s: round %d" % (ev.name, r[0]),
            SC.html_rounds([r]) + "\n<h2>Standings after round %d</h2>\n%s\n"
            '<p><a href="index.html">%s</a></p>' % (r[0], ST.html_table(ev, after),
                                                    html.escape(ev.name)))
    from host_tools.events import prizes as PZ
    out["prizes.html"] = PZ.html_page(*PZ.prize_rows(database, name))
    out["standings.csv"] = ST.csv_text(ev, rows)
    table_rows = [("round", "table", "side_a", "side_b", "seats", "result")]
    for number, tables, _ in rounds:
        for row in tables:
            table_rows.append((number, row[0], row[1], row[2], " ".join(row[3] or ()),
                               row[4] if len(row) > 4 else ""))
    out["rounds.csv"] = _csv(table_rows)
    hand_rows = [("sitting", "round", "table") + _HAND_COLUMNS]
    for (rnd, table), ids in sorted(slots.items()):
        for sid in ids:
            for h in hands[sid]:
                hand_rows.append((sid, rnd, table) + tuple(
                    json.dumps(h[k]) if isinstance(h[k], list) else h[k]
                    for k in _HAND_COLUMNS))
    out["hands.csv"] = _csv(hand_rows)
    data = {"event": ev.name, "format": ev.format, "variant": ev.variant,
            "options": ev.options, "units": ev.units,
            "rounds": [{"round": number, "sitting_out": list(resting), "tables": [
                {"table": row[0], "a": row[1], "b": row[2], "seats": list(row[3] or ()),
                 "result": row[4] if len(row) > 4 else None,
                 "sittings": slots.get((number, row[0]), [])} for row in tables]}
                for number, tables, resting in rounds],
            "hands": hands, "standings": [r.as_dict() for r in rows]}
    out["event.json"] = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    return out


def publish(database, name, folder):
    """Write the folder (made if missing). Returns [file names] written; EventError
    when the folder cannot be written."""
    made = files(database, name)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise EventError("%s is a file, not a folder" % folder)
    try:
        os.makedirs(folder, exist_ok=True)
        for fname, text in sorted(made.items()):
            path = os.path.join(folder, fname)
            with open(path + ".new", "w", encoding="utf-8", newline="") as f:
                f.write(text)
            os.replace(path + ".new", path)
    except OSError as e:
        raise EventError("%s: cannot write: %s" % (folder, e.strerror or e))
    return sorted(made)
