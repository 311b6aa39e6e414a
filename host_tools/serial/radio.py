"""The base station's stream: the frames its radio heard, fetched over the serial sync
protocol with the request R (firmware/radio/base.py), and the acknowledges handed to it
to send back. The frames are checked and stored by host_tools/events/radio.py."""
import binascii

from host_tools.serial.client import Client, SyncError

# Frames to send in one request: each is hex of its address (6 bytes) and the frame, a
# space between; a request line is at most 250 bytes with its 18 of framing (four
# acknowledges, or one next table).
_ARGS = 232


class NotABase(SyncError):
    """What answered on the port is a scorer, not a base station."""


class BaseStation:
    """`BaseStation(link)`: open(), then exchange(acks) -> [(address, frame)] as often
    as the PC can. The link is a host_tools.serial.transport.SerialLink."""

    def __init__(self, link, timeout=0.3, wait=30.0):
        self.client = Client(link, timeout=timeout, wait=wait)
        self.info = None
        self.dropped = 0        # frames the base had no room for (it said so)

    def open(self):
        self.info = self.client.hello()
        if not self.info.firmware.endswith("+base"):
            raise NotABase("%s on %s is a scorer, not a base station (tally42 sim --base, "
                           "or a board started with firmware.radio.base)"
                           % (self.info.device_id, self.link_url()))
        return self.info

    def link_url(self):
        return self.client.link.url

    def exchange(self, acks=()):
        """Hand the base `acks` [(address, frame)] to send, and take what it heard."""
        heard = []
        acks = list(acks)
        first = True
        while first or acks:
            first = False
            parts = []
            size = 0
            while acks:
                h = binascii.hexlify(bytes(acks[0][0]) + bytes(acks[0][1])).upper()
                if parts and size + 1 + len(h) > _ARGS:
                    break
                if len(h) > _ARGS:
                    raise SyncError("a radio frame of %d bytes is too long for the base "
                                    "station's request" % len(acks[0][1]))
                parts.append(h)
                size += len(h) + (1 if size else 0)
                acks.pop(0)
            args = b" ".join(parts)
            kind, p = self.client.request("R", args)
            if kind != "r" or len(p) < 2:
                raise SyncError("the base station answered R with a %r reply" % kind)
            heard.extend(parse(p))
            self.dropped = p[0] | p[1] << 8
        return heard

    def close(self):
        try:
            self.client.bye()
        except SyncError:
            pass


def parse(p):
    """The frames of an "r" reply's payload: [(address, frame)]; SyncError if torn."""
    out = []
    pos = 2
    while pos < len(p):
        n = p[pos]
        if pos + 7 + n > len(p):
            raise SyncError("the base station's frames run past its reply")
        out.append((bytes(p[pos + 1:pos + 7]), bytes(p[pos + 7:pos + 7 + n])))
        pos += 7 + n
    return out
