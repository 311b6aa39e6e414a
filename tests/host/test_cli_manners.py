"""The `tally42` command's manners: a reader that stops reading ends it quietly, and no
message lets a name reorder or hide the text of the line it is on."""
import json
import os
import subprocess
import sys

from clihelp import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOG = os.path.join(ROOT, "tests", "logs", "spec_marks_sitting.jsonl")
RLO = "\u202e"


def _closed_pipe_run(args, cwd):
    # stdout: a pipe whose reader has already gone (`| head -1` once it has its line):
    # every write fails with EPIPE, at once and every time.
    r, w = os.pipe()
    os.close(r)
    try:
        proc = subprocess.run([sys.executable, "-m", "host_tools"] + args, cwd=cwd,
                              stdout=w, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(w)
    return proc


def test_a_closed_pipe_ends_quietly_with_exit_0(tmp_path):
    db = str(tmp_path / "t.db")
    subprocess.run([sys.executable, "-m", "host_tools", "import", LOG, "--db", db],
                   cwd=ROOT, check=True, capture_output=True)
    for args in (["sittings", "--json"], ["sittings"], ["replay", LOG], ["--help"],
                 ["export", "--all", "--db", db, "--format", "csv"]):
        if args[0] in ("sittings",):
            args = args + ["--db", db]
        proc = _closed_pipe_run(args, ROOT)
        assert proc.returncode == 0 and proc.stderr == "", (args, proc.stderr)


def test_a_refused_bidi_name_is_shown_escaped(tmp_path, capsys):
    log = tmp_path / "rlo.jsonl"
    text = open(LOG).read().replace('"Bob"', '"B%sob"' % RLO)
    log.write_text(text)
    for args in (["import", str(log), "--db", str(tmp_path / "t.db")],
                 ["replay", str(log)],
                 ["sync", "--players", "Ann,B%sob,Cy,Di" % RLO, "--port", "/dev/null"],
                 ["event", "create", "E%sv" % RLO, "--format", "round-robin",
                  "--team", "A: Ann, Bob", "--team", "B: Cy, Di",
                  "--db", str(tmp_path / "t.db")]):
        code, out, err = run(capsys, *args)
        assert code == 2, (args, err)
        assert RLO not in err and RLO not in out, (args, err)
        assert "\\u202e" in err, (args, err)


def test_zero_width_characters_are_escaped_in_a_message(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    assert run(capsys, "import", LOG, "--db", db)[0] == 0
    for args in (["export", "--sitting", "x\u2066y", "--db", db],
                 ["delete", "x\u200by", "--db", db]):
        code, out, err = run(capsys, *args)
        assert code == 2 and "\u2066" not in err and "\u200b" not in err, err
        assert "\\u2066" in err or "\\u200b" in err, err


def test_json_output_keeps_names_as_they_are(tmp_path, capsys):
    # Escaping is for messages: data read by programs keeps its text (JSON escapes).
    db = str(tmp_path / "t.db")
    assert run(capsys, "import", LOG, "--db", db)[0] == 0
    code, out, _ = run(capsys, "sittings", "--db", db, "--json")
    assert json.loads(out)["players"] == ["Ann", "Bob", "Cy", "Di"]
