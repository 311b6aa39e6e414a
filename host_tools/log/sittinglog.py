"""The sitting log of the 42 family (docs/event-log.md): its event lines to engine events
and back, the replay that checks and scores a log with the same engine_core that runs on
the device, the replay report and the scoresheet. Gin sittings go to ginlog."""
from engine_core import codes as C
from engine_core.texas42 import options as O
from engine_core.texas42 import sitting as S
from engine_core.texas42 import variants as V
from engine_core.games import new_sitting
from engine_core.texas42.messages import contract_name
from engine_core.codes import BIDDING, OVER, TRUMP
from engine_core.texas42.slots import (GAME_SCORE, GAME_WINNER, LAST_AWARD, LAST_BID,
                                       LAST_BIDDER, LAST_CONTRACT, LAST_DEALER, LAST_MADE,
                                       LAST_POINTS, LAST_THROWN, LAST_VALUE)
from host_tools.log import ginlog
from host_tools.log.times import instant
from host_tools.log.lines import (LogError, effective, meta_lines, parse_header, parse_meta,
                                  read_lines, seat_names, side_names)
from host_tools.log.text import is_int, printable, show

PHASES = ("bidding", "trump", "play", "over")
EVENT_FIELDS = {
    "bid": ("type", "bid", "seat"),
    "trump": ("type", "trump", "doubles"),
    "trick": ("type", "winner", "count"),
    "result": ("type", "made", "points", "tricks"),
    "undo": ("type",),
}
NAMED_BIDS = {"pass": C.PASS, "game": C.GAME, "plunge": C.PLUNGE, "splash": C.SPLASH}
NAMED_CONTRACTS = {"doubles": C.DOUBLES, "follow-me": C.FOLLOW_ME, "sevens": C.SEVENS}
NELLO_MODES = ("high", "low", "suit")


def bid_code(rules, value):
    """The engine's bid code for a log bid value; LogError(0, ...) if it is not a bid."""
    if isinstance(value, str):
        if value in NAMED_BIDS:
            return NAMED_BIDS[value]
        raise LogError(0, "unknown bid %s" % show(value))
    if not is_int(value):
        raise LogError(0, "bid must be \"pass\", a whole number, \"game\", \"plunge\" or \"splash\"")
    mark = rules.row[V.MARK]
    if 0 < value <= C.MAX_NUMBER and (not mark or value <= mark):
        return value
    if mark and value > mark and value % mark == 0 and value // mark <= C.MAX_MARKS:
        return C.MARKS + value // mark
    raise LogError(0, "bid %d is not a bid in %s" % (value, rules.name))


def to_event(rules, obj):
    """The engine event for a log event line (a dict); LogError(0, ...) if malformed."""
    if rules.family:
        try:
            return ginlog.to_event(rules, obj)
        except ginlog.GinLogError as e:
            raise LogError(0, str(e))
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        if kind == "sitting":
            raise LogError(0, "a second sitting header (one sitting a log)")
        raise LogError(0, "unknown event type %s" % show(kind))
    for key in obj:
        if key not in EVENT_FIELDS[kind]:
            raise LogError(0, "unknown field %s in %s %s event" % (
                show(key), "an" if kind[0] in "aeiou" else "a", kind))
    if kind == "bid":
        if "bid" not in obj:
            raise LogError(0, "a bid event needs bid")
        return C.event(C.EV_BID, bid_code(rules, obj["bid"]))
    if kind == "trump":
        c = _contract(obj)
        return C.event(C.EV_TRUMP, nello_default(rules) if c < 0 else c)
    if kind == "trick":
        if "winner" not in obj:
            raise LogError(0, "a trick event needs winner")
        winner = obj["winner"]
        count = obj.get("count", 0)
        if not is_int(winner) or not 0 <= winner < rules.row[V.SEATS]:
            raise LogError(0, "winner must be a seat from 0 to %d" % (rules.row[V.SEATS] - 1))
        if not is_int(count):
            raise LogError(0, "count must be a whole number of points")
        if count < 0 or count > 255:
            raise LogError(0, "count %d is not a trick's count (a multiple of 5, from 0 to "
                              "the hand's count)" % count)
        return C.event(C.EV_TRICK, winner << 8 | count)
    if kind == "result":
        return _result(rules, obj)
    return C.event(C.EV_UNDO)


def _contract(obj):
    if "trump" not in obj:
        raise LogError(0, "a trump event needs trump")
    t = obj["trump"]
    if "doubles" in obj and t != "nello":
        raise LogError(0, "doubles goes only with nello")
    if is_int(t):
        if not 0 <= t <= 8:
            raise LogError(0, "trump %d is not a suit (0 to 8)" % t)
        return t
    if isinstance(t, str) and t in NAMED_CONTRACTS:
        return NAMED_CONTRACTS[t]
    if t == "nello":
        mode = obj.get("doubles")
        if mode is None:
            return -1     # resolved against the options by the caller
        if mode not in NELLO_MODES:
            raise LogError(0, "nello doubles must be high, low or suit, not %s" % show(mode))
        return C.NELLO_HIGH + NELLO_MODES.index(mode)
    raise LogError(0, "unknown trump %s (suits are pip numbers 0 to 6)" % show(t))


def _result(rules, obj):
    made = obj.get("made")
    points = obj.get("points")
    tricks = obj.get("tricks")
    if made is not None and not isinstance(made, bool):
        raise LogError(0, "made must be true or false")
    if points is not None and tricks is not None:
        raise LogError(0, "a result gives points or tricks, not both")
    if tricks is not None:
        seats = rules.row[V.SEATS]
        if (not isinstance(tricks, list) or len(tricks) != seats
                or not all(is_int(t) and 0 <= t <= 15 for t in tricks)):
            raise LogError(0, "tricks must list each of the %d seats' tricks" % seats)
        packed = 0
        for i, t in enumerate(tricks):
            packed |= t << (4 * i)
        return C.event(C.EV_TRICKS, packed), made
    if points is not None:
        if not is_int(points):
            raise LogError(0, "points must be a whole number")
        if points < 0 or points > rules.row[V.TOTAL]:
            raise LogError(0, "points %d are outside 0..%d" % (points, rules.row[V.TOTAL]))
        claim = 0 if made is None else (2 if made else 1)
        return C.event(C.EV_POINTS, claim << 8 | points), None
    if made is None:
        raise LogError(0, "a result needs made, points or tricks")
    return C.event(C.EV_MADE, 1 if made else 0), None


def event_json(rules, ev):
    """The log line (a dict) for an engine event."""
    if rules.family:
        return ginlog.event_json(rules, ev)
    kind = ev >> 24
    arg = ev & 0xFFFFFF
    if kind == C.EV_BID:
        if arg == C.PASS:
            bid = "pass"
        elif arg >= C.GAME:
            bid = ("game", "plunge", "splash")[arg - C.GAME]
        elif arg >= C.MARKS:
            bid = (arg - C.MARKS) * rules.row[V.MARK]
        else:
            bid = arg
        return {"type": "bid", "bid": bid}
    if kind == C.EV_TRUMP:
        if C.NELLO_HIGH <= arg <= C.NELLO_SUIT:
            return {"type": "trump", "trump": "nello", "doubles": NELLO_MODES[arg - C.NELLO_HIGH]}
        return {"type": "trump", "trump": contract_json(arg)}
    if kind == C.EV_TRICK:
        out = {"type": "trick", "winner": arg >> 8}
        if arg & 0xFF:
            out["count"] = arg & 0xFF
        return out
    if kind == C.EV_MADE:
        return {"type": "result", "made": arg == 1}
    if kind == C.EV_POINTS:
        out = {"type": "result", "points": arg & 0xFF}
        if arg >> 8:
            out["made"] = arg >> 8 == 2
        return out
    if kind == C.EV_TRICKS:
        seats = rules.row[V.SEATS]
        return {"type": "result", "tricks": [arg >> (4 * i) & 15 for i in range(seats)]}
    return {"type": "undo"}


def nello_default(rules):
    """Nello without doubles: high if allowed, else the first allowed mode."""
    return C.NELLO_HIGH + rules.nello_default()


class Replay:
    """A log checked and scored: the header, the sitting, and each line's accepted event."""

    def __init__(self, header, sitting, events):
        self.header = header
        self.sitting = sitting
        self.events = events        # [(line, event)] in log order, undo included

    @property
    def rules(self):
        return self.header.rules


def replay(data, spec=False):
    """Check and score a log's bytes; LogError names the first offending line. spec:
    as the spec reads a log (`tally42 replay`): a `#tally42` line that tally42 cannot
    take is a comment like any other, not an error."""
    meta = []
    lines = read_lines(data, meta)
    if not lines:
        raise LogError(1, "the log is empty: it needs a sitting header")
    first, obj = lines[0]
    try:
        header = parse_header(obj)
    except LogError as e:
        raise LogError(first, e.message)
    if len(meta) > 1 and not spec:
        raise LogError(meta[1][0], "a second #tally42 line (one a log)")
    for n, text in meta[:1]:
        try:
            header.extra.update(parse_meta(text))
            _in_order(header.extra)
        except LogError as e:
            if not spec:
                raise LogError(n, e.message)
    return replay_events(header, lines[1:])


def _in_order(extra):
    # A sitting ends after it starts (both checked as ISO 8601 times by then).
    if extra.get("started") and extra.get("ended"):
        if instant(extra["ended"]) < instant(extra["started"]):
            raise LogError(0, "ended %s is before started %s" % (
                show(extra["ended"]), show(extra["started"])))


def replay_events(header, lines):
    s = new_sitting(header.rules, header.dealer)
    events = []
    for n, obj in lines:
        try:
            ev = to_event(header.rules, obj)
            claim = None
            if isinstance(ev, tuple):
                ev, claim = ev
            if ev >> 24 == C.EV_BID and "seat" in obj:
                seat = obj["seat"]
                if not is_int(seat):
                    raise LogError(0, "seat must be a seat number")
                if s.phase() == BIDDING and seat != s.seat():
                    raise LogError(0, "bid out of turn: it is seat %d's turn, not seat %s"
                                   % (s.seat(), seat))
            err = s.apply(ev)
            if err:
                raise LogError(0, s.reason(err, ev))
            if claim is not None and s.last(LAST_MADE) != (1 if claim else 0):
                s.apply(C.event(C.EV_UNDO))
                raise LogError(0, "the tricks say the bid was %s, not %s"
                               % ("set" if claim else "made", "made" if claim else "set"))
        except LogError as e:
            raise LogError(n, e.message)
        events.append((n, ev))
    return Replay(header, s, events)


def bid_json(code, value):
    """A winning bid as the report writes it: its value, or "game"."""
    if code == C.GAME:
        return "game"
    if code == C.PASS:
        return "pass"
    return value


def contract_json(c):
    if c <= 8:
        return c
    if C.NELLO_HIGH <= c <= C.NELLO_SUIT:
        return "nello"
    return contract_name(c)


def walk(header, events):
    """Replay the standing events in a fresh sitting, yielding (kind, info) as deals finish:
    ("bid", (seat, code)) for each bid, ("hand", dict) for each deal, ("game", dict);
    ("end", sitting) last."""
    if header.rules.family:
        for kind, info, _, _ in ginlog.walk(header, events):
            yield kind, info
        return
    s = S.Sitting(header.rules, header.dealer)
    for n, ev in effective(events):
        hands = s.hands()
        games = s.games()
        seat = s.seat()
        s.apply(ev)
        if ev >> 24 == C.EV_BID:
            yield "bid", (seat, ev & 0xFFFFFF)
        if s.hands() > hands:
            yield "hand", hand_json(s)
        if s.games() > games:
            yield "game", {"score": [s.last(GAME_SCORE), s.last(GAME_SCORE + 1)],
                           "winner": s.last(GAME_WINNER)}
    yield "end", s


def hand_json(s):
    d = {"dealer": s.last(LAST_DEALER)}
    if s.last(LAST_THROWN):
        d["thrown_in"] = True
        return d
    code = s.last(LAST_BID)
    c = s.last(LAST_CONTRACT)
    d["bidder"] = s.last(LAST_BIDDER)
    d["bid"] = bid_json(code, s.last(LAST_VALUE))
    if code == C.PLUNGE or code == C.SPLASH:
        d["contract"] = "plunge" if code == C.PLUNGE else "splash"
        d["trump"] = contract_json(c)
    else:
        d["contract"] = contract_json(c)
    d["made"] = s.last(LAST_MADE) == 1
    p = s.last(LAST_POINTS)
    d["points"] = None if p < 0 else p
    d["award"] = [s.last(LAST_AWARD + i) for i in range(s.sides)]
    return d


def legal_json(s):
    out = []
    j = s.next_legal(-1)
    while j >= 0:
        code = s.legal_at(j)
        if s.phase() == BIDDING:
            out.append("pass" if code == C.PASS else (
                s.bid_name(code) if code >= C.GAME else s.bid_value(code)))
        else:
            name = contract_json(code)
            if name not in out:
                out.append(name)
        j = s.next_legal(j)
    return out


def report(rp):
    """The replay report of docs/event-log.md as a dict."""
    header = rp.header
    if header.rules.family:
        return _report_head(header, ginlog.report_body(header, rp.events))
    hands = []
    games = []
    s = None
    for kind, info in walk(header, rp.events):
        if kind == "hand":
            hands.append(info)
        elif kind == "game":
            games.append(info)
        elif kind == "end":
            s = info
    out = _report_head(header, {"hands": hands})
    out["score"] = [s.score(i) for i in range(s.sides)]
    if header.rules.variant == V.index("partnership-moon"):
        out["games"] = games
        out["match"] = [s.games_won(0), s.games_won(1)]
    out["over"] = s.over()
    out["winner"] = s.winner() if s.over() else None
    out["next"] = next_json(s)
    return out


def _report_head(header, body):
    out = {"variant": header.rules.name, "options": O.to_dict(header.rules)}
    for key in ("id", "started"):
        if key in header.extra:
            out[key] = header.extra[key]
    if header.players is not None:
        out["players"] = list(header.players)
    out.update(body)
    return out


def next_json(s):
    p = s.phase()
    if p == OVER:
        return {"phase": "over", "dealer": None, "seat": None}
    out = {"phase": PHASES[p], "dealer": s.dealer(), "seat": s.seat()}
    if p in (BIDDING, TRUMP):
        out["legal"] = legal_json(s)
    return out


def scoresheet(rp, utc=None):
    """A readable scoresheet: one block a deal, with the running score (its times as
    lines.meta_lines shows them: utc None, as given; False, local; True, UTC)."""
    header = rp.header
    rules = header.rules
    names = [printable(n) for n in seat_names(header)]
    if rules.family:
        return ginlog.scoresheet(header, rp.events, names, utc)
    sides = [printable(n) for n in side_names(header)]
    unit = ("marks", "points", "points")[rules.scoring]
    lines = []
    title = "%s, %s to %d" % (rules.name, unit, rules.target)
    if header.extra.get("id"):
        title = "%s  (%s)" % (title, printable(header.extra["id"]))
    lines.append(title)
    lines += meta_lines(header, utc)
    # Hand numbers take the width of the last one, so the lines stay aligned.
    width = len(str(sum(1 for kind, _ in walk(header, rp.events) if kind == "hand")))
    indent = " " * (width + 7)
    lines.append("Players: " + ", ".join("%s %s" % (i, n) for i, n in enumerate(names)))
    lines.append("")
    bids = []
    running = [0] * len(sides)
    number = 0
    s = None
    for kind, info in walk(header, rp.events):
        if kind == "bid":
            seat, code = info
            bids.append("%s %s" % (names[seat], _bid_text(code, rules)))
        elif kind == "hand":
            number += 1
            dealer = names[info["dealer"]]
            if info.get("thrown_in"):
                lines.append("Hand %*d  dealer %s  bids: %s  -> all passed, thrown in"
                             % (width, number, dealer, ", ".join(bids)))
            else:
                for i, a in enumerate(info["award"]):
                    running[i] += a
                contract = info["contract"]
                if "trump" in info:
                    contract = "%s, trump %s" % (contract, info["trump"])
                pts = "" if info["points"] is None else ", took %d" % info["points"]
                lines.append("Hand %*d  dealer %s  bids: %s" % (width, number, dealer,
                                                                ", ".join(bids)))
                lines.append("%s%s bid %s, contract %s: %s%s   score %s"
                             % (indent, names[info["bidder"]], info["bid"], contract,
                                "made" if info["made"] else "set", pts,
                                "  ".join("%s %d" % (n, v) for n, v in zip(sides, running))))
            bids = []
        elif kind == "game":
            lines.append("  Game to %s: %s" % (sides[info["winner"]], "-".join(
                str(x) for x in info["score"])))
            running = [0] * len(sides)
        elif kind == "end":
            s = info
    lines.append("")
    lines.append("Score: " + "  ".join("%s %d" % (n, s.score(i)) for i, n in enumerate(sides)))
    if s.over():
        lines.append("Winner: %s" % sides[s.winner()])
    else:
        lines.append("Next: %s, dealer %s, %s to act" % (
            PHASES[s.phase()], names[s.dealer()], names[s.seat()]))
    return "\n".join(lines) + "\n"


def _bid_text(code, rules):
    if code == C.PASS:
        return "pass"
    if code >= C.GAME:
        return ("game", "plunge", "splash")[code - C.GAME]
    if code >= C.MARKS:
        return str((code - C.MARKS) * rules.row[V.MARK])
    return str(code)


def log_lines(header, events):
    """A sitting as log lines (dicts): the header, its `#tally42` line (a Meta) when it
    has an end time or an event, then each event (undo included)."""
    out = [header.to_json()]
    meta = header.meta()
    if meta:
        out.append(meta)
    for ev in events:
        out.append(event_json(header.rules, ev))
    return out


