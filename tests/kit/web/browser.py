"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright (pinned in
requirements.txt; never `playwright install`: the browser is the system's). One browser
a test session, started at the first page and closed at exit; each page gets a fresh
context (its own storage), so tests do not see each other's.

    from browser import Page
    page = Page(1200, 800)          # skips (fails under CI) without chromium
    page.open(url); page.wait_for("expr"); page.eval("expr"); page.screenshot(path)
    page.close()
"""
import atexit
import os
import shutil

import pytest

EXECUTABLE = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update",
         "--disable-sync"]

_shared = {}


class BrowserError(Exception):
    pass


def find():
    """The chromium binary, or None."""
    if os.path.exists(EXECUTABLE):
        return EXECUTABLE
    return shutil.which("chromium") or shutil.which("chromium-browser")


def browser():
    """The session's browser, started once (skipped, or failed under CI, without it)."""
    if "browser" not in _shared:
        binary = find()
        if binary is None:
            if os.environ.get("CI") == "true":
                pytest.fail("chromium is not installed (.ci/run installs it)")
            pytest.skip("chromium is not installed (apt install chromium)")
        from playwright.sync_api import sync_playwright
        pw = sync_playwright().start()
        # Playwright gives the browser a fresh profile folder of its own.
        _shared["pw"] = pw
        _shared["browser"] = pw.chromium.launch(executable_path=binary, headless=True,
                                                args=FLAGS)
        atexit.register(_stop)
    return _shared["browser"]


def _stop():
    b = _shared.pop("browser", None)
    if b is not None:
        b.close()
    pw = _shared.pop("pw", None)
    if pw is not None:
        pw.stop()


class Page:
    """A page in a context of its own: width x height CSS pixels (a phone's touch
    viewport when taller than wide); script: JavaScript run before each document."""

    def __init__(self, width=1200, height=800, script=None, downloads=False):
        mobile = width < height
        self.context = browser().new_context(
            viewport={"width": width, "height": height}, device_scale_factor=1,
            is_mobile=mobile, has_touch=mobile, accept_downloads=downloads)
        if script:
            self.context.add_init_script(script)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, url):
        self.page.goto(url)

    def eval(self, expression):
        try:
            return self.page.evaluate(expression)
        except Exception as e:  # Playwright's Error: the page threw
            raise BrowserError("%s: %s" % (expression, e))

    def wait_for(self, expression, timeout=20):
        """Evaluate until the expression is truthy; its value. An expression that throws
        (an element still missing) counts as not yet."""
        guarded = "(() => { try { return (%s); } catch (e) { return null; } })()" % expression
        try:
            handle = self.page.wait_for_function(guarded, timeout=timeout * 1000)
        except Exception as e:
            raise BrowserError("waited %ss for %s: %s" % (timeout, expression, e))
        return handle.json_value()

    def screenshot(self, path, full_page=True):
        self.page.screenshot(path=path, full_page=full_page)

    def close(self):
        self.context.close()
