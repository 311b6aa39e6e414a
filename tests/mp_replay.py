# Replays sitting logs on MicroPython with the same host_tools.log.sittinglog code the PC uses,
# printing one JSON line per log: the report, or {"error": [line, message]}.
# Usage: micropython tests/mp_replay.py LOG...
import json
import sys

sys.path.insert(0, ".")
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
