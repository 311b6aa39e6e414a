"""The base station's own check (firmware/radio/base.py): the PC hands it the event's key
over the USB line when it opens the base (`K`), and the base derives each scorer's key
from it and the address a frame comes from, as the PC does (engine_core/air/keys.py),
and drops what fails before the PC fetches it. `counts` asks the base what it heard and
dropped (`Q`): the desk and bench_radio show them."""
from host_tools.serial.client import E_UNKNOWN, DeviceError, SyncError

FIELDS = ("heard", "dropped", "foreign", "forged", "sent")


def give_key(station, key):
    """Hand the base at `station` (host_tools/serial/radio.BaseStation, open) the event's
    key: True once it checks the frames, False when its firmware has no such request
    (an older base: the PC's check is then the only one). SyncError as the link raises."""
    try:
        kind, _ = station.client.request("K", bytes(key).hex().upper().encode())
    except DeviceError as e:
        if e.code == E_UNKNOWN:     # a base from before the check
            return False
        raise
    if kind != "k":
        raise SyncError("the base station answered K with a %r reply" % kind)
    return True


def counts(station):
    """The base's counts {heard, dropped, foreign, forged, sent, checks}; None when its
    firmware has no such request."""
    try:
        kind, p = station.client.request("Q")
    except DeviceError as e:
        if e.code == E_UNKNOWN:
            return None
        raise
    if kind != "q" or len(p) < 4 * len(FIELDS) + 1:
        raise SyncError("the base station answered Q with a %r reply of %d bytes"
                        % (kind, len(p)))
    out = {f: int.from_bytes(p[4 * i:4 * i + 4], "little") for i, f in enumerate(FIELDS)}
    out["checks"] = bool(p[4 * len(FIELDS)])
    return out
