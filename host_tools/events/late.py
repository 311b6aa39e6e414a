"""A running event changed without losing a result: a team that arrives late joins a
round robin, and a substitute comes in for a player from some round on.

A late team: the rounds already under way (a result, a scorer handed a table, or a
table's live progress in any of their tables) stay as they are, and every round after
is seated afresh so that each pair of teams that has not met meets once, the late team
with everyone. Seating those pairs into as few rounds as may be is a search (seeded,
tried up to TRIES times, the fewest rounds kept), bounded below by the teams with most
games still to play; the last rounds may then have fewer tables.

A substitute: from their round on they sit where the player they replace sat, every
table the scorer is handed carries their name, and each game is credited to whoever
played it: the team's results stay the team's, and a player's own record
(standings.players) counts the games they sat in. In a progressive, where every player
is ranked alone, the substitute is an entrant of their own from that round on."""
import json
import random

from host_tools.events.event import (MAX_PLAYER_NAME, MAX_TEAM_NAME, EventError,
                                     Transaction, _check_name, load)
from host_tools.events.state import event_state
from host_tools.log.text import printable

TRIES = 200


def _started(ev, database, state):
    # Rounds under way: a result, a table handed to a scorer, or live progress.
    live = {(r["round"], r["table_no"]) for r in database.conn.execute(
        "SELECT round, table_no FROM event_live WHERE event = ?", (ev.name,))}
    return {t.round for t in ev.tables if state["results"].get((t.round, t.table))
            or t.device is not None or (t.round, t.table) in live}


def _everyone(ev):
    names = {p.casefold() for members in ev.members for p in members}
    return names | {came.casefold() for _, _, _, came in ev.substitutes}


def add_team(database, event, team, players, seed=42):
    """Add a team to a round robin under way; returns (the Event, the first round seated
    afresh). EventError when it cannot join (nothing changes then)."""
    _check_name(team, "team name", MAX_TEAM_NAME)
    for p in players:
        _check_name(p, "player", MAX_PLAYER_NAME)
    with Transaction(database, "add team %s" % printable(team)):
        ev = load(database, event)
        if ev.format != "round-robin":
            raise EventError("%s is a %s: a late team joins a round robin (a progressive "
                             "or a bracket is seated once)" % (ev.name, ev.format))
        if len(players) != len(ev.members[0]):
            raise EventError("team %s: %s plays %d a side, not %d" % (
                printable(team), ev.variant, len(ev.members[0]), len(players)))
        if team.casefold() in {e.casefold() for e in ev.entrants}:
            raise EventError("team %s is on the roster already" % printable(team))
        have = _everyone(ev)
        for p in players:
            if p.casefold() in have or [q.casefold() for q in players].count(
                    p.casefold()) > 1:
                raise EventError("player %s is on the roster already" % printable(p))
        state = event_state(ev, database)
        started = _started(ev, database, state)
        kept = max(started) if started else 0
        if kept >= ev.rounds and not _unplayed(ev, kept, len(ev.entrants) + 1):
            raise EventError("%s has played every round" % ev.name)
        n = len(ev.entrants)
        rounds = _seat(_unplayed(ev, kept, n + 1), n + 1, seed)
        conn = database.conn
        conn.execute("DELETE FROM event_tables WHERE event = ? AND round > ?", (ev.name, kept))
        conn.execute("INSERT INTO event_entrants (event, number, name, players) VALUES "
                     "(?, ?, ?, ?)", (ev.name, n, team, json.dumps(players,
                                                                   ensure_ascii=False)))
        rows = []
        for r, pairs in enumerate(rounds, kept + 1):
            for t, (a, b) in enumerate(pairs, 1):
                rows.append((ev.name, r, t, json.dumps([a]), json.dumps([b])))
        conn.executemany("INSERT INTO event_tables (event, round, table_no, side_a, side_b) "
                         "VALUES (?, ?, ?, ?, ?)", rows)
        conn.execute("UPDATE events SET rounds = ? WHERE name = ?",
                     (kept + len(rounds), ev.name))
    return load(database, event), kept + 1


def _unplayed(ev, kept, teams):
    met = {frozenset(t.side_a + t.side_b) for t in ev.tables if t.round <= kept}
    return [(a, b) for a in range(teams) for b in range(a + 1, teams)
            if frozenset((a, b)) not in met]


def _seat(pairs, teams, seed):
    """The pairs as rounds, each team at most once a round: the fewest rounds found."""
    if not pairs:
        return []
    rng = random.Random(seed)
    left_of = {}
    for a, b in pairs:
        left_of[a] = left_of.get(a, 0) + 1
        left_of[b] = left_of.get(b, 0) + 1
    bound = max(left_of.values())
    best = None
    for _ in range(TRIES):
        left = list(pairs)
        rounds = []
        while left:
            rng.shuffle(left)
            games = {}
            for a, b in left:
                games[a] = games.get(a, 0) + 1
                games[b] = games.get(b, 0) + 1
            # The teams with most games left first: they bound the rounds.
            left.sort(key=lambda p: -(games[p[0]] + games[p[1]]))
            used = set()
            seated = []
            for a, b in left:
                if a not in used and b not in used:
                    seated.append((a, b))
                    used.update((a, b))
            rounds.append(seated)
            left = [p for p in left if p not in seated]
        if best is None or len(rounds) < len(best):
            best = rounds
        if len(best) == bound:
            break
    return best


def substitute(database, event, out_name, in_name, from_round):
    """`in_name` plays for `out_name` from round from_round on; returns the Event.
    EventError when a table of theirs from that round has a result already, or the
    names do not fit (nothing changes then)."""
    _check_name(in_name, "player", MAX_PLAYER_NAME)
    with Transaction(database, "substitute %s" % printable(in_name)):
        ev = load(database, event)
        if not 1 <= from_round <= ev.rounds:
            raise EventError("%s has rounds 1 to %d, not %d" % (ev.name, ev.rounds,
                                                              from_round))
        where = [(e, p) for e, members in enumerate(ev.members) for p in members
                 if ev.player_at(e, p, from_round).casefold() == out_name.casefold()]
        if not where:
            raise EventError("%s has no player %s in round %d" % (
                ev.name, printable(out_name), from_round))
        if in_name.casefold() in _everyone(ev):
            raise EventError("player %s is on the roster already" % printable(in_name))
        entrant, player = where[0]
        shown = ev.player_at(entrant, player, from_round)
        state = event_state(ev, database)
        for t in ev.tables:
            if t.round >= from_round and t.side_a is not None and \
                    entrant in t.side_a + t.side_b and state["results"].get(
                        (t.round, t.table)):
                raise EventError("round %d table %d has a result with %s playing: the "
                                 "substitute comes in after it (--from-round %d)" % (
                                     t.round, t.table, shown, t.round + 1))
        conn = database.conn
        if ev.format == "progressive":
            number = len(ev.entrants)
            conn.execute("INSERT INTO event_entrants (event, number, name, players) VALUES "
                         "(?, ?, ?, ?)", (ev.name, number, in_name,
                                          json.dumps([in_name], ensure_ascii=False)))
            for t in ev.tables:
                if t.round >= from_round and entrant in t.side_a + t.side_b:
                    swap = [number if e == entrant else e for e in t.side_a], \
                        [number if e == entrant else e for e in t.side_b]
                    conn.execute("UPDATE event_tables SET side_a = ?, side_b = ? WHERE "
                                 "event = ? AND round = ? AND table_no = ?",
                                 (json.dumps(swap[0]), json.dumps(swap[1]), ev.name,
                                  t.round, t.table))
        else:
            conn.execute("INSERT INTO event_substitutes (event, entrant, from_round, "
                         "out_name, in_name) VALUES (?, ?, ?, ?, ?)",
                         (ev.name, entrant, from_round, shown, in_name))
    return load(database, event)
