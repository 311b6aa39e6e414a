# The serial ports the sync endpoint reads without blocking: the REPL's stdin on a device
# (reads block until their whole count has come) and a tty on the unix port (the sim).
# Each offers readinto(buf) -> bytes read, never waiting, and write(buf).


class StreamPort:
    """A stream that blocks until it has every byte asked for (the REPL's stdin on an
    ESP32) made safe to poll: one byte at a time, only while select.poll says one is
    there. `StreamPort(sys.stdin.buffer, sys.stdout.buffer)`."""

    def __init__(self, rd, wr=None):
        import select
        self._rd = rd
        self._wr = rd if wr is None else wr
        self._poll = select.poll()
        self._poll.register(rd, select.POLLIN)
        self._in = select.POLLIN
        self._one = bytearray(1)

    def _ready(self):
        for _, ev in self._poll.ipoll(0):
            return ev & self._in
        return 0

    def pending(self):
        """True when a byte is waiting (nothing is read)."""
        return bool(self._ready())

    def readinto(self, buf):
        n = 0
        while n < len(buf) and self._ready():
            if not self._rd.readinto(self._one):
                break
            buf[n] = self._one[0]
            n += 1
        return n

    def write(self, data):
        return self._wr.write(data)


class TtyPort:
    """A tty opened raw with VMIN = VTIME = 0, so that a read returns what has arrived at
    once (on the unix port a tty read otherwise waits for a full buffer): the sim's
    serial port. `TtyPort("/dev/pts/3")`, or an open file descriptor number."""

    def __init__(self, path):
        import termios
        self._f = f = open(path, "r+b")
        fd = f.fileno()
        termios.setraw(fd)
        attr = termios.tcgetattr(fd)
        attr[6][6] = 0      # VMIN (the module lacks the names)
        attr[6][5] = 0      # VTIME
        termios.tcsetattr(fd, termios.TCSANOW, attr)
        self._poll = None

    def pending(self):
        """True when a byte is waiting (nothing is read)."""
        if self._poll is None:
            import select
            self._poll = select.poll()
            self._poll.register(self._f, select.POLLIN)
        return bool(self._poll.poll(0))

    def readinto(self, buf):
        try:
            return self._f.readinto(buf) or 0
        except OSError:     # the other end is not open: nothing has arrived
            return 0

    def write(self, data):
        try:
            return self._f.write(data)
        except OSError:
            return 0

    def close(self):
        self._f.close()


class PrefixPort:
    """A port whose first bytes were already read (buf[:n]): they come first."""

    def __init__(self, port, buf, n):
        self._port = port
        self._buf = buf
        self._n = n
        self._at = 0

    def readinto(self, buf):
        if self._at < self._n:
            k = 0
            while k < len(buf) and self._at < self._n:
                buf[k] = self._buf[self._at]
                self._at += 1
                k += 1
            return k
        return self._port.readinto(buf)

    def write(self, data):
        return self._port.write(data)
