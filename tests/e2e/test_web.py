"""The web board (boards/sim/web.py, web/, `make web`) in headless Chromium: the firmware on
MicroPython's WebAssembly port plays a whole 42 sitting and an Oklahoma Gin game by
clicks and keys; a reload in the middle of a hand, and a closed tab, find the same
screen; the downloaded log replays with `tally42 replay` to the score on the page, is
what `tally42 export --from-image` writes of the downloaded journal, and `tally42 import`
stores it; "new scorer" wipes only after asking; the T5's panel; nothing is asked of the
network after the page has loaded."""
import json
import os

import pytest

from browser import Page
from host_tools.cli import main as tally42
from host_tools.log.device import DEVICE_EPOCH, device_time
from webboard import Scorer, Server, build

# 42 for marks to 7: hand 1 Them (E bids 30 and makes it); then Us every hand, making
# our bids (even hands) and setting theirs (odd hands): 7-1 after 8 hands. A new hand's
# bid is 30, the rest pass (OK held), trump, and made (or set).
MADE = ["next", "long ok", "ok", "prev"]
SET = ["next", "long ok", "ok", "next"]
SITTING_42 = ["ok"] + MADE + MADE + SET + MADE + SET + MADE + SET + MADE
CUT = 1 + 4 + 4 + 2         # two bids into hand 3
# Oklahoma Gin to 100 (tests/e2e/sync/test_gin_sync_sim.py), by the keyboard, from a 42 game over
# (MENU, another game: the cursor on Oklahoma Gin). Each hand: the turn-up 10, the first
# player (the dealer's opponent: P2, P1, P2; ▶ the right one, ◀ the left) knocks with 10
# (one over where the ending starts), the other is left with 95 (the first held arrow 40,
# then eleven held arrows of 5: PageDown); P2 wins 190-95 in three hands.
GIN_SETUP = ["m", "ArrowLeft", "Enter", "Enter"]


def _gin_hand(who):
    return ["Enter", who, "ArrowRight", "Enter"] + ["PageDown"] * 12 + ["Enter"]


GIN_HANDS = _gin_hand("ArrowRight") + _gin_hand("ArrowLeft") + _gin_hand("ArrowRight")
GIN_CUT = 2 * len(_gin_hand("ArrowRight")) + 1     # the third hand's turn-up taken


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = os.environ.get("TALLY42_WEB")
    if not folder or not os.path.isfile(os.path.join(folder, "firmware.bin")):
        folder = build(str(tmp_path_factory.mktemp("web")))
    server = Server(folder)
    yield server
    server.close()


@pytest.fixture
def scorer(site):
    page = Page(1200, 800, downloads=True)
    scorer = Scorer(page, site.url)
    scorer.requests = []
    page.page.on("request", lambda r: scorer.requests.append(r.url))
    yield scorer
    page.close()
    assert page.errors == []


def _replay(capsys, path):
    assert tally42(["replay", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _lines(text):
    # Each line as read (its id aside): JSON objects, whatever the order of their keys.
    out = []
    for line in text.splitlines():
        prefix, _, obj = line.partition("{")
        d = json.loads("{" + obj)
        d.pop("id", None)
        out.append((prefix, d))
    return out


def _scores(screen):
    # The over screen: "game over", the winner, then each side's score above its name.
    name, words = screen
    assert name == "over", screen
    return [int(words[2]), int(words[4])]


def test_a_42_sitting_and_a_gin_game_by_clicks_resume_and_replay(scorer, tmp_path, capsys):
    scorer.load()
    loaded = list(scorer.requests)
    assert scorer.screen()[0] == "setup"
    scorer.play(SITTING_42[:CUT])
    name, words = scorer.screen()
    assert name == "contract" and "hand 3  S deals" in words, words
    shown = scorer.pixels()
    # A reload in the middle of the hand: the same screen, to the pixel.
    scorer.reload()
    assert scorer.screen() == (name, words)
    assert scorer.pixels() == shown
    scorer.play(SITTING_42[CUT:])
    assert _scores(scorer.screen()) == [7, 1]
    log = scorer.download("#export")
    path = tmp_path / "42.jsonl"
    path.write_bytes(log)
    report = _replay(capsys, path)
    assert report["variant"] == "42" and report["over"] and report["score"] == [7, 1]
    assert [h["made"] for h in report["hands"]] == [True, True, False, True, False, True,
                                                     False, True]
    head = json.loads(log.decode().splitlines()[0])
    assert head["id"].startswith("T42-WEB-") and len(head["id"]) == 16
    # The journal image, downloaded: `tally42 export --from-image` writes the same log.
    image = tmp_path / "journal.img"
    image.write_bytes(scorer.download("#image"))
    assert len(image.read_bytes()) == 16 * 4096
    out = tmp_path / "from-image.jsonl"
    assert tally42(["export", "--from-image", str(image), "--sitting", head["id"], "--out",
                    str(out)]) == 0
    capsys.readouterr()
    assert _lines(out.read_text()) == _lines(log.decode())
    # `tally42 import` stores it.
    db = str(tmp_path / "t.db")
    assert tally42(["import", str(path), "--db", db]) == 0
    assert head["id"] in capsys.readouterr().out

    # A new sitting (OK held at game over): Oklahoma Gin, by the keyboard.
    scorer.keys(GIN_SETUP)
    assert scorer.screen()[0] == "gin_score"
    scorer.keys(GIN_HANDS[:GIN_CUT])     # the third hand's turn-up taken
    name, words = scorer.screen()
    # A closed tab, another opened on the page: the same screen.
    scorer.pw.close()
    scorer.pw = scorer.page.page = scorer.page.context.new_page()
    scorer.page.page.on("request", lambda r: scorer.requests.append(r.url))
    scorer.load()
    assert scorer.screen() == (name, words)
    scorer.keys(GIN_HANDS[GIN_CUT:])
    assert sorted(_scores(scorer.screen())) == [95, 190]
    path = tmp_path / "gin.jsonl"
    path.write_bytes(scorer.download("#export"))
    report = _replay(capsys, path)
    assert report["variant"] == "oklahoma-gin" and report["over"]
    assert report["score"] == _scores(scorer.screen()) and len(report["hands"]) == 3
    # Nothing but the page's own files, and each only at a load.
    assert scorer.requests == loaded * 3, scorer.requests


def test_new_scorer_wipes_the_journal_only_after_asking(scorer):
    scorer.load()
    scorer.play(["ok"] + MADE)
    scorer.reload()     # the screen as it resumes (the saved hand's note goes at a press)
    hand2 = scorer.screen()
    assert "hand 2, E deals" in hand2[1]
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    scorer.pw.once("dialog", lambda d: answer(d, False))
    scorer.pw.click("#wipe")
    scorer.settle()
    assert asked and "Wipe this scorer?" in asked[0]
    scorer.reload()
    assert scorer.screen() == hand2     # not wiped
    scorer.pw.once("dialog", lambda d: answer(d, True))
    with scorer.pw.expect_navigation():
        scorer.pw.click("#wipe")
    scorer.wait_ready()
    assert len(asked) == 2
    assert scorer.screen()[0] == "setup"
    scorer.pw.click("#export")
    assert "No sitting to export" in scorer.page.eval(
        "document.getElementById('status').textContent")


def test_the_t5_panel_is_chosen_and_kept(scorer):
    scorer.load()
    assert scorer.page.eval("[tally42.width, tally42.height]") == [296, 128]
    with scorer.pw.expect_navigation():
        scorer.pw.select_option("#model", "250x122")
    scorer.wait_ready()
    assert scorer.page.eval("[panel.width, panel.height, tally42.width]") == [250, 122, 250]
    scorer.play(["ok"])
    assert scorer.screen()[0] == "score"
    scorer.key("hold Enter")    # a held key: OK's long press, a pass and the rest pass
    name, words = scorer.screen()
    assert name == "bidding" and "all passed: dealer must bid" in words, words
    scorer.reload()
    assert scorer.page.eval("[panel.width, panel.height]") == [250, 122]
    assert scorer.screen() == (name, words)


def test_device_time_is_what_datetime_writes():
    # The export's times, written without datetime (MicroPython has none).
    import datetime
    for seconds in (0, 1, 86399, 5097600, 60 * 86400 - 1, 0x3FFFFFFF):
        for offset in (0, -360, 330, 345, -150, 840, -720):
            zone = datetime.timezone(datetime.timedelta(minutes=offset))
            want = datetime.datetime.fromtimestamp(DEVICE_EPOCH + seconds, zone).isoformat()
            assert device_time(seconds, offset) == want


def test_a_second_tab_waits_until_the_first_is_closed(scorer):
    # Two tabs would write over each other's journal: the second says so and waits, then
    # starts once the first is closed.
    scorer.load()
    scorer.play(["ok"] + MADE)
    scorer.reload()     # the screen as it resumes (the saved hand's note goes at a press)
    shown = scorer.screen()
    second = scorer.page.context.new_page()
    second.goto(scorer.url)
    second.wait_for_function("window.tally42 && tally42.elsewhere")
    assert "open in another tab" in second.text_content("#status")
    assert second.evaluate("tally42.ready") is False
    # The first closed, the second starts by itself, where the first was.
    scorer.pw.close()
    scorer.pw = scorer.page.page = second
    scorer.wait_ready()
    assert second.evaluate("tally42.elsewhere") is False
    assert scorer.screen() == shown



def test_presses_faster_than_the_loop_are_all_taken_in_order_and_kept(scorer):
    scorer.load()
    # Three presses in one go, before the loop's next round: OK, next, OK held.
    scorer.page.eval("tally42.press(3), tally42.press(2), tally42.press(0x13)")
    scorer.settle()
    assert scorer.page.eval("tally42.presses") == 3
    name, words = scorer.screen()
    assert name == "contract" and "E bid 30" in words, words
    scorer.reload()
    assert scorer.screen() == (name, words)
