"""The web board's export (web/tally42.js calls it in the page's MicroPython): the newest
sitting of its journal image as the sitting log (JSON Lines, docs/event-log.md), with
the PC's own code, which runs on MicroPython: host_tools/log/image.py (the journal, read
with the firmware's reader), device.py (the sitting as log lines) and lines.py (the
text), as `tally42 export --from-image` does (host_tools/store/export.py image_logs)."""
from host_tools.log import image
from host_tools.log.device import device_sitting_id, from_device
from host_tools.log.lines import dump_log


def newest_log(path, device_id):
    """The newest whole sitting of the journal image at `path` (the board's flash file)
    as log text, "" when there is none. Its id is the one a sync gives it (the scorer's
    id and the sitting's random id, device.py device_sitting_id), so that logs of two
    browsers never pass for the same sitting. ValueError when it holds no journal."""
    with open(path, "rb") as f:
        data = f.read()
    whole, _ = image.scan(data)
    if not whole:
        return ""
    sid, header, events, _, _, ended = whole[-1]
    lines = from_device(header, events, None, ended)
    if "id" not in lines[0]:
        lines[0]["id"] = device_sitting_id(device_id, sid, header)
    return dump_log(lines)
