"""A sync that meets trouble halfway and goes on (issue: a stray 0x03 closed the session,
the scorer then answered nothing but a hello, and the PC gave up with 71 of 200 stored):
the real `tally42 sync` against the scorer on the MicroPython unix port
(tests/kit/sync_device.py) through a cable that carries a stray Ctrl-C, a second reader on
the PC's end, a scorer restarted in the middle. The long soak is tests/e2e/sync/test_sync_soak.py
and bench/bench_sync_soak.py."""
import os
import threading
import time

import pytest

import syncrig as R
from host_tools import cli
from host_tools.store import db as D

SITTINGS = 60


@pytest.fixture
def scorer(tmp_path):
    image = str(tmp_path / "flash.img")
    R.build_image(image, SITTINGS, open_events=0, blocks=16)
    cable = R.Cable()
    box = {"scorer": R.Scorer(image, cable), "image": image, "cable": cable,
           "db": str(tmp_path / "t.db")}
    yield box
    err = box["scorer"].stop()
    cable.close()
    assert "Traceback" not in err, err


def _sync_in_background(box, *extra):
    done = {}

    def go():
        done["code"] = cli.main(["sync", "--port", box["cable"].host_path, "--db", box["db"],
                                 "--timeout", "0.3", "--wait", "5"] + list(extra))
    t = threading.Thread(target=go)
    t.start()
    return t, done


def _halfway(box):
    # Until about half of the sittings' bytes have gone to the PC.
    assert R.wait_for(lambda: box["cable"].to_host > SITTINGS * 100, 30)


def _all_stored_and_synced(box):
    with D.open_db(box["db"]) as d:
        assert len(d.ids()) == SITTINGS
    assert all(s[2] for s in R.journal_sittings(box["image"]))


def test_a_stray_ctrl_c_in_the_middle_of_a_sync_changes_nothing(scorer, capsys):
    t, done = _sync_in_background(scorer)
    _halfway(scorer)
    scorer["cable"].send_to_device(b"\x03")
    t.join(60)
    assert done["code"] == 0, capsys.readouterr()
    assert scorer["scorer"].alive()
    _all_stored_and_synced(scorer)


def test_a_second_reader_on_the_line_costs_a_resume_not_the_sync(scorer, capsys):
    t, done = _sync_in_background(scorer)
    _halfway(scorer)
    fd = os.open(scorer["cable"].host_path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    taken = 0
    end = time.monotonic() + 0.8
    while time.monotonic() < end:
        try:
            taken += len(os.read(fd, 256))
        except OSError:
            pass
        time.sleep(0.005)
    os.close(fd)
    t.join(60)
    assert done["code"] == 0, capsys.readouterr()
    _all_stored_and_synced(scorer)


def test_a_scorer_restarted_in_the_middle_is_said_hello_again(scorer, capsys):
    t, done = _sync_in_background(scorer)
    _halfway(scorer)
    scorer["scorer"].proc.kill()
    scorer["scorer"].stop()
    scorer["scorer"] = R.Scorer(scorer["image"], scorer["cable"])
    t.join(60)
    out = capsys.readouterr()
    assert done["code"] == 0, out
    _all_stored_and_synced(scorer)


def test_a_session_the_scorer_closed_gets_error_2_and_a_new_hello(tmp_path, capsys):
    # The scorer closes an idle session after --idle ms; the PC's next request is
    # answered "no session" by the gate, and the PC says hello again at once (not
    # after waiting out its patience).
    image = str(tmp_path / "flash.img")
    R.build_image(image, 4, open_events=0, blocks=16)
    cable = R.Cable()
    sc = R.Scorer(image, cable, "--idle", "200")
    try:
        from host_tools.serial import client as Y
        from host_tools.serial.transport import SerialLink
        with SerialLink(cable.host_path) as link:
            c = Y.Client(link, timeout=0.5, wait=1.5)
            first = c.hello().session
            time.sleep(0.5)             # the scorer closes the session meanwhile
            t0 = time.monotonic()
            entries = c.list()
            assert len(entries) == 4 and c.session != first
            assert time.monotonic() - t0 < 1.0
            c.bye()
    finally:
        assert "Traceback" not in sc.stop()
        cable.close()


# ---- the firmware itself on the sim board: its USB line's gate answers for a session
# that is over ----

IDLE_S = 5          # firmware/sync/endpoint.py _IDLE_MS
WAIT = 10           # the PC's wait for an answer: what no answer would cost


def test_the_issue_s_stray_ctrl_c_on_the_sim_and_a_session_closed_for_idleness(
        tmp_path, capsys):
    flash = str(tmp_path / "flash.bin")
    R.build_image(flash, 200, open_events=0, blocks=16)
    script = tmp_path / "none.txt"
    script.write_text("")
    sim = R.HeldSim(script, flash)
    db = str(tmp_path / "t.db")
    try:
        done = {}

        def go():
            done["code"] = cli.main(["sync", "--port", sim.port, "--db", db, "--timeout",
                                     "0.3", "--wait", "8"])
        t = threading.Thread(target=go)
        t.start()

        def stored():
            if not os.path.exists(db):
                return 0
            with D.open_db(db) as d:
                return len(d.ids())
        assert R.wait_for(lambda: stored() > 20, 60)
        fd = os.open(sim.port, os.O_WRONLY | os.O_NOCTTY)   # printf '\x03' > PTY
        os.write(fd, b"\x03")
        os.close(fd)
        t.join(120)
        out = capsys.readouterr()
        assert done["code"] == 0, out
        assert stored() == 200
        # A session left idle: the scorer closes it; the next request of it gets error 2
        # from the gate and the PC says hello again at once.
        from host_tools.serial import client as Y
        from host_tools.serial.transport import SerialLink
        with SerialLink(sim.port) as link:
            c = Y.Client(link, timeout=0.5, wait=WAIT)
            first = c.hello().session
            # firmware/sync/endpoint.py closes a session 5 s without a request: twice
            # that, a margin that holds on a loaded machine.
            time.sleep(2 * IDLE_S)
            t0 = time.monotonic()
            assert c.list(unsynced=False) and c.session != first
            # Told at once (error 2, then hello again), not after the PC's whole wait.
            assert time.monotonic() - t0 < WAIT
            c.bye()
    finally:
        err = sim.stop()
        assert "Traceback" not in err, err
