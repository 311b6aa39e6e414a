"""Sitting logs built line by line for the spec's replay tests (tests/host/test_replay_spec.py,
test_replay_options.py): a header, bids, trumps, tricks, results, and the replay run
in-process and as a `tally42` process, with what it must accept or refuse."""
import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

from host_tools import cli


ROOT = Path(__file__).resolve().parents[2]


LOGS = ROOT / "tests" / "logs"


POINT_BIDS = list(range(30, 42))


OPENING_42 = ["pass"] + POINT_BIDS + [42, 84]


SUITS = [0, 1, 2, 3, 4, 5, 6]


TRUMPS_42 = SUITS + ["doubles", "follow-me"]


def header(variant="42", **options):
    h = {"type": "sitting", "variant": variant}
    if options:
        h["options"] = options
    return h


def hdr(variant="42", dealer=None, players=None, **options):
    h = header(variant, **options)
    if dealer is not None:
        h["dealer"] = dealer
    if players is not None:
        h["players"] = players
    return h


def B(bid, seat=None):
    e = {"type": "bid", "bid": bid}
    if seat is not None:
        e["seat"] = seat
    return e


def P():
    return B("pass")


def T(trump, doubles=None):
    e = {"type": "trump", "trump": trump}
    if doubles is not None:
        e["doubles"] = doubles
    return e


def K(winner, count=None):
    e = {"type": "trick", "winner": winner}
    if count is not None:
        e["count"] = count
    return e


def R(**kw):
    e = {"type": "result"}
    e.update(kw)
    return e


def U():
    return {"type": "undo"}


def auction(dealer, bidder, bid, n=4):
    """One-round auction from dealer+1 to the dealer: `bidder` bids, everyone else passes."""
    out = []
    for i in range(1, n + 1):
        seat = (dealer + i) % n
        out.append(B(bid) if seat == bidder else P())
    return out


def write_log(tmp_path, lines, name="s.jsonl"):
    path = tmp_path / name
    text = "".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines)
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(path):
    """`tally42 replay PATH --json`, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(["replay", str(path), "--json"])
        except SystemExit as e:     # argparse's exits
            rc = e.code if isinstance(e.code, int) else 1
    return Ran(rc, out.getvalue(), err.getvalue())


def run_process(path):
    """The same as a process: the entry point and its exit code."""
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "replay", str(path), "--json"],
        cwd=str(ROOT), capture_output=True, text=True, timeout=60,
    )


def ok(tmp_path, lines, name="s.jsonl"):
    path = write_log(tmp_path, lines, name)
    proc = run_cli(path)
    assert proc.returncode == 0, "expected exit 0, got %d; stderr=%r" % (
        proc.returncode, proc.stderr)
    return json.loads(proc.stdout)


def assert_refused_at(path, proc, line):
    assert proc.returncode == 2, "expected exit 2, got %d; stdout=%r stderr=%r" % (
        proc.returncode, proc.stdout[:300], proc.stderr)
    assert proc.stdout == "", "stdout must be empty on refusal, got %r" % proc.stdout[:300]
    err_lines = proc.stderr.splitlines()
    assert len(err_lines) == 1, "stderr must be exactly one line, got %r" % proc.stderr
    m = re.match(r"^(.*):(\d+): (.*\S.*)$", err_lines[0])
    assert m, "stderr is not `LOG:LINE: reason`: %r" % err_lines[0]
    assert m.group(1) == str(path), "LOG part %r != %r" % (m.group(1), str(path))
    assert int(m.group(2)) == line, "refused at line %s, expected line %d: %r" % (
        m.group(2), line, err_lines[0])
    assert m.group(3).strip(), "no reason given"


def refused(tmp_path, lines, line, name="s.jsonl"):
    path = write_log(tmp_path, lines, name)
    proc = run_cli(path)
    assert_refused_at(path, proc, line)
    return proc


def hand(dealer, bidder, bid, contract, made, points, award):
    return {"dealer": dealer, "bidder": bidder, "bid": bid, "contract": contract,
            "made": made, "points": points, "award": award}


class Ran:
    """What the command did, as subprocess.run tells it."""

    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
