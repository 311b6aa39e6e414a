"""The wheel of this checkout, built and installed as people install it (tests/e2e/test_wheel.py,
bench/bench_cli.py): the wheel built from a copy of the packaged files (no stale build/ of
the checkout gets into it), installed with [sim] into a fresh virtual environment. What it
needs from PyPI comes from a wheel folder of the checkout's build/ (build/wheelhouse),
filled by `pip download` the first time (pip's cache makes that quick; afterwards no
network is needed). cached_venv(): installed once for the packaged files as they are,
shared by the tests and the bench of a run."""
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WHEELHOUSE = os.path.join(ROOT, "build", "wheelhouse")
PACKAGED = ("pyproject.toml", "README.md", "engine_core", "firmware", "host_tools", "boards")
PIP = ["--disable-pip-version-check", "--quiet"]


def _clean_env():
    # Without the caller's PYTHONPATH: bench/run.py puts the checkout on it, and pip in the
    # new venv would find this checkout's tally42.egg-info there, call tally42 installed
    # already, and leave the venv without it (no bin/tally42).
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def _pip(python, *args, timeout=300):
    return subprocess.run([python, "-m", "pip"] + PIP + list(args), capture_output=True,
                          text=True, timeout=timeout, env=_clean_env())


def build_wheel(tmp):
    src = os.path.join(tmp, "src")
    os.makedirs(src)
    for name in PACKAGED:
        path = os.path.join(ROOT, name)
        if os.path.isdir(path):
            shutil.copytree(path, os.path.join(src, name),
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(path, src)
    dist = os.path.join(tmp, "dist")
    # The build backend (pyproject.toml's pinned setuptools) from the wheel folder first.
    r = _pip(sys.executable, "wheel", "--no-deps", "--no-index", "--find-links", WHEELHOUSE,
             "-w", dist, src)
    if r.returncode:
        os.makedirs(WHEELHOUSE, exist_ok=True)
        r = _pip(sys.executable, "download", "--no-deps", "-d", WHEELHOUSE, _build_requires())
        assert r.returncode == 0, r.stderr
        r = _pip(sys.executable, "wheel", "--no-deps", "--no-index", "--find-links",
                 WHEELHOUSE, "-w", dist, src)
    assert r.returncode == 0, r.stderr
    (wheel,) = os.listdir(dist)
    return os.path.join(dist, wheel)


def _build_requires():
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    return re.search(r'requires = \["([^"]+)"\]', text).group(1)


def install(venv, wheel):
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=120,
                   env=_clean_env())
    python = os.path.join(venv, "bin", "python")
    target = wheel + "[sim]"
    r = _pip(python, "install", "--no-index", "--find-links", WHEELHOUSE, target)
    if r.returncode:
        r = _pip(python, "download", "-d", WHEELHOUSE, target)
        assert r.returncode == 0, r.stderr
        for name in os.listdir(WHEELHOUSE):
            if name.startswith("tally42-"):
                os.remove(os.path.join(WHEELHOUSE, name))
        r = _pip(python, "install", "--no-index", "--find-links", WHEELHOUSE, target)
    assert r.returncode == 0, r.stderr




def _packaged_digest():
    # The packaged files' names and bytes, and the Python that installs them.
    h = hashlib.sha256(sys.version.encode())
    for name in PACKAGED:
        path = os.path.join(ROOT, name)
        files = [path]
        if os.path.isdir(path):
            files = []
            for folder, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                files += [os.path.join(folder, n) for n in sorted(names)
                          if not n.endswith(".pyc")]
        for f in files:
            h.update(os.path.relpath(f, ROOT).encode() + b"\0")
            with open(f, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()[:16]


def cached_venv():
    """installed_venv() once for the packaged files as they are: in the system's temporary
    folder (outside the checkout, as a user's venv is), made under a lock by the first
    that asks (a pytest worker, the bench) and used by the others; a change to a packaged
    file makes a new one. Returns its bin folder."""
    base = os.path.join(tempfile.gettempdir(), "tally42-wheel-" + _packaged_digest())
    with open(base + ".lock", "w") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        done = os.path.join(base, "installed")
        if not os.path.exists(done):
            shutil.rmtree(base, ignore_errors=True)
            os.makedirs(base)
            installed_venv(base)
            open(done, "w").close()
            _forget_old(base)
    return os.path.join(base, "venv", "bin")


def _forget_old(base, days=1):
    # The venvs of code as it was more than a day ago (another checkout may be running
    # on a newer one: only old ones go).
    for name in os.listdir(os.path.dirname(base)):
        path = os.path.join(os.path.dirname(base), name)
        if not name.startswith("tally42-wheel-") or path.startswith(base):
            continue
        try:
            old = time.time() - os.path.getmtime(path) > days * 86400
        except OSError:
            continue
        if old:
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.remove(path)


def installed_venv(tmp):
    """A fresh virtual environment under tmp with this checkout's wheel and [sim]: its
    bin folder."""
    venv = os.path.join(tmp, "venv")
    install(venv, build_wheel(tmp))
    return os.path.join(venv, "bin")
