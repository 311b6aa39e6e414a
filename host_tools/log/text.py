"""Text of the sitting log and the terminal: JSON shown in a message, names checked
(empty, too long, control characters), and text made safe to print."""
import json


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def show(v):
    return json.dumps(v, ensure_ascii=False)


MAX_NAME = 32           # characters of a player's name


def control(c):
    # C0 and C1 controls, DEL, the line separators, and lone surrogates.
    o = ord(c)
    return o < 32 or 127 <= o < 160 or o in (0x2028, 0x2029) or 0xD800 <= o <= 0xDFFF


def json_line(obj):
    """One line of JSON for a terminal or a pipe: UTF-8 text as it is, but every control
    character (and lone surrogate) as a \\u escape, which JSON readers take back."""
    text = json.dumps(obj, ensure_ascii=False)
    if any(control(c) for c in text):
        text = "".join("\\u%04x" % ord(c) if control(c) else c for c in text)
    return text + "\n"


def invisible(c):
    # Zero-width characters and the bidirectional controls: a name holding one looks like
    # another name, or turns the text after it around.
    o = ord(c)
    return (0x200B <= o <= 0x200F or 0x202A <= o <= 0x202E or 0x2060 <= o <= 0x2069
            or o in (0x061C, 0x180E, 0xFEFF))


def name_problem(name):
    """Why a player or team name cannot be taken (None when it can): empty, too long,
    with control characters (they would act on a terminal when printed), zero-width or
    bidirectional ones (they hide what the name is)."""
    if not name.strip():
        return "an empty name"
    if len(name) > MAX_NAME:
        return "name %s is longer than %d characters" % (show(name), MAX_NAME)
    if any(control(c) for c in name):
        return "name %s has a control character" % printable(name)
    if any(invisible(c) for c in name):
        return "name %s has an invisible or direction-changing character (U+%04X)" % (
            printable(name), [ord(c) for c in name if invisible(c)][0])
    return None


def repeated_name(names):
    """The first name given twice (letter case and surrounding spaces aside), or None:
    two seats under one name would be one player in the statistics."""
    seen = set()
    for n in names:
        key = n.strip().lower()     # (lower, not casefold: MicroPython has only lower)
        if key in seen:
            return n
        seen.add(key)
    return None


def csv_cell(cell):
    """A text cell made inert for spreadsheets: a leading ' before a character that
    starts a formula. Numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return "'" + cell
    return cell


# A spreadsheet reads a cell starting with one of these as a formula (or may).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def printable(text):
    """Text safe to print on a terminal: control characters as escapes (\\x1b), and the
    characters that reorder or hide text (bidirectional controls, zero-width ones) too
    (\\u202e): printed as they are, they would turn the rest of the line around."""
    if not any(control(c) or invisible(c) for c in text):
        return text
    return "".join(("\\x%02x" % ord(c) if ord(c) < 256 else "\\u%04x" % ord(c))
                   if control(c) or invisible(c) else c for c in text)


def message(text):
    """A message for the terminal, line by line made printable (its line breaks kept)."""
    return "\n".join(printable(line) for line in text.split("\n"))
