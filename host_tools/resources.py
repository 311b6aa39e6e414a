"""Where the files the tool reads at run time are: the device code (engine_core, firmware,
boards: compiled for the sim and for a deploy), the board manifests and each board's
scripts (boards/main/NAME/). They ship in the package as package data beside host_tools
(pyproject.toml) and are found through importlib.resources, so that an installed
`tally42` (pip, pipx) runs from any folder; in a checkout they are the checkout's.

    ROOT            the folder that holds the device packages (site-packages, or the
                    checkout)
    CHECKOUT        True when ROOT is a source checkout (pyproject.toml beside them)
    scratch(*part)  a folder for what the tool builds: build/ in a checkout, else the
                    user's cache folder (XDG_CACHE_HOME, ~/.cache)/tally42
"""
import importlib.resources
import os


def _package_folder(name):
    folder = importlib.resources.files(name)
    # A wheel installed by pip or pipx is unpacked: every package is a folder on disk,
    # which mpy-cross and the manifests' reader need.
    path = os.path.abspath(str(folder))
    if not os.path.isdir(path):
        raise RuntimeError("tally42: the package %s is not a folder on disk (%s): install "
                           "tally42 unzipped (pip, pipx)" % (name, folder))
    return path


ROOT = os.path.dirname(_package_folder("boards"))
CHECKOUT = os.path.isfile(os.path.join(ROOT, "pyproject.toml"))


def scratch(*part):
    """A folder for what the tool builds (not made here)."""
    if CHECKOUT:
        return os.path.join(ROOT, "build", *part)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "tally42", *part)
