"""The fake ESP32 chip on MicroPython's unix port, for the sim, the tests and the bench: its built-in machine (machine.py), esp32 (esp32.py), network and espnow (wifi.py, on boards/sim/radio.py's air) and the CoreInk's clock chip (bm8563.py), each copied from the port's source it names."""


def install(partitions=("journal",), image=None, uid=None):
    """Fake machine and esp32 modules in sys.modules, and the boards imported before
    forgotten (a board file opens on the chip it finds); returns (machine, esp32, undo),
    undo() putting back what was there. partitions: the data partitions' labels, or block
    devices with info(); image: a flash image file, the first partition alone (else a
    partition is only its label); uid: what machine.unique_id() gives. esp32 is the fake
    module itself (esp32.py: its use() boots a whole image with its table instead)."""
    import sys
    from boards.sim.chip import esp32 as e
    from boards.sim.chip.machine import FakeMachine

    names = ["machine", "esp32"] + [k for k in sys.modules
                                    if k.startswith("boards.") and not k.startswith("boards.sim")]
    saved = {k: sys.modules.get(k) for k in names}
    for k in names:
        sys.modules.pop(k, None)
    m = FakeMachine() if uid is None else FakeMachine(uid)
    e.setup(partitions, image)
    m.esp32 = e
    sys.modules["machine"] = m
    sys.modules["esp32"] = e

    def undo():
        for k in list(sys.modules):
            if k.startswith("boards.") and not k.startswith("boards.sim"):
                del sys.modules[k]
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v

    return m, e, undo
