"""The web board's page (build/web/, `make web`) for the browser tests and benches: the
folder built once (or TALLY42_WEB: one `make` built), served by a static server on
127.0.0.1, and a page on it driven by clicks like a player's (tests/kit/web/browser.py)."""
import functools
import http.server
import os
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# firmware/codes.py
PREV, NEXT, OK, BACK, MENU, LONG = 1, 2, 3, 4, 5, 0x10
WORDS = {"prev": PREV, "next": NEXT, "ok": OK, "back": BACK, "menu": MENU}


def build(out):
    """Build the page into `out` (tools/web.py); the folder. Raises with npm's or
    mpy-cross's words when it cannot."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "web.py"), out],
                       capture_output=True, text=True, timeout=600)
    if r.returncode:
        raise RuntimeError("tools/web.py: " + r.stderr + r.stdout)
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Server:
    """A static web server of `folder` on 127.0.0.1 (any would do: the page needs
    nothing else)."""

    def __init__(self, folder):
        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=folder))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d/" % self.httpd.server_address[1]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Scorer:
    """The page of a web board, as a player uses it. `page`: a tests/kit/web/browser.py Page."""

    def __init__(self, page, url):
        self.page = page
        self.pw = page.page
        self.url = url

    def load(self, timeout=60):
        self.page.open(self.url)
        return self.wait_ready(timeout)

    def wait_ready(self, timeout=60):
        self.page.wait_for("window.tally42 && (tally42.ready || tally42.error)", timeout)
        err = self.page.eval("tally42.error")
        assert err is None, err
        return self

    def reload(self):
        self.pw.reload()
        return self.wait_ready()

    def settle(self):
        self.page.wait_for("tally42.settled()")

    def press(self, word):
        """A click on an on-screen button; `long WORD`: held down until the firmware's
        long press has gone in."""
        if word.startswith("long "):
            sel = "#buttons button[data-code='%d']" % WORDS[word[5:]]
            n = self.page.eval("tally42.presses")
            self.pw.hover(sel)
            self.pw.mouse.down()
            self.page.wait_for("tally42.presses > %d" % n)
            self.pw.mouse.up()
        else:
            self.pw.click("#buttons button[data-code='%d']" % WORDS[word])
        self.settle()

    def key(self, name):
        """A key of the keyboard (the sim's: ArrowRight, Enter, PageDown...), pressed
        and let go; `hold NAME`: held down until the firmware's long press has gone in."""
        if name.startswith("hold "):
            n = self.page.eval("tally42.presses")
            self.pw.keyboard.down(name[5:])
            self.page.wait_for("tally42.presses > %d" % n)
            self.pw.keyboard.up(name[5:])
        else:
            self.pw.keyboard.press(name)
        self.settle()

    def keys(self, names):
        for n in names:
            self.key(n)

    def play(self, words):
        for w in words:
            self.press(w)

    def screen(self):
        """(the screen's name, [its words, one text a line])."""
        name, _, words = self.page.eval("tally42.screen()").partition("\n")
        return name, words.split("\n") if words else []

    def pixels(self):
        """The canvas as a PNG data URL: what the panel shows."""
        return self.page.eval("document.getElementById('panel').toDataURL()")

    def download(self, button):
        """The file the page downloads on a click of `button` (#export, #image): bytes."""
        with self.pw.expect_download() as got:
            self.pw.click(button)
        path = got.value.path()
        with open(path, "rb") as f:
            return f.read()
