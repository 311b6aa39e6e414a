"""Running the `tally42` command in-process for tests, and the fuzzer's damaged inputs
(tests/e2e/test_cli_fuzz.py, tests/host/events/test_events.py)."""
import json
import os

from host_tools import cli


def run(capsys, *argv):
    """(exit code, stdout, stderr) of `tally42 ARGV...`."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# Inputs a command (TALLY42_FUZZ_ROUNDS for a longer run); the seed is fixed, so a
# failure comes back.
ROUNDS = int(os.environ.get("TALLY42_FUZZ_ROUNDS", "60"))


ODD_VALUES = [None, True, -1, 0, 2 ** 64, -2 ** 63, 1e308, 0.5, "", "\ud800", "\x1b[2J",
              "x" * 300, [], [[[]]], {}, {"a": {"b": 1}}, "pass", "nello", 35, 168, 7]


def _mutate_json(rnd, data):
    # One value or key of one line replaced, dropped or doubled.
    lines = data.split(b"\n")
    k = rnd.randrange(len(lines))
    try:
        obj = json.loads(lines[k])
    except ValueError:
        return data
    if not isinstance(obj, dict) or not obj:
        return data
    key = rnd.choice(list(obj))
    what = rnd.randrange(4)
    if what == 0:
        obj[key] = rnd.choice(ODD_VALUES)
    elif what == 1:
        del obj[key]
    elif what == 2:
        obj[rnd.choice(["bid", "seat", "players", "options", "type", "zz", "\ud800"])] = \
            rnd.choice(ODD_VALUES)
    else:
        text = json.dumps(obj)
        lines[k] = (text[:-1] + ", " + json.dumps(key) + ": 1}").encode("utf-8")
        return b"\n".join(lines)
    lines[k] = json.dumps(obj).encode("utf-8", "surrogatepass")
    return b"\n".join(lines)


def mutate(rnd, data):
    """A damaged copy of data: bytes flipped, cut, inserted, lines moved or changed."""
    data = bytearray(data)
    for _ in range(rnd.randint(1, 3)):
        what = rnd.randrange(7)
        if what == 0 and data:
            data[rnd.randrange(len(data))] = rnd.randrange(256)
        elif what == 1 and data:
            del data[rnd.randrange(len(data)):][:rnd.randint(1, 40)]
        elif what == 2:
            at = rnd.randrange(len(data) + 1)
            data[at:at] = os.urandom(rnd.randint(1, 8))
        elif what == 3:
            lines = bytes(data).split(b"\n")
            rnd.shuffle(lines)
            data = bytearray(b"\n".join(lines))
        elif what == 4:
            data = bytearray(_mutate_json(rnd, bytes(data)))
        elif what == 5:
            lines = bytes(data).split(b"\n")
            k = rnd.randrange(len(lines))
            lines.insert(k, lines[k])
            data = bytearray(b"\n".join(lines))
        else:
            data = data[:rnd.randrange(len(data) + 1)]
    return bytes(data)


def fuzzed_inputs(rnd, seeds):
    for i in range(ROUNDS):
        if i % 4 == 0:
            yield bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 300)))
        else:
            yield mutate(rnd, rnd.choice(seeds))


def ends_well(capsys, *argv):
    code = cli.main([str(a) for a in argv])    # a traceback would raise here
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.strip(), argv
        assert "Traceback" not in err
    return code
