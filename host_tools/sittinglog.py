"""The sitting log (JSON Lines, spec/event-log.md): parse it, check and score it with the
same engine_core that runs on the device, and build the replay report."""
import json

from engine_core import codes as C
from engine_core import options as O
from engine_core import sitting as S
from engine_core import variants as V
from engine_core.games import new_sitting
from engine_core.messages import contract_name
from host_tools import ginlog
from engine_core.codes import (BIDDING, GAME_SCORE, GAME_WINNER, LAST_AWARD, LAST_BID,
                               LAST_BIDDER, LAST_CONTRACT, LAST_DEALER, LAST_MADE,
                               LAST_POINTS, LAST_THROWN, LAST_VALUE, OVER, TRUMP)

SEAT_NAMES = {2: ("N", "S"), 3: ("N", "E", "W"), 4: ("N", "E", "S", "W"), 6: ("1", "2", "3", "4", "5", "6")}
PHASES = ("bidding", "trump", "play", "over")
HEADER_FIELDS = ("type", "variant", "options", "players", "dealer", "id", "started")
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


class LogError(Exception):
    """A log line breaks a rule or is malformed: `line` is 1-based (0: the whole file)."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line
        self.message = message


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _show(v):
    return json.dumps(v, ensure_ascii=False)


# What tally42 keeps of a sitting beyond the spec's header: its end time and its place
# in an event. The spec refuses unknown header fields, so they travel on a comment line
# right after the header, `#tally42 {"ended": ..., "event": ..., "round": 2, "table": 3}`,
# which any reader of the spec ignores and tally42 reads back.
META_PREFIX = "#tally42 "
META_FIELDS = ("ended", "event", "round", "table")
MAX_ROUND = 255         # what a scorer's header holds (one byte each)
MAX_TABLE = 255
MAX_EVENT = 32          # characters of an event's name


class Meta(dict):
    """The `#tally42` comment line among log lines (dump_log writes it as one)."""


class Header:
    def __init__(self, rules, dealer, players, extra):
        self.rules = rules
        self.dealer = dealer
        self.players = players
        self.extra = extra      # id, started: carried through untouched; META_FIELDS

    def meta(self):
        """The META_FIELDS this sitting has, as the `#tally42` line's object (None: none)."""
        out = Meta((k, self.extra[k]) for k in META_FIELDS if self.extra.get(k) is not None)
        return out or None

    def to_json(self):
        out = {"type": "sitting", "variant": self.rules.name}
        if self.extra.get("id") is not None:
            out["id"] = self.extra["id"]
        if self.extra.get("started") is not None:
            out["started"] = self.extra["started"]
        out["options"] = self.rules.to_dict()
        if self.players is not None:
            out["players"] = list(self.players)
        out["dealer"] = self.dealer
        return out


def parse_header(obj):
    """The sitting header of a log line already read as a dict; LogError(0, ...) if bad."""
    if obj.get("type") != "sitting":
        raise LogError(0, "the first line must be the sitting header ({\"type\": \"sitting\", ...})")
    for key in obj:
        if key not in HEADER_FIELDS:
            raise LogError(0, "unknown header field %s" % _show(key))
    if "variant" not in obj:
        raise LogError(0, "the header needs a variant")
    try:
        rules = O.resolve(obj["variant"], obj.get("options"))
    except O.OptionError as e:
        raise LogError(0, str(e))
    seats = rules.row[V.SEATS]
    players = obj.get("players")
    if players is not None:
        if (not isinstance(players, list) or len(players) != seats
                or not all(isinstance(p, str) for p in players)):
            raise LogError(0, "players must be a list of %d names for %s" % (seats, rules.name))
        for p in players:
            problem = name_problem(p)
            if problem:
                raise LogError(0, "players: %s" % problem)
    dealer = obj.get("dealer", 0)
    if not _is_int(dealer) or not 0 <= dealer < seats:
        raise LogError(0, "dealer must be a seat from 0 to %d" % (seats - 1))
    for key in ("id", "started"):
        if key in obj and not isinstance(obj[key], str):
            raise LogError(0, "%s must be a string" % key)
        if key in obj and (len(obj[key]) > 100 or printable(obj[key]) != obj[key]
                           or not obj[key].strip()):
            raise LogError(0, "%s must be a line of text of 1 to 100 characters" % key)
    extra = {k: obj[k] for k in ("id", "started") if k in obj}
    return Header(rules, dealer, players, extra)


def parse_meta(text):
    """The fields of a `#tally42 {...}` line's JSON text; LogError(0, ...) if bad."""
    try:
        obj = _loads(text)
    except _Duplicate as e:
        raise LogError(0, "#tally42 field %s given twice" % _show(e.args[0]))
    except (ValueError, RecursionError):
        raise LogError(0, "a #tally42 line holds a JSON object after the word")
    if not isinstance(obj, dict) or _lone_surrogate(obj):
        raise LogError(0, "a #tally42 line holds a JSON object after the word")
    for key in obj:
        if key not in META_FIELDS:
            raise LogError(0, "unknown #tally42 field %s (the fields: %s)"
                           % (_show(key), ", ".join(META_FIELDS)))
    problem = meta_problem(obj)
    if problem:
        raise LogError(0, problem)
    return dict(obj)


def meta_problem(obj):
    """Why META_FIELDS values cannot be taken (None when they can)."""
    ended = obj.get("ended")
    if ended is not None and (not isinstance(ended, str) or not ended.strip()
                              or len(ended) > 100 or printable(ended) != ended):
        return "ended must be a line of text of 1 to 100 characters"
    event = obj.get("event")
    if event is not None:
        if not isinstance(event, str):
            return "event must be a name"
        problem = name_problem(event)
        if problem:
            return "event: %s" % problem
    for key, top in (("round", MAX_ROUND), ("table", MAX_TABLE)):
        v = obj.get(key)
        if v is not None and (not _is_int(v) or not 1 <= v <= top):
            return "%s must be a whole number from 1 to %d" % (key, top)
    return None


def bid_code(rules, value):
    """The engine's bid code for a log bid value; LogError(0, ...) if it is not a bid."""
    if isinstance(value, str):
        if value in NAMED_BIDS:
            return NAMED_BIDS[value]
        raise LogError(0, "unknown bid %s" % _show(value))
    if not _is_int(value):
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
        raise LogError(0, "unknown event type %s" % _show(kind))
    for key in obj:
        if key not in EVENT_FIELDS[kind]:
            raise LogError(0, "unknown field %s in %s %s event" % (
                _show(key), "an" if kind[0] in "aeiou" else "a", kind))
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
        if not _is_int(winner) or not 0 <= winner < rules.row[V.SEATS]:
            raise LogError(0, "winner must be a seat from 0 to %d" % (rules.row[V.SEATS] - 1))
        if not _is_int(count):
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
    if _is_int(t):
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
            raise LogError(0, "nello doubles must be high, low or suit, not %s" % _show(mode))
        return C.NELLO_HIGH + NELLO_MODES.index(mode)
    raise LogError(0, "unknown trump %s (suits are pip numbers 0 to 6)" % _show(t))


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
                or not all(_is_int(t) and 0 <= t <= 15 for t in tricks)):
            raise LogError(0, "tricks must list each of the %d seats' tricks" % seats)
        packed = 0
        for i, t in enumerate(tricks):
            packed |= t << (4 * i)
        return C.event(C.EV_TRICKS, packed), made
    if points is not None:
        if not _is_int(points):
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


MAX_LINE = 4096        # bytes of one log line, comments included


class _Duplicate(ValueError):
    pass


def _no_duplicates(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _loads(text):
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except TypeError:   # MicroPython's json (tests/mp_replay.py) takes no hook
        return json.loads(text)


def _lone_surrogate(obj):
    # JSON's \ud800 escapes make strings that are not Unicode text.
    if isinstance(obj, str):
        return any("\ud800" <= c <= "\udfff" for c in obj)
    if isinstance(obj, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in obj.items())
    if isinstance(obj, list):
        return any(_lone_surrogate(v) for v in obj)
    return False


def read_lines(data, meta=None):
    """(line number, dict) for every JSON line of a log's bytes; LogError on a bad line
    (not UTF-8, not a JSON object, a key given twice, longer than MAX_LINE bytes).
    meta: a list that gets (line number, JSON text) of each `#tally42` line."""
    out = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        if len(raw) > MAX_LINE:
            raise LogError(n, "line of %d bytes: a log line has at most %d" % (len(raw),
                                                                              MAX_LINE))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError(n, "not UTF-8 text")
        text = text.strip()
        if n == 1 and text.startswith("\ufeff"):
            text = text[1:].strip()
        if meta is not None and text.startswith(META_PREFIX):
            meta.append((n, text[len(META_PREFIX):]))
        if not text or text.startswith("#"):
            continue
        try:
            obj = _loads(text)
        except _Duplicate as e:
            raise LogError(n, "field %s given twice" % _show(e.args[0]))
        except ValueError as e:
            raise LogError(n, "not JSON (%s)" % e)
        except RecursionError:
            raise LogError(n, "not a sitting log line (nested too deep)")
        if not isinstance(obj, dict):
            raise LogError(n, "not a JSON object")
        if _lone_surrogate(obj):
            raise LogError(n, "a string with a lone surrogate escape (not Unicode text)")
        out.append((n, obj))
    return out


MAX_NAME = 32           # characters of a player's name


def _control(c):
    # C0 and C1 controls, DEL, the line separators, and lone surrogates.
    o = ord(c)
    return o < 32 or 127 <= o < 160 or o in (0x2028, 0x2029) or 0xD800 <= o <= 0xDFFF


def json_line(obj):
    """One line of JSON for a terminal or a pipe: UTF-8 text as it is, but every control
    character (and lone surrogate) as a \\u escape, which JSON readers take back."""
    text = json.dumps(obj, ensure_ascii=False)
    if any(_control(c) for c in text):
        text = "".join("\\u%04x" % ord(c) if _control(c) else c for c in text)
    return text + "\n"


def name_problem(name):
    """Why a player or team name cannot be taken (None when it can): empty, too long,
    or with control characters (they would act on a terminal when printed)."""
    if not name.strip():
        return "an empty name"
    if len(name) > MAX_NAME:
        return "name %s is longer than %d characters" % (_show(name), MAX_NAME)
    if any(_control(c) for c in name):
        return "name %s has a control character" % printable(name)
    return None


def printable(text):
    """Text safe to print on a terminal: control characters as escapes (\\x1b)."""
    if not any(_control(c) for c in text):
        return text
    return "".join(("\\x%02x" % ord(c) if ord(c) < 256 else "\\u%04x" % ord(c))
                   if _control(c) else c for c in text)


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
        except LogError as e:
            if not spec:
                raise LogError(n, e.message)
    return replay_events(header, lines[1:])


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
                if not _is_int(seat):
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


def effective(events):
    """The events that stand once every undo has taken back its event."""
    stack = []
    for item in events:
        if item[1] >> 24 == C.EV_UNDO:
            stack.pop()
        else:
            stack.append(item)
    return stack


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
    """The replay report of spec/event-log.md as a dict."""
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
    out = {"variant": header.rules.name, "options": header.rules.to_dict()}
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


def seat_names(header):
    if header.players:
        return list(header.players)
    return list(SEAT_NAMES[header.rules.row[V.SEATS]])


def side_names(header):
    rules = header.rules
    if not rules.row[V.TEAMS]:
        return seat_names(header)
    names = seat_names(header)
    seats = rules.row[V.SEATS]
    if header.players:
        return ["/".join(names[i] for i in range(seats) if i % 2 == t) for t in range(2)]
    return ["Us", "Them"]


def scoresheet(rp):
    """A readable scoresheet: one block a deal, with the running score."""
    header = rp.header
    rules = header.rules
    names = [printable(n) for n in seat_names(header)]
    if rules.family:
        return ginlog.scoresheet(header, rp.events, names)
    sides = [printable(n) for n in side_names(header)]
    unit = ("marks", "points", "points")[rules.scoring]
    lines = []
    title = "%s, %s to %d" % (rules.name, unit, rules.target)
    if header.extra.get("id"):
        title = "%s  (%s)" % (title, printable(header.extra["id"]))
    lines.append(title)
    lines += meta_lines(header)
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


def meta_lines(header):
    """The scoresheet's lines of when and where a sitting was played."""
    out = []
    x = header.extra
    if x.get("event"):
        where = [printable(x["event"])]
        for key in ("round", "table"):
            if x.get(key) is not None:
                where.append("%s %d" % (key, x[key]))
        out.append("Event: %s" % ", ".join(where))
    if x.get("started"):
        out.append("Started: %s" % printable(x["started"]))
    if x.get("ended"):
        out.append("Ended: %s" % printable(x["ended"]))
    return out


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


def dump_log(lines):
    """JSON Lines text of log lines."""
    return "".join((META_PREFIX if isinstance(line, Meta) else "")
                   + json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


# The scorer's clock counts seconds from here (engine_core.header's stamp).
DEVICE_EPOCH = 1704067200       # 2024-01-01T00:00:00Z


def device_time(seconds, offset_minutes):
    """ISO 8601 local time (with its UTC offset) of a time on the scorer's clock."""
    import datetime
    zone = datetime.timezone(datetime.timedelta(minutes=offset_minutes))
    return datetime.datetime.fromtimestamp(DEVICE_EPOCH + seconds, zone).isoformat()


END_ITEM = 5    # a journal stream item of 5 bytes is an END record, not an event


def end_item(item):
    """(seconds since 2024, UTC offset minutes) of an END item's 5 bytes."""
    q = item[4]
    return (item[0] | item[1] << 8 | item[2] << 16 | item[3] << 24,
            (q - 256 if q > 127 else q) * 15)


def device_sitting_id(device_id, number, header_bytes):
    """A synced sitting's id: the scorer's id and the sitting's random id (hex) from its
    header; headers of version 1 have none, and take the journal's number instead."""
    from engine_core.header import header_stamp
    stamp = header_stamp(header_bytes)
    if stamp and stamp[0]:
        return "%s-%08X" % (device_id, stamp[0])
    return "%s-%d" % (device_id, number)


def from_device(header_bytes, event_bytes, extra=None, ended=None):
    """A sitting as the device stores it (codec header + event bytes) as log lines, its
    start time in the header when the scorer's clock was set, its end time from the
    journal's END record (ended: (seconds since 2024, UTC offset minutes), or None).
    ValueError when the bytes are not a sitting."""
    from engine_core import codec
    from engine_core.header import decode_header, header_assignment, header_stamp
    rules, dealer, names = decode_header(header_bytes)
    try:
        # The device trusts its flash; here a damaged header must not pass for rules.
        checked = O.resolve(rules.name, rules.to_dict())
    except (IndexError, O.OptionError):
        checked = None
    if checked is None or checked.to_dict() != rules.to_dict():
        raise ValueError("the sitting header holds options that are no game's")
    if not 0 <= dealer < rules.row[V.SEATS]:
        raise ValueError("the sitting header's dealer is no seat")
    extra = dict(extra or {})
    stamp = header_stamp(header_bytes)
    if stamp and stamp[1] and "started" not in extra:
        extra["started"] = device_time(stamp[1], stamp[2])
    if ended and ended[0] and "ended" not in extra:
        extra["ended"] = device_time(ended[0], ended[1])
    assign = header_assignment(header_bytes)      # the PC's table assignment
    if assign:
        extra.setdefault("event", assign[0])
        extra.setdefault("round", assign[1])
        extra.setdefault("table", assign[2])
    header = Header(rules, dealer, names, extra)
    if rules.family:
        from engine_core.gin import codec
    events = []
    pos = 0
    while pos < len(event_bytes):
        n = codec.length_at(event_bytes, pos)
        if n == 0 or pos + n > len(event_bytes):
            raise ValueError("byte %d is not an event" % pos)
        events.append(codec.decode_at(event_bytes, pos))
        pos += n
    return log_lines(header, events)
