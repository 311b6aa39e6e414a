# A scorer with no screen or buttons, for the sync tests and the sync bench: the journal
# in a NOR image file, the sync endpoint on a tty, polled from a main loop that may go on
# scoring (an event into the open sitting every --play ms). Runs on the MicroPython unix
# port, from the checkout (MICROPYPATH=.frozen:.:tests/kit/chip, as tests/kit/syncrig.py
# runs it: the chip fakes for --rtc):
#        micropython tests/kit/sync_device.py IMAGE TTY [--id ID] [--record FILE]
#        [--blocks N] [--chunk N] [--play MS] [--stream] [--idle MS] [--rtc WHEN]
# --rtc gives the scorer a firmware clock (firmware.link.Clock) on the board's RTC
# (boards.device.RtcClock over the fake machine.RTC of tests/kit/chip/fakes.py): WHEN is
# "SECS:TAG", the RTC as a power-on SECS seconds ago left it (2000-01-01 plus SECS, the
# power-on's tag TAG in its memory: a clock no sync has set), or "set:UNIX:OFFSET", an RTC
# a PC set, reading UNIX now with the UTC offset OFFSET minutes.
# --stream reads the tty the way the firmware reads the REPL's stdin on an ESP32: blocking
# reads, one byte at a time, each only once select.poll says it is there (StreamPort).
import sys

from time import sleep_ms, ticks_diff, ticks_ms  # noqa: E402

from firmware.journal import Journal  # noqa: E402
from boards.sim.flash import NorFlash  # noqa: E402
from firmware.sync.endpoint import SyncEndpoint  # noqa: E402
from firmware.syncport import StreamPort, TtyPort  # noqa: E402


def _args(argv):
    opts = {"image": argv[0], "tty": argv[1], "id": "T42-SIM001", "record": None,
            "blocks": "16", "chunk": "512", "play": "0", "stream": False, "idle": "5000",
            "rtc": None}
    i = 2
    while i < len(argv):
        key = argv[i][2:]
        if key == "stream":
            opts[key] = True
        else:
            opts[key] = argv[i + 1]
            i += 1
        i += 1
    return opts


class Recorder:
    # The app's side of clock, names and settings: one line each into a file.
    def __init__(self, path):
        self.path = path

    def _line(self, text):
        if self.path:
            with open(self.path, "a") as f:
                f.write(text + "\n")

    def clock(self, secs, offset):
        self._line("clock %d %d" % (secs, offset))

    def names(self, kind, names):
        self._line("names %s %s" % (kind, "|".join(names)))
        if len(names) > 6:
            return "at most 6 names"
        if "Nobody" in names:
            return "nobody is called Nobody"

    def settings(self, pairs):
        self._line("settings " + " ".join("%s=%s" % kv for kv in pairs))

    def assign(self, a):
        # A table assignment (event, round, table), or None to drop it.
        self._line("assign -" if a is None else "assign %s|%d|%d" % a)


def _rtc_clock(when):
    # A firmware clock on a fake board RTC as `when` (see --rtc) leaves it.
    import time

    from fakes import install_fake_hardware
    from boards.device import RtcClock
    from firmware.link import Clock
    m, _, _ = install_fake_hardware()
    parts = when.split(":")
    if parts[0] == "set":
        unix, memory = int(parts[1]), parts[2].encode()
    else:
        unix, memory = 946684800 + int(parts[0]), b"u" + parts[1].encode()
    # The port's time functions count from 1970 (unix) or 2000 (esp32).
    t = time.gmtime(unix - (946684800 if time.gmtime(0)[0] == 2000 else 0))
    m.RTC().datetime((t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0))
    m.RTC().memory(memory)
    return Clock(RtcClock())


def _stream_port(path):
    import termios
    f = open(path, "r+b")
    termios.setraw(f.fileno())      # raw, but reads block (VMIN 1), like stdin on an ESP32
    return StreamPort(f, f)


def main():
    o = _args(sys.argv[1:])
    flash = NorFlash(int(o["blocks"]), 4096, path=o["image"])
    j = Journal(flash)
    j.mount()
    port = _stream_port(o["tty"]) if o["stream"] else TtyPort(o["tty"])
    rec = Recorder(o["record"])
    clock = {"clock": rec.clock}
    if o["rtc"]:
        c = _rtc_clock(o["rtc"])

        def set_clock(secs, offset):
            rec.clock(secs, offset)
            return c.set(secs, offset)
        clock = {"clock": set_clock, "now": c.unix, "count": c.count}
    ep = SyncEndpoint(port, j, o["id"], "0.1.0-sim", names=rec.names,
                      settings=rec.settings, assign=rec.assign, kbd_intr=lambda v: None, chunk=int(o["chunk"]),
                      idle_ms=int(o["idle"]), **clock)
    play = int(o["play"])
    ev = bytearray(1)
    last = ticks_ms()
    print("ready")
    while True:
        busy = ep.poll()
        if play and ticks_diff(ticks_ms(), last) >= play:
            last = ticks_ms()
            if j.open_sitting() is None:
                j.begin_sitting(b"\x01\x00")
            ev[0] = 0x10
            j.append(ev)
        if not busy:
            sleep_ms(2)


main()
