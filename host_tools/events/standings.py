"""An event's standings from the sittings slotted in it: wins and losses, marks (or
points) for and against, head to head, ranked by the documented tie-breaks, as text,
CSV and HTML.

Tie-breaks, in order (docs/events.md):
  1. matches won (a bracket: how far the team went first: the champion, then the team
     knocked out last);
  2. head to head: matches won against the others tied on 1, counted among them only;
  3. difference: marks (or points) for minus against;
  4. marks (or points) for;
  5. name, alphabetically, so the order is always the same (an organiser who wants a
     play-off decides that table by hand).
2 to 4 in the order the event sets (`tally42 event set NAME --tiebreak`), and a bye
(a team sitting out a round) scored as the event sets (`--bye`): nothing (the default),
a win (a match won by the game's target to 0), or the team's average (its marks or
points for and against, each the average of its games, rounded down; no win or loss)."""
import csv
import html
import io

from host_tools.events import schedule as SC
from host_tools.events import state as ES
from host_tools.log.text import csv_cell

COLUMNS = ("rank", "name", "played", "won", "lost", "for", "against", "diff")


class Row:
    def __init__(self, number, name):
        self.number = number
        self.name = name
        self.played = self.won = self.lost = 0
        self.points_for = self.points_against = 0
        self.beat = {}          # entrant number -> matches won against them
        self.out_at = None      # bracket: the play order of the match that knocked it out
        self.champion = False
        self.rank = 0

    @property
    def diff(self):
        return self.points_for - self.points_against

    def as_dict(self):
        return {"rank": self.rank, "name": self.name, "played": self.played, "won": self.won,
                "lost": self.lost, "for": self.points_for, "against": self.points_against,
                "diff": self.diff}


def decided(event, state, through=None):
    """The tables played out with a winner (through round `through`): (table, side a,
    side b, its games, the winner 0 or 1), in the event's order."""
    for t in event.tables:
        if through is not None and t.round > through:
            continue
        if ES.table_status(event, t, state) != "done":
            continue
        a, b = ES.sides_of(event, t, state)
        games = state["results"].get((t.round, t.table), [])
        winner = ES.match_outcome(event, games)[2]
        if winner is not None:
            yield t, a, b, games, winner


def compute(event, state, through=None):
    """Ranked rows for every entrant, from decided tables of rounds up to `through`
    (all rounds when None)."""
    rows = [Row(i, n) for i, n in enumerate(event.entrants)]
    order = {}
    if event.bracket is not None:
        order = {m: i for i, m in enumerate(event.bracket.order())}
    for t, a, b, games, winner in decided(event, state, through):
        fa = sum(g.score[0] for g in games)
        fb = sum(g.score[1] for g in games)
        for side, other, won, f, ag in ((a, b, winner == 0, fa, fb),
                                        (b, a, winner == 1, fb, fa)):
            for e in side:
                r = rows[e]
                r.played += 1
                r.won += won
                r.lost += not won
                r.points_for += f
                r.points_against += ag
                if won:
                    for o in other:
                        r.beat[o] = r.beat.get(o, 0) + 1
                elif t.match is not None and state["bracket"]["losses"].get(e, 0) >= 2:
                    r.out_at = max(r.out_at or 0, order[t.match])
    _byes(event, state, rows, through)
    if event.bracket is not None and through is None:
        champ = state["bracket"]["champion"]
        if champ is not None:
            rows[champ].champion = True
    return rank(rows, bracket=event.bracket is not None, order=tiebreaks(event))


TIEBREAKS = ("h2h", "diff", "for")
BYES = ("nothing", "win", "average")


def tiebreaks(event):
    """The event's tie-breaks after matches won, in its order (default h2h,diff,for)."""
    given = (event.club.get("tiebreak") or ",".join(TIEBREAKS)).split(",")
    return tuple(given) + tuple(t for t in TIEBREAKS if t not in given)


def _byes(event, state, rows, through):
    # Each team's byes of the rounds all decided (up to `through`), scored as the event
    # sets: a round still at play gives nobody its bye yet.
    how = event.club.get("bye", "nothing")
    if how == "nothing" or event.bracket is not None:
        return
    target = event.rules.target
    for number, tables, resting in ES.schedule_rounds(event):
        if through is not None and number > through:
            continue
        if any(ES.table_status(event, t, state) != "done" for t in event.tables
               if t.round == number):
            continue
        for name in resting:
            r = rows[event.entrants.index(name)]
            if how == "win":
                r.played += 1
                r.won += 1
                r.points_for += target
            elif r.played:
                r.points_for += r.points_for // r.played
                r.points_against += r.points_against // r.played


def rank(rows, bracket=False, order=TIEBREAKS):
    """Sort rows by the tie-breaks and number their ranks (equal rows share nothing: the
    name decides last)."""
    def first(r):
        if bracket:
            # Still in (out_at None) before out; knocked out later before earlier.
            return (1 if r.champion else 0, 1 if r.out_at is None else 0,
                    r.out_at or 0, r.won)
        return (r.won,)

    groups = {}
    for r in rows:
        groups.setdefault(first(r), []).append(r)
    out = []
    for key in sorted(groups, reverse=True):
        tied = groups[key]
        numbers = {r.number for r in tied}
        h2h = {r.number: sum(v for o, v in r.beat.items() if o in numbers) for r in tied}
        keys = {"h2h": lambda r: -h2h[r.number], "diff": lambda r: -r.diff,
                "for": lambda r: -r.points_for}
        tied.sort(key=lambda r: tuple(keys[k](r) for k in order) + (r.name,))
        out.extend(tied)
    for i, r in enumerate(out):
        r.rank = i + 1
    return out


def text(event, rows, title=None):
    units = event.units
    head = ("#", "Name", "P", "W", "L", units.capitalize(), "Against", "Diff")
    body = [(str(r.rank), r.name, str(r.played), str(r.won), str(r.lost),
             str(r.points_for), str(r.points_against), "%+d" % r.diff) for r in rows]
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    lines = []
    if title:
        lines += [title, "=" * len(title)]
    for line in [head] + body:
        lines.append("  ".join(c.ljust(widths[i]) if i == 1 else c.rjust(widths[i])
                               for i, c in enumerate(line)).rstrip())
    return "\n".join(lines) + "\n"


def csv_text(event, rows):
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["rank", "name", "played", "won", "lost", event.units + "_for",
                event.units + "_against", "difference"])
    for r in rows:
        w.writerow([csv_cell(c) for c in (r.rank, r.name, r.played, r.won, r.lost,
                                          r.points_for, r.points_against, r.diff)])
    return f.getvalue()


def html_table(event, rows):
    head = "".join("<th>%s</th>" % h for h in (
        "#", "Name", "Played", "Won", "Lost", html.escape(event.units.capitalize()),
        "Against", "Diff"))
    body = "\n".join(
        "<tr><td>%d</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
        "<td>%+d</td></tr>" % (r.rank, html.escape(r.name), r.played, r.won, r.lost,
                                r.points_for, r.points_against, r.diff) for r in rows)
    return "<table class=\"standings\"><tr>%s</tr>\n%s</table>" % (head, body)


def html_page(event, rows, title):
    return SC.html_page(title, html_table(event, rows))


def head_to_head(rows):
    """The grid of matches won and lost between each two entrants, in rank order:
    [[cell]] where a cell is "W-L" of the row's entrant against the column's, "" when
    they have not met, "x" on the diagonal."""
    by = {r.number: r for r in rows}
    grid = []
    for r in rows:
        line = []
        for c in rows:
            if c.number == r.number:
                line.append("x")
                continue
            w, lo = r.beat.get(c.number, 0), by[c.number].beat.get(r.number, 0)
            line.append("%d-%d" % (w, lo) if w or lo else "")
        grid.append(line)
    return grid


def head_to_head_text(rows):
    grid = head_to_head(rows)
    names = [r.name for r in rows]
    width = max(len(n) for n in names)
    cols = [max(3, len(str(i + 1))) for i in range(len(rows))]
    lines = ["Head to head (won-lost, the row against the column)",
             " " * (width + 5) + "  ".join(str(i + 1).rjust(cols[i])
                                           for i in range(len(rows)))]
    for i, name in enumerate(names):
        lines.append("%2d. %s " % (i + 1, name.ljust(width)) + "  ".join(
            grid[i][j].rjust(cols[j]) for j in range(len(rows))))
    return "\n".join(lines) + "\n"


def head_to_head_html(rows):
    grid = head_to_head(rows)
    head = "<tr><th></th>%s</tr>" % "".join("<th>%s</th>" % html.escape(r.name)
                                            for r in rows)
    body = "\n".join("<tr><th>%s</th>%s</tr>" % (html.escape(r.name), "".join(
        "<td>%s</td>" % html.escape(c) for c in grid[i])) for i, r in enumerate(rows))
    return "<h2>Head to head</h2>\n<table class=\"h2h\">%s\n%s</table>" % (head, body)


def players(event, state):
    """Each player's own record, game by game as they sat: [(name, team, played, won,
    lost)] by games won, then name. A substitute is credited with the games they played,
    the player they came in for with the others."""
    rec = {}
    for t, a, b, games, winner in decided(event, state):
        for side, won in ((a, winner == 0), (b, winner == 1)):
            for e in side:
                for p in event.members[e]:
                    name = event.player_at(e, p, t.round)
                    r = rec.setdefault(name, [name, event.entrants[e], 0, 0, 0])
                    r[2] += 1
                    r[3] += won
                    r[4] += not won
    return sorted((tuple(r) for r in rec.values()), key=lambda r: (-r[3], r[2], r[0]))


def players_text(rows):
    head = ("Player", "Team", "P", "W", "L")
    body = [(r[0], r[1], str(r[2]), str(r[3]), str(r[4])) for r in rows]
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i])
                               for i, c in enumerate(line)).rstrip()
                     for line in [head] + body) + "\n"
