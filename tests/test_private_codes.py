"""The device's modules keep private copies of the shared codes (`_EV_BID = const(1)`):
MicroPython's compiler folds a private constant away, so that it costs no heap, where a
module's public names each take a slot in the interned-name table and its dict. The
public names live in modules the device never loads: engine_core/codes.py,
engine_core/variants.py (the columns of the variants' table) and firmware/codes.py.

Every copy sits in a block headed `# Copies of PATH` and must be the value PATH gives its
name (the name less its underscore, or the one its comment gives: `_SCORE_MARKS =
const(0)  # MARKS`). Read from the sources, so that it holds for MicroPython's modules
too (firmware/ imports `micropython`, which CPython lacks)."""
import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CANONICAL = ("engine_core/codes.py", "engine_core/variants.py", "firmware/codes.py")
HOST_ONLY = CANONICAL + ("engine_core/errors.py",)
DEVICE = ("engine_core", "firmware", "boards")
COPY = re.compile(r"(_[A-Z][A-Z0-9_]*) = const\(([^)]*)\)\s*(?:#\s*([A-Z][A-Z0-9_]*))?\s*$")


def source(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def constants(rel):
    """NAME -> value of a module's `NAME = const(value)` lines."""
    out = {}
    for node in ast.parse(source(rel)).body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", "") == "const"):
            out[node.targets[0].id] = ast.literal_eval(node.value.args[0])
    return out


def device_modules():
    for top in DEVICE:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                rel = os.path.relpath(os.path.join(folder, name), ROOT)
                if name.endswith(".py") and rel not in HOST_ONLY:
                    yield rel


def copies(rel):
    """(private name, value text, canonical module, canonical name, line) of each copy."""
    out = []
    home = None
    for n, line in enumerate(source(rel).split("\n"), 1):
        if line.startswith("# Copies of "):
            home = line.split()[3]
            assert home in CANONICAL, (rel, n, line)
            continue
        m = COPY.match(line) if home else None
        if not m:
            home = None
            continue
        out.append((m.group(1), m.group(2), home, m.group(3) or m.group(1)[1:], n))
    return out


def test_every_copy_is_the_value_its_home_gives():
    homes = {rel: constants(rel) for rel in CANONICAL}
    seen = 0
    for rel in device_modules():
        for private, text, home, name, line in copies(rel):
            assert name in homes[home], "%s:%d: %s has no %s" % (rel, line, home, name)
            assert ast.literal_eval(text) == homes[home][name], (
                "%s:%d: %s = %s, but %s gives %s = %r"
                % (rel, line, private, text, home, name, homes[home][name]))
            seen += 1
    assert seen >= 250      # about 40 modules copy what they use


def test_every_copy_is_used():
    # A copy nobody reads is a stale one: the code it served has gone.
    for rel in device_modules():
        text = source(rel)
        for private, _, _, _, line in copies(rel):
            assert len(re.findall(r"\b%s\b" % private, text)) > 1, "%s:%d: %s unused" % (
                rel, line, private)


def test_the_device_loads_no_module_of_public_codes():
    # engine_core.rules holds the variants' table; variants.py only names its columns.
    banned = {"engine_core.codes", "engine_core.variants", "firmware.codes",
              "engine_core.errors"}
    for rel in device_modules():
        for node in ast.walk(ast.parse(source(rel))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module} | {node.module + "." + a.name for a in node.names}
            elif isinstance(node, ast.Import):
                names = {a.name for a in node.names}
            else:
                continue
            assert not names & banned, "%s:%d imports %s" % (rel, node.lineno, names & banned)


def test_the_device_modules_define_none_of_the_shared_names_in_public():
    # A public `OVER = const(3)` in a module the device loads would cost a name again.
    shared = set()
    for rel in ("engine_core/codes.py", "firmware/codes.py"):
        shared |= set(constants(rel))
    loaded = ("engine_core/sitting.py", "engine_core/history.py", "engine_core/codec.py",
              "engine_core/rules.py", "firmware/app.py", "firmware/ui/__init__.py",
              "firmware/display/__init__.py", "firmware/fonts.py", "firmware/ui/draw.py")
    for rel in loaded:
        public = {k for k in constants(rel) if not k.startswith("_")}
        assert not public & shared, (rel, public & shared)


def test_the_sittings_own_slots_are_the_ones_codes_py_names():
    # sitting.py keeps the slots under its own short names (_L_BID); codes.py names them
    # for Sitting.last() callers (LAST_BID).
    codes = constants("engine_core/codes.py")
    sitting = constants("engine_core/sitting.py")
    pairs = {"_G_SCORE": "GAME_SCORE", "_G_WINNER": "GAME_WINNER", "_BIDDING": "BIDDING",
             "_TRUMP": "TRUMP", "_PLAY": "PLAY", "_OVER": "OVER"}
    for name in codes:
        if name.startswith("LAST_"):
            pairs["_L_" + name[5:]] = name
    assert len(pairs) == 17
    for private, public in pairs.items():
        assert sitting[private] == codes[public], (private, public)


def test_the_buttons_and_both_codecs_agree_with_the_codes():
    firmware = constants("firmware/codes.py")
    for name, value in constants("firmware/buttons.py").items():
        if name in firmware:
            assert value == firmware[name], name
    assert constants("engine_core/gincodec.py")["MAX_EVENT_BYTES"] == \
        constants("engine_core/codes.py")["MAX_EVENT_BYTES"] == \
        constants("engine_core/codec.py")["_MAX_EVENT_BYTES"]


def test_a_gin_pads_header_is_framed_as_header_py_frames_it():
    # engine_core/ginrules.py codes a gin pad's header bytes with copies of these.
    gin, header = constants("engine_core/ginrules.py"), constants("engine_core/header.py")
    for name in ("_HEADER_VERSION", "_GIN_VARIANT0"):
        assert gin[name] == header[name], name
