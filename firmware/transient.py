# The modules the firmware loads only for a while and unloads after: the one table of
# them, and the one module that touches sys.modules. Every other module, once imported,
# stays. The heap they give back counts on a stock flash, whose modules load into RAM.
import sys

# The journal's mount (firmware/journal/writer.py), once a boot.
MOUNT = ("firmware.boot.mount",)
# The boot's replay of the open sitting (firmware/boot/resume.py), a sitting's start.
BOOT = ("firmware.boot.resume", "engine_core.header", "engine_core.games", "engine_core.journal.reader",
        "engine_core.journal.damage")
# A sync session's (firmware/sync/session.py, firmware/link.py), gone when the session ends.
SESSION = ("firmware.sync.session", "firmware.sync.nextsetup", "firmware.sync.endpoint", "firmware.sync.journal",
           "engine_core.wire", "engine_core.header", "engine_core.texas42.options",
           "engine_core.texas42.optionnames", "engine_core.journal.reader", "engine_core.journal.damage")
# The radio's (firmware/radio/): loaded for a scorer in an event, out of the heap while a
# sync session is open (firmware/sync/session.py) and on a scorer with no event's key.
RADIO = ("firmware.radio.sender", "firmware.radio.air", "engine_core.air.wire",
         "firmware.radio.join", "firmware.radio")
# The USB line's hello gate (firmware/link.py), once it has decided.
HELLO = ("firmware.hello",)
# The check of a line that looked like a hello and was not one (firmware/hello.py).
HELLO_CHECK = ("engine_core.wire",)
# The refusal messages, loaded when a refusal is shown, gone once it is drawn.
REFUSAL = ("engine_core.texas42.messages",)
# What the screens share: out of the heap too while a sync session is open.
SHARED = ("firmware.ui.walk", "firmware.ui.draw", "firmware.fonts")
# A screen's module (firmware/ui/): only the one on show is loaded, with what it alone
# brings in.
SCREENS = "firmware.ui."
WITH_SCREEN = {
    "setup": ("engine_core.texas42.options", "engine_core.gin.options", "engine_core.optioncheck",
              "engine_core.texas42.optionnames", "engine_core.header"),
    "history": ("engine_core.games", "engine_core.journal.reader"),
    # A hand saved by a held key says so (firmware/ui/confirm.py saved()).
    "contract": ("firmware.ui.confirm",),
    "result": ("firmware.ui.confirm",),
}


def unload(names):
    """Unload the modules `names` (each is imported again when next needed)."""
    for name in names:
        m = sys.modules.pop(name, None)
        if m is not None:
            pkg, _, leaf = name.rpartition(".")
            parent = sys.modules.get(pkg)
            if parent is not None and leaf in parent.__dict__:
                delattr(parent, leaf)


def unload_screen(module):
    """Unload a screen's module (its name under firmware/ui/) and what it alone brings."""
    unload((SCREENS + module,))
    unload(WITH_SCREEN.get(module, ()))
