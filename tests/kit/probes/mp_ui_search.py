# The fewest presses that enter a hand, found by a breadth-first search over the real
# screens (firmware.app and firmware.ui, on the sim board's display): from the screen the
# last hand left on show, every button (short and held) is tried, and a press path counts
# only when the events it makes are the hand's, in order. MicroPython only; run by
# tests/kit/probes/mp_ui_probe.py (and tests/device/test_search.py on a small corpus).
#
# The journal keeps no event (FakeJournal): which screen follows which press does not
# depend on what flash holds, and the search makes thousands of presses.
from array import array

from engine_core import codes as C
from firmware import app as A
from engine_core.codes import BIDDING
from firmware.codes import BACK, LONG, MENU, NEXT, OK, PREV, SETUP, SYNC
from firmware.journal import Journal

KEYS = (OK, NEXT, PREV, BACK, MENU, LONG | NEXT, LONG | PREV, LONG | OK)
_NOWHERE = (SETUP, SYNC)    # screens that cannot lead to the hand's next event


class FakeJournal(Journal):
    """A journal over two blocks of RAM flash that keeps its sitting's header and none of
    its events: the screens that read it (history) read a sitting begun, and the search's
    thousands of presses never fill it."""

    def append(self, event):
        return None

    def end(self, seconds, offset_minutes):
        return False


class SearchApp(A.App):
    """The scorer, refusing (and marking) any event that is not the hand's next one."""

    want = ()
    k = 0
    wrong = False

    def take(self, ev):
        if self.k >= len(self.want) or ev != self.want[self.k]:
            self.wrong = True
            return False
        if not A.App.take(self, ev):
            self.wrong = True
            return False
        self.k += 1
        return True


def make_app(display, rules, dealer=0, cls=None):
    from boards.sim.flash import NorFlash
    a = (cls or SearchApp)(display, NorFlash(2, 4096))
    a.scorer.journal = FakeJournal(NorFlash(2, 4096))
    a.scorer.journal.mount()
    from engine_core.header import encode_header
    a.scorer.journal.begin_sitting(encode_header(rules, dealer))
    a.scorer.start(rules, dealer)
    a.follow()
    a.render()
    return a


def snapshot(a):
    s = a.scorer.s
    sc = a.scorer
    return (a.k, a.screen, a.cur, a.top, a.edit, sc.hand_mode, sc.tracker, bytes(a.fields),
            a.note, array("h", s.st), array("h", s._base), bytes(s.hist), s.hlen, s.dropped)


def _copy(dst, src):
    i = 0
    n = len(src)
    while i < n:
        dst[i] = src[i]
        i += 1


def restore(a, snap):
    sc = a.scorer
    (a.k, a.screen, a.cur, a.top, a.edit, sc.hand_mode, sc.tracker, fields,
     a.note, st, base, hist, hlen, dropped) = snap
    s = sc.s
    _copy(a.fields, fields)
    _copy(s.st, st)
    _copy(s._base, base)
    s.hist[:] = hist
    s.hlen = hlen
    s.dropped = dropped
    a.banner = None
    a.lines = None
    a.draft = None
    a.wrong = False
    a._entered = True


def _key(snap):
    # A screen state: the events taken, the screen, its cursor and fields, the note of a
    # hand just saved (BACK then undoes it at once; the sitting follows from the events
    # taken). As its repr: MicroPython hashes a tuple by the sum of its items' hashes, and
    # the states of a search collide in their thousands on tuple keys (objtuple.c).
    return repr(snap[:9])


def fewest(a, want, limit=40000, dead=None):
    """The fewest presses from a's state that take exactly the events `want`; a is left
    at the state they reach. Returns -1 (a unchanged) when none is found in `limit`
    presses tried. dead(a, want): a state no fewest path goes through (not searched on)."""
    a.want = want
    a.k = 0
    start = snapshot(a)
    seen = {_key(start): 1}
    level = [start]
    depth = 0
    tried = 0
    while level and tried < limit:
        depth += 1
        nxt = []
        for snap in level:
            for key in KEYS:
                restore(a, snap)
                a.press(key)
                tried += 1
                if a.wrong or a.screen in _NOWHERE or (dead is not None and dead(a, want)):
                    continue
                got = snapshot(a)
                if a.k == len(want):
                    a.want = ()
                    return depth
                kk = _key(got)
                if kk in seen:
                    continue
                seen[kk] = 1
                nxt.append(got)
        level = nxt
    restore(a, start)
    a.want = ()
    return -1


# ---- a corpus of realistic sittings of 42 for marks ----

class Rand:
    """A small deterministic generator (the same numbers on every port)."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return (self.x >> 8) % n

    def chance(self, percent):
        return self.below(100) < percent

    def pick(self, weighted):
        total = 0
        for _, w in weighted:
            total += w
        r = self.below(total)
        for v, w in weighted:
            if r < w:
                return v
            r -= w
        return weighted[-1][0]


# Opening bids as tables bid them: mostly 30 to 32, 35 and the one-mark 42, the others
# less often, 84 now and then.
OPENING = ((30, 24), (31, 14), (32, 10), (33, 5), (34, 5), (35, 8), (36, 4), (37, 2),
           (38, 2), (39, 2), (40, 2), (41, 1), (42, 12), (C.MARKS + 2, 9))
TRUMPS = (0, 1, 2, 3, 4, 5, 6, C.DOUBLES, C.FOLLOW_ME)
OPEN_PERCENT = 45       # a seat opens the bidding when none stands
RAISE_PERCENT = 25      # a seat raises a standing bid
MADE_PERCENT = 70
UNDO_RESULT_PERCENT = 8     # a result keyed wrong, undone, keyed right
UNDO_BID_PERCENT = 4        # a bid keyed wrong, undone, keyed right


def _bid(code):
    return C.event(C.EV_BID, code)


def hand_events(s, rnd):
    """The events of a realistic hand from sitting s at a fresh deal (s is not
    changed): every seat's bid or pass, the trump, the result, now and then an undo."""
    from engine_core.texas42.sitting import Sitting
    t = Sitting(s.rules, s.dealer())
    _copy(t.st, s.st)
    out = []
    while t.phase() == BIDDING:
        h = t.high_bid()
        code = C.PASS
        if h < 0:
            if t.check(_bid(C.PASS)):
                code = 30 + rnd.below(3)                # the forced dealer
            elif rnd.chance(OPEN_PERCENT):
                code = rnd.pick(OPENING)
        elif rnd.chance(RAISE_PERCENT):
            v = t.high_value()
            if v < 41:
                code = rnd.pick(((v + 1, 50), (v + 2, 20), (42, 20), (C.MARKS + 2, 10)))
            elif v < 84:
                code = C.MARKS + 2
        if t.check(_bid(code)):
            code = C.PASS
        if code != C.PASS and rnd.chance(UNDO_BID_PERCENT):
            wrong = code + 1 if t.check(_bid(code + 1)) == 0 else C.PASS
            out.append(_bid(wrong))
            out.append(C.event(C.EV_UNDO))
        out.append(_bid(code))
        t.apply(_bid(code))
    ev = C.event(C.EV_TRUMP, TRUMPS[rnd.below(len(TRUMPS))])
    out.append(ev)
    t.apply(ev)
    made = 1 if rnd.chance(MADE_PERCENT) else 0
    if rnd.chance(UNDO_RESULT_PERCENT):
        out.append(C.event(C.EV_MADE, 1 - made))
        out.append(C.event(C.EV_UNDO))
    out.append(C.event(C.EV_MADE, made))
    return out


def corpus_mean(display, sittings, seed, hands=None):
    """Presses a hand over `sittings` sittings of 42 to 7 marks (the first dealer
    moving round), each hand's presses found by fewest(). Returns (hands, presses,
    the largest of one hand)."""
    from engine_core.texas42 import options as O
    rnd = Rand(seed)
    n = 0
    total = 0
    most = 0
    k = 0
    while k < sittings:
        a = make_app(display, O.resolve("42"), k % 4)
        s = a.scorer.s
        while not s.over() and (hands is None or n < hands):
            want = hand_events(s, rnd)
            p = fewest(a, want)
            if p < 0:
                raise ValueError("no press path for %r" % (want,))
            n += 1
            total += p
            if p > most:
                most = p
        k += 1
    return n, total, most


# ---- a corpus of gin sittings: Oklahoma, Sequence and Skarney Gin ----
# A hand as it goes at a table: the turn-up any of the 13 ranks (a spade one time in
# four where spades double); the player who went out either one; gin one hand in five
# (Skarney Gin: every hand that is not drawn out); a knock mostly near the limit (a
# player knocks as soon as the cards allow), its opponent left with 4 to 45 (an
# undercut when that is not more than the knock); a draw-out one hand in twenty.

def gin_hand_events(s, rnd):
    """The events of a realistic gin hand from sitting s before its turn-up (s is not
    changed)."""
    from engine_core.gin import rules as G
    from engine_core.gin import sitting as Gn
    out = []
    limit = 0
    if s.row[G.TURNUP]:
        rank = 1 + rnd.below(13)
        spade = 1 if s.rules.spade_doubles and rnd.chance(25) else 0
        out.append(Gn.turnup(rank, spade))
        limit = Gn.limit_of(rank)
    seat = rnd.below(2)
    if rnd.chance(5):
        if s.row[G.TURNUP]:
            out.append(Gn.drawout())
        else:
            out.append(Gn.drawout(5 + rnd.below(56), 5 + rnd.below(56)))
        return out
    if not s.row[G.KNOCK] or rnd.chance(20):
        if s.row[G.TURNUP]:
            out.append(Gn.gin(seat, 10 + rnd.below(51)))
        else:
            out.append(Gn.gin(seat, 20 + rnd.below(71), 1 if rnd.chance(70) else 0))
        return out
    k = limit - rnd.below(4) if rnd.chance(70) else 1 + rnd.below(limit)
    out.append(Gn.knock(seat, k if k > 0 else 1, 4 + rnd.below(42)))
    return out


def _gin_dead(a, want):
    # States no fewest path of a gin hand passes through: the menu and the undo question
    # (their way back starts the ending over), and the totals screen with an ending keyed
    # that is not the hand's (the way on is BACK to the list: the ending kept, the totals
    # not).
    if a.screen == "menu" or a.screen == "confirm" or a.screen == "history":
        return True
    if a.screen != "result":
        return False
    from engine_core.gin import codec as Gc
    from firmware.ui import gin_draw as GD
    ev = want[len(want) - 1]
    kind = ev >> 24
    f = a.fields
    if kind == Gc.EV_DRAWOUT:
        return not f[GD.MODE]
    k = Gc.knocker_total(ev & 0xFFFFFF) if kind == Gc.EV_KNOCK else 0
    return f[GD.MODE] or f[GD.SEAT] != Gc.seat_of(ev) or f[GD.K] != k


def gin_corpus_mean(display, seed, games=("oklahoma-gin", "sequence-gin", "skarney-gin"),
                    hands=None, sittings=1):
    """Presses a hand over `sittings` sittings of each gin game (the first dealer
    alternating), at most `hands` hands of each, each hand's presses found by fewest()
    from the score before its turn-up. Returns (hands, presses, the largest of one
    hand)."""
    from engine_core.texas42 import options as O
    rnd = Rand(seed)
    n = 0
    total = 0
    most = 0
    k = 0
    for game in games * sittings:
        a = make_app(display, O.resolve(game), k % 2)
        s = a.scorer.s
        while not s.over() and (hands is None or n < hands * (k + 1)):
            want = gin_hand_events(s, rnd)
            p = fewest(a, tuple(want), 400000, _gin_dead)
            if p < 0:
                raise ValueError("no press path for %r" % (want,))
            n += 1
            total += p
            if p > most:
                most = p
        k += 1
    return n, total, most


# ---- the presses from one screen to another (a new sitting's setup) ----

def fewest_to(make, goal, depth=8):
    """The fewest presses that lead an App made by make() to a state where goal(app) is
    true, found breadth-first; each state is reached again by replaying its presses on a
    new App (the setup screen's draft is not in snapshot()). -1 when none within depth."""
    from mp_ui_hidden import state
    a = make()
    if goal(a):
        return 0
    seen = {repr(state(a)): 1}
    level = [()]
    d = 0
    while level and d < depth:
        d += 1
        nxt = []
        for path in level:
            for key in KEYS:
                a = make()
                for k in path:
                    a.press(k)
                a.press(key)
                if goal(a):
                    return d
                st = repr(state(a))
                if st in seen:
                    continue
                seen[st] = 1
                nxt.append(path + (key,))
        level = nxt
    return -1


def setup_gin(display):
    """ui.presses.setup_gin: from the score of a 42 sitting (a hand played) to the first
    turn-up of a new Oklahoma Gin pad."""
    from engine_core.texas42 import options as O
    from engine_core.gin import sitting as Gn
    from firmware import app as A
    hand = (C.event(C.EV_BID, 30), C.event(C.EV_BID, C.PASS), C.event(C.EV_BID, C.PASS),
            C.event(C.EV_BID, C.PASS), C.event(C.EV_TRUMP, 6), C.event(C.EV_MADE, 1))

    def make():
        a = make_app(display, O.resolve("42"), 0, A.App)
        for ev in hand:
            a.take(ev)
        a.follow()
        a.render()
        return a

    def goal(a):
        s = a.scorer.s
        return (s.rules.name == "oklahoma-gin" and s.hands() == 0 and a.screen == "score"
                and s.phase() == Gn.TURNUP)

    return fewest_to(make, goal)


def setup_gin_from_power_on(display):
    """ui.presses.setup_gin_from_power_on: from a fresh scorer's first power-on (no
    sitting, nothing remembered) to the first turn-up of an Oklahoma Gin pad."""
    from boards.sim.flash import NorFlash
    from engine_core.gin import sitting as Gn
    from firmware import app as A

    def make():
        a = A.App(display, NorFlash(4, 4096))
        a.boot()
        a.render()
        return a

    def goal(a):
        s = a.scorer.s
        return (s is not None and s.rules.name == "oklahoma-gin" and s.hands() == 0
                and a.screen == "score" and s.phase() == Gn.TURNUP)

    return fewest_to(make, goal)


# ---- the floor of the 42 corpus: what no design on these buttons can go below ----
# Each question (a seat's bid, the trump, the result) costs its own press, its value the
# least moves any fixed start allows: with four arrow gestures (short and held, each
# way) at most 4k values are k moves away, so a question's values, likeliest first over
# the corpus, are charged 0, then 1 for the next four, 2 for the next eight... (a start
# fixed per question: the first bid, a raise, the forced dealer, the trump). What the
# rule lets a held OK do more of is free: the passes after a held OK up to the end of
# the auction or the forced dealer, and made after the trump. A set costs its press; an
# undo its BACK, the event taken back its press and the right one its press.

def _dist(rank):
    k = 0
    n = 1
    while rank >= n:
        k += 1
        n += 4 * k
    return k


def corpus_floor(sittings, seed):
    """The floor a hand over corpus_mean()'s corpus. Returns (hands, floor x100)."""
    from engine_core.texas42 import options as O
    from engine_core.texas42.sitting import Sitting
    rnd = Rand(seed)
    counts = {}
    presses = 0
    n = 0
    asked = []      # (question, value) of every question a value is moved for
    k = 0
    while k < sittings:
        t = Sitting(O.resolve("42"), k % 4)
        while not t.over():
            want = hand_events(t, rnd)
            i = 0
            free = False    # a held OK's passes
            while i < len(want):
                ev = want[i]
                kind = ev >> 24
                undone = i + 1 < len(want) and want[i + 1] >> 24 == C.EV_UNDO
                again = i > 0 and want[i - 1] >> 24 == C.EV_UNDO
                if kind == C.EV_UNDO:
                    presses += 1
                elif kind == C.EV_BID:
                    code = ev & 0xFFFFFF
                    if code == C.PASS and free and not undone:
                        pass
                    elif undone or again:
                        presses += 1
                    else:
                        q = "bid" if t.high_bid() < 0 else "raise"
                        if t.check(_bid(C.PASS)):
                            q = "forced"
                        presses += 1
                        asked.append((q, code))
                        # a held OK passes for the seats after it, where they pass
                        rest = want[i + 1:]
                        j = 0
                        while j < len(rest) and rest[j] == _bid(C.PASS):
                            j += 1
                        free = j > 0 and (j == len(rest) or rest[j] >> 24 != C.EV_BID)
                        if code == C.PASS and j and j < len(rest):
                            # all pass up to the forced dealer, then the dealer's bid
                            p = Sitting(t.rules, t.dealer())
                            _copy(p.st, t.st)
                            m = 0
                            while m <= j:
                                p.apply(_bid(C.PASS))
                                m += 1
                            free = p.check(_bid(C.PASS)) != 0
                elif kind == C.EV_TRUMP:
                    free = False
                    presses += 1
                    if not again:
                        asked.append(("trump", ev & 0xFFFFFF))
                elif kind == C.EV_MADE:
                    if (ev & 1) == 0 or again or want[i - 1] >> 24 != C.EV_TRUMP:
                        presses += 1
                if kind != C.EV_UNDO and not undone:
                    t.apply(ev)
                i += 1
            n += 1
        k += 1
    for q, v in asked:
        c = counts.setdefault(q, {})
        c[v] = c.get(v, 0) + 1
    for q in counts:
        order = sorted(counts[q].values(), reverse=True)
        r = 0
        while r < len(order):
            presses += order[r] * _dist(r)
            r += 1
    return n, presses * 100 // n


# ---- where the trump cursor starts: the fewest moves over the corpus ----
# The contract screen's cursor starts on the same trump every hand
# (firmware.ui.contract.START). Each start's cost over the corpus is the moves the
# screen's arrows take from it to every trump named (steps of 1 and 3 either way,
# walk.step() as the screen steps, wrapping); the start with the least is the screen's.

def trump_moves(s):
    """The moves from each legal trump position of s (at its contract) to every other:
    {start code: {code: moves}}, a breadth-first walk over the contract's four arrows."""
    from firmware.ui import contract
    from firmware.ui import walk
    out = {}
    j = walk.first(s)
    while j >= 0:
        got = {s.legal_at(j): 0}
        level = [j]
        n = 0
        while level:
            n += 1
            nxt = []
            for p in level:
                for step in (1, -1, contract.LONG_STEP, -contract.LONG_STEP):
                    q = walk.step(s, p, step)
                    if s.legal_at(q) not in got:
                        got[s.legal_at(q)] = n
                        nxt.append(q)
            level = nxt
        out[s.legal_at(j)] = got
        j = s.next_legal(j)
    return out


def trump_starts(sittings, seed):
    """The corpus of corpus_mean() (the same hands) and each trump start's moves over
    it: {start code: moves}."""
    from engine_core.texas42 import options as O
    from engine_core.texas42.sitting import Sitting
    rnd = Rand(seed)
    costs = {}
    k = 0
    while k < sittings:
        t = Sitting(O.resolve("42"), k % 4)
        while not t.over():
            want = hand_events(t, rnd)
            i = 0
            while i < len(want):
                ev = want[i]
                if ev >> 24 == C.EV_TRUMP:
                    moves = trump_moves(t)
                    for start in moves:
                        costs[start] = costs.get(start, 0) + moves[start][ev & 0xFFFFFF]
                # an event keyed wrong and undone is not applied, nor its undo
                undone = i + 1 < len(want) and want[i + 1] >> 24 == C.EV_UNDO
                if ev >> 24 != C.EV_UNDO and not undone:
                    t.apply(ev)
                i += 1
        k += 1
    return costs
