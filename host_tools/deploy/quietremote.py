"""mpremote, with the board's serial port opened with DTR and RTS released.

    python -m host_tools.deploy.quietremote MPREMOTE ARGUMENTS...

mpremote (1.29, transport_serial.py) opens the port as pyserial does by default on
Linux and macOS: DTR and RTS asserted at open, released at close (it clears them first
only for a CP210x on Windows). On a board whose USB bridge drives EN from RTS alone, or
whose two-transistor auto-reset circuit sees the lines change one after the other,
that is a reset: a scorer in the middle of a sitting restarts when `tally42 deploy`
only asks it what it has. Here pyserial's port object is made with both lines released
before it is opened (pyserial applies the states it holds when it opens), then
mpremote runs as it would. esptool still resets the board on purpose: it must."""
import sys

import serial
from mpremote import main as mpremote_main

_serial_for_url = serial.serial_for_url


def released(url, *args, **kwargs):
    """serial.serial_for_url, DTR and RTS released on a port not yet opened."""
    port = _serial_for_url(url, *args, **kwargs)
    if not port.is_open:
        port.dtr = False
        port.rts = False
    return port


def main(argv=None):
    serial.serial_for_url = released
    if argv is not None:
        sys.argv = ["mpremote"] + list(argv)
    try:
        return mpremote_main.main()
    finally:
        serial.serial_for_url = _serial_for_url


if __name__ == "__main__":
    sys.exit(main())
