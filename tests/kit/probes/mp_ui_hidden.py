# The hidden actions of the screens (ui.hidden_actions): every screen of both families
# is shown in the states a table meets it in, every button is pressed on it (short and
# held), and a press that changes anything (the screen, its cursor, a value keyed in, an
# event taken) is an action; an action is hidden when the screen's drawn text does not
# name its button. A held button that does what the short one does is the same action.
# MicroPython only; run by tests/kit/probes/mp_ui_probe.py and tests/device/test_search.py.
#
# How the text names a button (docs/device.md, For developers): `<>` both arrows, `<` or `>`
# one of them (the arrows drawn round a choice count), `OK`, `BACK`, `M` the menu key,
# joined by `/` when two do the same (`OK/BACK`); a held button is `hold` followed by
# its glyph (`hold >: +5`, `hold OK: set`).
from engine_core import codes as C
from engine_core.texas42 import options as O
from firmware.codes import (BACK, HISTORY, HOME, LONG, MENU, MENU_SCREEN, NEXT, OK,
                            PREV, SETUP, SYNC)

KEYS = (OK, NEXT, PREV, BACK, MENU, LONG | OK, LONG | NEXT, LONG | PREV, LONG | BACK,
        LONG | MENU)
KEY_NAMES = {OK: "OK", NEXT: ">", PREV: "<", BACK: "BACK", MENU: "M"}
# The screen modules under firmware/ui/ (the others are shared drawing and walking).
SCREENS = ("score", "bidding", "contract", "result", "tracker", "confirm", "over",
           "history", "menu", "setup", "sync", "gin_score", "gin_totals", "gin_confirm",
           "selftest")


def _glyphs(word):
    # The buttons a word of the text may name: `OK/BACK` -> OK, BACK; `<>` -> < and >.
    out = []
    for part in word.split("/"):
        if part.startswith("<>"):
            out.append("<")
            out.append(">")
            continue
        for g in ("OK", "BACK", "<", ">"):
            if part.startswith(g):
                out.append(g)
                break
        else:
            if part == "M" or part.startswith("M:"):
                out.append("M")
    return out


def named(text, key):
    """Whether `text` (a screen's words) names button `key` (LONG or-ed in: held)."""
    want = KEY_NAMES[key & 0xF]
    held = bool(key & LONG)
    words = text.split()
    i = 0
    while i < len(words):
        w = words[i]
        if w == "hold" and i + 1 < len(words):
            if held and want in _glyphs(words[i + 1]):
                return True
            i += 2
            continue
        if not held and want in _glyphs(w):
            return True
        i += 1
    return False


def state(a):
    """What a press can change: the screen, its cursor and fields, the setup draft, the
    settings, the sitting's history (the events taken)."""
    sc = a.scorer
    s = sc.s
    d = a.draft
    draft = d       # None, or the family asked for, or asking what we play (an int)
    if d is not None and not isinstance(d, int):
        draft = (d.name, sorted(O.to_dict(d).items()), a.draft_dealer)
    return (a.screen, a.cur, a.top, a.edit, bytes(a.fields), sc.hand_mode, sc.tracker,
            draft, None if s is None else bytes(s.hist[:s.hlen]),
            None if s is None else s.hands())


# ---- the states a table meets each screen in ----
# (name, game, options, events taken, then: a screen to go to, or presses)

def _bid(code):
    return C.event(C.EV_BID, code)


PASS = _bid(C.PASS)
BID30 = _bid(30)
SIXES = C.event(C.EV_TRUMP, 6)
MADE = C.event(C.EV_MADE, 1)
HAND = (BID30, PASS, PASS, PASS, SIXES, MADE)


def _gin(turnup=8):
    from engine_core.gin import sitting as Gn
    return Gn.turnup(turnup, 0)


def _gin_hand():
    from engine_core.gin import sitting as Gn
    return (_gin(), Gn.knock(1, 6, 23, -1, 0))


def cases():
    """The states: (label, game, options, events, then) with `then` a screen's name or a
    tuple of presses."""
    out = [
        ("first bid on the score", "42", None, (), ()),
        ("bidding", "42", None, (PASS,), ()),
        ("bidding, a bid stands", "42", None, (PASS, BID30), ()),
        ("forced dealer", "42", None, (PASS, PASS, PASS), ()),
        ("score in a hand", "42", None, (BID30,), HOME),
        ("contract", "42", None, (BID30, PASS, PASS, PASS), ()),
        ("result made/set", "42", None, (BID30, PASS, PASS, PASS, SIXES), ()),
        ("result points", "42", {"scoring": "points"}, (BID30, PASS, PASS, PASS, SIXES),
         ()),
        ("result points set", "42", {"scoring": "points"},
         (BID30, PASS, PASS, PASS, SIXES), (NEXT,)),
        ("trick tracker", "42", None, (BID30, PASS, PASS, PASS, SIXES), "tracker"),
        ("after a hand", "42", None, HAND, ()),
        ("undo a hand", "42", None, HAND, (BACK,)),
        ("game over", "42", {"target": 1}, HAND, ()),
        ("history", "42", None, HAND, HISTORY),
        ("menu", "42", None, HAND, MENU_SCREEN),
        ("sync", "42", None, HAND, SYNC),
        ("setup", "42", None, HAND, SETUP),
        ("setup, a value", "42", None, HAND, (MENU, PREV, PREV, OK, NEXT, OK)),
        ("another game", "42", None, HAND, (MENU, PREV, OK)),
        ("moon bidding", "moon", None, (), ()),
        ("moon tricks", "moon", None, (_bid(5), PASS, PASS, C.event(C.EV_TRUMP, 6)), ()),
        ("moon tricks set", "moon", None, (_bid(5), PASS, PASS, C.event(C.EV_TRUMP, 6)),
         (NEXT,)),
        ("gin turn-up", "oklahoma-gin", None, (), ()),
        ("gin spade turn-up", "oklahoma-gin", {"spade_doubles": True}, (), ()),
        ("gin who went out", "oklahoma-gin", None, (_gin(),), ()),
        ("gin how", "oklahoma-gin", None, (_gin(),), (NEXT,)),
        ("gin draw-out", "oklahoma-gin", None, (_gin(),), (OK,)),
        ("gin totals", "oklahoma-gin", None, (_gin(),), (NEXT, OK)),
        ("gin totals set", "oklahoma-gin", None, (_gin(),), (NEXT, OK, NEXT)),
        ("gin bonus cards", "sequence-gin", {"bonus": True}, (_gin(),),
         (NEXT, OK, NEXT, OK)),
        ("skarney who went out", "skarney-gin", None, (), ()),
        ("skarney meld", "skarney-gin", None, (), (NEXT,)),
        ("skarney totals", "skarney-gin", None, (), (NEXT, OK)),
        ("skarney draw-out totals", "skarney-gin", None, (), (OK, OK)),
        ("gin after a hand", "oklahoma-gin", None, _gin_hand(), ()),
        ("gin undo a hand", "oklahoma-gin", None, _gin_hand(), (BACK,)),
        ("gin game over", "oklahoma-gin", {"target": 10}, _gin_hand(), ()),
        ("gin history", "oklahoma-gin", None, _gin_hand(), HISTORY),
        ("gin menu", "oklahoma-gin", None, _gin_hand(), MENU_SCREEN),
        ("gin setup", "oklahoma-gin", None, _gin_hand(), SETUP),
        ("self-test", "42", None, HAND, "selftest"),
    ]
    return out


def build(display, case):
    """An App on `display` in the state of `case`, its screen drawn."""
    import mp_ui_search as M
    from firmware import app as A
    label, game, options, events, then = case
    rules = O.resolve(game, options or {})
    a = M.make_app(display, rules, 0, A.App)
    if then == "tracker":
        a.scorer.tracker = 1
    for ev in events:
        if not a.take(ev):
            raise ValueError("%s: %s refused: %s" % (label, hex(ev), a.banner))
    a.follow()
    if then in (SETUP, SYNC, HISTORY, MENU_SCREEN, HOME, "selftest"):
        a.go(then)
    a.render()
    if isinstance(then, tuple):
        for key in then:
            a.press(key)
    return a


def events(a):
    """The events of the sitting's history, oldest first (the journal's codec)."""
    s = a.scorer.s
    if s is None:
        return []
    out = []
    pos = 0
    while pos < s.hlen:
        out.append(s.codec.decode_at(s.hist, pos))
        pos += s.codec.length_at(s.hist, pos)
    return out


def more_of(base, short, held):
    """Whether a held key (its events `held`, the state after it) does more of what the
    short press does (`short`), never something else; each a (state, events) pair, base
    the state before either. More of: the same, or nothing where the short press does
    nothing (then the footer names it: see named()), or the short press's events and
    more after them (a bid, then the rest pass; a trump, then made), or its one event
    with more said of it (the turn-up on show, as a spade: the same kind, every flag of
    the short one's set). Not more of: another event (set where made is on show), or
    another state with no event (the other player's ending)."""
    (bs, be), (ss, se), (hs, he) = base, short, held
    if hs == ss or hs == bs or ss == bs:
        return True
    if not se[:len(be)] == be or not he[:len(be)] == be:
        return False        # an undo: BACK's, never a held key's
    se = se[len(be):]
    he = he[len(be):]
    if not se:
        return False        # the short press moves on; the held one goes elsewhere
    if he[:len(se)] == se:
        return True
    if len(he) != len(se) or he[:-1] != se[:-1]:
        return False
    s1 = se[len(se) - 1]
    h1 = he[len(he) - 1]
    return h1 >> 24 == s1 >> 24 and h1 & s1 == s1


def check(display, cases_=None):
    """The hidden actions: a list of (case label, screen module, button); the screen
    modules met; and the opposite holds: a list of (case label, screen module, button)
    whose held press is not more of the short one (more_of)."""
    hidden = []
    opposite = []
    met = {}
    for case in cases_ or cases():
        a = build(display, case)
        text = display.screen_text()
        module = a._mod_name
        met[module] = 1
        base = state(a)
        base_ev = events(a)
        after = {}
        for key in KEYS:
            a = build(display, case)
            a.press(key)
            got = state(a)
            after[key] = (got, events(a))
            if key & LONG and (key & 0xF == NEXT or key & 0xF == PREV):
                # A held arrow moves further, as the short one moves, and takes nothing;
                # where the short arrow takes its side's choice (made on <, set on >),
                # held it takes the very same.
                if after[key][1] != base_ev and after[key][1] != after[key & 0xF][1]:
                    opposite.append((case[0], module, key))
            elif key & LONG and not more_of((base, base_ev), after[key & 0xF], after[key]):
                opposite.append((case[0], module, key))
            if got == base:
                continue                    # nothing changes: no action
            if key & LONG and got == after[key & 0xF][0]:
                continue                    # held, it does what the short press does
            if not named(text, key):
                hidden.append((case[0], module, key))
    return hidden, met, opposite


# The screens that ask a count only the players know (points taken, tricks, a deadwood
# total, bonus cards), as a table meets them: ui.preset_unknowns counts those a plain OK
# (pressed a few times, as a hasty player would) saves untouched.
UNKNOWNS = ("result points", "moon tricks", "gin totals", "gin bonus cards",
            "skarney totals", "skarney draw-out totals")


def preset_unknowns(display, presses=4):
    """The labels of the UNKNOWNS cases whose value a plain OK saves untouched."""
    out = []
    for case in cases():
        if case[0] not in UNKNOWNS:
            continue
        a = build(display, case)
        before = len(events(a))
        for _ in range(presses):
            a.press(OK)
        if len(events(a)) > before:
            out.append(case[0])
    return out


def key_name(key):
    return ("hold " if key & LONG else "") + KEY_NAMES[key & 0xF]


def report(display):
    """Print the count, and each hidden action (for bench/bench_ui.py)."""
    hidden, met, opposite = check(display)
    missing = [m for m in SCREENS if m not in met]
    for label, module, key in hidden:
        print("hidden_at %s|%s|%s" % (label, module, key_name(key)))
    for label, module, key in opposite:
        print("opposite_at %s|%s|%s" % (label, module, key_name(key)))
    print("hidden_actions", len(hidden))
    print("opposite_holds", len(opposite))
    preset = preset_unknowns(display)
    for label in preset:
        print("preset_at %s" % label)
    print("preset_unknowns", len(preset))
    print("hidden_screens_missed", len(missing))
