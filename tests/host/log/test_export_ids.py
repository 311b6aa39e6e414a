"""Exports name sittings as the database does: CSV's event, round and table columns say
what `sittings` shows for a sitting slotted into an event, and `export --from-image`
names a sitting by the id sync stores it by."""
import csv
import io
import json

from clihelp import run
from engine_core import codec
from engine_core.header import encode_header
from eventlogs import sitting_42
from firmware.journal import Journal
from host_tools.events import event as EV
from host_tools.log import image
from host_tools.store import db as D
from eventlogs import random_sitting


def _rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_carries_the_event_round_and_table_of_a_slotted_sitting(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    code, _, err = run(capsys, "event", "create", "Tue", "--format", "round-robin",
                       "--team", "A: a, b", "--team", "B: c, d", "--db", db)
    assert code == 0, err
    with D.open_db(db) as database:
        t = EV.load(database, "Tue").tables[0]
        seats = EV.load(database, "Tue").seats(t.side_a, t.side_b)
    log = tmp_path / "r1t1.jsonl"
    log.write_text(sitting_42(seats, 0, 1, "night-1-1"))
    code, out, err = run(capsys, "event", "result", "Tue", "--round", str(t.round),
                         "--table", str(t.table), str(log), "--db", db)
    assert code == 0, err
    code, out, _ = run(capsys, "sittings", "--db", db)
    assert "Tue R%d T%d" % (t.round, t.table) in out
    code, out, _ = run(capsys, "sittings", "--db", db, "--json")
    slot = json.loads(out)["slot"]
    code, out, err = run(capsys, "export", "--sitting", "night-1-1", "--format", "csv",
                         "--db", db)
    assert code == 0, err
    rows = _rows(out)
    assert rows and all((r["event"], r["round"], r["table"]) == (
        slot["event"], str(slot["round"]), str(slot["table"])) for r in rows), rows[0]
    code, out, err = run(capsys, "export", "--sitting", "night-1-1", "--format", "text",
                         "--db", db)
    assert "Event: Tue, round %d, table %d" % (t.round, t.table) in out


def _image(path, uid):
    header, events = random_sitting(73, 0, 60, ["Ann", "Bob", "Cy", "Di"])
    flash = image.RamFlash(b"\xff" * (8 * image.BLOCK_SIZE))
    journal = Journal(flash)
    journal.mount()
    journal.begin_sitting(encode_header(header.rules, header.dealer, header.players, uid))
    buf = bytearray(8)
    for ev in events:
        n = codec.encode_into(ev, buf, 0)
        journal.append(bytes(buf[:n]))
    journal.finish()
    path.write_bytes(bytes(flash.mem))


def test_from_image_names_sittings_by_the_ids_sync_stores(tmp_path, capsys):
    path = tmp_path / "flash.bin"
    _image(path, 0x2A0944C)
    code, out, err = run(capsys, "export", "--all", "--from-image", str(path), "--device",
                         "T42-0000A1", "--format", "csv")
    assert code == 0, err
    assert {r["sitting"] for r in _rows(out)} == {"T42-0000A1-02A0944C"}
    # Without the scorer's id: the random id, the end of sync's id; the database's id
    # picks it.
    code, out, err = run(capsys, "export", "--all", "--from-image", str(path), "--format",
                         "csv")
    assert {r["sitting"] for r in _rows(out)} == {"02A0944C"}
    code, out, err = run(capsys, "export", "--sitting", "T42-0000A1-02A0944C",
                         "--from-image", str(path), "--format", "csv")
    assert code == 0 and {r["sitting"] for r in _rows(out)} == {"02A0944C"}, err
    code, out, err = run(capsys, "export", "--all", "--device", "T42-0000A1", "--format",
                         "csv")
    assert code == 2 and "give --from-image too" in err
