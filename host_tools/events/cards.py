"""Score cards to print for the tables without a scorer: one a table a round, each on
a page of its own, with the table, the round, the players by seat, the game, and a
line for every hand the game can last. What is written on it goes in with `tally42
event result` (or is typed as a sitting log).

A game of marks to N lasts at most 2N - 1 hands (each hand gives a mark or more to one
side); a game of points to N at most 2(N - 1) / 42 + 1 (each hand shares 42 points)."""
import html

from engine_core.texas42 import options as O
from host_tools.events.state import sides_of, table_status

_CSS = """body{font-family:sans-serif;margin:0}
.card{page-break-after:always;break-after:page;padding:1.2em}
h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.1em;margin:.2em 0 .6em}
table{border-collapse:collapse;width:100%}
td,th{border:1px solid #444;padding:.25em .4em;text-align:left;height:1.6em}
th{background:#eee}.seats td{height:auto}.sign{margin-top:1em;line-height:2.4}"""

HAND_COLUMNS = ("Hand", "Dealer", "Bid (who, how much)", "Trump", "Made or set",
                "%(a)s", "%(b)s", "%(a)s total", "%(b)s total")


def hands_on_card(event):
    """Lines for hands: as many as the event's game can last."""
    target = event.rules.target
    if event.rules.scoring == O.SCORING_NAMES.index("points"):
        return 2 * (target - 1) // 42 + 1
    return 2 * target - 1


def html_cards(event, state, round_no=None):
    """The page of cards: every table (of round_no, or of every round) whose sides are
    known; a table decided already gets none."""
    cards = []
    for t in event.tables:
        if round_no is not None and t.round != round_no:
            continue
        if table_status(event, t, state) not in ("ready", "playing"):
            continue
        a, b = sides_of(event, t, state)
        if a is None or b is None:
            continue
        cards.append(_card(event, t, a, b))
    title = "%s: score cards" % event.name
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head><body>\n%s\n</body></html>\n"
            % (html.escape(title), _CSS, "\n".join(cards))), len(cards)


def _card(event, t, a, b):
    seats = event.seats(a, b, t.round)
    names = {"a": html.escape(event.side_name(a)), "b": html.escape(event.side_name(b))}
    what = "%s, %s to %d" % (event.variant, event.units, event.rules.target)
    head = "".join("<th>%s</th>" % (h % names) for h in HAND_COLUMNS)
    rows = "\n".join("<tr><td>%d</td>%s</tr>" % (n, "<td></td>" * (len(HAND_COLUMNS) - 1))
                     for n in range(1, hands_on_card(event) + 1))
    places = ["N", "E", "S", "W"] if len(seats) == 4 else [str(i + 1) for i in
                                                            range(len(seats))]
    seat_row = "".join("<td>%s %s</td>" % (p, html.escape(s)) for p, s in zip(places, seats))
    return ("<div class=\"card\"><h1>%s</h1><h2>Round %d &middot; Table %d &middot; %s</h2>"
            "<p><b>%s</b> (%s) v <b>%s</b> (%s)</p>"
            "<table class=\"seats\"><tr>%s</tr></table><p>%s deals first.</p>"
            "<table><tr>%s</tr>\n%s</table>"
            "<div class=\"sign\">Result: %s ____ &nbsp; %s ____ &nbsp; Winner: ________"
            "<br>Signed: ____________ &nbsp; ____________</div></div>"
            % (html.escape(event.name), t.round, t.table, html.escape(what), names["a"],
               html.escape(", ".join(event.side_players(a, t.round))), names["b"],
               html.escape(", ".join(event.side_players(b, t.round))), seat_row,
               html.escape(seats[0]), head, rows, names["a"], names["b"]))
