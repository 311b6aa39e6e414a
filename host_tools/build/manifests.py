"""The device code as the manifests define it, read the way MicroPython's
tools/manifestfile.py reads them (include, package, module; `options`; paths relative to
the manifest's folder). The one definition of which files run on the device: deploy,
the mpy-cross check and the type check read it here, the frozen builds through
MicroPython's own reader (tools/mp32.py, the board manifests).

    engine_core/manifest.py, firmware/manifest.py   a package each
    boards/manifest.py          both, what every board file shares, and with board=NAME
                                that board's file and boards/main/NAME/ (main.py, boot.py)
    boards/manifest_*.py        a firmware image: a board's device code (and the port's
                                own modules, which this reader leaves out), or the sim's

    python -m host_tools.build.manifests [--board NAME | --all | MANIFEST]
        prints the source files: the device code (with a board's), of every image
        boards/manifest_*.py freezes, or of one manifest
"""
import os
import sys

from host_tools.resources import ROOT

BOARDS = os.path.join(ROOT, "boards")
# The top-level scripts a board runs as source; every other file is compiled.
SCRIPTS = ("boot.py", "main.py")


class ManifestError(Exception):
    pass


class _Options:
    """`options` in a manifest: the keyword arguments of its include(), None otherwise."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    def defaults(self, **kwargs):
        for k, v in kwargs.items():
            self.__dict__.setdefault(k, v)

    def __getattr__(self, name):
        return None


class Manifest:
    """The files a manifest and those it includes name: (source path, device path)."""

    def __init__(self):
        self.files = []
        self._visited = set()

    def include(self, path, **kwargs):
        if not isinstance(path, str):
            for p in path:
                self.include(p, **kwargs)
            return
        if path.startswith("$("):
            return      # the MicroPython build's own modules ($(PORT_DIR), $(MPY_DIR))
        path = os.path.abspath(path)
        if os.path.isdir(path):
            path = os.path.join(path, "manifest.py")
        if path in self._visited:
            return
        self._visited.add(path)
        with open(path) as f:
            code = f.read()
        env = {"include": self.include, "package": self.package, "module": self.module,
               "metadata": lambda **kw: None, "options": _Options(**kwargs)}
        cwd = os.getcwd()
        os.chdir(os.path.dirname(path))
        try:
            exec(compile(code, path, "exec"), env)
        finally:
            os.chdir(cwd)

    def package(self, package_path, files=None, base_path=".", opt=None):
        base = os.path.abspath(base_path)
        if files is None:
            files = []
            for folder, dirs, names in os.walk(os.path.join(base, package_path)):
                dirs.sort()
                for name in sorted(names):
                    if name.endswith(".py"):
                        files.append(os.path.relpath(os.path.join(folder, name),
                                                     os.path.join(base, package_path)))
        for f in files:
            self._add(os.path.join(base, package_path, f), os.path.join(package_path, f))

    def module(self, module_path, base_path=".", opt=None):
        if not module_path.endswith(".py"):
            raise ManifestError("module must be .py file: %s" % module_path)
        self._add(os.path.join(os.path.abspath(base_path), module_path), module_path)

    def _add(self, src, target):
        if not os.path.isfile(src):
            raise ManifestError("Cannot stat %s" % src)
        self.files.append((src, target.replace(os.sep, "/")))


def read(path, **options):
    """(source path, device path) of every file the manifest at `path` names; what the
    MicroPython build adds of its own (an include of $(PORT_DIR)/...) is left out."""
    m = Manifest()
    m.include(path, **options)
    return m.files


def device_files(board=None):
    """The device code: boards/manifest.py, with `board` its file and its main.py."""
    return read(BOARDS, board=board)


def modules(board=None):
    """The device code's modules (the scripts left out), as source paths under ROOT."""
    return [src for src, target in device_files(board) if target not in SCRIPTS]


def boards():
    """The boards a deploy knows: each with its scripts in boards/main/."""
    main = os.path.join(BOARDS, "main")
    return sorted(d for d in os.listdir(main) if os.path.isdir(os.path.join(main, d)))


def all_files():
    """Every file of the images boards/manifest_*.py freeze (each board's device code, the
    sim's build), once."""
    out = []
    for name in sorted(os.listdir(BOARDS)):
        if name.startswith("manifest_") and name.endswith(".py"):
            out += read(os.path.join(BOARDS, name))
    seen = set()
    return [f for f in out if not (f[0] in seen or seen.add(f[0]))]


def main(argv):
    if argv[:1] == ["--board"]:
        files = device_files(argv[1])
    elif argv[:1] == ["--all"]:
        files = all_files()
    else:
        files = read(argv[0]) if argv else device_files()
    for src, _ in files:
        print(os.path.relpath(src))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
