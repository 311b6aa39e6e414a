"""The shape of the code (docs/architecture.md): no import circle among engine_core,
firmware, boards and host_tools, nor between their sub-packages, imports inside functions
counted; the PC's code never imports the device's (formats both sides speak are in
engine_core), the device's never the PC's nor the emulated boards; no list of module
names in firmware/ (phases leave the heap by prefix); no source file over 600 lines; no
folder holding more than 20 modules directly, tests/ and bench/ included; no test
imports a bench or another test, and the import path is set only by the runners; one fake chip
(boards/sim/chip/) stands in for the ESP32's built-in modules. Read
from the source with ast, so a circle that only closes at run time (an import in a
function) is found too."""
import ast
import functools
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("engine_core", "firmware", "boards", "host_tools")
MAX_LINES = 600
MAX_MODULES = 20


def _sources():
    for pkg in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, pkg)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(folder, f)


@functools.lru_cache(maxsize=None)
def _parsed(path, mtime_ns, size):
    return ast.parse(open(path, encoding="utf-8").read(), path)


def _tree(path):
    """path's syntax tree, parsed once for every check (again when the file changes)."""
    st = os.stat(path)
    return _parsed(path, st.st_mtime_ns, st.st_size)


def _module(path):
    rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def _imports(path, modules, tree=None):
    """The project modules `path` imports, anywhere in it (or in `tree`, a part of it):
    `import a.b`, `from a import b` (b a module or a name in a), relative imports
    resolved."""
    me = _module(path)
    package = me if path.endswith("__init__.py") else me.rpartition(".")[0]
    found = set()
    if tree is None:
        tree = _tree(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # `from a import b` runs a's __init__ first, a dependency on it, except from
            # inside the package a, which its __init__ is already running for.
            names = [base + "." + a.name for a in node.names]
            if not (me + ".").startswith(base + "."):
                names.append(base)
        else:
            continue
        for name in names:
            # The longest project module the name falls in: a.b.c as a.b when c is a name.
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != me:
                found.add(name)
    return found


@functools.lru_cache(maxsize=None)
def graph():
    paths = {_module(p): p for p in _sources()}
    return {m: _imports(p, paths) for m, p in paths.items()}


def circles(g):
    """Every strongly connected set of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    found = circles(graph())
    assert not found, "import circles: %s" % "; ".join(" <-> ".join(c) for c in found)


# Which packages each may import (docs/architecture.md): engine_core runs everywhere and
# imports none of the others; nothing on the device imports the PC's host_tools.
MAY_IMPORT = {"engine_core": {"engine_core"},
              "firmware": {"firmware", "engine_core"},
              "boards": {"boards", "firmware", "engine_core"},
              "host_tools": set(PACKAGES)}


def test_imports_go_one_way():
    wrong = sorted("%s imports %s" % (m, d) for m, deps in graph().items() for d in deps
                   if d.split(".")[0] not in MAY_IMPORT[m.split(".")[0]])
    assert not wrong, wrong


def test_a_package_importing_its_own_module_is_no_circle_but_two_modules_are():
    # The checker itself: a package's __init__ importing one of its modules that
    # imports back is the circle Python leaves half-built.
    assert circles({"a": {"a.b"}, "a.b": {"a"}}) == [["a", "a.b"]]
    assert circles({"a": {"a.b"}, "a.b": set(), "c": {"a.b"}}) == []


def test_imports_inside_functions_count(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("def f():\n    from firmware import app\n")
    assert _imports(str(p), {"firmware", "firmware.app"}) == {"firmware", "firmware.app"}
    # Inside the package: its siblings, not the package it already runs in.
    writer = graph()["firmware.journal.writer"]
    assert "engine_core.journal.blocks" in writer and "firmware.journal" not in writer
    p.write_text("import os\n")
    assert _imports(str(p), {"firmware", "firmware.app"}) == set()


@pytest.mark.parametrize("path", list(_sources()), ids=lambda p: os.path.relpath(p, ROOT))
def test_no_source_file_is_over_600_lines(path):
    with open(path, encoding="utf-8") as f:
        n = sum(1 for _ in f)
    assert n <= MAX_LINES, "%s: %d lines" % (os.path.relpath(path, ROOT), n)


def test_no_folder_holds_more_than_20_modules():
    over = []
    for pkg in PACKAGES + ("tests", "bench"):
        for folder, dirs, files in os.walk(os.path.join(ROOT, pkg)):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            n = sum(1 for f in files if f.endswith(".py") and f != "__init__.py")
            if n > MAX_MODULES:
                over.append("%s: %d" % (os.path.relpath(folder, ROOT), n))
    assert not over, over


# ---- sub-packages, the two sides, the phases, the tests ----

def _subpackage(m):
    """host_tools.store.db -> host_tools.store; firmware.app (no sub-package) -> firmware."""
    parts = m.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 else parts[0]


def package_graph(g):
    """The imports between sub-packages of one top-level package (host_tools.store ->
    host_tools.events), from the module graph."""
    out = {}
    for m, deps in g.items():
        a = _subpackage(m)
        out.setdefault(a, set())
        for d in deps:
            b = _subpackage(d)
            if a != b and "." in a and "." in b and a.split(".")[0] == b.split(".")[0]:
                out[a].add(b)
                out.setdefault(b, set())
    return out


def test_no_circle_between_sub_packages():
    # host_tools.store importing host_tools.events inside a function while events
    # imports store is a circle of packages, though no two modules close it.
    found = circles(package_graph(graph()))
    assert not found, "package circles: %s" % "; ".join(" <-> ".join(c) for c in found)


def test_the_package_check_sees_a_circle_closed_inside_a_function(tmp_path):
    g = {"h.store.db": {"h.events.event"}, "h.events.event": {"h.store.db"}, "h.cli": {"h"}}
    assert circles(package_graph(g)) == [["h.events", "h.store"]]
    assert circles(package_graph({"h.store.db": {"h.events.event"}, "h.events.event": set()})) == []


def test_the_pc_never_imports_the_device_code():
    # The journal's format and the radio's frames are engine_core's: the PC reads a flash
    # image with the reader the device runs, not with firmware/.
    wrong = sorted("%s imports %s" % (m, d) for m, deps in graph().items() for d in deps
                   if m.startswith("host_tools") and d.split(".")[0] == "firmware")
    assert not wrong, wrong


def test_the_device_never_imports_the_pc_nor_the_emulated_boards():
    wrong = sorted("%s imports %s" % (m, d) for m, deps in graph().items() for d in deps
                   if m.split(".")[0] in ("firmware", "engine_core")
                   and (d.split(".")[0] == "host_tools" or d.startswith("boards.sim")))
    assert not wrong, wrong


def _name_lists(path):
    """Tuples, lists and sets of 2 or more strings that name the project's modules."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = [e.value for e in node.elts if isinstance(e, ast.Constant)
                     and isinstance(e.value, str) and e.value.split(".")[0] in PACKAGES
                     and "." in e.value]
            if len(names) >= 2:
                found.append("%s:%d %s" % (os.path.relpath(path, ROOT), node.lineno, names))
    return found


def test_no_list_of_module_names_in_firmware():
    # A hand-kept table of modules to unload goes wrong as the imports change: a phase
    # is a package, unloaded by its prefix (firmware/transient.py).
    found = [x for p in _sources() if os.path.relpath(p, ROOT).startswith("firmware")
             for x in _name_lists(p)]
    assert not found, found


def _test_sources():
    for top in ("tests", "bench"):
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(folder, f)


def test_no_test_imports_a_bench_or_another_test():
    # What tests and the bench share is in the kit (tests/kit/).
    wrong = []
    for path in _test_sources():
        for node in ast.walk(_tree(path)):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                leaf = n.split(".")[-1]
                if leaf.startswith(("test_", "bench_")) or n.startswith(("tests.", "bench.")):
                    wrong.append("%s imports %s" % (os.path.relpath(path, ROOT), n))
    assert not wrong, wrong


# The runners that set the import path: pytest's conftest, the MicroPython suites' runner,
# the bench's runner.
PATH_SETTERS = ("tests/conftest.py", "tests/mp_run.py", "bench/run.py",
                # the emulated ESP32's boot, which sets the board's own path as its
                # _boot.py does on the chip
                "tests/kit/espboot/boot_run.py")


def test_only_the_runners_set_the_import_path():
    wrong = []
    for path in _test_sources():
        rel = os.path.relpath(path, ROOT)
        if rel in PATH_SETTERS:
            continue
        for node in ast.walk(_tree(path)):
            target = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value      # sys.path.insert(...), .append, .extend
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                tgts = node.targets if isinstance(node, ast.Assign) else [node.target]
                target = next((t.value if isinstance(t, ast.Subscript) else t for t in tgts), None)
            if isinstance(target, ast.Attribute) and target.attr == "path" and \
                    isinstance(target.value, ast.Name) and target.value.id == "sys":
                wrong.append("%s:%d" % (rel, node.lineno))
    assert not wrong, "sys.path set outside %s: %s" % (", ".join(PATH_SETTERS), wrong)


# The load-for-a-while phases (firmware/transient.py): each leaves the heap by its prefix.
PHASES = ("firmware.sync", "firmware.radio", "firmware.hello")


def _top_level_imports(path, modules):
    """The project modules `path` imports at module level (not inside a function)."""
    tree = _tree(path)
    body = ast.Module(body=[n for n in tree.body if not isinstance(
        n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))], type_ignores=[])
    for n in tree.body:          # a class body runs at import too; its methods do not
        if isinstance(n, ast.ClassDef):
            body.body += [x for x in n.body if not isinstance(x, (ast.FunctionDef,
                                                                  ast.AsyncFunctionDef))]
    return _imports(path, modules, body)


def _in_phase(m):
    return any(m == p or m.startswith(p + ".") for p in PHASES)


def test_the_top_level_check_leaves_imports_inside_functions_out(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("import firmware.app\ndef f():\n    from firmware.sync import session\n")
    mods = {"firmware", "firmware.app", "firmware.sync", "firmware.sync.session"}
    assert _top_level_imports(str(p), mods) == {"firmware.app"}
    assert "firmware.sync.session" in _imports(str(p), mods)


def test_nothing_resident_imports_a_phase_at_top_level():
    # A phase's modules leave the heap when it ends; a resident module that imported one
    # at its top would keep a second copy alive, and the phase's heap with it.
    paths = {_module(p): p for p in _sources()}
    wrong = []
    for m, p in paths.items():
        if not m.startswith("firmware") or _in_phase(m) or m.startswith("firmware.ui."):
            continue
        for d in _top_level_imports(p, paths):
            if _in_phase(d):
                wrong.append("%s imports %s" % (m, d))
    assert not wrong, wrong


# ---- one fake chip ----

# The chip's built-in modules that the unix port lacks, and the functions only the
# machine module has. Their one stand-in is the fake chip, boards/sim/chip/.
CHIP_MODULES = ("machine", "esp32", "network", "espnow")
MACHINE_FUNCTIONS = {"unique_id", "reset_cause", "deepsleep", "lightsleep"}
FAKE_CHIP = "boards/sim/chip/"


def chip_fakes(path, tree=None):
    """What in `path` stands in for a chip's built-in module: a module by its name, a class
    with the machine module's own functions, or an object put in sys.modules under its
    name by a file that does not take it from the fake chip."""
    rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
    if rel.startswith(FAKE_CHIP):
        return []
    if tree is None:
        tree = _tree(path)
    found = []
    if os.path.basename(path)[:-3] in CHIP_MODULES:
        found.append("%s: a module named %s" % (rel, os.path.basename(path)[:-3]))
    uses_chip = False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("boards.sim.chip"):
            uses_chip = True
        elif isinstance(node, ast.ImportFrom) and node.module == "boards.sim" and \
                any(a.name == "chip" for a in node.names):
            uses_chip = True
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            own = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            if own & MACHINE_FUNCTIONS:
                found.append("%s:%d class %s, a machine module" % (rel, node.lineno, node.name))
        elif isinstance(node, ast.Assign) and not uses_chip:
            for t in node.targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and \
                        t.value.attr == "modules" and isinstance(t.slice, ast.Constant) and \
                        t.slice.value in CHIP_MODULES:
                    found.append("%s:%d sys.modules[%r]" % (rel, node.lineno, t.slice.value))
    return found


def test_one_fake_chip():
    # The tests, the bench and the sim open boards on one fake of the ESP32's modules,
    # copied from the port: a second, kinder one would hide what the first catches.
    found = set()
    for top in ("tests", "bench", "boards", "host_tools", "tools"):
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for f in sorted(files):
                if f.endswith(".py"):
                    found.update(chip_fakes(os.path.join(folder, f)))
    assert not found, sorted(found)


def test_the_chip_check_finds_a_fake_machine_and_a_stand_in(tmp_path):
    p = tmp_path / "fakes.py"
    p.write_text("import sys\nclass M:\n    def unique_id(self):\n        return b''\n"
                 "sys.modules['machine'] = M()\n")
    assert len(chip_fakes(str(p))) == 2
    p.write_text("import sys\nfrom boards.sim.chip.machine import FakeMachine\n"
                 "sys.modules['machine'] = FakeMachine(b'1')\n")
    assert chip_fakes(str(p)) == []
    (tmp_path / "esp32.py").write_text("x = 1\n")
    assert len(chip_fakes(str(tmp_path / "esp32.py"))) == 1
