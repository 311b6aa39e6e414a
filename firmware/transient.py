# Load-for-a-while code, and the one module that touches sys.modules. Every other module,
# once imported, stays. The heap given back counts on a stock flash, whose modules load
# into RAM.
#
# A phase is a package or a module, named by its prefix: firmware.boot (the mount's
# replay of the open sitting), firmware.sync (a session with the PC), firmware.radio (a
# scorer in an event), firmware.hello (the USB line's gate), a screen's module under
# firmware.ui. Nothing resident imports one at top level (tests/host/test_structure.py).
# unload(prefix) ends a phase; with it go the modules it alone brought in: those that say
# they are loaded for a while (FOR_A_WHILE, engine_core's formats and option checks
# that the scoring never needs) and that no loaded module still refers to. What another
# phase still holds stays (the radio's sender keeps the journal's reader through a sync).
import sys


def unload(prefix):
    """End the phase `prefix` (a module, or a package and all of its modules: each is
    imported again when next needed), then release()."""
    dot = prefix + "."
    for name in list(sys.modules):
        if name == prefix or name.startswith(dot):
            _drop(name)
    release()


def release():
    """Unload the load-for-a-while modules (FOR_A_WHILE) that no loaded module refers to:
    not as a module, nor through a function, class or object of theirs."""
    mods = sys.modules
    again = True
    while again:
        again = False
        for name in list(mods):
            m = mods.get(name)
            if m is not None and "FOR_A_WHILE" in m.__dict__ and not _held(m, name):
                _drop(name)
                again = True


def _held(m, name):
    own = m.__dict__
    pkg, _, leaf = name.rpartition(".")
    for other in list(sys.modules):
        o = sys.modules.get(other)
        if o is None or o is m:
            continue
        for key, v in o.__dict__.items():
            if v is m:
                if other != pkg or key != leaf:     # not the package's own attribute
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
