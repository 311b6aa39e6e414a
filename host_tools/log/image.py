"""A device flash image (the sim's --flash file, or the journal partition read off a
device) decoded into sitting logs, with the same reading code the firmware runs (engine_core/journal/)."""
from engine_core.journal import log as J
from engine_core.journal.blocks import JournalError
from engine_core.journal.reader import JournalReader
from host_tools.log.device import END_ITEM, device_sitting_id, end_item, from_device

BLOCK_SIZE = 4096


class RamFlash:
    """The block protocol of esp32.Partition over a bytearray (reads, and the writes a
    mount may make on a copy)."""

    def __init__(self, data, block_size=BLOCK_SIZE):
        self.mem = bytearray(data)
        self.block_size = block_size

    def readblocks(self, block, buf, offset=0):
        a = block * self.block_size + offset
        buf[:] = self.mem[a:a + len(buf)]

    def writeblocks(self, block, buf, offset=0):
        a = block * self.block_size + offset
        for i, b in enumerate(bytes(buf)):
            self.mem[a + i] &= b

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.mem) // self.block_size
        if op == 5:
            return self.block_size
        if op == 6:
            a = arg * self.block_size
            self.mem[a:a + self.block_size] = b"\xff" * self.block_size
            return 0
        return 0


def sittings(data, block_size=BLOCK_SIZE):
    """[(sitting id, header bytes, event bytes, finished, synced, ended)] of an image's
    whole sittings, ended as end_item gives it (None: no END record). ValueError when the
    bytes hold no journal. The damaged ones are left out: scan() names them."""
    return scan(data, block_size)[0]


def scan(data, block_size=BLOCK_SIZE):
    """(sittings() of the image, [ids of the damaged sittings]): a sitting one of whose
    records fails its check, or whose beginning is lost, is not read, only named."""
    if len(data) < 2 * block_size or len(data) % block_size:
        raise ValueError("%d bytes is not a whole number of %d-byte blocks (at least 2)"
                         % (len(data), block_size))
    j = J.Log(RamFlash(data, block_size))
    reader = JournalReader(j)
    try:
        j.mount()
        listed = reader.all_sittings()
    except JournalError as e:
        raise ValueError(str(e))
    out = []
    damaged = []
    buf = bytearray(256)
    for sid, finished, synced, _, bad in listed:
        if bad:
            damaged.append(sid)
            continue
        cur = reader.cursor(sid)
        n = reader.next_event(cur, buf)
        header = bytes(buf[:n])
        events = bytearray()
        ended = None
        while True:
            n = reader.next_event(cur, buf)
            if n < 0:
                break
            if n == END_ITEM:
                ended = end_item(buf[:n])     # the journal's END record
            else:
                events.extend(buf[:n])
        out.append((sid, header, bytes(events), finished, synced, ended))
    if not out and not damaged and data.strip(b"\xff") and bytes(data[:3]) != b"T42":
        raise ValueError("no Tally 42 journal in it")
    return out, damaged


def read_image(path):
    """[(sitting id, log lines)] for each whole sitting of the image file at path, oldest
    first. OSError when it cannot be read, ValueError when it is not a Tally 42 image."""
    return read_image_report(path, ids=False)[0]


def read_image_report(path, device_id=None, ids=True):
    """(read_image(path), [ids of the damaged sittings, which it leaves out]). Each
    sitting's header gets the id sync stores it by: "<device_id>-<random id>" (the scorer's
    id, `tally42 devices`), or without device_id the random id alone (hex), the end of
    that id; the journal's number where the header has no random id (older firmware).
    ids=False: the headers as the scorer wrote them."""
    with open(path, "rb") as f:
        data = f.read()
    out = []
    whole, damaged = scan(data)
    for sid, header, events, _, _, ended in whole:
        name = device_sitting_id(device_id or "", sid, header)
        extra = {"id": name if device_id else name[1:]} if ids else None
        out.append((sid, from_device(header, events, extra, ended)))
    return out, damaged
