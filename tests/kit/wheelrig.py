"""The wheel of this checkout, built and installed as people install it (tests/e2e/test_wheel.py,
bench/bench_cli.py): the wheel built from a copy of the packaged files (no stale build/ of
the checkout gets into it), installed with [sim] into a fresh virtual environment. What it
needs from PyPI comes from a wheel folder of the checkout's build/ (build/wheelhouse),
filled by `pip download` the first time (pip's cache makes that quick; afterwards no
network is needed)."""
import os
import re
import shutil
import subprocess
import sys

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




def installed_venv(tmp):
    """A fresh virtual environment under tmp with this checkout's wheel and [sim]: its
    bin folder."""
    venv = os.path.join(tmp, "venv")
    install(venv, build_wheel(tmp))
    return os.path.join(venv, "bin")
