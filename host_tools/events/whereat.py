"""Where each team is now, for the page's tables and "find your table": tables run
ahead of the round (a scorer keeps its table number and is handed its next round as
soon as its own table is decided), so the round a team is in is its own. A team's
current table is the one it is playing (a sitting slotted and not decided, or a
scorer's live progress), else its earliest table not decided. Substitutes come with
the round of that table (Event.seats)."""
from host_tools.events.state import table_status


def current_tables(ev, state, progress):
    """{entrant index: (round, table)} of each team with a table to play; progress is
    host_tools.events.live.read's {(round, table): Live}."""
    best = {}
    for t in ev.tables:
        status = table_status(ev, t, state)
        if status not in ("ready", "playing"):
            continue
        playing = status == "playing" or (t.round, t.table) in progress
        rank = (0 if playing else 1, t.round, t.table)
        for e in (t.side_a or []) + (t.side_b or []):
            if e not in best or rank < best[e]:
                best[e] = rank
    return {e: (r[1], r[2]) for e, r in best.items()}
