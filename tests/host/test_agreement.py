"""The engine scores a log the same on CPython and on the MicroPython unix port."""
import json
import os
import subprocess
from array import array

import pytest

from engine_core.texas42 import options as O
from engine_core.texas42.sitting import Sitting
from host_tools.log import lines as LN
from host_tools.log import sittinglog as L
from host_tools.build import sim as simbuild

from randsit import SETUPS, RandomPlayer, play  # noqa: E402

# Run again on the 32-bit MicroPython build by `make test` (TALLY42_MICROPYTHON).
pytestmark = pytest.mark.mp32

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = simbuild.tool("micropython")


def random_log(k):
    variant, options = SETUPS[k % len(SETUPS)]
    rules = O.resolve(variant, options)
    dealer = k % rules.row[0]
    s = Sitting(rules, dealer)
    out = array("l", bytes(8 * 3000))
    n = play(s, RandomPlayer(1000 + k), out, 3000)
    header = LN.Header(rules, dealer, None, {"id": "random-%d" % k})
    lines = L.log_lines(header, list(out[:n]))
    if k % 3 == 2 and n > 8:
        # A refused log: an impossible event part-way through.
        lines.insert(1 + n // 2, {"type": "bid", "bid": 7})
    return LN.dump_log(lines)


def cpython_result(data):
    try:
        return L.report(L.replay(data))
    except LN.LogError as e:
        return {"error": [e.line, e.message]}


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="run `make setup` first")
def test_cpython_and_micropython_agree_on_a_corpus(tmp_path):
    paths = []
    expected = []
    for k in range(60):
        data = random_log(k).encode()
        p = tmp_path / ("r%02d.jsonl" % k)
        p.write_bytes(data)
        paths.append(str(p))
        expected.append(cpython_result(data))
    logs_dir = os.path.join(ROOT, "tests", "logs")
    if os.path.isdir(logs_dir):
        for name in sorted(os.listdir(logs_dir)):
            if name.endswith(".jsonl"):
                p = os.path.join(logs_dir, name)
                paths.append(p)
                with open(p, "rb") as f:
                    expected.append(cpython_result(f.read()))
    proc = subprocess.run([MICROPYTHON, "tests/kit/probes/mp_replay.py"] + paths, cwd=ROOT,
                          env=dict(os.environ, MICROPYPATH=".frozen:."),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(got) == len(expected)
    errors = sum(1 for e in expected if "error" in e)
    assert 0 < errors < len(expected)
    for path, g, e in zip(paths, got, expected):
        assert g == e, path
