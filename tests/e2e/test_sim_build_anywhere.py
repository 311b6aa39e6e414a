"""The sim builds from any folder: the device modules are found under the package's own
folder (host_tools/resources.py), never against the current one."""
import os

from host_tools.build.fold import Fold
from host_tools.build import sim as build

ROOT = build.ROOT


def test_a_module_folds_from_another_folder(tmp_path, monkeypatch):
    fold = Fold.of_tree(ROOT, build.DEVICE_DIRS)
    here = fold.module_text("firmware/app.py", ROOT)
    monkeypatch.chdir(tmp_path)
    assert fold.module_text("firmware/app.py", ROOT) == here
    assert fold.module_text(os.path.join(ROOT, "firmware", "app.py"), ROOT) == here


def test_the_sim_builds_from_another_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = build.build(str(tmp_path / "sim"))
    assert os.path.isfile(os.path.join(out, build.ROM))
    assert os.path.isfile(os.path.join(out, "firmware", "app.mpy"))
