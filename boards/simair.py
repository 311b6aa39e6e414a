# The sim with a radio (`tally42 sim --radio`, `--base`): boards/sim.py's board, with
# ESP-NOW on the air (boards/simradio.py), run as a scorer or as the base station
# (firmware/radio/base.py). The fake's module is loaded only when the radio is first
# turned on and is kept out of sys.modules, so that, as the chip's built-in espnow, it
# costs the heap nothing until then (a sitting's start, which loads the engine, comes
# first).
import sys


def radio(air, uid):
    """The board's `radio`: () -> (WLAN, ESPNow) on the air `air` (simradio.Air.parse)."""
    def make():
        from boards import simradio
        got = simradio.maker(air, uid)()
        sys.modules.pop("boards.simradio", None)
        delattr(sys.modules["boards"], "simradio")
        return got
    return make


def main(argv):
    """`micropython radiomain.py FLASH WIDTH HEIGHT SERIAL LINK [id=HEX] radio=AIR [base]`
    (tally42 sim --radio, --base): boards/sim.py's main with a radio on the air AIR, and
    with `base` the base station instead of the scorer."""
    from boards import sim
    base = argv[-1] == "base"
    if base:
        argv = argv[:-1]
    air = argv[-1][6:]
    argv = argv[:-1]
    uid = b"SIM"
    if argv[-1].startswith("id="):
        import binascii
        uid = binascii.unhexlify(argv[-1][3:])
        sys.modules["machine"] = sim._FakeChip(uid)
        argv = argv[:-1]
    board = sim.Board(argv[0], int(argv[1]), int(argv[2]), sys.stdout.buffer,
                      sim.Keys(sys.stdin.buffer, 0 if base else 20),
                      sim.SimSerial(argv[4], argv[3]), record=True, radio=radio(air, uid))
    try:
        if base:
            from firmware.radio import base as B
            B.run(board)
        else:
            from firmware import start
            start.run(board)
    finally:
        board.close()
