"""The serial link to a scorer: a small class around pyserial's `serial_for_url`, so that
tests can use a pseudo-terminal or `loop://`, and the list of ports that may be one."""
import os
import time

import serial
from serial.tools import list_ports

BAUDRATE = 115200

# USB-UART bridges of ESP32 boards (vendor id, product id or None for any of the vendor's).
ESP32_BRIDGES = (
    (0x10C4, 0xEA60),   # Silicon Labs CP210x
    (0x1A86, 0x7523),   # WCH CH340
    (0x1A86, 0x55D4),   # WCH CH9102
    (0x0403, 0x6001),   # FTDI FT232R
    (0x303A, None),     # Espressif native USB (ESP32-S2/S3/C3/C6)
)


class LinkError(Exception):
    """The port cannot be opened, or went away (a pulled cable)."""


class SerialLink:
    """`SerialLink(url)`: open the port; read() waits up to `timeout` seconds for bytes;
    counts the bytes each way (`rx_bytes`, `tx_bytes`)."""

    def __init__(self, url, baudrate=BAUDRATE, timeout=0.05):
        self.url = url
        self.baudrate = baudrate
        self.timeout = timeout
        self.rx_bytes = 0
        self.tx_bytes = 0
        self._port = None
        self.open()

    def open(self):
        try:
            port = serial.serial_for_url(self.url, do_not_open=True, baudrate=self.baudrate,
                                         timeout=self.timeout, write_timeout=5)
            # Opening with DTR and RTS released: the auto-reset circuit of ESP32 boards
            # must not reset the scorer (or start its boot loader).
            port.dtr = False
            port.rts = False
            port.open()
        except (serial.SerialException, OSError, ValueError) as e:
            raise LinkError("cannot open %s: %s" % (self.url, _reason(e)))
        self._port = port

    def reopen(self, wait):
        """Try to open the port again for up to `wait` seconds (a cable plugged back). A
        port whose device file is gone (the USB cable pulled out) fails at once: when it
        comes back it often has another name, so waiting for this one would be in vain."""
        self.close()
        deadline = time.monotonic() + wait
        while True:
            if self.gone():
                raise LinkError("%s is gone (was the cable pulled out?)" % self.url)
            try:
                self.open()
                return
            except LinkError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.25)

    def gone(self):
        """True when the port is a device file that no longer exists."""
        return "://" not in self.url and self.url.startswith("/") and not os.path.exists(
            self.url)

    def close(self):
        if self._port is not None:
            try:
                self._port.close()
            except (serial.SerialException, OSError):
                pass
            self._port = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def write(self, data):
        if self._port is None:
            raise LinkError("%s is closed" % self.url)
        try:
            self._port.write(data)
            self._port.flush()
        except (serial.SerialException, OSError) as e:
            raise LinkError("cannot write to %s: %s" % (self.url, _reason(e)))
        self.tx_bytes += len(data)

    def read(self, timeout=None):
        """What has arrived, waiting up to `timeout` (default: the link's) for a first
        byte: b"" when nothing came."""
        if self._port is None:
            raise LinkError("%s is closed" % self.url)
        try:
            if timeout is not None:
                self._port.timeout = timeout
            data = self._port.read(max(1, self._port.in_waiting))
            if data and self._port.in_waiting:
                data += self._port.read(self._port.in_waiting)
            if timeout is not None:
                self._port.timeout = self.timeout
        except (serial.SerialException, OSError) as e:
            raise LinkError("cannot read from %s: %s" % (self.url, _reason(e)))
        self.rx_bytes += len(data)
        return data

    def discard_input(self):
        try:
            self._port.reset_input_buffer()
        except (serial.SerialException, OSError) as e:
            raise LinkError("cannot read from %s: %s" % (self.url, _reason(e)))


def _reason(e):
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


def candidate_ports():
    """[(device path, description)] of the serial ports with an ESP32 board's USB bridge."""
    out = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        if p.vid is None:
            continue
        for vid, pid in ESP32_BRIDGES:
            if p.vid == vid and (pid is None or p.pid == pid):
                out.append((p.device, p.description or "%04x:%04x" % (p.vid, p.pid)))
                break
    return out
