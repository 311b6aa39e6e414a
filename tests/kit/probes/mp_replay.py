# Replays sitting logs on MicroPython with the same host_tools.log.sittinglog code the PC uses,
# printing one JSON line per log: the report, or {"error": [line, message]}.
# Usage: MICROPYPATH=.frozen:. micropython tests/kit/probes/mp_replay.py LOG...   (from the
# checkout; tests/host/test_agreement.py, test_gin_log.py)
import json
import sys

from host_tools.log import lines as LN  # noqa: E402
from host_tools.log import sittinglog as L  # noqa: E402

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    try:
        out = L.report(L.replay(data))
    except LN.LogError as e:
        out = {"error": [e.line, e.message]}
    print(json.dumps(out))
