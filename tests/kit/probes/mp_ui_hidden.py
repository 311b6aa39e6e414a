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
           "history", "menu", "setup", "sync", "gin_score", "gin_totals", "gin_confirm")


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
    draft = None
    if d is not None:
        draft = (d.name, sorted(d.to_dict().items()), a.draft_dealer)
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
        ("trick tracker", "42", None, (BID30, PASS, PASS, PASS, SIXES), "tracker"),
        ("after a hand", "42", None, HAND, ()),
        ("undo a hand", "42", None, HAND, (BACK,)),
        ("game over", "42", {"target": 1}, HAND, ()),
        ("history", "42", None, HAND, HISTORY),
        ("menu", "42", None, HAND, MENU_SCREEN),
        ("sync", "42", None, HAND, SYNC),
        ("setup", "42", None, HAND, SETUP),
        ("setup, a value", "42", None, HAND, (MENU, PREV, OK, NEXT, OK)),
        ("moon bidding", "moon", None, (), ()),
        ("moon tricks", "moon", None, (_bid(5), PASS, PASS, C.event(C.EV_TRUMP, 6)), ()),
        ("gin turn-up", "oklahoma-gin", None, (), ()),
        ("gin spade turn-up", "oklahoma-gin", {"spade_doubles": True}, (), ()),
        ("gin ending", "oklahoma-gin", None, (_gin(),), ()),
        ("gin totals", "oklahoma-gin", None, (_gin(),), (OK,)),
        ("gin bonus cards", "sequence-gin", {"bonus": True}, (_gin(),), (OK, OK)),
        ("skarney ending", "skarney-gin", None, (), ()),
        ("skarney totals", "skarney-gin", None, (), (OK,)),
        ("skarney contract meld", "skarney-gin", None, (), (OK, OK)),
        ("gin after a hand", "oklahoma-gin", None, _gin_hand(), ()),
        ("gin undo a hand", "oklahoma-gin", None, _gin_hand(), (BACK,)),
        ("gin game over", "oklahoma-gin", {"target": 10}, _gin_hand(), ()),
        ("gin history", "oklahoma-gin", None, _gin_hand(), HISTORY),
        ("gin menu", "oklahoma-gin", None, _gin_hand(), MENU_SCREEN),
        ("gin setup", "oklahoma-gin", None, _gin_hand(), SETUP),
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
    if then == SETUP or then == SYNC or then == HISTORY or then == MENU_SCREEN or then == HOME:
        a.go(then)
    a.render()
    if isinstance(then, tuple):
        for key in then:
            a.press(key)
    return a


def check(display, cases_=None):
    """The hidden actions: a list of (case label, screen module, button), and the screen
    modules met."""
    hidden = []
    met = {}
    for case in cases_ or cases():
        a = build(display, case)
        text = display.screen_text()
        module = a._mod_name
        met[module] = 1
        base = state(a)
        after = {}
        for key in KEYS:
            a = build(display, case)
            a.press(key)
            got = state(a)
            after[key] = got
            if got == base:
                continue                    # nothing changes: no action
            if key & LONG and got == after.get(key & 0xF):
                continue                    # held, it does what the short press does
            if not named(text, key):
                hidden.append((case[0], module, key))
    return hidden, met


def key_name(key):
    return ("hold " if key & LONG else "") + KEY_NAMES[key & 0xF]


def report(display):
    """Print the count, and each hidden action (for bench/bench_ui.py)."""
    hidden, met = check(display)
    missing = [m for m in SCREENS if m not in met]
    for label, module, key in hidden:
        print("hidden_at %s|%s|%s" % (label, module, key_name(key)))
    print("hidden_actions", len(hidden))
    print("hidden_screens_missed", len(missing))
