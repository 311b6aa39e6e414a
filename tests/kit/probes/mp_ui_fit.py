# Whether every line of every screen fits its panel (ui.text_overlaps): each screen of
# both families, in the states a table meets it in (mp_ui_hidden.cases(), and the first
# power-on's question), is drawn on the 296x128 panel and the T5's 250x122, and every
# text drawn is checked: no text crosses a rule (a line drawn: hline, vline, the edges
# of a rect), none overlaps another text, none runs off the panel (a row cut). A refusal's
# banner is left out: it is drawn over the screen on purpose, white on black, until the
# next press. MicroPython only; run by tests/kit/probes/mp_ui_probe.py and tests/device/test_search.py.
from boards.sim.board import SimDisplay
from firmware import fonts
from firmware.codes import DIGIT_H, WHITE

SIZES = ((296, 128), (250, 122))


class FitDisplay(SimDisplay):
    """The sim's panel, keeping each text's box and each rule drawn in the frame on show."""

    def __init__(self, width, height):
        super().__init__(width, height, None, True)
        self.boxes = []
        self.rules = []
        self.covered = []

    def fill(self, c):
        self.boxes = []
        self.rules = []
        self.covered = []
        super().fill(c)

    def fill_rect(self, x, y, w, h, c):
        # A white box over what is drawn: a text under it is hidden (a fault), a rule
        # under it is rubbed out.
        if c == WHITE:
            box = (x, y, w, h)
            self.covered.extend(b[4] for b in self.boxes if _meet(b, box) and b[4].strip())
            self.boxes = [b for b in self.boxes if not _meet(b, box)]
            self.rules = [r for r in self.rules if not _meet(r, box)]
        super().fill_rect(x, y, w, h, c)

    def text(self, s, x, y, c=0):
        self.boxes.append((x, y, len(s) * 8, 8, s))
        super().text(s, x, y, c)

    def note(self, x, y, words, height, c):
        # firmware.fonts: a number (big digits) or words in big type
        if isinstance(words, int):
            w = fonts.digits_width(words, height // DIGIT_H)
        else:
            w = len(words) * height
        self.boxes.append((x, y, w, height, str(words)))
        super().note(x, y, words, height, c)

    def hline(self, x, y, w, c):
        self.rules.append((x, y, w, 1))
        super().hline(x, y, w, c)

    def vline(self, x, y, h, c):
        self.rules.append((x, y, 1, h))
        super().vline(x, y, h, c)

    def rect(self, x, y, w, h, c, fill=False):
        if fill:
            super().rect(x, y, w, h, c, True)
            return
        self.rules.extend(((x, y, w, 1), (x, y + h - 1, w, 1), (x, y, 1, h),
                           (x + w - 1, y, 1, h)))
        super().rect(x, y, w, h, c)


def _meet(a, b):
    # Whether boxes (x, y, w, h, ...) share a pixel.
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def faults(d):
    """What does not fit in the frame on show: (what, text) pairs."""
    out = [("under a box", t) for t in d.covered]
    boxes = [b for b in d.boxes if b[4].strip()]
    for i, b in enumerate(boxes):
        if b[0] < 0 or b[1] < 0 or b[0] + b[2] > d.width or b[1] + b[3] > d.height:
            out.append(("cut", b[4]))
        for o in boxes[i + 1:]:
            if _meet(b, o):
                out.append(("over text %r" % o[4], b[4]))
        for r in d.rules:
            if _meet(b, r):
                out.append(("over a rule", b[4]))
                break
    return out


def _first_power_on(d):
    from boards.sim.flash import NorFlash
    from firmware import app as A
    a = A.App(d, NorFlash(4, 4096))
    a.boot()
    a.render()
    return a


def check(cases_=None):
    """Every (panel size, case label, what, text) that does not fit."""
    import mp_ui_hidden as H
    from firmware.codes import LONG, OK
    out = []
    for w, h in SIZES:
        d = FitDisplay(w, h)
        for case in cases_ or H.cases():
            a = H.build(d, case)
            if a.banner:
                continue
            for what, text in faults(d):
                out.append(("%dx%d" % (w, h), case[0], what, text))
        _first_power_on(d)
        for what, text in faults(d):
            out.append(("%dx%d" % (w, h), "first power-on", what, text))
        # A hand saved by a held key: the note over the score until the next press.
        case = ("note after a hand", "42", None, H.HAND[:4], ())
        a = H.build(d, case)
        a.press(LONG | OK)
        for what, text in faults(d):
            out.append(("%dx%d" % (w, h), case[0], what, text))
    return out


def report():
    bad = check()
    for size, label, what, text in bad:
        print("overlap_at %s|%s|%s|%s" % (size, label, what, text))
    print("text_overlaps", len(bad))
