"""Headless Chromium (Debian's `chromium`) driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL, commands in on fd 3, replies out
on fd 4). Enough to load a page, evaluate JavaScript and take a screenshot."""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--remote-debugging-pipe")


def find():
    """The chromium binary, or None."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


class Chromium:
    def __init__(self, binary, width=1200, height=800):
        self.profile = tempfile.mkdtemp(prefix="tally42-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds():
            # The child reads commands on fd 3 and writes replies on fd 4.
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.closerange(5, 1024)

        self.proc = subprocess.Popen(
            [binary] + list(FLAGS) + ["--user-data-dir=" + self.profile,
                                      "--window-size=%d,%d" % (width, height)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.session = None

    def send(self, method, params=None, session=True, timeout=20):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        end = time.monotonic() + timeout
        while True:
            reply = self._read(end)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def _read(self, end):
        while b"\0" not in self._buf:
            left = end - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self._from_chrome], [], [], left)
            if ready:
                chunk = os.read(self._from_chrome, 65536)
                if not chunk:
                    raise BrowserError("chromium closed the pipe")
                self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", {"url": url})

    def eval(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in r:
            raise BrowserError("%s: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait_for(self, expression, timeout=20):
        """Evaluate until the expression is truthy; its value."""
        end = time.monotonic() + timeout
        while True:
            try:
                v = self.eval(expression)
            except BrowserError:
                v = None        # the page is not there yet (an element still missing)
            if v:
                return v
            if time.monotonic() > end:
                raise BrowserError("waited %ss for %s" % (timeout, expression))
            time.sleep(0.1)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png",
                                                    "captureBeyondViewport": True})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)
