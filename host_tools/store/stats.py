"""Player statistics over the stored sittings: sittings won, score for and against, bids
made and set by level and by contract, special contracts called, sets on defence."""
import json

from engine_core.texas42 import variants as V
from host_tools.log.text import printable
from host_tools.store import ginstats

UNITS = {"marks": "marks", "points": "points", "tricks": "moon", "gin": "gin"}  # unit shown
SPECIALS = ("nello", "sevens", "plunge", "splash")
SUIT_NAMES = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes",
              "sevens (suit)", "eights")
CONTRACT_ORDER = SUIT_NAMES + ("doubles", "follow-me") + SPECIALS


class Player:
    """One player's figures (a player is a name; seats without a name are not counted)."""

    def __init__(self, name):
        self.name = name
        self.sittings = 0
        self.finished = 0
        self.won = 0
        self.score = {}         # unit -> [for, against]
        self.levels = {}        # (variant, level) -> [made, set], the player's winning bids
        self.contracts = {}     # contract label -> [made, set]
        self.specials = {}      # nello/sevens/plunge/splash -> times called
        self.defence_sets = 0   # hands the player's side set the bidders
        self.gin = None         # ginstats.GinFigures once the player has a gin sitting
        self.dates = []         # the days of the sittings that carry a start time
        self.seconds = 0        # time at the table: the sittings with a start and an end
        self.timed = 0          # how many sittings that is
        self.events = {}        # event name -> [(round, table)]

    @property
    def bids(self):
        return sum(m + s for m, s in self.levels.values())

    @property
    def made(self):
        return sum(m for m, _ in self.levels.values())

    @property
    def set(self):
        return sum(s for _, s in self.levels.values())


def bid_level(variant, bid, bid_name):
    """The bid level a winning bid counts under: (sort key, label). 42: 30-34, 35-41, 42,
    84, 126+ (and game); other games by their count and mark; Moon by tricks."""
    if bid_name == "game":
        return (10 ** 6, "game")
    row = V.TABLE[V.index(variant)]
    mark = row[V.MARK]
    if mark and bid >= mark:
        k = bid // mark
        if k >= 3:
            return (3 * mark, "%d+" % (3 * mark))
        return (k * mark, str(k * mark))
    count = row[V.COUNT]
    if not count:
        return (bid, str(bid))          # Moon: each number of tricks its own level
    low = row[V.MIN_BID]
    if bid < low:
        return (0, "<%d" % low)
    if bid < count:
        return (low, "%d-%d" % (low, count - 1))
    return (count, "%d-%d" % (count, row[V.TOP_NUMBER]))


def contract_label(contract):
    if contract.isdigit():
        return SUIT_NAMES[int(contract)]
    return contract


# The sittings stats and standings count: a damaged (partial) one only once accepted.
COUNTED = "WHERE damaged = 0 OR accepted = 1"


def collect(database):
    """{name: Player} over every stored sitting, and how many sittings name no players."""
    conn = database.conn
    seats = {}
    for sid, seat, name, team in conn.execute("SELECT sitting_id, seat, name, team FROM seats"):
        seats.setdefault(sid, {})[seat] = (name, team)
    players = {}
    unnamed = 0
    info = {}
    for (sid, variant, options, over, winner, started, ended, event, rnd, tbl, started_utc,
         ended_utc) in conn.execute(
            "SELECT id, variant, options, over, winner, started, ended, event, round, "
            "table_no, started_utc, ended_utc FROM sittings " + COUNTED):
        if ginstats.is_gin(variant):
            scoring = "gin"
        else:
            scoring = json.loads(options).get("scoring") or (
                "tricks" if V.TABLE[V.index(variant)][V.SCORING] == V.TRICKS else "marks")
        info[sid] = (variant, UNITS[scoring])
        named = [(n, t) for n, t in seats.get(sid, {}).values() if n is not None]
        if not named:
            unnamed += 1
        for name, team in named:
            p = players.setdefault(name, Player(name))
            p.sittings += 1
            if started_utc:     # a time (its day as it was given); not a stray "yesterday"
                p.dates.append(started[:10])
            took = _duration(started_utc, ended_utc)
            if took is not None:
                p.seconds += took
                p.timed += 1
            if event:
                p.events.setdefault(event, []).append((rnd, tbl))
            p.score.setdefault(UNITS[scoring], [0, 0])
            if over:
                p.finished += 1
                if winner == team:
                    p.won += 1
    for row in conn.execute("SELECT sitting_id, bidder, bid, bid_name, contract, made, award "
                            "FROM hands WHERE thrown_in = 0"):
        sid, bidder, bid, bid_name, contract, made, award = row
        if sid not in info:
            continue        # a damaged sitting not accepted
        variant, unit = info[sid]
        if unit == "gin":
            # The gin pads keep no bids: their score here, their figures from the logs.
            _gin_score(players, seats.get(sid, {}), unit, json.loads(award))
            continue
        award = json.loads(award)
        by_seat = seats.get(sid, {})
        bidding_side = by_seat[bidder][1]
        for seat, (name, team) in by_seat.items():
            if name is None:
                continue
            p = players[name]
            mine = award[team]
            p.score[unit][0] += mine
            p.score[unit][1] += sum(award) - mine
            if seat == bidder:
                _tally(p.levels, (variant, bid_level(variant, bid, bid_name)), made)
                _tally(p.contracts, contract_label(contract), made)
                special = bid_name if bid_name in ("plunge", "splash") else contract
                if special in SPECIALS:
                    p.specials[special] = p.specials.get(special, 0) + 1
            elif team != bidding_side and not made:
                p.defence_sets += 1
    ginstats.collect_into(conn, players, Player)
    return players, unnamed


def _duration(started, ended):
    # Seconds from start to end of a sitting (None unless both are times, in order).
    import datetime
    try:
        a = datetime.datetime.fromisoformat(started)
        b = datetime.datetime.fromisoformat(ended)
        took = (b - a).total_seconds()
    except (TypeError, ValueError):
        return None
    return took if 0 <= took < 7 * 86400 else None


def _gin_score(players, by_seat, unit, award):
    for seat, (name, team) in by_seat.items():
        if name is not None:
            p = players[name]
            p.score[unit][0] += award[seat]
            p.score[unit][1] += sum(award) - award[seat]


def _tally(table, key, made):
    counts = table.setdefault(key, [0, 0])
    counts[0 if made else 1] += 1


# ---- output ----

def table(headers, rows):
    """Aligned columns: numbers to the right, words to the left, two spaces between."""
    cells = [[str(c) for c in headers]] + [[_cell(c) for c in r] for r in rows]
    numeric = [all(isinstance(r[i], (int, float)) or r[i] == "" for r in rows)
               for i in range(len(headers))]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    out = []
    for r in cells:
        out.append("  ".join(c.rjust(w) if num else c.ljust(w)
                             for c, w, num in zip(r, widths, numeric)).rstrip())
    out.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(out) + "\n"


def _cell(c):
    return "" if c is None else printable(str(c))


def _units(players):
    return [u for u in ("marks", "points", "moon", "gin") if any(u in p.score for p in players)]


def summary(players, unnamed=0):
    """The table of all players, most sittings won first."""
    if not players:
        text = "No named players in the database yet.\n"
    else:
        units = _units(players.values())
        headers = ["player", "sittings", "won"]
        for u in units:
            headers += ["%s for" % u, "against"]
        headers += ["bids", "made", "set", "specials", "def. sets"]
        rows = []
        for p in sorted(players.values(), key=lambda p: (-p.won, -p.sittings, p.name)):
            r = [p.name, p.sittings, p.won]
            for u in units:
                r += p.score.get(u, ["", ""])
            r += [p.bids, p.made, p.set, sum(p.specials.values()), p.defence_sets]
            rows.append(r)
        text = table(headers, rows)
    gin = [p for p in players.values() if p.gin is not None]
    if gin:
        text += "\nGin pads:\n" + table(ginstats.HEADERS, ginstats.rows(gin))
    if unnamed:
        text += "(%d sitting%s without player names not counted)\n" % (
            unnamed, "" if unnamed == 1 else "s")
    return text


def player_report(p):
    """Everything about one player."""
    out = ["%s: %d sitting%s played (%d finished), %d won" % (
        printable(p.name), p.sittings, "" if p.sittings == 1 else "s", p.finished, p.won)]
    if p.dates:
        first, last = min(p.dates), max(p.dates)
        out.append("Played on %s" % first if first == last else
                   "Played from %s to %s" % (first, last))
    if p.timed:
        minutes = int(p.seconds // 60)
        out.append("Time at the table: %d h %02d min (%d sitting%s with a start and an end)"
                   % (minutes // 60, minutes % 60, p.timed, "" if p.timed == 1 else "s"))
    for event in sorted(p.events):
        places = ", ".join(
            " ".join(x for x in ("round %d" % r if r else "", "table %d" % t if t else "")
                     if x) or "-" for r, t in sorted(p.events[event], key=_place))
        out.append("Event %s: %s" % (printable(event), places))
    out.append("")
    out.append(table(["score", "for", "against"],
                     [[u] + p.score[u] for u in _units([p])]))
    levels = sorted(p.levels.items(), key=lambda kv: (V.index(kv[0][0]), kv[0][1][0]))
    out.append("Bids won, made and set, by bid level:")
    if levels:
        out.append(table(["variant", "level", "bids", "made", "set"],
                         [[v, lvl[1], m + s, m, s] for (v, lvl), (m, s) in levels]))
    else:
        out.append("  none\n")
    contracts = sorted(p.contracts.items(), key=lambda kv: CONTRACT_ORDER.index(kv[0]))
    out.append("By contract:")
    if contracts:
        out.append(table(["contract", "bids", "made", "set"],
                         [[c, m + s, m, s] for c, (m, s) in contracts]))
    else:
        out.append("  none\n")
    called = ", ".join("%s %d" % (k, p.specials[k]) for k in SPECIALS if k in p.specials)
    out.append("Special contracts called: %d%s" % (
        sum(p.specials.values()), " (%s)" % called if called else ""))
    out.append("Sets delivered on defence: %d" % p.defence_sets)
    if p.gin is not None:
        out.append("")
        out.append("Gin pads:")
        out.append(table(ginstats.HEADERS[1:], [r[1:] for r in ginstats.rows([p])]))
    return "\n".join(out) + "\n"


def _place(rt):
    return (rt[0] or 0, rt[1] or 0)


def find_player(players, name):
    """The player a --player NAME means: the exact name, else the only one matching it
    without regard to case; None if no player has that name."""
    if name in players:
        return players[name]
    found = [p for n, p in players.items() if n.casefold() == name.casefold()]
    return found[0] if len(found) == 1 else None
