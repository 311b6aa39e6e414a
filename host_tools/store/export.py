"""Exports of stored sittings: the sitting log (JSON Lines), CSV one row a hand, and the
printable scoresheet; and the sittings of a device flash image, through host_tools.log.image."""
import csv
import importlib
import io
import re

from host_tools.log import lines as LN
from host_tools.log import sittinglog as L
from host_tools.log.text import csv_cell as neutralise
from host_tools.store import ginstats
from host_tools.store.facts import Facts

FORMATS = ("jsonl", "csv", "text")
EXTENSIONS = {"jsonl": ".jsonl", "csv": ".csv", "text": ".txt"}
MAX_SIDES = 3       # Moon scores each of its 3 seats; every other game, 2 teams

CSV_COLUMNS = ["sitting", "variant", "started", "ended", "event", "round", "table", "game", "hand", "dealer", "bidder", "bid",
               "contract", "trump", "made", "points", "thrown_in"]
for _i in range(1, MAX_SIDES + 1):
    CSV_COLUMNS += ["side%d" % _i, "award%d" % _i, "score%d" % _i]
CSV_COLUMNS.append("damaged")   # yes: a partial sitting, read up to a damaged record

class ExportError(Exception):
    """An export that cannot be made: a message to act on."""


def _yes(flag):
    return "yes" if flag else "no"


def csv_rows(rp):
    """One list of cells (CSV_COLUMNS) for each finished deal of a replayed sitting."""
    facts = Facts(rp)
    header = rp.header
    names = LN.seat_names(header)
    sides = LN.side_names(header)
    rows = []
    for h in facts.hands:
        thrown = bool(h.get("thrown_in"))
        x = header.extra
        row = [facts.id, header.rules.name, x.get("started", ""), x.get("ended", ""),
               x.get("event", ""), x.get("round", ""), x.get("table", ""), h["game"],
               h["number"], names[h["dealer"]]]
        if header.rules.family:
            row += ginstats.csv_cells(names, h)
        elif thrown:
            row += ["", "", "", "", "", "", "yes"]
        else:
            row += [names[h["bidder"]], h["bid"], h["contract"], h.get("trump", ""),
                    _yes(h["made"]), "" if h["points"] is None else h["points"], "no"]
        for i in range(MAX_SIDES):
            if i < len(sides):
                row += [sides[i], 0 if thrown else h["award"][i], h["score"][i]]
            else:
                row += ["", "", ""]
        row.append(_yes(x.get("damaged")))
        rows.append([neutralise(c) for c in row])
    return rows


def csv_text(replays, header=True):
    """CSV text (the csv module's quoting, CRLF rows) of the hands of several sittings."""
    out = io.StringIO()
    w = csv.writer(out)
    if header:
        w.writerow(CSV_COLUMNS)
    for rp in replays:
        w.writerows(csv_rows(rp))
    return out.getvalue()


def scoresheet(rp, utc=False):
    # An export's scoresheet: its times in the PC's local zone, named (utc: UTC).
    return L.scoresheet(rp, utc)


def text_of(fmt, log, rp, utc=False):
    """One sitting in a format: the log itself, CSV with its header row, or the scoresheet."""
    if fmt == "jsonl":
        return log
    if fmt == "csv":
        return csv_text([rp])
    return scoresheet(rp, utc)


def one_stream(fmt, replays, utc=False):
    """Several sittings in one stream: CSV with one header row, or the scoresheets one
    after the other (a sitting log holds one sitting, so jsonl has no such stream)."""
    if fmt == "csv":
        return csv_text(replays)
    if fmt == "text":
        return ("\n" + "-" * 72 + "\n\n").join(scoresheet(rp, utc) for rp in replays)
    raise ValueError("a sitting log holds one sitting")


def file_name(sitting_id, fmt, taken=()):
    """A safe file name for a sitting's export: the id with anything but letters, digits,
    dot, dash and underscore as '_', never starting with a dot; numbered if taken."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", str(sitting_id)).lstrip(".") or "sitting"
    stem = stem[:100]
    name = stem + EXTENSIONS[fmt]
    n = 2
    while name.lower() in taken:
        name = "%s-%d%s" % (stem, n, EXTENSIONS[fmt])
        n += 1
    return name


# ---- a device flash image (host_tools.log.image: it needs the firmware package) ----

def _image_module():
    try:
        return importlib.import_module("host_tools.log.image")
    except ImportError as e:
        if e.name == "host_tools.log.image":
            raise ExportError("--from-image needs host_tools.log.image")
        raise ExportError("--from-image: host_tools.log.image cannot be loaded (%s)" % e)


def image_logs(path, device_id=None):
    """([(sitting id, log text)] for each whole sitting of a device flash image, [numbers
    of the damaged sittings on the scorer, not read]). The header gets the sitting's id
    as sync stores it (host_tools.log.image.read_image_report; with the scorer's
    device_id the whole id), so the exported log keeps it."""
    image = _image_module()
    try:
        sittings, damaged = (image.read_image_report(path, device_id) if device_id
                             else image.read_image_report(path))
    except OSError as e:
        raise ExportError("%s: cannot read: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise ExportError("%s: not a Tally 42 flash image (%s)" % (path, e))
    out = []
    for sitting_id, lines in sittings:
        lines = list(lines)
        if "id" not in lines[0]:
            lines[0] = _with_id(lines[0], str(sitting_id))
        out.append((lines[0]["id"], LN.dump_log(lines)))
    return out, damaged


def _with_id(head, sitting_id):
    # Where Header.to_json puts it: right after the variant.
    out = {}
    for key, value in head.items():
        out[key] = value
        if key == "variant":
            out["id"] = sitting_id
    out.setdefault("id", sitting_id)
    return out
