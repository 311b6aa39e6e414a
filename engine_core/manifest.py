# engine_core on the device: every module of the package and of its sub-packages. Read
# by MicroPython's tools/manifestfile.py (freezing) and host_tools/build/manifests.py
# (deploy, the mpy-cross and type checks), with paths relative to this folder; this file
# is the build's, not a module.
import os

package("engine_core", base_path="..", files=sorted(
    os.path.join(folder, name)[2:] for folder, _, names in os.walk(".") for name in names
    if name.endswith(".py") and name != "manifest.py"))
