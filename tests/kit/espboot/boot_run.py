# Run ON MicroPython's unix port by tests/esp32boot.py: an ESP32's boot over a flash
# image, with the esp32 port's own ports/esp32/modules (_boot.py, inisetup.py,
# flashbdev.py, as they are in MicroPython's source) and the fake chip's esp32 module
# (boards/sim/chip/esp32.py) over the image. Prints one line, "BOOT-RESULT {...}".
#
#   micropython boot_run.py IMAGE PORT_MODULES [COPIES]
#
# COPIES: a file of JSON lines run on the mounted file system after the boot, in order,
# as mpremote runs them there (the current folder "/"): ["exec", CODE] runs CODE;
# ["cp", SOURCE, DEVICE PATH] writes the PC's file SOURCE as mpremote's cp does.
#
# The unix port's own root (the PC's files) is moved to /host so that "/" is free for
# the board's file system, as it is on the chip before _boot.py runs.
import sys
import vfs
import os

image, port_modules = sys.argv[1], sys.argv[2]
copies = sys.argv[3] if len(sys.argv) > 3 else None
here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
if not here.startswith("/"):
    here = os.getcwd() + "/" + here


class Corrupted(Exception):
    pass


class FakeTime:
    # The chip's `time` as inisetup.fs_corrupted() uses it: its endless loop of
    # messages every 3 s ends at its first sleep (the board would never get further).
    @staticmethod
    def sleep(s):
        raise Corrupted()


vfs.umount("/")
vfs.mount(vfs.VfsPosix("/"), "/host")
root = here.rsplit("/", 3)[0]     # the checkout: tests/kit/espboot/ is three folders down
sys.path[:] = ["/host" + root, "/host" + port_modules]
from boards.sim.chip import esp32     # noqa: E402  the fake chip's

sys.modules["esp32"] = esp32    # as the chip's built-in module, for _boot.py
esp32.use("/host" + image)
sys.modules["time"] = FakeTime
result = {"mounted": False, "corrupted": False, "files": {}, "fs": None}
try:
    import _boot    # noqa: F401  the port's, from PORT_MODULES
except Corrupted:
    result["corrupted"] = True
del sys.modules["time"]

root = [m[0] for m in vfs.mount() if m[1] == "/"]
if root:
    result["mounted"] = True
    result["fs"] = type(root[0]).__name__


if root and copies:
    import json
    with open("/host" + copies) as f:
        lines = f.read().split("\n")
    os.chdir("/")
    for line in lines:
        if not line:
            continue
        step = json.loads(line)
        if step[0] == "exec":
            exec(step[1], {})
            continue
        src, dst = step[1], step[2]
        try:
            with open("/host" + src, "rb") as s:
                data = s.read()
            with open("/" + dst, "wb") as d:
                d.write(data)
        except OSError as e:
            # mpremote's cp fails the same way: its message, and the boot's result
            raise OSError("cp %s :%s: %s" % (src, dst, e))


def _walk(fs, d, out):
    for entry in fs.ilistdir(d):
        name, kind = entry[0], entry[1]
        p = d + name if d == "/" else d + "/" + name
        if kind == 0x4000:
            _walk(fs, p, out)
        else:
            out[p[1:]] = entry[3] if len(entry) > 3 else fs.stat(p)[6]


if root:
    _walk(root[0], "/", result["files"])
print("BOOT-RESULT", repr(result))
