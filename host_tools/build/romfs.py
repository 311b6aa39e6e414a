"""A ROMFS image (MicroPython's read-only, memory-mapped file system) of compiled modules.
Imported from a ROMFS, a module's bytecode and strings are used where they lie in flash
instead of being copied into the heap. The sim mounts the image as its flash; `tally42
deploy --romfs` writes it to a board's romfs partition with `mpremote romfs deploy`."""
import os

PACKAGES = ("engine_core", "firmware", "boards")


def image(root, packages=PACKAGES):
    """The image of the .mpy files under root/<package> for each package, as bytes."""
    from mpremote.romfs import VfsRomWriter
    rom = VfsRomWriter()

    def add(folder):
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                rom.opendir(name)
                add(path)
                rom.closedir()
            elif name.endswith(".mpy"):
                with open(path, "rb") as f:
                    rom.mkfile(name, f.read())
    for package in packages:
        rom.opendir(package)
        add(os.path.join(root, package))
        rom.closedir()
    return rom.finalise()


def stale(path, root, packages=PACKAGES):
    """True when the image at path is missing or older than a module or folder in it."""
    if not os.path.exists(path):
        return True
    built = os.path.getmtime(path)
    for package in packages:
        for folder, _, files in os.walk(os.path.join(root, package)):
            if os.path.getmtime(folder) > built:
                return True
            for name in files:
                if name.endswith(".mpy") and os.path.getmtime(os.path.join(folder, name)) > built:
                    return True
    return False


def write(path, root, packages=PACKAGES):
    """Write the image of root's packages to path (through a temporary file of this
    process's own, so that builds running at once never write into one)."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "wb") as f:
        f.write(image(root, packages))
    os.replace(tmp, path)
    return path
