"""An event's live state from the sittings slotted in it: each table's games seen from
its side A, each match's outcome, the bracket's teams as results come in, each table's
status, and the rounds as the schedule prints them."""
import json

from host_tools.events.event import GRAND_FINAL, RESET


class Game:
    """One sitting slotted at a table, seen from the table's side A."""

    def __init__(self, game, sitting_id, row, flipped):
        self.game = game
        self.sitting = sitting_id
        self.stored = row is not None
        score = json.loads(row["score"]) if row is not None else [0, 0]
        if row is not None and row["games"]:
            score = json.loads(row["games"])["match"]     # Partnership Moon: games won
        self.score = [score[1], score[0]] if flipped else score[:2]
        self.over = bool(row["over"]) if row is not None else False
        winner = row["winner"] if row is not None else None
        self.winner = None if winner is None or not self.over else (winner ^ 1 if flipped
                                                                     else winner)
        self.hands = row["hands"] if row is not None else 0


def flipped(event, players_json, table_seats):
    # Whether a sitting's side 0 is the table's side B (None: players do not match).
    if players_json is None:
        return False
    players = json.loads(players_json)
    sides = [set(players[0::2]), set(players[1::2])]
    a, b = set(table_seats[0::2]), set(table_seats[1::2])
    if sides == [a, b]:
        return False
    if sides == [b, a]:
        return True
    return None


def match_outcome(event, games):
    """(wins_a, wins_b, winner: 0, 1 or None) of a table's games: best of N when the
    event plays matches, else the one game."""
    wa = sum(1 for g in games if g.winner == 0)
    wb = sum(1 for g in games if g.winner == 1)
    need = event.best_of // 2 + 1
    winner = 0 if wa >= need else 1 if wb >= need else None
    return wa, wb, winner


def event_state(event, database, only=None):
    """The event's live state: {"results": {(round, table): [Game]}, "bracket": None or
    the bracket's state (teams of each match, winners, champion)}, from the sittings
    slotted so far (only: just that (round, table) of an event without a bracket)."""
    res, winners = _read_results(event, database, only)
    out = {"results": res, "bracket": None}
    if event.bracket is not None:
        out["bracket"] = event.bracket.state(winners)
    return out


# A slot whose sitting was deleted (`tally42 delete`) counts for nothing: the inner join
# drops it, and the table takes a result again.
_RESULTS = ("SELECT r.round, r.table_no, r.game, r.sitting_id, s.players, s.score, s.over, "
            "s.winner, s.hands, s.games FROM event_results r JOIN sittings s "
            "ON s.id = r.sitting_id WHERE r.event = ?")


def _read_results(event, database, only=None):
    # Bracket sides depend on results; read the rows once, orient after. only: one
    # (round, table) of a round robin or progressive, when nothing else is needed.
    if only is not None and event.bracket is None:
        rows = database.conn.execute(
            _RESULTS + " AND r.round = ? AND r.table_no = ? ORDER BY r.game",
            (event.name,) + tuple(only)).fetchall()
        t = event.table(*only)
        seats = event.seats(t.side_a, t.side_b, t.round)
        return {only: [_game(r, seats, event) for r in rows]}, {}
    rows = database.conn.execute(_RESULTS + " ORDER BY r.round, r.table_no, r.game",
                                 (event.name,)).fetchall()
    by_table = {}
    for r in rows:
        by_table.setdefault((r["round"], r["table_no"]), []).append(r)
    res = {}
    if event.bracket is None:
        for t in event.tables:
            rs = by_table.get((t.round, t.table), ())
            seats = event.seats(t.side_a, t.side_b, t.round)
            res[(t.round, t.table)] = [_game(r, seats, event) for r in rs]
        return res, {}
    # A bracket: play order, each match's teams known once the earlier ones are decided.
    winners = {}
    table_of = {t.match: t for t in event.tables}
    for key in event.bracket.order():
        t = table_of.get(key)
        if t is None:
            continue
        st = event.bracket.state(winners)
        a, b = st["teams"][key]
        rs = by_table.get((t.round, t.table), ())
        if a is None or b is None:
            res[(t.round, t.table)] = []
            continue
        games = [_game(r, event.seats([a], [b], t.round), event) for r in rs]
        res[(t.round, t.table)] = games
        w = match_outcome(event, games)[2]
        if w is not None:
            winners[key] = a if w == 0 else b
    return res, winners


def _game(r, seats, event):
    if r["score"] is None:
        return Game(r["game"], r["sitting_id"], None, False)
    return Game(r["game"], r["sitting_id"], r, bool(flipped(event, r["players"], seats)))


def sides_of(event, table, state):
    """(side_a, side_b) entrant lists of a table (None for a bracket side not yet known)."""
    if table.match is None:
        return table.side_a, table.side_b
    a, b = state["bracket"]["teams"][table.match]
    return (None if a is None else [a], None if b is None else [b])


def table_status(event, table, state):
    """'done', 'playing' (a sitting slotted, not decided), 'ready', 'waiting' (a bracket
    side not known yet) or 'not needed' (the reset when the grand final needs none)."""
    if table.match is not None:
        br = state["bracket"]
        if table.match == RESET and GRAND_FINAL not in br["winner"]:
            return "waiting"
        if not br["needed"].get(table.match, True):
            return "not needed"
        if table.match in br["winner"]:
            return "done"
        if None in br["teams"][table.match]:
            return "waiting"
    games = state["results"].get((table.round, table.table), [])
    if table.match is None and games and games[-1].over:
        return "done"
    return "playing" if games else "ready"


def schedule_rounds(event, state=None):
    """The event's rounds for schedule.text/html_rounds: (number, [(table, side a name,
    side b name, seats)], [sitting out])."""
    out = []
    for r in range(1, event.rounds + 1):
        tables = []
        seated = set()
        for t in event.tables:
            if t.round != r:
                continue
            if t.match is not None:
                a, b = sides_of(event, t, state) if state else (None, None)
                label = event.bracket.label(t.match)
                if t.match == RESET:
                    label += " (if the losers' side wins)"
                if state and table_status(event, t, state) == "not needed":
                    continue
                row = (t.table, "%s: %s" % (label, event.side_name(a)), event.side_name(b),
                       event.seats(a, b, t.round) if a and b else None)
                games = state["results"].get((t.round, t.table), []) if state else []
                w = state["bracket"]["winner"].get(t.match) if state else None
                if games or w is not None:
                    wa, wb, _ = match_outcome(event, games)
                    row += ("games %d-%d%s" % (wa, wb, ", %s through" % event.entrants[w]
                                               if w is not None else ""),)
                tables.append(row)
                continue
            seated.update(t.side_a + t.side_b)
            row = (t.table, event.side_name(t.side_a), event.side_name(t.side_b),
                   event.seats(t.side_a, t.side_b, t.round))
            games = state["results"].get((t.round, t.table), []) if state else []
            if games:
                g = games[-1]
                row += ("%d-%d%s" % (g.score[0], g.score[1], "" if g.over else
                                     " (playing)"),)
            tables.append(row)
        resting = [] if event.bracket else [event.entrants[e] for e in
                                            range(len(event.entrants)) if e not in seated]
        if tables or resting:
            out.append((r, tables, resting))
    return out
