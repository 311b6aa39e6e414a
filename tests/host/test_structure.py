"""The shape of the code (docs/architecture.md): no import circle among engine_core,
firmware, boards and host_tools, imports inside functions counted; no source file over
600 lines; no folder holding more than 20 modules directly. Read from the source with
ast, so a circle that only closes at run time (an import in a function) is found too."""
import ast
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


def _module(path):
    rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def _imports(path, modules):
    """The project modules `path` imports, anywhere in it: `import a.b`, `from a import
    b` (b a module or a name in a), relative imports resolved."""
    me = _module(path)
    package = me if path.endswith("__init__.py") else me.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
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
    for pkg in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, pkg)):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            n = sum(1 for f in files if f.endswith(".py") and f != "__init__.py")
            if n > MAX_MODULES:
                over.append("%s: %d" % (os.path.relpath(folder, ROOT), n))
    assert not over, over
