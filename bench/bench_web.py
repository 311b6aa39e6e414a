# The web board (boards/sim/web.py, `make web`) in headless Chromium (tests/kit/web/browser.py):
#   web.boot_ms                   from the page's navigation to the first screen drawn on
#                                 the canvas (firmware.bin and the port loaded, the
#                                 journal mounted), a fresh browser profile each time:
#                                 the median of the loads
#   web.heap_after_boot_bytes     the MicroPython heap in use after boot (gc.mem_alloc()
#                                 after a collect) on the WebAssembly port
#   web.press_to_screen_ms.p95    from a click on an on-screen button (pointer down) to
#                                 its new screen put on the canvas
#   web.replay_agrees             1 when the log the page downloads of a sitting played
#                                 by clicks replays (`tally42 replay`) to the score the
#                                 page shows, else 0
# TALLY42_WEB: a built folder (`make bench` builds build/web); else it builds one.
import contextlib
import io
import json
import os
import tempfile


from browser import Page, _stop  # noqa: E402
from host_tools.cli import main as tally42  # noqa: E402
from webboard import Scorer, Server, build  # noqa: E402

QUICK = os.getenv("TALLY42_BENCH_QUICK") == "1"
BOOTS = 1 if QUICK else 7
PRESSES = 6 if QUICK else 80
# Five hands of 42 (tests/e2e/test_sim.py's sitting): 4-1 to Us; quick, the first two.
MADE = ["next", "long ok", "ok", "prev"]      # trump, < made (or > set)
SET = ["next", "long ok", "ok", "next"]
SITTING = (["ok"] + MADE + MADE + SET + MADE + SET)[:9 if QUICK else None]


def percentile(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, (len(v) * p + 99) // 100 - 1)]


def boots(url):
    times = []
    heap = None
    for _ in range(BOOTS):
        page = Page(1200, 800)
        try:
            Scorer(page, url).load()
            times.append(page.eval("tally42.bootMs"))
            if heap is None:
                heap = page.eval("tally42.heapUsed()")
        finally:
            page.close()
    return sorted(times)[len(times) // 2], heap


def presses(url):
    page = Page(1200, 800)
    try:
        s = Scorer(page, url).load()
        out = []
        for i in range(PRESSES):
            frames = page.eval("tally42.frames")
            s.press("next" if i % 2 == 0 else "prev")     # the setup's cursor moves
            page.wait_for("tally42.frames > %d" % frames)
            out.append(page.eval("tally42.drawnAt - tally42.downAt"))
        return percentile(out, 95)
    finally:
        page.close()


def replay_agrees(url, tmp):
    page = Page(1200, 800, downloads=True)
    try:
        s = Scorer(page, url).load()
        s.play(SITTING)
        name, words = s.screen()
        shown = [int(words[3]), int(words[4])] if name == "score" else None
        path = os.path.join(tmp, "sitting.jsonl")
        with open(path, "wb") as f:
            f.write(s.download("#export"))
    finally:
        page.close()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = tally42(["replay", path, "--json"])
    return int(rc == 0 and shown is not None and json.loads(out.getvalue())["score"] == shown)


def main():
    with tempfile.TemporaryDirectory(prefix="tally42-bench-web-") as tmp:
        folder = os.environ.get("TALLY42_WEB")
        if not folder or not os.path.isfile(os.path.join(folder, "firmware.bin")):
            folder = build(os.path.join(tmp, "web"))
        server = Server(folder)
        try:
            boot, heap = boots(server.url)
            print("web.boot_ms: %d ms" % round(boot))
            print("web.heap_after_boot_bytes: %d bytes" % heap)
            print("web.press_to_screen_ms.p95: %.1f ms" % presses(server.url))
            print("web.replay_agrees: %d" % replay_agrees(server.url, tmp))
        finally:
            server.close()
            _stop()


main()
