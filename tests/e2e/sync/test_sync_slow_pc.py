"""A sync on a slow PC (a laptop on battery, a PC busy with other work): the real
`tally42 sync` is stopped (SIGSTOP) in the middle, past the scorer's idle limit and past
the PC's own patience, then goes on (SIGCONT). The scorer has closed the session meanwhile:
the PC opens another and goes on where it was; every sitting is stored once. The stop is
a multiple of the limits it outlasts (no margin races them)."""
import os
import signal
import subprocess
import sys

import syncrig as R
from host_tools.store import db as D

SITTINGS = 40
IDLE_MS = 1000          # the scorer's idle limit here (5 s on a device)
WAIT = 2                # the PC's patience with a silent scorer (--wait)


def _sync(cable, db):
    return subprocess.Popen([sys.executable, "-m", "host_tools", "sync", "--port",
                             cable.host_path, "--db", db, "--timeout", "0.3", "--wait",
                             str(WAIT)], cwd=R.ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _stopped_mid_sync(tmp_path, seconds, quiet_after=0):
    image = str(tmp_path / "flash.img")
    R.build_image(image, SITTINGS, open_events=0, blocks=16)
    cable = R.Cable()
    sc = R.Scorer(image, cable, "--idle", str(IDLE_MS))
    db = str(tmp_path / "t.db")
    try:
        proc = _sync(cable, db)
        assert R.wait_for(lambda: cable.to_host > SITTINGS * 80, 60)
        proc.send_signal(signal.SIGSTOP)
        before = cable.to_host
        if quiet_after:
            cable.cut()         # whatever the scorer still had to say is said by now
        # (the scorer's session ends while the PC sleeps: it says nothing more)
        R.wait_for(lambda: False, seconds)
        proc.send_signal(signal.SIGCONT)
        if quiet_after:
            # The PC wakes to a line with nothing on it for a moment (less than --wait),
            # as it would once the scorer had sent everything before the PC stopped.
            R.wait_for(lambda: False, quiet_after)
            cable.mend()
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, (out, err)
        assert before < cable.to_host
        with D.open_db(db) as d:
            assert len(d.ids()) == SITTINGS
        assert all(s[2] for s in R.journal_sittings(image))
        assert "%d new, 0 updated, 0 already stored" % SITTINGS in out, out
        return out, err
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGCONT)
            proc.kill()
            proc.wait()
        assert "Traceback" not in sc.stop()
        cable.close()


def test_a_pc_stopped_past_the_scorers_idle_limit_says_hello_again_and_goes_on(tmp_path):
    _stopped_mid_sync(tmp_path, 3 * IDLE_MS / 1000)


def test_a_pc_stopped_past_its_own_patience_does_not_blame_the_scorer(tmp_path):
    # Stopped twice as long as --wait: the time it slept is not the scorer's silence,
    # only the time it listens after (a quarter of --wait here) is.
    out, err = _stopped_mid_sync(tmp_path, 2 * WAIT, quiet_after=WAIT / 4)
    assert "stopped answering" not in err
