# FAKES of the esp32 port's network and espnow modules, for a device board's radio
# (boards/device.py: Board.radio, BoardWlan) opened on the fake chip (install()).
# What they copy from MicroPython's ports/esp32:
# - network.WLAN(STA_IF).active(True) starts WiFi (network_wlan.c: esp_wifi_start), whose
#   buffers come from ESP-IDF's heap, which the MicroPython heap grows into: with too
#   little left it fails with ESP_ERR_NO_MEM, raised by esp_exceptions (network_common.c)
#   as OSError("WiFi Out of Memory"). Starting it powers the SAR ADC (ESP32 errata 3.11:
#   GPIO36/39 glitch low; machine.py sar_glitch).
# - config(txpower=dBm) calls esp_wifi_set_max_tx_power(dBm * 4) (network_wlan.c), which
#   before the start fails: OSError("Wifi Not Started").
# - espnow.ESPNow() is a singleton on the station interface: here boards/sim/radio.py's,
#   on an air in a scratch folder.
from boards.sim import radio as simradio
from boards.sim.chip.machine import sar_glitch

STA_IF = 0
NEED_BYTES = 40000      # what WiFi's start takes from ESP-IDF's heap (tens of KB)
START_MS = 80           # esp_wifi_start: one C call, the interrupts on


class FakeNetwork:
    """Stands in for the network module: FakeNetwork.free is ESP-IDF's heap left."""
    STA_IF = STA_IF

    def __init__(self, mac=b"\x02\x00\x00\x00\x00\x33", clock=None):
        self.clock = clock      # a FakeClock: the start takes START_MS of it
        self.free = 100000
        self.mac = mac
        self.wlans = []
        self.starts = 0         # starts that succeeded
        self.refused = 0        # starts that raised

    def WLAN(self, if_id=STA_IF):
        net = self

        class WLAN(simradio.WLAN):
            def __init__(self):
                simradio.WLAN.__init__(self, net.mac)
                self.txpower = None

            def active(self, on=None):
                if on and not self._on:
                    sar_glitch(net.clock, START_MS)
                    if net.free < NEED_BYTES:
                        net.refused += 1
                        raise OSError("WiFi Out of Memory")
                    net.starts += 1
                return simradio.WLAN.active(self, on)

            def config(self, *names, **kw):
                if "txpower" in kw:
                    if not self._on:
                        raise OSError("Wifi Not Started")
                    self.txpower = kw["txpower"]
                    return None
                return simradio.WLAN.config(self, *names)

        w = WLAN()
        self.wlans.append(w)
        return w


class FakeEspnowModule:
    """Stands in for the espnow module: ESPNow() on the newest WLAN of `network`."""

    def __init__(self, network, folder):
        self._net = network
        self._folder = folder

    def ESPNow(self):
        return simradio.ESPNow(simradio.Air(self._folder), self._net.wlans[-1])


def install(folder, clock=None):
    """network and espnow into sys.modules; returns (network, undo)."""
    import sys
    saved = {k: sys.modules.get(k) for k in ("network", "espnow")}
    net = FakeNetwork(clock=clock)
    sys.modules["network"] = net
    sys.modules["espnow"] = FakeEspnowModule(net, folder)

    def undo():
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return net, undo
