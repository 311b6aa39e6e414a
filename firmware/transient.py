# Load-for-a-while code, and the one module that touches sys.modules. Every other module,
# once imported, stays. The heap given back counts on a stock flash, whose modules load
# into RAM.
#
# A phase is a package or a module, named by its prefix: firmware.sync (a session with the
# PC), firmware.radio (a scorer in an event), firmware.hello (the USB line's gate), a
# screen's module under firmware.ui. Nothing resident imports one at top level
# (tests/host/test_structure.py). One is a phase only where being unloaded saves 1 KB or
# more on a stock flash (bench/bench_phases.py: phase.NAME.saved_bytes): its code, or the
# name table's next pool that its names would take the boot into; the rest is resident.
# unload(prefix) ends a phase; with it go the modules it alone brought in: those that say
# they are loaded for a while (FOR_A_WHILE, engine_core's formats and house options that
# the scoring never needs) and that no loaded module still refers to. What another
# phase still holds stays (the radio's sender keeps the journal's reader through a sync).
import sys


def unload(prefix):
    """End the phase `prefix` (a module, or a package and all of its modules: each is
    imported again when next needed), then release(). Allocates next to nothing: it runs
    on the way out of a MemoryError too (firmware/link.py)."""
    n = len(prefix)
    while True:
        found = None
        for name in sys.modules:
            if name.startswith(prefix) and (len(name) == n or name.find(".", n) == n):
                found = name
                break
        if found is None:
            break
        _drop(found)
    release()


def release():
    """Unload the load-for-a-while modules (FOR_A_WHILE) that no loaded module refers to:
    not as a module, nor through a function, class or object of theirs."""
    mods = sys.modules
    while True:
        found = None
        for name in mods:
            m = mods[name]
            d = getattr(m, "__dict__", None)    # a fake's stand-in may be no module
            if d is not None and "FOR_A_WHILE" in d and not _held(m, name):
                found = name
                break
        if found is None:
            return
        _drop(found)


def _held(m, name):
    own = m.__dict__
    mods = sys.modules
    for other in mods:
        o = mods[other]
        if o is m:
            continue
        d = getattr(o, "__dict__", None)
        if d is None:
            continue
        for key in d:
            v = d[key]
            if v is m:
                # Held, unless as the attribute its package holds it by (allocating nothing)
                n = len(other)
                if not (name.startswith(other) and name.find(".", n) == n and
                        n + 1 + len(key) == len(name) and name.endswith(key)):
                    return True
            elif getattr(v, "__globals__", None) is own or \
                    getattr(v, "__module__", None) == name:
                return True
    return False


def _drop(name):
    m = sys.modules.pop(name, None)
    if m is not None:
        pkg, _, leaf = name.rpartition(".")
        parent = sys.modules.get(pkg)
        if parent is not None and leaf in parent.__dict__:
            delattr(parent, leaf)
