"""The gin pads in the sitting log (docs/event-log.md, "The gin pads"): log lines to engine
events and back, the replay report, and the gin-pad scoresheet. sittinglog hands gin
sittings here; the same engine_core code scores them on the device."""
from engine_core.gin import sitting as Gn
from engine_core.gin import rules as G
from engine_core.codes import EV_UNDO
from engine_core.gin.codec import EV_TURNUP, EV_GIN, EV_KNOCK, EV_DRAWOUT
from engine_core.gin.messages import rank_name, total_over
from host_tools.log.lines import effective, meta_lines
from host_tools.log.text import is_int, printable, show

EVENT_FIELDS = {
    "turnup": ("type", "rank", "spade"),
    "gin": ("type", "seat", "opponent", "contract", "bonus"),
    "knock": ("type", "seat", "knocker", "opponent", "bonus"),
    "drawout": ("type", "totals"),
    "undo": ("type",),
}
PHASES = {Gn.TURNUP: "turnup", Gn.HAND: "hand", Gn.OVER: "over"}
_KNOCK_FIELD = 0x7F     # the widest totals the events carry
_GIN_FIELD = 0x1FF


class GinLogError(Exception):
    """A line of a gin log is malformed (sittinglog turns it into its LogError)."""


def _total(rules, obj, key, field):
    if key not in obj:
        raise GinLogError("a %s event needs %s" % (obj["type"], key))
    return _number(rules, obj[key], key, field)


def _number(rules, v, what, field):
    if not is_int(v):
        raise GinLogError("%s must be a whole number of points" % what)
    if v < 0:
        raise GinLogError("%s cannot be negative" % what)
    if v > field:
        raise GinLogError(total_over(v, rules.row[G.CARDS_MAX]))
    return v


def _seat(obj):
    if "seat" not in obj:
        raise GinLogError("a %s event needs seat" % obj["type"])
    seat = obj["seat"]
    if not is_int(seat) or seat not in (0, 1):
        raise GinLogError("seat must be 0 or 1")
    return seat


def _bonus(obj):
    if "bonus" not in obj:
        return -1, 0
    b = obj["bonus"]
    if not isinstance(b, list) or len(b) != 2 or not all(is_int(x) and x >= 0 for x in b):
        raise GinLogError("bonus must list each seat's bonus cards: [b0, b1]")
    if b[0] > 15 or b[1] > 15:
        raise GinLogError("a hand holds 10 cards: at most 10 bonus cards")
    return b[0], b[1]


def to_event(rules, obj):
    """The engine event for a gin log line (a dict); GinLogError if malformed."""
    kind = obj.get("type")
    if kind not in EVENT_FIELDS:
        if kind == "sitting":
            raise GinLogError("a second sitting header (one sitting a log)")
        raise GinLogError("unknown event type %s in %s" % (show(kind), rules.name))
    for key in obj:
        if key not in EVENT_FIELDS[kind]:
            raise GinLogError("unknown field %s in a %s event" % (show(key), kind))
    if kind == "turnup":
        rank = obj.get("rank")
        if rank not in G.RANK_NAMES:
            raise GinLogError("rank must be \"A\", \"2\" ... \"10\", \"J\", \"Q\" or \"K\", not %s"
                              % show(rank))
        spade = obj.get("spade", False)
        if not isinstance(spade, bool):
            raise GinLogError("spade must be true or false")
        return Gn.turnup(G.RANK_NAMES.index(rank) + 1, 1 if spade else 0)
    if kind == "gin":
        seat = _seat(obj)
        opp = _total(rules, obj, "opponent", _GIN_FIELD)
        contract = obj.get("contract", True)
        if "contract" in obj:
            if rules.row[G.TURNUP]:
                raise GinLogError("contract is Skarney Gin's (the contract meld): not in %s"
                                  % rules.name)
            if not isinstance(contract, bool):
                raise GinLogError("contract must be true or false")
        b0, b1 = _bonus(obj)
        if "contract" not in obj and not rules.row[G.TURNUP]:
            # It decides 20 or 40: a gin without it cannot be scored (spec/event-log.md).
            raise GinLogError("a Skarney Gin gin needs contract: true or false (had the "
                              "opponent laid down the contract meld?)")
        return Gn.gin(seat, opp, 1 if contract else 0, b0, b1)
    if kind == "knock":
        seat = _seat(obj)
        if not rules.row[G.KNOCK]:
            # The engine's own refusal, before the totals are read.
            return Gn.knock(seat, 1, 0)
        k = _total(rules, obj, "knocker", _KNOCK_FIELD)
        d = _total(rules, obj, "opponent", _KNOCK_FIELD)
        b0, b1 = _bonus(obj)
        return Gn.knock(seat, k, d, b0, b1)
    if kind == "drawout":
        if "totals" not in obj:
            return Gn.drawout()
        t = obj["totals"]
        if not isinstance(t, list) or len(t) != 2:
            raise GinLogError("totals must list each seat's unmelded total: [t0, t1]")
        t0 = _number(rules, t[0], "a total", _GIN_FIELD)
        t1 = _number(rules, t[1], "a total", _GIN_FIELD)
        return Gn.drawout(t0, t1)
    return EV_UNDO << 24


def event_json(rules, ev):
    """The log line (a dict) for a gin engine event."""
    kind = ev >> 24
    arg = ev & 0xFFFFFF
    if kind == EV_TURNUP:
        out = {"type": "turnup", "rank": rank_name(arg & 15)}
        if arg >> 4 & 1:
            out["spade"] = True
        return out
    if kind == EV_GIN:
        out = {"type": "gin", "seat": Gn.seat_of(arg), "opponent": Gn.gin_opponent(arg)}
        if not rules.row[G.TURNUP]:
            out["contract"] = not Gn.gin_no_contract(arg)
        if Gn.has_bonus(arg):
            out["bonus"] = [Gn.gin_bonus(arg, 0), Gn.gin_bonus(arg, 1)]
        return out
    if kind == EV_KNOCK:
        out = {"type": "knock", "seat": Gn.seat_of(arg), "knocker": Gn.knocker_total(arg),
               "opponent": Gn.knock_opponent(arg)}
        if Gn.has_bonus(arg):
            out["bonus"] = [Gn.knock_bonus(arg, 0), Gn.knock_bonus(arg, 1)]
        return out
    if kind == EV_DRAWOUT:
        out = {"type": "drawout"}
        if arg & 1:
            out["totals"] = [Gn.drawout_total(arg, 0), Gn.drawout_total(arg, 1)]
        return out
    return {"type": "undo"}


def hand_json(s):
    """The report's entry for the hand the gin sitting `s` finished last."""
    d = {"dealer": s.last(Gn.LAST_DEALER)}
    limit = s.last(Gn.LAST_LIMIT)
    if limit >= 0:
        d["turnup"] = limit
    d["end"] = Gn.END_NAMES[s.last(Gn.LAST_END)]
    if s.last(Gn.LAST_SEAT) >= 0:
        d["seat"] = s.last(Gn.LAST_SEAT)
    w = s.last(Gn.LAST_WINNER)
    d["winner"] = None if w < 0 else w
    d["points"] = s.last(Gn.LAST_POINTS)
    d["award"] = [s.last(Gn.LAST_AWARD), s.last(Gn.LAST_AWARD + 1)]
    return d


def walk(header, events):
    """Replay the standing events in a fresh sitting, yielding ("hand", dict, event,
    sitting) as hands finish (the event that ended the hand), then ("end", sitting, None,
    sitting)."""
    s = Gn.GinSitting(header.rules, header.dealer)
    for _, ev in effective(events):
        hands = s.hands()
        s.apply(ev)
        if s.hands() > hands:
            yield "hand", hand_json(s), ev, s
    yield "end", s, None, s


def next_json(s):
    p = s.phase()
    if p == Gn.OVER:
        return {"phase": "over", "dealer": None, "seat": None}
    return {"phase": PHASES[p], "dealer": s.dealer(), "seat": None}


def report_body(header, events):
    """hands, score, over, winner and next of the report."""
    hands = []
    s = None
    for kind, info, _, _ in walk(header, events):
        if kind == "hand":
            hands.append(info)
        else:
            s = info
    return {"hands": hands, "score": [s.score(0), s.score(1)], "over": s.over(),
            "winner": s.winner() if s.over() else None, "next": next_json(s)}


# ---- the scoresheet: a gin pad, one column a player, running totals ----

def _how(info, ev, names):
    end = info["end"]
    arg = ev & 0xFFFFFF
    if end == "drawout":
        if ev >> 24 == EV_DRAWOUT and arg & 1:
            return "draw-out %d-%d" % (Gn.drawout_total(arg, 0), Gn.drawout_total(arg, 1))
        return "draw-out"
    who = names[info["seat"]]
    bonus = ""
    if Gn.has_bonus(arg):
        at = 12 if ev >> 24 == EV_GIN else 16
        bonus = ", bonus %d-%d" % (arg >> at & 15, arg >> (at + 4) & 15)
    if end == "gin":
        if "turnup" in info:
            return "%s gin, %d left%s" % (who, Gn.gin_opponent(arg), bonus)
        extra = ", no contract" if Gn.gin_no_contract(arg) else ""
        return "%s gin, %d in hand%s" % (who, Gn.gin_opponent(arg), extra)
    k = Gn.knocker_total(arg)
    d = Gn.knock_opponent(arg)
    if end == "knock":
        return "%s knocks %d v %d%s" % (who, k, d, bonus)
    return "%s knocks %d v %d, undercut%s" % (who, k, d, bonus)


def scoresheet(header, events, names, utc=None):
    rules = header.rules
    lines = []
    title = "%s, game to %d" % (rules.name, rules.target)
    if header.extra.get("id"):
        title = "%s  (%s)" % (title, printable(header.extra["id"]))
    lines.append(title)
    lines += meta_lines(header, utc)
    usual = G.GinRules(rules.variant).to_dict()     # the house options left at their default
    opts = [k if v is True else "%s %s" % (k, v) for k, v in rules.to_dict().items()
            if k != "target" and v != usual[k]]
    if opts:
        lines.append("Options: " + ", ".join(opts))
    lines.append("")
    w = max(6, max(len(n) for n in names))
    turnup = bool(rules.row[G.TURNUP])
    head = "Hand  %-8s %s%-34s %*s %*s" % ("Dealer", "Turn-up  " if turnup else "", "End",
                                             w, names[0], w, names[1])
    lines.append(head)
    lines.append("-" * len(head))
    running = [0, 0]
    s = None
    number = 0
    for kind, info, ev, now in walk(header, events):
        if kind == "end":
            s = info
            break
        number += 1
        for i in (0, 1):
            running[i] += info["award"][i]
        cells = ["%*d" % (w, running[i]) if info["award"][i] else "%*s" % (w, "-")
                 for i in (0, 1)]
        up = ""
        if turnup:
            spade = " spade" if now.last(Gn.LAST_SPADE) else ""
            up = "%-8s " % (str(info["turnup"]) + spade)
        lines.append("%4d  %-8s %s%-34s %s %s" % (number, names[info["dealer"]][:8], up,
                                                   _how(info, ev, names), cells[0], cells[1]))
    lines.append("-" * len(head))
    pad = 6 + 9 + (9 if turnup else 0) + 35
    lines.append("%-*s%*d %*d" % (pad, "Hand points", w, s.hand_points(0), w, s.hand_points(1)))
    lines.append("%-*s%*d %*d" % (pad, "Hands won (boxes)", w, s.won(0), w, s.won(1)))
    if s.over():
        lines.append("%-*s%*d %*d" % (pad, "Bonuses (game, boxes, shutout)", w, s.bonus(0),
                                      w, s.bonus(1)))
        lines.append("%-*s%*d %*d" % (pad, "Final", w, s.score(0), w, s.score(1)))
        lines.append("")
        lines.append("Winner: %s" % names[s.winner()])
    else:
        lines.append("")
        lines.append("Next: %s, dealer %s" % (
            "the turn-up card" if s.phase() == Gn.TURNUP else "how the hand ended",
            names[s.dealer()]))
    return "\n".join(lines) + "\n"
