"""A sitting log's lines (docs/event-log.md): reading the JSON lines, the sitting header
and tally42's `#tally42` line after it, the events that stand once undone ones are taken
back, and writing the lines out again. Both families' logs share these."""
import json

from engine_core import codes as C
from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from host_tools.log.times import instant
from host_tools.log.text import is_int, name_problem, printable, repeated_name, show


SEAT_NAMES = {2: ("P1", "P2"), 3: ("N", "E", "W"), 4: ("N", "E", "S", "W"), 6: ("1", "2", "3", "4", "5", "6")}
HEADER_FIELDS = ("type", "variant", "options", "players", "dealer", "id", "started")


class LogError(Exception):
    """A log line breaks a rule or is malformed: `line` is 1-based (0: the whole file)."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line
        self.message = message


# What tally42 keeps of a sitting beyond the spec's header: its end time and its place
# in an event. The spec refuses unknown header fields, so they travel on a comment line
# right after the header, `#tally42 {"ended": ..., "event": ..., "round": 2, "table": 3}`,
# which any reader of the spec ignores and tally42 reads back. `"damaged": true`: the
# scorer's journal was damaged inside this sitting, and the log holds its events up to
# the damage only (a partial sitting: counted in no standings unless accepted).
# `"clock": "pc"`: its times were placed on the PC's clock at the sync (the scorer's was
# never set, or had drifted); `"lost"`: one of them was stamped before the scorer's last
# power-on, and the sync could not place it: it is left out (host_tools/serial/clock.py).
META_PREFIX = "#tally42 "
META_FIELDS = ("ended", "event", "round", "table", "damaged", "clock")
CLOCKS = ("pc", "lost")     # the `clock` field: where the sitting's times came from
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
        out["options"] = O.to_dict(self.rules)
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
            raise LogError(0, "unknown header field %s" % show(key))
    if "variant" not in obj:
        raise LogError(0, "the header needs a variant")
    if "options" in obj and not isinstance(obj["options"], dict):
        raise LogError(0, "options must be an object, not %s" % show(obj["options"]))
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
        twice = repeated_name(players)
        if twice is not None:
            raise LogError(0, "players: %s is named twice (each seat its own player)"
                           % show(twice))
    dealer = obj.get("dealer", 0)
    if not is_int(dealer) or not 0 <= dealer < seats:
        raise LogError(0, "dealer must be a seat from 0 to %d" % (seats - 1))
    for key in ("id", "started"):
        if key in obj and not isinstance(obj[key], str):
            raise LogError(0, "%s must be a string" % key)
        if key in obj and (len(obj[key]) > 100 or printable(obj[key]) != obj[key]
                           or not obj[key].strip()):
            raise LogError(0, "%s must be a line of text of 1 to 100 characters" % key)
    if "started" in obj:
        try:
            instant(obj["started"])
        except ValueError as e:
            raise LogError(0, "started %s: %s" % (show(obj["started"]), e))
    extra = {k: obj[k] for k in ("id", "started") if k in obj}
    return Header(rules, dealer, players, extra)


def parse_meta(text):
    """The fields of a `#tally42 {...}` line's JSON text; LogError(0, ...) if bad."""
    try:
        obj = _loads(text)
    except _Duplicate as e:
        raise LogError(0, "#tally42 field %s given twice" % show(e.args[0]))
    except (ValueError, RecursionError):
        raise LogError(0, "a #tally42 line holds a JSON object after the word")
    if not isinstance(obj, dict) or _lone_surrogate(obj):
        raise LogError(0, "a #tally42 line holds a JSON object after the word")
    for key in obj:
        if key not in META_FIELDS:
            raise LogError(0, "unknown #tally42 field %s (the fields: %s)"
                           % (show(key), ", ".join(META_FIELDS)))
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
    if ended is not None:
        try:
            instant(ended)
        except ValueError as e:
            return "ended %s: %s" % (show(ended), e)
    event = obj.get("event")
    if event is not None:
        if not isinstance(event, str):
            return "event must be a name"
        problem = name_problem(event)
        if problem:
            return "event: %s" % problem
    for key, top in (("round", MAX_ROUND), ("table", MAX_TABLE)):
        v = obj.get(key)
        if v is not None and (not is_int(v) or not 1 <= v <= top):
            return "%s must be a whole number from 1 to %d" % (key, top)
    if obj.get("damaged") not in (None, True):
        return "damaged must be true (or left out)"
    if obj.get("clock") not in (None,) + CLOCKS:
        return "clock must be %s (or left out)" % " or ".join('"%s"' % c for c in CLOCKS)
    return None


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
    except TypeError:   # MicroPython's json (tests/kit/probes/mp_replay.py) takes no hook
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
            raise LogError(n, "field %s given twice" % show(e.args[0]))
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


def effective(events):
    """The events that stand once every undo has taken back its event."""
    stack = []
    for item in events:
        if item[1] >> 24 == C.EV_UNDO:
            stack.pop()
        else:
            stack.append(item)
    return stack


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


def meta_lines(header, utc=None):
    """The scoresheet's lines of when and where a sitting was played; its times as the
    log gives them (utc None), or in the PC's local zone, named (False), or UTC (True)."""
    out = []
    x = header.extra
    if x.get("event"):
        where = [printable(x["event"])]
        for key in ("round", "table"):
            if x.get(key) is not None:
                where.append("%s %d" % (key, x[key]))
        out.append("Event: %s" % ", ".join(where))
    if x.get("started"):
        out.append("Started: %s" % _time(x["started"], utc))
    if x.get("ended"):
        out.append("Ended: %s" % _time(x["ended"], utc))
    if x.get("clock") == "pc":
        out.append("Times: the PC's clock at the sync (the scorer's clock was not set, "
                   "or had drifted)")
    elif x.get("clock") == "lost":
        out.append("Times: not all known (stamped before the scorer was last switched "
                   "off or lost power)")
    if x.get("damaged"):
        out.append("DAMAGED: the scorer's journal was damaged in this sitting; only its "
                   "hands before the damage are here")
    return out


def _time(text, utc):
    if utc is None:
        return printable(text)
    from host_tools.log.times import zoned
    when, zone = zoned(text, utc)
    return printable(when if zone is None else "%s %s" % (when, zone))


def dump_log(lines):
    """JSON Lines text of log lines."""
    return "".join((META_PREFIX if isinstance(line, Meta) else "")
                   + _dumps(line) + "\n" for line in lines)


def _dumps(obj):
    try:
        return json.dumps(obj, ensure_ascii=False)
    except TypeError:   # MicroPython's json (the web board's export) writes UTF-8 as is
        return json.dumps(obj)
