"""The scorer on a bare-metal MicroPython: MicroPython's qemu port (MPS2-AN385, Cortex-M3)
built by tools/qemu.py with the firmware frozen in, run by qemu-system-arm. QEMU puts the
board's three UARTs on pseudo-terminals (boards/sim/qemu_mps2.py): the REPL, which the scorer
shares with its sync link as an ESP32's USB serial does (mpremote and `tally42 sync`
speak there); the buttons, where this side writes press codes; the panel's frames. The
port runs no main.py: the scorer is started over the raw REPL, as a main.py would start
it (`from firmware import start; start.main("qemu_mps2")`).

    with Machine(ELF, flash="f.bin") as m:   # f.bin: the journal's 64 KB, kept on stop
        m.start_scorer()
        m.press([NEXT, LONG | OK])
        m.wait_idle()
        print(m.repl)                        # tally42 sync --port <this>
"""
import os
import re
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import time

from host_tools.build import sim as build
from host_tools.sim import run, screen

ROOT = build.ROOT
ELF = os.path.join(ROOT, "build", "qemu", "firmware.elf")
QEMU = "qemu-system-arm"
MACHINE = "mps2-an385"
BOARD = "sim.qemu_mps2"     # boards/sim/qemu_mps2.py
FLASH_BASE = 0x20000000     # boards/sim/qemu_mps2.py: the journal's RAM, and its magic word
FLASH_SIZE = run.FLASH_SIZE
FLASH_MAGIC = (0x20010000, 0x54343246)
ROM_BASE = 0x21000000       # the port's ROMFS partition 0 (4 MB)
START = 'from firmware import start\nstart.main(%r)\n'
RECORD = 'import boards.sim.qemu_mps2\nboards.sim.qemu_mps2.Panel.record = True\n'
STOP = 0xFF                 # boards/sim/qemu_mps2.py UartKeys: start.main returns to the REPL
_PTY = re.compile(rb"char device redirected to (\S+) \(label serial(\d)\)")


class QemuError(Exception):
    """QEMU or the board did not do what was asked: a message to act on."""


def elf():
    """The built firmware.elf, or QemuError saying how to get it."""
    if shutil.which(QEMU) is None:
        raise QemuError("no %s (apt-get install qemu-system-arm)" % QEMU)
    if not os.path.exists(ELF):
        raise QemuError("no %s: run `make qemu`" % os.path.relpath(ELF, ROOT))
    return ELF


def _raw_pty(path):
    import tty
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    return fd


class Machine:
    """A running QEMU with the board's UARTs on ptys: repl (the path), press(), frames
    (the panel's refreshes: (full, name, words, frame bytes)). flash: a file holding the
    journal's partition, loaded at the start (when there) and written back by stop();
    rom: a ROMFS image mapped at the port's ROMFS partition (the tests' modules)."""

    def __init__(self, firmware=None, flash=None, rom=None, width=run.WIDTH,
                 height=run.HEIGHT):
        self._tmp = tempfile.mkdtemp(prefix="tally42-qemu-")
        self.flash = flash
        self._monitor = os.path.join(self._tmp, "monitor")
        cmd = [QEMU, "-machine", MACHINE, "-nographic", "-semihosting",
               "-monitor", "unix:%s,server=on,wait=off" % self._monitor,
               "-serial", "pty", "-serial", "pty", "-serial", "pty",
               "-kernel", firmware or elf()]
        if flash and os.path.exists(flash) and os.path.getsize(flash):
            cmd += ["-device", "loader,file=%s,addr=0x%x,force-raw=on" % (flash, FLASH_BASE),
                    "-device", "loader,addr=0x%x,data=0x%x,data-len=4" % FLASH_MAGIC]
        if rom:
            cmd += ["-device", "loader,file=%s,addr=0x%x,force-raw=on" % (rom, ROM_BASE)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        ptys = {}
        seen = b""
        deadline = time.monotonic() + 10
        while len(ptys) < 3:
            line = self.proc.stdout.readline()
            if not line or time.monotonic() > deadline:
                self.proc.kill()
                raise QemuError("QEMU did not start: %s" % (seen + line).decode(
                    "utf-8", "replace").strip())
            seen += line
            m = _PTY.search(line)
            if m:
                ptys[int(m.group(2))] = m.group(1).decode()
        self.keys_path, self.panel_path = ptys[1], ptys[2]
        self._keys = _raw_pty(self.keys_path)
        self._panel = _raw_pty(self.panel_path)
        # The REPL UART through a pty of our own, as a USB-serial bridge: QEMU's end stays
        # open, so its pty never sees the PC's tools come and go (QEMU drops what the
        # board sends while no one has its pty open, and notices a new one only within
        # a second).
        self._uart0 = _raw_pty(ptys[0])
        self._pc, self._pc_slave = os.openpty()
        import tty
        tty.setraw(self._pc_slave)
        os.set_blocking(self._pc, False)
        self.repl = os.ttyname(self._pc_slave)
        self._decoder = screen.Frames(width, height)
        self.frames = []
        self.said = bytearray()     # what the board sent on its REPL UART (the last 4 KB)
        self.said_count = 0         # and how many bytes in all
        self.last_panel_read = time.monotonic()
        self.last_frame_at = time.monotonic()
        self.on_frame = None
        self._stop = False
        self._reader = threading.Thread(target=self._read_panel, daemon=True)
        self._reader.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def _read_panel(self):
        # The panel's frames, and the REPL UART relayed to and from the PC's pty.
        while not self._stop:
            try:
                ready, _, _ = select.select([self._panel, self._uart0, self._pc], [], [], 0.2)
            except OSError:
                return
            if self._uart0 in ready:
                self._relay(self._uart0, self._pc)
            if self._pc in ready:
                self._relay(self._pc, self._uart0)
            if self._panel not in ready:
                continue
            try:
                data = os.read(self._panel, 65536)
            except OSError:
                return
            self.last_panel_read = time.monotonic()
            for f in self._decoder.feed(data):
                self.frames.append(f)
                self.last_frame_at = time.monotonic()
                if self.on_frame is not None:
                    self.on_frame(f)

    def _relay(self, src, dst):
        try:
            data = os.read(src, 4096)
            if src == self._uart0:
                self.said_count += len(data)
                self.said = (self.said + data)[-4096:]
            while data:
                data = data[os.write(dst, data):]
        except BlockingIOError:
            pass        # the PC's side is full (no tool reads it): dropped, as a cable would
        except OSError:
            time.sleep(0.05)

    # ---- the buttons and the panel ----

    def press(self, codes):
        """Press buttons: firmware.buttons codes (LONG or-ed in), in order."""
        os.write(self._keys, bytes(codes))

    def wait_idle(self, quiet=4.0, timeout=120.0, since=None):
        """Wait until the panel has sent nothing for `quiet` seconds (a full refresh's
        busy time and more): the presses are taken and the last screen drawn. With
        `since` (a count of frames), first wait for a frame after those."""
        deadline = time.monotonic() + timeout
        while (since is not None and len(self.frames) <= since
               or time.monotonic() - self.last_frame_at < quiet):
            if time.monotonic() > deadline:
                raise QemuError("the panel did not settle in %d s" % timeout)
            time.sleep(0.1)

    def wait_returned(self, since, timeout=300.0):
        """Wait until the program started on the raw REPL has returned (the raw REPL's
        end, \\x04 then >, sent after the first `since` bytes of said_count), then until
        the panel's UART has been quiet for half a second: every frame the program drew
        has then been read. The scorer returns when it takes the stop code (STOP) after
        the presses, in order: no clock decides when the presses are done."""
        deadline = time.monotonic() + timeout
        while True:
            new = self.said_count - since
            if new > 0 and b"\x04>" in bytes(self.said[-min(new, len(self.said)):]):
                break
            if self.proc.poll() is not None:
                raise QemuError("QEMU ended before the scorer returned")
            if time.monotonic() > deadline:
                raise QemuError("the scorer did not return in %d s" % timeout)
            time.sleep(0.05)
        while time.monotonic() - self.last_panel_read < 0.5:
            time.sleep(0.1)

    def wait_for(self, screen, timeout=120.0, since=0):
        """Wait until the panel shows `screen` (a frame's name) in a frame after the
        first `since` ones, and has been quiet for a second since."""
        deadline = time.monotonic() + timeout
        while not (len(self.frames) > since and self.frames[-1][1] == screen
                   and time.monotonic() - self.last_frame_at >= 1.0):
            if time.monotonic() > deadline:
                raise QemuError("the panel did not show %s in %d s (it shows %s)" % (
                    screen, timeout, self.frames[-1][1] if self.frames else "nothing"))
            time.sleep(0.1)

    # ---- the REPL ----

    def transport(self):
        """mpremote's serial transport on the REPL UART (close it after use)."""
        from mpremote.transport_serial import SerialTransport
        return SerialTransport(self.repl, exclusive=False)

    def exec(self, code, timeout=60, soft_reset=False):
        """Run code on the raw REPL (as mpremote exec does, interrupting a running
        scorer); returns its output. QemuError with the traceback when it raised."""
        from mpremote.transport import TransportError
        t = self.transport()
        try:
            t.enter_raw_repl(soft_reset=soft_reset)
            out, err = t.exec_raw(code, timeout=timeout)
            t.exit_raw_repl()
        except TransportError as e:
            raise QemuError("raw REPL: %s" % e)
        finally:
            t.close()
        if err:
            raise QemuError("on the board: %s" % err.decode("utf-8", "replace").strip())
        return out.decode("utf-8", "replace")

    def start_scorer(self, board=BOARD, words=False):
        """Soft reset (a fresh heap; the journal's RAM keeps), then start the scorer over
        the raw REPL as a main.py would; the REPL line is left to the scorer. words: the
        panel's frames carry the screen's words (boards/sim/qemu_mps2.py Panel.record).
        Returns said_count before the start (for wait_returned)."""
        from mpremote.transport import TransportError
        t = self.transport()
        try:
            t.enter_raw_repl(soft_reset=True)
            # The port's os.urandom is an LCG that starts alike at each power-on: stir
            # it, as a chip's random number generator would differ (sitting ids).
            t.exec_raw("import os\nos.urandom(%d)\n" % (time.time_ns() // 1000 % 997 + 1))
            since = self.said_count
            t.exec_raw_no_follow((RECORD if words else "") + START % board)
        except TransportError as e:
            raise QemuError("raw REPL: %s" % e)
        finally:
            t.close()
        time.sleep(0.2)
        return since

    # ---- the end ----

    def save_flash(self, path=None):
        """Write the journal's partition (RAM of the board) to `path` (the flash file)."""
        path = os.path.abspath(path or self.flash)
        self.monitor('pmemsave 0x%x %d "%s"' % (FLASH_BASE, FLASH_SIZE, path))
        for _ in range(50):     # the monitor answers before the file is whole
            if os.path.exists(path) and os.path.getsize(path) == FLASH_SIZE:
                return path
            time.sleep(0.05)
        raise QemuError("QEMU did not save the flash to %s" % path)

    def monitor(self, line):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(self._monitor)
        try:
            s.sendall(line.encode() + b"\n")
            time.sleep(0.2)
            try:
                return s.recv(65536).decode("utf-8", "replace")
            except socket.timeout:
                return ""
        finally:
            s.close()

    def stop(self):
        """Save the flash (when a file was given) and end QEMU."""
        if self.proc.poll() is None:
            try:
                if self.flash:
                    self.save_flash()
            finally:
                self.proc.terminate()
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        self._stop = True
        self._reader.join(1)
        for fd in (self._keys, self._panel, self._uart0, self._pc, self._pc_slave):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._tmp, ignore_errors=True)


# ---- tally42 sim --qemu ----

def run_sim(script=None, flash=None, hold=False, screens=None, text=False, stdout=None,
            stdin=None, stderr=None):
    """`tally42 sim --qemu`: the scorer on the bare-metal board, its panel drawn in the
    terminal (or saved as PNGs), the keys or a script as its buttons, its REPL UART the
    serial port for tally42 sync (named on stderr, and under the panel). The flash file is
    the sim's (64 KB, the same journal), loaded into the board's RAM and saved on exit."""
    import sys
    stdout = stdout or sys.stdout
    stdin = stdin or sys.stdin
    stderr = stderr or sys.stderr
    codes = run.read_script(script) if script else []
    flash = os.path.abspath(flash or run.default_flash())
    try:
        run.check_flash(flash)
    except build.SimError as e:
        raise QemuError(str(e))
    os.makedirs(os.path.dirname(flash), exist_ok=True)
    if screens:
        os.makedirs(screens, exist_ok=True)
    firmware = elf()
    headless = bool(script)
    keyboard = None if headless and not hold else screen.Terminal(run.WIDTH, run.HEIGHT, stdout)
    drawn = keyboard if keyboard is not None and stdout.isatty() else None
    with Machine(firmware, flash=flash) as m:
        line = "serial: %s" % m.repl
        stderr.write(line + "\n")
        stderr.flush()
        count = [0]

        def frame(f):
            full, name, words, data = f
            count[0] += 1
            if screens:
                path = os.path.join(screens, "%04d-%s.png" % (count[0], name or "screen"))
                with open(path, "wb") as fh:
                    fh.write(screen.png_1bit(run.WIDTH, run.HEIGHT, data))
            if drawn is not None:
                drawn.draw(full, name, words, data, count[0])
                # the serial port stays in sight under the panel
                stdout.write("\r\n%s  (tally42 sync --port %s)\x1b[K" % (line, m.repl))
                stdout.flush()
        m.on_frame = frame
        if drawn is not None:
            drawn.open()
        elif keyboard is not None:
            keyboard.raw(stdin)
        try:
            since = m.start_scorer(words=text)
            if keyboard is None:
                # The presses, then the stop code: the scorer takes them in order and
                # returns, and every frame they drew has come. (Waiting for the panel
                # to be quiet for a while instead printed a screen from before the
                # presses whenever the emulator was slower than the wait.)
                m.press(list(codes) + [STOP])
                m.wait_returned(since)
            else:
                m.press(codes)
                _keys(m, keyboard, stdin, hold)
        except KeyboardInterrupt:
            pass
        finally:
            if drawn is not None:
                drawn.close()
            elif keyboard is not None:
                keyboard.restore()
    if text and m.frames:
        last = m.frames[-1]
        stdout.write("\n".join(screen.braille(last[3], run.WIDTH, run.HEIGHT)
                               + screen.words_lines(last[2])) + "\n")
    return 0


def _keys(m, keyboard, stdin, hold):
    # The terminal's keys to the button UART until q (or the end of standard input).
    fd = stdin.fileno()
    while m.proc.poll() is None:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        data = os.read(fd, 64)
        if not data:
            if hold:
                while m.proc.poll() is None:    # no more keys: run on until interrupted
                    time.sleep(0.5)
            return
        pressed = keyboard.keys(data)
        if screen.QUIT in pressed:
            m.press(pressed[:pressed.index(screen.QUIT)])
            return
        m.press(pressed)
