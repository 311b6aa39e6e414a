"""The shared codes folded into the device modules as they are compiled, as a C compiler
folds a header's #define: a public `NAME = const(n)` of a device module (engine_core/
codes.py, firmware/codes.py, ...) becomes the number n wherever a device module uses it,
and its definition goes. The source keeps its one home for each code;
the compiled module interns no name for it and looks nothing up at run time. On a stock
flash, whose modules load into the heap, that is a name-table entry and a dictionary slot
fewer for each code (docs/architecture.md).

Used by every build that compiles the device modules with mpy-cross (host_tools/sim/
build.py, host_tools/deploy/deploy.py). The frozen builds freeze the sources as they are:
their names and dictionaries live in flash. A name bound any other way in a module that
uses the code (an assignment, an argument, a name used inside an f-string) is refused, as
the folded module would then mean something else."""
import ast
import hashlib
import io
import os
import tokenize


class FoldError(Exception):
    """A device module that cannot be folded safely: the message says where and why."""


_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
        ast.Mod: lambda a, b: a % b, ast.LShift: lambda a, b: a << b,
        ast.RShift: lambda a, b: a >> b, ast.BitOr: lambda a, b: a | b,
        ast.BitAnd: lambda a, b: a & b, ast.BitXor: lambda a, b: a ^ b}


def _is_const_call(node):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "const" and len(node.args) == 1 and not node.keywords)


class Fold:
    """The public int codes of the device modules, and any device text with them folded.

        fold = Fold.of_tree(ROOT, ("engine_core", "firmware", "boards"))
        text = fold.module_text("firmware/app.py")
    """

    def __init__(self, sources):
        # sources: {module name: source text}
        self._trees = {}
        for name, text in sources.items():
            try:
                self._trees[name] = ast.parse(text)
            except SyntaxError as e:
                raise FoldError("%s: %s" % (name, e))
        self.codes = {}     # module -> {public name: int}, what it defines or re-exports
        self._folded = {}   # (text, module, where) -> its folded text: each build of a
        # board folds the same modules again (deploy builds one board after another)
        self._solve()
        h = hashlib.sha256()
        with open(__file__, "rb") as f:
            h.update(f.read())      # a new way of folding is a new table too
        for name in sorted(self.codes):
            h.update(repr((name, sorted(self.codes[name].items()))).encode())
        self.digest = h.hexdigest()[:16]

    @classmethod
    def of_tree(cls, root, packages):
        """The device modules under root/<package> for each package."""
        sources = {}
        for top in packages:
            for folder, _, files in os.walk(os.path.join(root, top)):
                if "__pycache__" in folder:
                    continue
                for f in files:
                    if f.endswith(".py"):
                        path = os.path.join(folder, f)
                        with open(path) as src:
                            sources[module_name(os.path.relpath(path, root))] = src.read()
        return cls(sources)

    # ---- the codes ----
    def _solve(self):
        # Every module's public and private int consts and the codes it imports, until
        # nothing more resolves (a module's consts may use another's).
        known = {name: {} for name in self._trees}
        changed = True
        while changed:
            changed = False
            for name, tree in self._trees.items():
                env = known[name]
                aliases = _aliases(tree)
                for node in tree.body:
                    if (isinstance(node, ast.Assign) and len(node.targets) == 1
                            and isinstance(node.targets[0], ast.Name)
                            and _is_const_call(node.value)):
                        target = node.targets[0].id
                        if target in env:
                            continue
                        v = self._eval(node.value.args[0], env, aliases, known)
                        if v is not None:
                            env[target] = v
                            changed = True
                    elif isinstance(node, ast.ImportFrom) and node.module in known:
                        for a in node.names:
                            bound = a.asname or a.name
                            v = known[node.module].get(a.name)
                            if v is not None and bound not in env and not a.name.startswith("_"):
                                env[bound] = v
                                changed = True
        for name, env in known.items():
            public = {k: v for k, v in env.items() if not k.startswith("_")}
            if public:
                self.codes[name] = public

    def _eval(self, node, env, aliases, known):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            return env.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            mod = aliases.get(node.value.id)
            return known.get(mod, {}).get(node.attr) if mod else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)):
            v = self._eval(node.operand, env, aliases, known)
            if v is None:
                return None
            return -v if isinstance(node.op, ast.USub) else ~v
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            a = self._eval(node.left, env, aliases, known)
            b = self._eval(node.right, env, aliases, known)
            if a is None or b is None:
                return None
            return _OPS[type(node.op)](a, b)
        return None

    def _check_reach(self, tree, aliases, where):
        # A code reached where folding cannot see it: through a dotted module name
        # (`import a.codes` then `a.codes.X`) or by its name in a string (getattr).
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
                dotted = _dotted(node.value)
                if dotted in self.codes and node.attr in self.codes[dotted]:
                    raise FoldError("%s:%d: %s.%s: import the module with a name of its "
                                    "own (from ... import ... as X)"
                                    % (where, node.lineno, dotted, node.attr))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                    and isinstance(node.args[0], ast.Name)
                    and aliases.get(node.args[0].id) in self.codes):
                raise FoldError("%s:%d: %s of a module of shared codes: they are numbers on "
                                "the device" % (where, node.lineno, node.func.id))

    # ---- folding ----
    def module_text(self, path, root=None):
        """The folded text of the device module at path: absolute, or relative to root
        (never to the current folder, which may be anywhere)."""
        if root and os.path.isabs(path):
            rel = os.path.relpath(path, root)
        else:
            rel = path
        with open(os.path.join(root, rel) if root else path) as f:
            return self.text(f.read(), module_name(rel), rel)

    def text(self, text, module=None, where="<script>"):
        """text (a device module named module, or a script when None) with the codes it
        uses folded into numbers, its own codes' definitions gone."""
        key = (text, module, where)
        if key not in self._folded:
            self._folded[key] = self._fold(text, module, where)
        return self._folded[key]

    def _fold(self, text, module, where):
        tree = ast.parse(text)
        own = self.codes.get(module, {}) if module else {}
        aliases = _aliases(tree)
        names = dict(own)       # bare names that are codes here
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in self.codes:
                for a in node.names:
                    if a.name in self.codes[node.module]:
                        names[a.asname or a.name] = self.codes[node.module][a.name]
        modules = {alias: self.codes[m] for alias, m in aliases.items() if m in self.codes}
        self._check_reach(tree, aliases, where)
        if not names and not modules:
            return text
        _check(tree, names, own, where)
        edits = []
        skip = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in self.codes:
                keep = [a for a in node.names if a.name not in self.codes[node.module]]
                if len(keep) < len(node.names):
                    edits.append(_import_edit(node, keep))
                skip.update(range(node.lineno, node.end_lineno + 1))
        for node in tree.body:
            # Its own codes' definitions go: every use is a number now.
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name) and node.targets[0].id in own
                    and _is_const_call(node.value)):
                span = node.end_lineno - node.lineno
                edits.append(((node.lineno, node.col_offset),
                              (node.end_lineno, node.end_col_offset), "pass" + "\n" * span))
                skip.update(range(node.lineno, node.end_lineno + 1))
        lines = text.splitlines(True)
        toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.NL, tokenize.COMMENT)]
        for i, t in enumerate(toks):
            if t.type != tokenize.NAME or t.start[0] in skip:
                continue
            before = toks[i - 1] if i else None
            after = toks[i + 1] if i + 1 < len(toks) else None
            if before is not None and before.string == ".":
                if i < 2 or toks[i - 2].type != tokenize.NAME:
                    continue
                alias = toks[i - 2].string
                if i >= 3 and toks[i - 3].string == ".":
                    continue
                table = modules.get(alias)
                if table is None or t.string not in table:
                    continue
                start = toks[i - 2].start
                value = table[t.string]
            elif t.string in names:
                start = t.start
                value = names[t.string]
            else:
                continue
            s = str(value)
            if value < 0 or (after is not None and after.string == "."):
                s = "(%s)" % s
            edits.append((start, t.end, s))
        return _apply(lines, edits)


def module_name(rel):
    """firmware/ui/draw.py -> firmware.ui.draw; a package's __init__.py is the package."""
    name = rel[:-3].replace(os.sep, ".").replace("/", ".")
    return name[:-9] if name.endswith(".__init__") else name


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _aliases(tree):
    # {bound name: module} for every `import a.b as X` / `from a import b as X` of a
    # module, anywhere in the text (imports inside functions included).
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out.setdefault(a.asname or a.name, node.module + "." + a.name)
    return out


def _check(tree, names, own, where):
    # A code's name bound another way in this text, or used where folding cannot reach.
    defined = {id(node.targets[0]) for node in tree.body
               if isinstance(node, ast.Assign) and len(node.targets) == 1
               and isinstance(node.targets[0], ast.Name) and node.targets[0].id in own
               and _is_const_call(node.value)}
    for node in ast.walk(tree):
        bad = None
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            if node.id in names and id(node) not in defined:
                bad = "assigns"
        elif isinstance(node, ast.arg) and node.arg in names:
            bad = "takes an argument named"
        elif isinstance(node, ast.keyword) and node.arg in names:
            bad = "passes a keyword named"
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
            bad = "defines"
        elif isinstance(node, ast.JoinedStr):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and sub.id in names:
                    bad = "uses inside an f-string"
                    node = sub
        elif isinstance(node, ast.Global) and set(node.names) & set(names):
            bad = "declares global"
        if bad:
            name = getattr(node, "id", None) or getattr(node, "arg", None) or getattr(
                node, "name", None) or ", ".join(getattr(node, "names", ()))
            raise FoldError("%s:%d: %s %s, a shared code: rename it"
                            % (where, node.lineno, bad, name))


def _import_edit(node, keep):
    # The import statement with the folded names left out ("pass" when none is left),
    # on as many lines as before.
    span = node.end_lineno - node.lineno
    if keep:
        body = "from %s import %s" % (node.module, ", ".join(
            a.name + (" as " + a.asname if a.asname else "") for a in keep))
    else:
        body = "pass"
    return ((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset),
            body + "\n" * span if span else body)


def _apply(lines, edits):
    # Replace each (start, end, text) span, last first; rows 1-based, columns 0-based.
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    text = "".join(lines)
    edits.sort(key=lambda e: e[0], reverse=True)
    last = len(text) + 1
    for (r0, c0), (r1, c1), new in edits:
        a, b = offsets[r0 - 1] + c0, offsets[r1 - 1] + c1
        if b > last:
            raise FoldError("overlapping folds at line %d" % r0)
        text = text[:a] + new + text[b:]
        last = a
    return text
