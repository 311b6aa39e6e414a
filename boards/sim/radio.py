# The sim's radio: MicroPython's esp32 `espnow` module faked at the air, its frames
# carried as UDP datagrams on 127.0.0.1 between sim processes. Each radio binds a port
# and names it in the air's folder (a file a MAC address holding the port), so that a
# send to a MAC finds its process and a broadcast finds them all. Loss, duplication,
# reordering and delay can be put in the air: `Air(folder, loss=0.3, dup=0.05,
# reorder=0.1, delay_ms=5)`.
#
# What it copies, and where (micropython ports/esp32 at the commit in ../shared):
#   modules/espnow.py  ESPNow(ESPNowBase): irecv() fills one list [peer, bytearray(250)]
#       and returns it (no allocation), recv() returns [bytes, bytes], (None, None) when
#       the wait runs out; iteration is irecv().
#   modespnow.c
#     espnow_init / espnow_active: a singleton; active(True) makes the receive ring of
#       rxbuf bytes (default 2 * (8 + 6 + 250) = 528: header with RSSI, peer, message).
#     _get_singleton_initialised: any call but active/config before active(True) raises
#       OSError(-12389, "ESP_ERR_ESPNOW_NOT_INIT").
#     espnow_config: rxbuf= and timeout_ms= (recv's default wait, 300000 ms); rxbuf is
#       taken at the next active(True); config("rxbuf") reads one back.
#     recv_cb: a frame that does not fit in the ring's free space is dropped and counted
#       (stats()[4]); the ring holds frames until Python reads them.
#     espnow_recvinto: waits up to timeout_ms (None: the configured one) for a frame;
#       a message longer than the buffer raises ValueError("ESPNow.recv(): buffer error").
#     espnow_send: send(peer, msg, sync=True) or send(msg) to every registered peer;
#       sync waits for the link-level acknowledgement and returns False when a peer did
#       not get it (here: the frame was lost in the air), True otherwise; esp_now_send's
#       errors as OSError: a peer not registered -12393 ESP_ERR_ESPNOW_NOT_FOUND, a
#       message of 0 or over 250 bytes -12390 ESP_ERR_ESPNOW_ARG. While ESP-NOW's
#       transmit buffers are full esp_now_send returns ESP_ERR_ESPNOW_NO_MEM, and the
#       call tries again for DEFAULT_SEND_TIMEOUT_MS (2000 ms) before it raises -12391:
#       the air's `busy` fault is the share of sends that find them full that long.
#     _update_peer_info / espnow_add_peer: a MAC of 6 bytes and an lmk of 16 (else
#       ValueError "invalid buffer length"); a second add of one MAC -12395
#       ESP_ERR_ESPNOW_EXIST; over 20 peers -12392 ESP_ERR_ESPNOW_FULL; over 6 encrypted
#       peers -12392 as well (ESP_NOW_MAX_ENCRYPT_PEER_NUM). esp_now_send needs the WLAN
#       interface active: else -12396 ESP_ERR_ESPNOW_IF.
#     stats(): (tx_pkts, tx_responses, tx_failures, rx_packets, dropped_rx_packets).
# ESP-NOW's encryption (an lmk) is kept per peer and checked on the way in: a frame
# between two radios that do not both hold the other as a peer with the same key, or
# both without one, is dropped as the chip drops a frame it cannot decrypt. A broadcast
# frame is never encrypted (ESP-IDF: encryption is per unicast peer).
import gc
import os
import random
import select
import socket
import time

from micropython import const

MAX_DATA_LEN = const(250)
ADDR_LEN = const(6)
KEY_LEN = const(16)
MAX_TOTAL_PEER_NUM = const(20)
MAX_ENCRYPT_PEER_NUM = const(6)
BROADCAST = b"\xff" * 6
_HDR = const(8)             # the ring's header a frame (magic, length, time, RSSI)
_RING = const(528)          # DEFAULT_RECV_BUFFER_SIZE: 2 * (8 + 6 + 250)
_TIMEOUT_MS = const(300000)
_PORT0 = const(42000)       # the first UDP port tried
_DGRAM = const(273)         # on the air: address, encrypted flag, lmk, message
_PORT_MS = const(2000)      # a radio's port is read again from the air's folder after
_SEND_TIMEOUT_MS = const(2000)   # modespnow.c DEFAULT_SEND_TIMEOUT_MS
_ERRS = {12389: "ESP_ERR_ESPNOW_NOT_INIT", 12390: "ESP_ERR_ESPNOW_ARG",
         12391: "ESP_ERR_ESPNOW_NO_MEM", 12392: "ESP_ERR_ESPNOW_FULL", 12393: "ESP_ERR_ESPNOW_NOT_FOUND",
         12395: "ESP_ERR_ESPNOW_EXIST", 12396: "ESP_ERR_ESPNOW_IF"}


_SEEDED = []


def _err(code):
    # check_esp_err(): OSError(-code, the error's name)
    return OSError(-code, _ERRS[code])


def _hex(mac):
    return "".join("%02x" % b for b in mac)


class Air:
    """What lies between the radios: a folder where each names its UDP port, and the
    faults put in the way. loss: the share of frames lost; dup: of frames heard twice;
    reorder: of frames held back behind the next (up to 4 x delay_ms + 20 ms); delay_ms:
    each frame's time in the air; busy: of sends that find the transmit buffers full
    (the send blocks 2 s, then raises ESP_ERR_ESPNOW_NO_MEM). seed: the faults' random
    sequence."""

    def __init__(self, folder, loss=0.0, dup=0.0, reorder=0.0, delay_ms=0, seed=None,
                 busy=0.0):
        self.folder = folder
        self.busy = busy
        self.loss = loss
        self.dup = dup
        self.reorder = reorder
        self.delay_ms = delay_ms
        if seed is not None and not _SEEDED:
            random.seed(seed)       # once a process: a radio made again goes on from there
            _SEEDED.append(seed)
        try:
            os.mkdir(folder)
        except OSError:
            pass        # there already (another radio made it)

    @staticmethod
    def parse(text):
        """An Air from the sim's argument `FOLDER[,loss=0.3][,dup=..][,reorder=..]
        [,busy=..][,delay=MS][,seed=N]`."""
        parts = text.split(",")
        kw = {}
        for p in parts[1:]:
            k, _, v = p.partition("=")
            if k == "delay":
                kw["delay_ms"] = int(v)
            elif k == "seed":
                kw["seed"] = int(v)
            elif k in ("loss", "dup", "reorder", "busy"):
                kw[k] = float(v)
            else:
                raise ValueError("radio: unknown fault %s (loss, dup, reorder, busy, delay,"
                                 " seed)" % k)
        return Air(parts[0], **kw)

    def port_of(self, mac):
        try:
            with open(self.folder + "/" + _hex(mac)) as f:
                return int(f.read())
        except (OSError, ValueError):
            return 0    # no such radio on the air: the frame goes nowhere

    def macs(self):
        out = []
        for name in os.listdir(self.folder):
            if len(name) == 12:
                try:
                    out.append(bytes(int(name[i:i + 2], 16) for i in range(0, 12, 2)))
                except ValueError:
                    pass
        return out

    def lost(self):
        return self.loss and random.random() < self.loss

    def held_ms(self):
        ms = self.delay_ms
        if self.reorder and random.random() < self.reorder:
            ms += random.getrandbits(8) % (4 * self.delay_ms + 20)
        return ms


class WLAN:
    """network.WLAN(STA_IF) as ESP-NOW needs it: active(True) before a send."""

    def __init__(self, mac):
        self._mac = bytes(mac)
        self._on = False

    def active(self, on=None):
        if on is not None:
            self._on = bool(on)
        return self._on

    def config(self, name):
        if name == "mac":
            return self._mac
        raise ValueError("unknown config param")


class ESPNow:
    """espnow.ESPNow on the air `air`, with the MAC of `wlan` (a WLAN above)."""
    _data = None

    def __init__(self, air, wlan):
        self._air = air
        self._wlan = wlan
        self._rxbuf = _RING
        self._timeout = _TIMEOUT_MS
        self._sock = None
        self._poll = None
        self._ring = None       # frames heard and not read: [peer, message]
        self._used = 0          # ring bytes in use
        self._flying = []       # [due ticks, peer, message, encrypted]: held in the air
        self._peers = {}        # mac -> [lmk or None, channel, ifidx, encrypt]
        self._stats = [0, 0, 0, 0, 0]
        self._data = [bytearray(ADDR_LEN), bytearray(MAX_DATA_LEN)]
        self._tx = bytearray(_DGRAM)
        self._addrs = {}        # mac -> (ticks read, UDP address or None)
        self._none = (None, None)

    # ---- init and config ----
    def active(self, on=None):
        if on is not None:
            if on and self._ring is None:
                self._ring = []
                self._used = 0
                self._open()
            elif not on and self._ring is not None:
                # espnow_deinit: the ring and every peer go (esp_now_deinit)
                self._ring = None
                self._peers = {}
                self._close()
        return self._ring is not None

    def config(self, *name, rxbuf=-1, timeout_ms=None, rate=-1):
        if name:
            if name[0] == "rxbuf":
                return self._rxbuf
            if name[0] == "timeout_ms":
                return self._timeout
            raise ValueError("unknown config param")
        if rxbuf >= 0:
            self._rxbuf = rxbuf
        if timeout_ms is not None:
            self._timeout = timeout_ms
        return None

    def stats(self):
        self._ready()
        return tuple(self._stats)

    def _ready(self):
        if self._ring is None:
            raise _err(12389)

    def _open(self):
        mac = self._wlan.config("mac")
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        port = _PORT0 + (mac[4] << 8 | mac[5]) % 20000
        tries = 0
        while True:
            try:
                s.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
                break
            except OSError:
                tries += 1
                if tries > 200:
                    raise
                port = _PORT0 + (port - _PORT0 + 97) % 20000
        self._sock = s
        self._poll = select.poll()
        self._poll.register(s, select.POLLIN)
        path = self._air.folder + "/" + _hex(mac)
        with open(path + ".new", "w") as f:
            f.write(str(port))
        os.rename(path + ".new", path)

    def _close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None
            try:
                os.remove(self._air.folder + "/" + _hex(self._wlan.config("mac")))
            except OSError:
                pass

    # ---- peers ----
    def add_peer(self, mac, lmk=None, channel=None, ifidx=None, encrypt=None):
        self._ready()
        mac = _check(mac, ADDR_LEN)
        if mac in self._peers:
            raise _err(12395)
        if len(self._peers) >= MAX_TOTAL_PEER_NUM:
            raise _err(12392)
        info = [None, channel or 0, ifidx or 0, False]
        self._peer_info(info, lmk, encrypt)
        if info[3] and sum(1 for p in self._peers.values() if p[3]) >= MAX_ENCRYPT_PEER_NUM:
            raise _err(12392)
        self._peers[mac] = info

    def mod_peer(self, mac, lmk=None, channel=None, ifidx=None, encrypt=None):
        info = self._peer(mac)
        if channel is not None:
            info[1] = channel
        if ifidx is not None:
            info[2] = ifidx
        self._peer_info(info, lmk, encrypt)

    @staticmethod
    def _peer_info(info, lmk, encrypt):
        if lmk is not None:
            info[3] = bool(lmk)
            if info[3]:
                info[0] = _check(lmk, KEY_LEN)
        if encrypt is not None:
            info[3] = bool(encrypt)

    def _peer(self, mac):
        self._ready()
        info = self._peers.get(_check(mac, ADDR_LEN))
        if info is None:
            raise _err(12393)
        return info

    def del_peer(self, mac):
        self._peer(mac)
        del self._peers[bytes(mac)]

    def get_peer(self, mac):
        info = self._peer(mac)
        return (bytes(mac), info[0] or b"", info[1], info[2], info[3])

    def get_peers(self):
        self._ready()
        return tuple(self.get_peer(m) for m in self._peers)

    def peer_count(self):
        self._ready()
        n = sum(1 for p in self._peers.values() if p[3])
        return (len(self._peers), n)

    def set_pmk(self, pmk):
        self._ready()
        _check(pmk, KEY_LEN)

    # ---- sending ----
    def send(self, peer, msg=None, sync=True):
        self._ready()
        if msg is None:
            peer, msg = None, peer
        n = len(msg)
        if not self._wlan.active():
            raise _err(12396)
        if not 0 < n <= MAX_DATA_LEN:
            raise _err(12390)
        if peer is None or not peer:
            targets = [m for m in self._peers if m != BROADCAST]
        else:
            self._peer(peer)
            targets = [bytes(peer)]
        if self._air.busy and random.random() < self._air.busy:
            time.sleep_ms(_SEND_TIMEOUT_MS)     # tried again and again, the buffers full
            raise _err(12391)
        ok = True
        for mac in targets:
            self._stats[0] += 1
            self._stats[1] += 1
            if mac == BROADCAST:
                # Heard or lost at each radio alike, and reported sent whatever came of
                # it: a broadcast has no link-level acknowledgement (ESP-IDF's esp_now:
                # its send callback says success).
                for m in self._air.macs():
                    if m != self._wlan.config("mac") and not self._air.lost():
                        self._emit(m, msg, None)
                        if self._air.dup and random.random() < self._air.dup:
                            self._emit(m, msg, None)
                continue
            lmk = self._peers[mac][0] if self._peers[mac][3] else None
            if self._air.lost():
                self._stats[2] += 1
                ok = False      # no link-level acknowledgement came
                continue
            self._emit(mac, msg, lmk)
            if self._air.dup and random.random() < self._air.dup:
                self._emit(mac, msg, lmk)
        return ok or not sync

    def _emit(self, mac, msg, lmk):
        addr = self._address(mac)
        if addr is None:
            return
        # On the air: our MAC, whether it is encrypted and with what key, the message.
        t = self._tx
        t[0:6] = self._wlan.config("mac")
        n = 7
        t[6] = 1 if lmk else 0
        if lmk:
            t[7:23] = lmk
            n = 23
        t[n:n + len(msg)] = msg
        try:
            self._sock.sendto(memoryview(t)[:n + len(msg)], addr)
        except OSError:
            pass        # the radio there has gone: the frame is lost in the air

    def _address(self, mac):
        # The UDP address of the radio `mac`, read from the air's folder now and then
        # (a radio turned on again may have bound another port).
        got = self._addrs.get(mac)
        now = time.ticks_ms()
        if got is None or time.ticks_diff(now, got[0]) > _PORT_MS:
            port = self._air.port_of(mac)
            got = (now, socket.getaddrinfo("127.0.0.1", port)[0][-1] if port else None)
            self._addrs[bytes(mac)] = got
        return got[1]

    # ---- receiving ----
    def _hear(self):
        # recv_cb for every datagram that has come: into the air's delay, then the ring
        # once due, where it is dropped if the ring has no room.
        while self._poll.poll(0):
            try:
                data = self._sock.recv(_DGRAM)
            except MemoryError:
                # The chip copies into its ring from C; here a datagram is an object
                # first: make room for it rather than fail where the chip would not.
                gc.collect()
                data = self._sock.recv(_DGRAM)
            if not self._wlan.active():
                continue        # the radio is off: nothing is heard
            peer = data[:6]
            if data[6]:
                lmk, msg = data[7:23], data[23:]
            else:
                lmk, msg = None, data[7:]
            mine = self._peers.get(peer)
            want = mine[0] if mine is not None and mine[3] else None
            if want != lmk:
                continue        # cannot be decrypted (or should have been): dropped
            self._flying.append((time.ticks_add(time.ticks_ms(), self._air.held_ms()),
                                 peer, msg))
        now = time.ticks_ms()
        i = 0
        while i < len(self._flying):
            due, peer, msg = self._flying[i]
            if time.ticks_diff(now, due) >= 0:
                self._flying.pop(i)
                if _HDR + ADDR_LEN + len(msg) >= self._rxbuf - self._used:
                    self._stats[4] += 1
                else:
                    self._ring.append((peer, msg))
                    self._used += _HDR + ADDR_LEN + len(msg)
                    self._stats[3] += 1
            else:
                i += 1

    def any(self):
        self._ready()
        self._hear()
        return bool(self._ring)

    def recvinto(self, data, timeout_ms=None):
        self._ready()
        wait = self._timeout if timeout_ms is None else timeout_ms
        t0 = time.ticks_ms()
        while True:
            self._hear()
            if self._ring:
                break
            left = wait - time.ticks_diff(time.ticks_ms(), t0)
            if wait >= 0 and left <= 0:
                return 0
            # Wait for a datagram; a frame held in the air wakes us when it is due.
            step = 5 if self._flying else 1000
            self._poll.poll(min(step, left) if wait >= 0 else step)
        peer, msg = self._ring.pop(0)
        self._used -= _HDR + ADDR_LEN + len(msg)
        buf = data[1]
        if len(msg) > len(buf) and not isinstance(buf, bytearray):
            raise ValueError("ESPNow.recv(): buffer error")
        if isinstance(buf, bytearray):
            # The bytearray takes the message's length (its spare room kept), as
            # espnow_recvinto sets len and free.
            buf[:] = msg
        else:
            buf[:len(msg)] = msg
        data[0][:] = peer
        return len(msg)

    def irecv(self, timeout_ms=None):
        n = self.recvinto(self._data, timeout_ms)
        return self._data if n else self._none

    def recv(self, timeout_ms=None):
        n = self.recvinto(self._data, timeout_ms)
        return [bytes(x) for x in self._data] if n else self._none

    def __iter__(self):
        return self

    def __next__(self):
        return self.irecv()


def _check(buf, n):
    # _get_bytes_len: a buffer of exactly n bytes
    if len(buf) != n:
        raise ValueError("invalid buffer length")
    return bytes(buf)



def maker(air, uid):
    """The sim board's `radio`: () -> (WLAN, ESPNow) on the air `air` (Air.parse's text),
    the radio's address 02:00:00 and the chip id's last 3 bytes, as an ESP32's MAC ends
    in the bytes machine.unique_id() gives."""
    mac = b"\x02\x00\x00" + bytes(uid)[-3:]

    def make():
        w = WLAN(mac)
        return w, ESPNow(Air.parse(air), w)
    return make

