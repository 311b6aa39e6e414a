"""The device code is what the manifests name (engine_core/manifest.py, firmware/manifest.py,
boards/manifest.py): host_tools/build/manifests.py reads them as MicroPython's own
tools/manifestfile.py does when it freezes them, and deploy, the mpy-cross check and the
type check read them there."""
import glob
import importlib.util
import os

import pytest

from host_tools.build import manifests
from host_tools.deploy import deploy

# Needs the MicroPython source make mp32 unpacks: make test runs it after the builds (pytest-builds).
pytestmark = pytest.mark.builds

ROOT = manifests.ROOT


def micropython_reader():
    """MicroPython's tools/manifestfile.py, from the source tools/mp32.py builds from
    (MICROPY_DIR, else the tarball it unpacked)."""
    given = os.environ.get("MICROPY_DIR")
    found = [os.path.join(given, "tools", "manifestfile.py")] if given else sorted(
        glob.glob(os.path.join(ROOT, "build", "mp32", "src", "*", "tools", "manifestfile.py")))
    found = [f for f in found if os.path.isfile(f)]
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail("no MicroPython source under CI: `make mp32` did not unpack it")
        pytest.skip("no MicroPython source (make mp32)")
    spec = importlib.util.spec_from_file_location("manifestfile", found[-1])
    manifestfile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(manifestfile)
    return manifestfile


def their_files(path, path_vars=None, **options):
    mf = micropython_reader()
    m = mf.ManifestFile(mf.MODE_FREEZE, path_vars or {})
    m.include(path, **options)
    return sorted((f.full_path, f.target_path) for f in m.files())


def test_the_sims_frozen_build_is_read_as_micropython_reads_it():
    path = os.path.join(ROOT, "boards", "manifest_sim.py")
    ours = sorted(manifests.read(path))
    assert ours == their_files(path)
    targets = {t for _, t in ours}
    assert {"boards/sim/flash.py", "boards/sim/board.py", "boards/esp32_epd29.py"} <= targets
    assert "engine_core/manifest.py" not in targets and "main.py" not in targets


@pytest.mark.parametrize("board", deploy.BOARDS)
def test_a_boards_image_freezes_what_deploy_copies(board, tmp_path):
    # The port's own manifest stands in empty: the rest is the board's device code.
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "manifest.py").write_text("")
    path = os.path.join(ROOT, "boards", "manifest_%s.py" % board)
    frozen = their_files(path, {"PORT_DIR": str(tmp_path)})
    assert frozen == sorted(manifests.device_files(board))
    copied = {rel for _, rel in deploy.device_sources(board) + deploy.scripts(board)}
    assert copied == {t for _, t in frozen}


def test_the_device_code_leaves_the_pcs_helpers_out():
    targets = {t for _, t in manifests.all_files()}
    assert "engine_core/texas42/sitting.py" in targets and "firmware/app.py" in targets
    assert not any(t.startswith("host_tools/") or t.endswith("/manifest.py")
                   or "manifest_" in t for t in targets)
    for board in deploy.BOARDS:
        assert "boards/sim/flash.py" not in {t for _, t in manifests.device_files(board)}


def test_the_type_check_covers_every_file_of_the_device_code():
    # pyright reads its settings from pyproject.toml and is given the manifests' files.
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    section = text.split("[tool.pyright]", 1)[1].split("\n[", 1)[0]
    include = [line for line in section.split("\n") if line.startswith("include = ")][0]
    folders = [w.strip('" ') for w in include.split("[", 1)[1].rstrip("]").split(",")]
    for src, _ in manifests.all_files():
        rel = os.path.relpath(src, ROOT)
        assert rel.split(os.sep)[0] in folders, rel
