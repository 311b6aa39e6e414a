"""Make docs/screens/*.png: tours of the device played on the sim board (`tally42 sim
--script`), keeping the screens named below. Run from the repository: .venv/bin/python
docs/screens/make.py  (the PNGs are the panel's true pixels, 1 bit)."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
from host_tools.build import sim as simbuild  # noqa: E402
from host_tools.sim import run as sim  # noqa: E402
from host_tools.sim import screen as simscreen  # noqa: E402

HAND = ["next", "long ok", "ok", "prev"]        # on the score: 30, OK held (the rest
HAND_SET = ["next", "long ok", "ok", "next"]    # pass), trump, < made (or > set)

# Each tour: (panel, [button or ("shot", name)]). A shot keeps the screen on show after
# the presses before it (the sim draws one refresh a press, after the boot screen).
TOURS = [
    (None, [
        ("shot", "first-power-on"),                         # what are we playing?
        "ok", ("shot", "score-new-sitting"),
        "back", ("shot", "refusal"),
        "ok", ("shot", "bidding"),                          # E passed: S to bid
        "next", "next", "next", "next", "next", "next", "ok", ("shot", "bidding-after-a-bid"),
        "long ok", ("shot", "contract"),                    # W and N pass
        "next", "ok", ("shot", "result-marks"),
        "prev", ("shot", "score-saved"),
    ] + HAND_SET + HAND + HAND_SET + [
        "next", "prev", ("shot", "score-marks-all"),        # the note gone
        "back", ("shot", "confirm-undo-hand"),
        "back", "menu", "next", "ok", ("shot", "history"),
        "ok", "menu", ("shot", "menu"),
        "next", "next", "next", "ok", ("shot", "sync"),
        "back", "menu", "prev", "prev", "ok", ("shot", "setup"),    # the same game again
        "back", "menu", "prev", "ok", ("shot", "another-game"),
        "back", "next", "ok", "ok", "ok", "back", ("shot", "bidding-undone"),
    ]),
    (None, [
        "ok", "menu", "next", "next", "ok", "menu",         # the trick tracker on
        "next", "long ok", "ok",
        "next", "next", "ok", ("shot", "tracker"),
        "next", "next", "ok", "next", "next", "ok", ("shot", "tracker-decided"),
        "ok", "menu", "next", "next", "ok", "menu",
    ] + ["prev", "long ok", "ok", "prev"] * 6 + [
        ("shot", "game-over"),
        "ok", ("shot", "game-over-ok"),
    ]),
    (None, [
        "prev", "ok",                                       # other games, house rules
        "next", "next", "ok", "next", "ok", ("shot", "setup-points"),
        "prev", "prev", "ok",
        "long ok", ("shot", "bidding-forced"),              # E, S and W pass
        "ok", "ok", ("shot", "result-points-unset"),
        "next", "next", ("shot", "result-points"),          # the bid, then one more
        "ok",
    ] + ["next", "long ok", "ok", "next", "ok", ("shot", "score-points")]),
    (None, [
        "prev", "ok",
        "next", "ok", "next", "next", "ok", ("shot", "setup-moon"),
        "prev", "ok",
        "next", "long ok", "ok", "next", "ok", "next", ("shot", "result-moon"),
        "ok", ("shot", "score-moon"),
    ]),
    ("250x122", ["ok"] + HAND + HAND + HAND_SET + ["next", "prev",
                                                   ("shot", "score-250x122"),
                                                   "ok", ("shot", "bidding-250x122")]),
    ("200x200", ["ok"] + HAND + HAND + HAND_SET + ["next", "prev",
                                                   ("shot", "score-200x200"),
                                                   "ok", ("shot", "bidding-200x200")]),
]


# The gin pads (`make.py gin` makes only these).
GIN_TOURS = [
    (None, [
        "next", "ok", ("shot", "gin-score-turnup"),         # what we play: Oklahoma Gin
        "prev", "prev", "ok", ("shot", "gin-score-who"),
        "next", ("shot", "gin-score-hand"),                 # P2 went out
        "prev", "ok", ("shot", "gin-totals-unset"),
        "next", "prev", "prev", ("shot", "gin-totals"),
        "ok", ("shot", "gin-score"),
        "ok", "next", "ok", "next", "ok", "back", ("shot", "gin-confirm-undo"),
        "back", "menu", "next", "ok", ("shot", "gin-history"),
        "ok", "menu", ("shot", "gin-menu"),
        "prev", "prev", "ok", ("shot", "gin-setup"),        # the same game again
        "back", "ok", "next", "ok"] + ["long next"] * 14 + [   # 40, then 13 x 5: 105
        "ok", ("shot", "gin-refusal"),
        "back", "next", "next", "ok", "long next", "long next", "long next", "long next",
        "long next", "long next", "ok", ("shot", "gin-game-over"),     # gin, 65
    ]),
    (None, [
        "next", "next", "next", "ok", ("shot", "gin-score-skarney"),
        "next", ("shot", "gin-skarney-meld"),               # P2 gin, P1's meld down
    ]),
]


def tour(panel, steps, work):
    presses = [s for s in steps if isinstance(s, str)]
    shots = {}
    n = 0
    for s in steps:
        if isinstance(s, str):
            n += 1
        else:
            shots[n + 1] = s[1]
    script = os.path.join(work, "tour.txt")
    with open(script, "w") as f:
        f.write("\n".join(presses) + "\n")
    frames = os.path.join(work, "frames")
    flash = os.path.join(work, "flash.bin")
    for path in (flash, flash + ".settings"):
        if os.path.exists(path):
            os.remove(path)
    shutil.rmtree(frames, ignore_errors=True)
    with open(os.devnull, "w") as quiet:
        rc = sim.run(script=script, screens=frames, flash=flash, panel=panel, stdout=quiet)
    if rc:
        raise SystemExit("the sim failed")
    names = sorted(os.listdir(frames))
    for k, name in shots.items():
        src = os.path.join(frames, names[k - 1])
        shutil.copy(src, os.path.join(HERE, name + ".png"))
        print("%-24s %s" % (name + ".png", names[k - 1]))


def crash_screen(work):
    # The fault screen, drawn by firmware.start.crash on the sim's display.
    out = simbuild.build()
    code = ("from boards.sim import board as sim\nfrom firmware import start\n"
            "d = sim.SimDisplay()\n"
            "start.crash(d, OSError(5))\n"
            "sys.stdout.buffer.write(d._buf)\n")
    simbuild.write_script(out, "crashshot.py", code)
    r = subprocess.run(simbuild.command(out, [], simbuild.HEAP, "crashshot.py"), cwd=out,
                       capture_output=True, check=True)
    with open(os.path.join(HERE, "crash.png"), "wb") as f:
        f.write(simscreen.png_1bit(sim.WIDTH, sim.HEIGHT, r.stdout))
    print("crash.png")


def main():
    work = tempfile.mkdtemp(prefix="tally42-screens-")
    only_gin = sys.argv[1:] == ["gin"]
    try:
        for panel, steps in (GIN_TOURS if only_gin else TOURS + GIN_TOURS):
            tour(panel, steps, work)
        if not only_gin:
            crash_screen(work)
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
