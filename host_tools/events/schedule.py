"""Event schedules, pure: who sits at which table in which round. Round robin of fixed
teams (the circle method), progressive for individuals (partners rotate), and the
printable text and HTML of a schedule. No database here: event.py stores what this makes."""
import html
import random

BYE = None


def round_robin(n):
    """Rounds of a round robin of n teams (0..n-1) by the circle method: a list of rounds,
    each a list of (a, b) pairs; a team meeting BYE sits the round out. n-1 rounds when n
    is even, n when odd; every two teams meet exactly once."""
    if n < 2:
        raise ValueError("a round robin needs at least 2 teams")
    ring = list(range(n)) + ([BYE] if n % 2 else [])
    m = len(ring)
    rounds = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            # The fixed team alternates ends so nobody always sits as side A.
            if i == 0 and r % 2:
                a, b = b, a
            if a is BYE:
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[0], ring[-1]] + ring[1:-1]
    return rounds


def round_robin_tables(n):
    """round_robin(n) as tables: per round, (tables: [(a, b)], byes: [team])."""
    out = []
    for pairs in round_robin(n):
        out.append(([p for p in pairs if p[1] is not BYE], [p[0] for p in pairs
                                                             if p[1] is BYE]))
    return out


# ---- progressive: individuals, partners rotate ----

def _pair_key(a, b):
    return (a, b) if a < b else (b, a)


def partner_repeats(rounds):
    """How many times a pair of players partnered beyond their first time, over a
    progressive schedule (rounds of tables ((a1, a2), (b1, b2)))."""
    seen = {}
    for tables, _ in rounds:
        for t in tables:
            for side in t:
                k = _pair_key(*side)
                seen[k] = seen.get(k, 0) + 1
    return sum(c - 1 for c in seen.values())


def partner_bound(n, rounds):
    """A lower bound on partner repeats for n players over the given rounds: a player
    who plays k rounds has only n-1 others to partner. Sit-outs go as evenly as they
    can, so the players who play most play ceil(rounds * playing / n) rounds."""
    playing = n - n % 4
    total = rounds * playing
    most = -(-total // n)
    heavy = total - (most - 1) * n          # players who play `most` rounds
    extra = max(0, most - (n - 1)) * heavy + max(0, most - 1 - (n - 1)) * (n - heavy)
    return -(-extra // 2)


def _sitouts(n, rounds, rng):
    # Who sits out each round: n % 4 players, those who have sat out least first.
    k = n % 4
    sat = [0] * n
    out = []
    for _ in range(rounds):
        order = sorted(range(n), key=lambda p: (sat[p], rng.random()))
        pick = sorted(order[:k])
        for p in pick:
            sat[p] += 1
        out.append(pick)
    return out


def _circle_partners(players, r):
    # Round r of the circle method over an even list: no pair twice in len-1 rounds.
    m = len(players)
    ring = [players[0]] + [players[1 + (i + r) % (m - 1)] for i in range(m - 1)]
    return [(ring[i], ring[m - 1 - i]) for i in range(m // 2)]


def _pair_up(items, cost, rng, tries):
    # Items two by two with a low total cost(x, y): random starts, then swaps between
    # two pairs while any swap lowers the count; the best of `tries` starts (a perfect
    # one ends the search).
    best, best_cost = None, None
    for _ in range(tries):
        order = list(items)
        rng.shuffle(order)
        pairs = [[order[i], order[i + 1]] for i in range(0, len(order), 2)]
        improved = True
        while improved:
            improved = False
            for i in range(len(pairs)):
                for j in range(i + 1, len(pairs)):
                    (a, b), (c, d) = pairs[i], pairs[j]
                    now = cost(a, b) + cost(c, d)
                    for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                        if cost(*x) + cost(*y) < now:
                            pairs[i], pairs[j] = list(x), list(y)
                            improved = True
                            break
                    if improved:
                        break
                if improved:
                    break
        total = sum(cost(x, y) for x, y in pairs)
        if best is None or total < best_cost:
            best, best_cost = [tuple(p) for p in pairs], total
            if total == 0:
                break
    return best


def _match_partners(playing, partnered, rng, tries=60):
    # A perfect matching of `playing` with few partner repeats.
    return _pair_up(playing, lambda a, b: partnered.get(_pair_key(a, b), 0), rng, tries)


def _opp_cost(s, t, met):
    return sum(met.get(_pair_key(a, b), 0) for a in s for b in t)


def _group_tables(pairs, met, rng, tries=20):
    # Pairs of partnerships into tables with few repeat opponents.
    return _pair_up(pairs, lambda s, t: _opp_cost(s, t, met), rng, tries)


def progressive(n, rounds, seed=42, attempts=30):
    """A progressive for n individuals (n >= 4), four to a table (two partnerships):
    rounds of (tables, sitting_out), each table ((a1, a2), (b1, b2)).

    When n is a multiple of 4 and rounds <= n-1, partners come from the circle method:
    nobody partners anyone twice, guaranteed. Otherwise n % 4 players sit out each round
    (fewest sit-outs first) and a seeded search keeps partner repeats low, trying whole
    schedules `attempts` times and keeping the one with fewest partner repeats, then
    fewest repeat opponents. The same n, rounds and seed give the same schedule."""
    if n < 4:
        raise ValueError("a progressive needs at least 4 players")
    if rounds < 1:
        raise ValueError("a progressive needs at least 1 round")
    best, best_key = None, None
    for attempt in range(attempts):
        rng = random.Random(seed * 1000 + attempt)
        sched = _progressive_once(n, rounds, rng, circle=(n % 4 == 0 and rounds <= n - 1))
        key = (partner_repeats(sched), _opponent_repeats(sched))
        if best is None or key < best_key:
            best, best_key = sched, key
        if key[0] <= partner_bound(n, rounds) and (n % 4 == 0 and rounds <= n - 1
                                                   or attempt >= 4):
            if key[1] == 0 or attempt >= 4:
                break
    return best


def _opponent_repeats(rounds):
    seen = {}
    for tables, _ in rounds:
        for s, t in tables:
            for a in s:
                for b in t:
                    k = _pair_key(a, b)
                    seen[k] = seen.get(k, 0) + 1
    return sum(c - 1 for c in seen.values())


def _progressive_once(n, rounds, rng, circle):
    sitouts = _sitouts(n, rounds, rng)
    partnered = {}
    met = {}
    out = []
    order = list(range(n))
    if circle:
        rng.shuffle(order)
    for r in range(rounds):
        playing = [p for p in order if p not in sitouts[r]]
        if circle:
            pairs = _circle_partners(playing, r)
        else:
            pairs = _match_partners(playing, partnered, rng)
        tables = _group_tables(pairs, met, rng)
        for s, t in tables:
            for side in (s, t):
                k = _pair_key(*side)
                partnered[k] = partnered.get(k, 0) + 1
            for a in s:
                for b in t:
                    k = _pair_key(a, b)
                    met[k] = met.get(k, 0) + 1
        out.append((tables, list(sitouts[r])))
    return out


# ---- printing ----

def seats_of(side_a, side_b):
    """Players by seat for a table: partners sit across, so seats alternate sides
    (N, E, S, W for four; six seats round the table for six)."""
    out = []
    for i in range(len(side_a)):
        out.append(side_a[i])
        out.append(side_b[i])
    return out


SEAT_LABELS = {4: ("N", "E", "S", "W"), 6: ("1", "2", "3", "4", "5", "6")}


def text(title, rounds):
    """Printable text of a schedule: rounds as (number, [(table, side_a, side_b, seats)],
    [resting]), sides and resting as display names (seats: names by seat or None)."""
    lines = [title, "=" * len(title), ""]
    for number, tables, resting in rounds:
        lines.append("Round %d" % number)
        for row in tables:
            table, a, b, seats = row[:4]
            line = "  Table %-2d  %s  v  %s" % (table, a, b)
            if seats:
                labels = SEAT_LABELS.get(len(seats), [str(i + 1) for i in range(len(seats))])
                line += "    (%s)" % ", ".join("%s %s" % (labels[i], s)
                                               for i, s in enumerate(seats))
            if len(row) > 4:
                line += "    %s" % row[4]
            lines.append(line)
        if resting:
            lines.append("  Sitting out: %s" % ", ".join(resting))
        lines.append("")
    return "\n".join(lines)


_CSS = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;"
        "margin-bottom:1.5em}td,th{border:1px solid #999;padding:.3em .7em;text-align:left}"
        "th{background:#eee}@media print{body{margin:0}}")


def html_page(title, body):
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head><body>\n<h1>%s</h1>\n%s\n</body></html>\n"
            % (html.escape(title), _CSS, html.escape(title), body))


def html_rounds(rounds):
    """The rounds of text() as HTML tables (no page around them)."""
    parts = []
    for number, tables, resting in rounds:
        rows = []
        for row in tables:
            table, a, b, seats = row[:4]
            rows.append("<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
                table, html.escape(a), html.escape(b),
                html.escape(", ".join(seats)) if seats else "",
                html.escape(row[4]) if len(row) > 4 else ""))
        parts.append("<h2>Round %d</h2>\n<table><tr><th>Table</th><th>Side A</th>"
                     "<th>Side B</th><th>Seats</th><th>Result</th></tr>\n%s</table>"
                     % (number, "\n".join(rows)))
        if resting:
            parts.append("<p>Sitting out: %s</p>" % html.escape(", ".join(resting)))
    return "\n".join(parts)
