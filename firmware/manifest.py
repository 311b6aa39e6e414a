# firmware on the device: every module of the package and of its sub-packages, but the
# sim's NOR flash (boards/manifest_sim.py adds it). Read by MicroPython's
# tools/manifestfile.py (freezing) and host_tools/link/manifests.py (deploy, the mpy-cross
# and type checks), with paths relative to this folder; this file is the build's, not a
# module.
import os

HOST_ONLY = ("manifest.py", "nor.py")
package("firmware", base_path="..", opt=3, files=sorted(
    os.path.join(folder, name)[2:] for folder, _, names in os.walk(".") for name in names
    if name.endswith(".py") and os.path.join(folder, name)[2:] not in HOST_ONLY))
