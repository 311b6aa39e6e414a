"""The wiring picture of a board, drawn from the WIRING table at the top of its board
file (boards/<board>.py), so that the picture in the maker's guide and the board file
cannot disagree (tests/test_wiring.py checks the pictures are up to date, and that
every pin the board file's code opens is in its table).

    python tools/wiring.py [--check] [BOARD...]

writes docs/boards/<board>-wiring.svg for each board (all of them by default); --check
writes nothing and exits 1 if a picture is out of date."""
import html
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = ("esp32_epd29", "lilygo_t5_213", "m5stack_coreink")
_PIN = re.compile(r"\b(?:GPIO|IO)(\d+)\b")
_CELL = re.compile(r"\S+(?: \S+)*")     # a table cell: words one space apart


def board_file(board):
    return os.path.join(ROOT, "boards", board + ".py")


def table(board):
    """(groups, notes) of the board file's WIRING block (the "#   " lines after
    "# WIRING"): groups [(title, [(label, pin, note)])], one a column of the table (its
    header cell the title), pin a GPIO number or "3V3"/"GND"; notes: the lines and
    cells that wire nothing."""
    with open(board_file(board)) as f:
        lines = f.read().splitlines()
    start = [i for i, line in enumerate(lines) if line.startswith("# WIRING")]
    if not start:
        raise ValueError("%s has no # WIRING table" % board_file(board))
    block = []
    for line in lines[start[0] + 1:]:
        if not line.startswith("#   "):
            break
        block.append(line[4:])
    if len(block) < 2:
        raise ValueError("%s: its # WIRING table is empty" % board_file(board))
    header = [(m.start(), m.group(0)) for m in _CELL.finditer(block[0])]
    # The columns: the first header cell's, and one from the third header cell on (the
    # second names the ESP32 side of the first).
    splits = [0] + ([header[2][0]] if len(header) > 2 else [])
    titles = [header[0][1]] + ([header[2][1].split(":")[0]] if len(header) > 2 else [])
    groups = [(t, []) for t in titles]
    notes = [h[1] for h in header[2:] if ":" in h[1]]  # "buttons: one leg to 3V3, ..."
    for line in block[1:]:
        cols = [[] for _ in splits]
        for m in _CELL.finditer(line):
            col = max(i for i, at in enumerate(splits) if m.start() >= at)
            cols[col].append(m.group(0))
        for (title, wires), cells in zip(groups, cols):
            pending = []
            for cell in cells:
                if cell in ("3V3", "GND") and pending:
                    wires.append((" ".join(pending), cell, ""))
                    pending = []
                    continue
                matches = list(_PIN.finditer(cell))
                if not matches:
                    pending.append(cell)
                    continue
                at = 0
                for m in matches:
                    before = cell[at:m.start()].strip(" ,:;")
                    wires.append((" ".join(pending + ([before] if before else [])),
                                  int(m.group(1)), ""))
                    pending = []
                    at = m.end()
                after = cell[at:].strip(" ,:;")
                if after:
                    wires[-1] = wires[-1][:2] + (after,)
            if pending:
                notes.append(" ".join(pending))
    return groups, notes


def code_pins(board):
    """The GPIO numbers the board file's code opens: Pin(n) and the numbers of its
    *_PINS tuples."""
    with open(board_file(board)) as f:
        code = "\n".join(line for line in f.read().splitlines()
                         if not line.lstrip().startswith("#"))
    pins = {int(n) for n in re.findall(r"\bPin\((\d+)", code)}
    for tup in re.findall(r"^[A-Z_]*PINS\s*=\s*\(([\d,\s]+)\)", code, re.M):
        pins |= {int(n) for n in tup.replace(",", " ").split()}
    return pins


def svg(board):
    """The picture: each column's signals on the left, each wired to its ESP32 pin on
    the right, then the table's notes."""
    groups, notes = table(board)
    row, width = 22, 760
    rows = sum(len(w) + 1 for _, w in groups) + 1
    top = 64
    height = top + row * rows + 18 * len(notes) + 24
    esc = html.escape
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="16" y="24" font-size="16" font-weight="bold">%s: wiring</text>'
           % esc(board),
           '<text x="16" y="44" fill="#555">drawn from the WIRING table of boards/%s.py '
           '(tools/wiring.py)</text>' % esc(board),
           '<rect x="560" y="%d" width="180" height="%d" fill="#eef3ff" stroke="#335" '
           'rx="6"/>' % (top - 8, row * rows),
           '<text x="650" y="%d" text-anchor="middle" fill="#335" font-weight="bold">'
           'ESP32</text>' % (top + 10)]
    y = top + 10 + row
    for title, wires in groups:
        out.append('<text x="16" y="%d" font-weight="bold">%s</text>' % (y, esc(title)))
        y += row
        for label, pin, note in wires:
            name = pin if isinstance(pin, str) else "GPIO%d" % pin
            colour = {"3V3": "#c00", "GND": "#000"}.get(name, "#06c")
            out.append('<text x="28" y="%d">%s</text>' % (y, esc(label)))
            x1 = 200
            if note:
                note = note[:56]
                out.append('<text x="200" y="%d" font-size="10" fill="#777">%s</text>'
                           % (y, esc(note)))
                x1 += 6 * len(note) + 8
            out.append('<line x1="%d" y1="%d" x2="560" y2="%d" stroke="%s" '
                       'stroke-width="2" stroke-opacity="0.6"/>' % (x1, y - 4, y - 4, colour))
            out.append('<circle cx="560" cy="%d" r="3" fill="%s"/>' % (y - 4, colour))
            out.append('<text x="570" y="%d">%s</text>' % (y, esc(name)))
            y += row
    y += 4
    for note in notes:
        out.append('<text x="16" y="%d" fill="#333">%s</text>' % (y, esc(note)))
        y += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"


def picture_path(board):
    return os.path.join(ROOT, "docs", "boards", board + "-wiring.svg")


def main(argv):
    check = "--check" in argv
    boards = [a for a in argv if not a.startswith("-")] or list(BOARDS)
    stale = []
    for board in boards:
        if board not in BOARDS:
            sys.stderr.write("wiring: unknown board %s (one of %s)\n" % (board, ", ".join(BOARDS)))
            return 2
        path = picture_path(board)
        text = svg(board)
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(os.path.relpath(path, ROOT))
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        print(os.path.relpath(path, ROOT))
    if stale:
        sys.stderr.write("out of date (run python tools/wiring.py): %s\n" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
