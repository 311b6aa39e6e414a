# runs on: micropython
# Battery life with the radio on: bench_power.py's hour of play (tests/kit/boardrig.py playing) (a hand every 3 minutes)
# on a scorer in an event, whose sender (firmware/radio/sender.py) sends every record to
# a base station over an air that loses 30 % of frames both ways, in the same fake time.
# The radio's charge: the time it is on (listening for the acknowledge), each frame's
# time on the air, and each start of the WLAN interface, at the datasheet currents below.
#   power.hours_per_1000mAh.playing.radio   with the radio
#   power.ma.playing.radio                   the average current
#   power.ma.radio                           the radio's share of it
#   power.radio_on_ms_per_hand               how long the radio is on a hand
import os
import random


from boardrig import (CPU_160MHZ, CPU_80MHZ, DEEP_SLEEP, HAND_EVERY_S, LIGHT_SLEEP,  # noqa: E402
                      PANEL_REFRESH, REGULATOR, START_MS, fake_board, playing)
from firmware import app as A  # noqa: E402
from firmware.loop import Loop  # noqa: E402
from firmware.power import Power  # noqa: E402
from engine_core.air import wire  # noqa: E402
from firmware.radio import join  # noqa: E402

# ESP32 datasheet (v4.x), "RF Power-Consumption Specifications": receive (802.11b/g/n,
# listening) 95-100 mA, transmit 802.11b at 1 Mbps (ESP-NOW's default rate), 19.5 dBm:
# 240 mA. The WLAN interface's start (esp_wifi_start) is taken as 60 ms at the receive
# current, and a frame as 3 ms on the air (250 bytes at 1 Mbps, with the link's
# acknowledge).
RADIO_RX = 100.0
RADIO_TX = 240.0
WIFI_START_MS = 60
FRAME_MS = 3
LOSS = 0.3
RTT_MS = 40                 # a frame to the PC and its acknowledge back, through the base
KEY = bytes(range(16))
QUICK = os.getenv("TALLY42_BENCH_QUICK") == "1"


class TimedAir:
    """The air and the PC behind the base, in the board's fake time: a frame is lost
    with LOSS, else the PC holds what follows on from what it holds and its acknowledge
    (lost with LOSS too) comes RTT_MS later. Counts the radio's starts and frames."""

    def __init__(self, clock):
        self.clock = clock
        self.held = {}
        self.due = []           # (ticks, peer, ack)
        self.starts = 0
        self.frames = 0
        random.seed(5)

    def make(self):
        air = self

        class Wlan:
            def active(self, on=None):
                if on:
                    air.starts += 1     # the radio on: the WLAN interface started
                return True

            def config(self, name):
                return b"\x02\x00\x00\x00\x00\x01"

        class EspNow:
            on = False

            def active(self, on=None):
                if on is not None:
                    self.on = on
                return self.on

            def config(self, **kw):
                pass

            def add_peer(self, mac):
                pass

            def send(self, mac, msg, sync=True):
                air.frames += 1
                if random.random() < LOSS:
                    return False
                n = len(msg)
                sid = wire.get_u24(msg, 5)
                off = wire.get_u24(msg, 8)
                got = n - wire.HEAD - wire.MAC_LEN
                held = air.held.get(sid, 0)
                if off <= held < off + got:
                    held = off + got
                air.held[sid] = held
                if random.random() < LOSS:
                    return True
                a = bytearray(wire.ACK_LEN)
                wire.put_head(a, wire.ACK, wire.tag_of(KEY), sid, held, 0)
                wire.seal(KEY, b"\x02\x00\x00\x00\x00\x01", a, wire.HEAD)
                air.due.append((air.clock.t + RTT_MS, b"\x02\x00\x00\x00\x00\x09", a))
                return True

            def irecv(self, timeout_ms=None):
                for i in range(len(air.due)):
                    if air.due[i][0] <= air.clock.t:
                        _, peer, a = air.due.pop(i)
                        return [peer, a]
                return (None, None)
        return lambda: (Wlan(), EspNow())


def main():
    hands = 2 if QUICK else 20
    presses, end = playing(hands)
    b = fake_board(presses, stop_ms=end, light=True)

    def deep_sleep():
        b.clock.t = end
    b.deep_sleep = deep_sleep
    path = "/tmp/tally42-bench-radio.settings"
    join.save(join.path_of(path), "".join("%02x" % x for x in KEY))
    air = TimedAir(b.clock)
    b.radio = air.make()
    app = A.App(b.display, b.flash, path)
    app.boot()
    app.air = b
    join.start(app)             # the sender comes with the first record
    app.render()
    lp = Loop(b, app, Power(b, 10))
    lp.run()
    sender = app.radio
    os.remove(join.path_of(path))
    total = b.clock.t - START_MS
    pw = lp.power
    fast = total - pw.light_ms - pw.slow_ms - pw.deep_ms
    charge = (fast * CPU_160MHZ + pw.slow_ms * CPU_80MHZ + pw.light_ms * LIGHT_SLEEP
              + pw.deep_ms * DEEP_SLEEP + b.display.busy_ms * PANEL_REFRESH)
    radio = (sender.on_ms * RADIO_RX + air.starts * WIFI_START_MS * RADIO_RX
             + air.frames * FRAME_MS * (RADIO_TX - RADIO_RX))
    ma = (charge + radio) / total
    assert sum(air.held.values()) > 0 and air.frames >= hands
    print("power.hours_per_1000mAh.playing.radio: %.0f h" % (1000 / (ma + REGULATOR)))
    print("power.ma.playing.radio: %.2f mA" % (ma + REGULATOR))
    print("power.ma.radio: %.2f mA" % (radio / total))
    print("power.radio_on_ms_per_hand: %.0f ms (%d starts, %d frames, %d hands of %d s)" % (
        (sender.on_ms + air.starts * WIFI_START_MS) / hands, air.starts, air.frames, hands,
        HAND_EVERY_S))


main()
