"""Every command that reads a file, fed random bytes and damaged sitting logs, flash
images and databases: each run ends with exit 0 or 2 (a message), never a traceback."""
import os
import random
import sqlite3

import pytest

from host_tools import cli
from host_tools.store import db as D
from clihelp import ROUNDS, ends_well, fuzzed_inputs
from eventlogs import random_log

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _logs():
    out = [random_log(seed, seed % 6, 80, ["Ann", "Bob", "Cy", "Di"] if seed % 6 in (0, 1)
                      else None) for seed in (1, 2, 3, 4, 5, 6)]
    for name in ("examples/sitting.jsonl", "tests/logs/spec_marks_sitting.jsonl"):
        with open(os.path.join(ROOT, name), encoding="utf-8") as f:
            out.append(f.read())
    return [t.encode("utf-8") for t in out]


def test_replay_and_import_take_any_bytes(tmp_path, capsys):
    rnd = random.Random(42)
    db = tmp_path / "t.db"
    log = tmp_path / "f.jsonl"
    codes = set()
    for data in fuzzed_inputs(rnd, _logs()):
        log.write_bytes(data)
        codes.add(ends_well(capsys, "replay", log))
        ends_well(capsys, "replay", log, "--json")
        ends_well(capsys, "import", log, "--db", db)
    assert codes == {0, 2}      # some damaged logs still replay: the damage was harmless
    # What was stored reads back through every reading command.
    ends_well(capsys, "sittings", "--db", db)
    ends_well(capsys, "stats", "--db", db)
    ends_well(capsys, "export", "--all", "--format", "text", "--db", db)


def _image(tmp_path):
    from syncrig import build_image
    path = str(tmp_path / "base.img")
    build_image(path, 3, 3)
    with open(path, "rb") as f:
        return f.read()


def test_export_from_image_and_the_sim_flash_check_take_any_bytes(tmp_path, capsys):
    from host_tools.build import sim as simbuild
    from host_tools.sim import run as sim
    rnd = random.Random(7)
    base = _image(tmp_path)
    flash = tmp_path / "f.img"
    for i in range(ROUNDS // 2):
        data = bytearray(base)
        if i % 3 == 0:
            data = bytearray(os.urandom(rnd.choice([0, 100, 8192, len(base)])))
        else:
            for _ in range(rnd.randint(1, 30)):
                at = rnd.randrange(len(data))
                data[at] = rnd.randrange(256)
        flash.write_bytes(bytes(data))
        ends_well(capsys, "export", "--from-image", flash, "--all", "--format", "csv")
        try:
            sim.check_flash(str(flash))
        except simbuild.SimError:
            pass


def test_sim_scripts_take_any_bytes(tmp_path, capsys):
    # The script is read before the flash is checked: a folder as the flash stops every
    # run there, so no sim starts.
    rnd = random.Random(3)
    script = tmp_path / "s.txt"
    for data in fuzzed_inputs(rnd, [b"ok\nnext\nlong prev\n# c\nmenu\nback\n"]):
        script.write_bytes(data)
        assert ends_well(capsys, "sim", "--script", script, "--flash", tmp_path) == 2


@pytest.mark.parametrize("command", [["sittings"], ["stats"], ["export", "--all"],
                                     ["import", "examples/sitting.jsonl"], ["delete", "x"],
                                     ["rename", "x", "y"],
                                     ["sync", "--port", "loop://", "--wait", "1"]])
def test_a_database_of_any_bytes_is_refused(tmp_path, capsys, command):
    rnd = random.Random(len(command[0]))
    path = tmp_path / "x.db"
    # A real database, then damaged: its header, its pages, or all of it.
    with D.open_db(str(path)) as database:
        database.store(_logs()[0])
    good = path.read_bytes()
    for i in range(8):
        data = bytearray(good)
        if i % 4 == 0:
            data = bytearray(os.urandom(rnd.randint(1, 5000)))
        else:
            for _ in range(rnd.randint(1, 50)):
                data[rnd.randrange(len(data))] = rnd.randrange(256)
        path.write_bytes(bytes(data))
        argv = list(command) + ["--db", path]
        ends_well(capsys, *argv)


def test_another_programs_database_is_refused_and_left_unchanged(tmp_path, capsys):
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(str(path))
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    for command in (["sittings"], ["stats"], ["export", "--all", "--format", "csv"],
                    ["import", "examples/sitting.jsonl"], ["delete", "x"]):
        code = cli.main(command + ["--db", str(path)])
        err = capsys.readouterr().err
        assert code == 2 and "is not a tally42 database" in err, (command, err)
    assert path.read_bytes() == before
