"""Screenshots for the docs made on the web board (`make web`'s page in headless Chromium,
Debian's chromium driven by Playwright): tours played by clicks on the page's buttons,
the named screens kept as 1-bit PNGs of the panel's true pixels (as docs/screens/make.py
writes the sim's), and web-board.png, the scorer as the page shows it.

    .venv/bin/python tools/webshots.py [--web DIR] [--out DIR] [NAME...]

--web: a built folder (default build/web, built when missing); --out: where the PNGs go
(default docs/screens); NAME: only these shots. Exit 1 with a message when the page
cannot be built or loaded."""
import argparse
import functools
import http.server
import os
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools.sim.screen import png_1bit  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BUTTONS = {"prev": 1, "next": 2, "ok": 3, "back": 4, "menu": 5}
HAND = ["next", "long ok", "ok", "prev"]    # on the score: 30, OK held (the rest pass),
HAND_SET = ["next", "long ok", "ok", "next"]      # trump, < made (or > set)

# Each tour: (panel, [button or ("shot", name)]), from a fresh scorer; a shot keeps the
# screen on show after the presses before it. "page" keeps the whole scorer as the page
# shows it (web-board.png).
TOURS = [
    ("296x128", [
        ("shot", "setup"),
        "ok", ("shot", "score-new-sitting"),
        "ok", ("shot", "bidding"),                          # E passed: S to bid
        "next", "next", "next", "next", "next", "next", "ok", ("shot", "bidding-after-a-bid"),
        "long ok", ("shot", "contract"), ("page", "web-board"),
    ]),
    ("250x122", ["ok"] + HAND + HAND + HAND_SET + [("shot", "score-250x122"),
                                                   "ok", ("shot", "bidding-250x122")]),
]


class ShotError(Exception):
    pass


def serve(folder):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(Quiet, directory=folder))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, "http://127.0.0.1:%d/" % httpd.server_address[1]


def press(page, word):
    held = word.startswith("long ")
    sel = "#buttons button[data-code='%d']" % BUTTONS[word[5:] if held else word]
    n = page.evaluate("tally42.presses")
    if held:        # held down until the firmware's long press has gone in
        page.hover(sel)
        page.mouse.down()
        page.wait_for_function("tally42.presses > %d" % n)
        page.mouse.up()
    else:
        page.click(sel)
    page.wait_for_function("tally42.presses > %d && tally42.settled()" % n)


def tour(browser, url, panel, steps, out, only):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        page.evaluate("""async (model) => {
            await new Promise((ok) => { const r = indexedDB.open("tally42-web", 1);
              r.onupgradeneeded = () => r.result.createObjectStore("files");
              r.onsuccess = () => { const tx = r.result.transaction("files", "readwrite");
                tx.objectStore("files").put(model, "model"); tx.oncomplete = ok; }; });
        }""", panel)
        page.reload()
        page.wait_for_function("window.tally42 && (tally42.ready || tally42.error)",
                               timeout=60000)
        err = page.evaluate("tally42.error")
        if err:
            raise ShotError("the page stopped: %s" % err)
        width, height = page.evaluate("[tally42.width, tally42.height]")
        for step in steps:
            if isinstance(step, str):
                press(page, step)
                continue
            kind, name = step
            if only and name not in only:
                continue
            path = os.path.join(out, name + ".png")
            if kind == "page":
                page.locator("#scorer").screenshot(path=path)
            else:
                frame = bytes(page.evaluate("Array.from(tally42.frame)"))
                with open(path, "wb") as f:
                    f.write(png_1bit(width, height, frame))
            print("%-24s %s" % (name + ".png", page.evaluate("tally42.screen()")
                                .split("\n")[0]))
    finally:
        context.close()


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--web", default=os.path.join(ROOT, "build", "web"))
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "screens"))
    p.add_argument("names", nargs="*")
    args = p.parse_args(argv)
    from playwright.sync_api import sync_playwright
    try:
        if not os.path.isfile(os.path.join(args.web, "firmware.bin")):
            subprocess.run([sys.executable, os.path.join(ROOT, "tools", "web.py"),
                            args.web], check=True)
        os.makedirs(args.out, exist_ok=True)
        httpd, url = serve(args.web)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=FLAGS)
                for panel, steps in TOURS:
                    tour(browser, url, panel, steps, args.out, set(args.names))
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
    except (ShotError, subprocess.CalledProcessError, OSError) as e:
        sys.stderr.write("tools/webshots.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
