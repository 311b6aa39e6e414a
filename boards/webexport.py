# The web board's export: the newest sitting of its journal as the sitting log (JSON
# Lines, docs/event-log.md), read with the PC tool's own code, which runs on MicroPython:
# host_tools/log/image.py (the journal, with the firmware's reader), host_tools/log/
# device.py (the sitting as log lines) and host_tools/log/lines.py (the text), as
# `tally42 export --from-image` does (host_tools/store/export.py image_logs). Loaded only
# when the page asks, and dropped after.
from host_tools.log import image
from host_tools.log.device import device_sitting_id, from_device
from host_tools.log.lines import dump_log


def newest_log(flash, device_id):
    """The newest whole sitting of the journal on `flash` (a block device) as log text,
    "" when there is none. Its id is the one a sync gives it (the scorer's id and the
    sitting's random id, host_tools/log/device.py device_sitting_id), so that logs of
    two browsers never pass for the same sitting."""
    bs = flash.ioctl(5, 0)
    data = bytearray(flash.ioctl(4, 0) * bs)
    mv = memoryview(data)
    for b in range(len(data) // bs):
        flash.readblocks(b, mv[b * bs:(b + 1) * bs])
    whole, _ = image.scan(data, bs)
    if not whole:
        return ""
    sid, header, events, _, _, ended = whole[-1]
    lines = from_device(header, events, None, ended)
    if "id" not in lines[0]:
        lines[0]["id"] = device_sitting_id(device_id, sid, header)
    return dump_log(lines)
