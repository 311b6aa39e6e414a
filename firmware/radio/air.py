# The radio as the sender and the base station use it: a WLAN interface and ESP-NOW on
# it, turned on to send and off to save the battery. The board hands over how to make
# them (boards/device.py on an ESP32: network.WLAN(STA_IF) and espnow.ESPNow();
# boards/sim/radio.py on the sim), so that nothing here imports network or espnow.
#
# ESP-NOW's rules it keeps (MicroPython's ports/esp32/modespnow.c and the espnow docs):
# the WLAN interface is active before ESPNow.active(True); a frame goes only to a
# registered peer, the broadcast address included; turning ESP-NOW off drops every peer;
# at most 20 peers at once (ESP_NOW_MAX_TOTAL_PEER_NUM: add_peer raises
# ESP_ERR_ESPNOW_FULL past it), so a base station answering more scorers than that lets
# the one registered longest ago go (del_peer) to register the next (a peer costs
# nothing to register again).
BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class Radio:
    """`Radio(make)`: make() -> (wlan, espnow), called at the first on()."""

    def __init__(self, make):
        self._make = make
        self._wlan = None
        self.espnow = None
        self.mac = None         # this radio's address, once on
        self.active = False
        self._peers = []

    def on(self, rxbuf=0):
        if self._wlan is None:
            self._wlan, self.espnow = self._make()
        self._wlan.active(True)
        self.mac = bytes(self._wlan.config("mac"))
        self.active = True
        if not self.espnow.active():
            # ESP-NOW once, for good: its receive ring is made in the heap
            # (espnow_init), so it is not made and dropped at every send.
            if rxbuf:
                self.espnow.config(rxbuf=rxbuf)
            self.espnow.active(True)
            peers = self._peers
            self._peers = []
            self.peer(BROADCAST)
            for p in peers:
                self.peer(p)

    def off(self):
        # The WLAN interface off is the radio off; ESP-NOW stays initialised (a send
        # needs the interface on again: ESP_ERR_ESPNOW_IF).
        self._wlan.active(False)
        self.active = False

    def close(self):
        """ESP-NOW off too (espnow_deinit: its ring and every peer go)."""
        if self._wlan is not None:
            self.espnow.active(False)
            self._wlan.active(False)
        self.active = False
        self._wlan = None
        self.espnow = None

    def peer(self, mac):
        """Register `mac` (kept across off and on)."""
        if mac in self._peers:
            return
        if self.active:
            try:
                self.espnow.add_peer(mac)
            except OSError as e:
                if e.args[0] == -12392 and self._evict():   # ESP_ERR_ESPNOW_FULL
                    self.espnow.add_peer(mac)
                elif e.args[0] != -12395:     # ESP_ERR_ESPNOW_EXIST: it is there
                    raise
        self._peers.append(mac)

    def _evict(self):
        # The peer registered longest ago, not the broadcast address, unregistered:
        # True when there was one.
        for p in self._peers:
            if p != BROADCAST:
                self._peers.remove(p)
                try:
                    self.espnow.del_peer(p)
                except OSError:
                    pass            # ESP_ERR_ESPNOW_NOT_FOUND: gone already
                return True
        return False

    def send(self, mac, msg):
        """Send without waiting for the link's acknowledge (the PC's is the one that
        counts); OSError as ESPNow.send raises it."""
        self.peer(mac)
        self.espnow.send(mac, msg, False)
