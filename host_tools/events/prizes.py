"""The prize list: the first places of the standings with who played for each (a team's
players, and any substitute who played for it), as text and as a page to print.
`tally42 event prizes NAME [--places N] [--html --out FILE]`."""
import html

from host_tools.events import schedule as SC
from host_tools.events import standings as ST
from host_tools.events.event import load
from host_tools.events.state import event_state

_PLACES = ("1st", "2nd", "3rd")


def place(n):
    return _PLACES[n - 1] if n <= 3 else "%dth" % n


def prize_rows(database, name, places=3):
    """[(place, name, players, won, played, for, against)] of the first `places`."""
    ev = load(database, name)
    rows = ST.compute(ev, event_state(ev, database))
    out = []
    for r in rows[:places]:
        players = list(ev.members[r.number])
        for e, _, out_name, in_name in ev.substitutes:
            if e == r.number and in_name not in players:
                players.append(in_name)
        out.append((place(r.rank), r.name, players, r.won, r.played, r.points_for,
                    r.points_against))
    return ev, out


def text(ev, rows):
    title = "%s: prizes" % ev.name
    lines = [title, "=" * len(title)]
    for p, name, players, won, played, f, ag in rows:
        lines.append("%-4s %s (%s): won %d of %d, %s %d-%d" % (
            p, name, ", ".join(players), won, played, ev.units, f, ag))
    return "\n".join(lines) + "\n"


def html_page(ev, rows):
    body = "<table><tr><th>Place</th><th>Name</th><th>Players</th><th>Won</th>" \
           "<th>%s</th></tr>\n%s</table>" % (html.escape(ev.units.capitalize()), "\n".join(
               "<tr><td>%s</td><td>%s</td><td>%s</td><td>%d of %d</td><td>%d-%d</td></tr>"
               % (p, html.escape(name), html.escape(", ".join(players)), won, played, f, ag)
               for p, name, players, won, played, f, ag in rows))
    return SC.html_page("%s: prizes" % ev.name, body)
