"""The journal under damage (issue: one flipped bit lost whole blocks of sittings and
then crashed every sync): a 200-sitting image with single-bit flips at random places,
bytes set to 0x00 or 0xFF and torn blocks (tests/kit/journaldamage.py); `export --all
--from-image` and a sync from the scorer on a damaged image."""
import os

import pytest

import journaldamage as JD
import syncrig as R
from host_tools import cli
from host_tools.log import image as I
from host_tools.store import db as D


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("dmg") / "flash.img")
    return path, JD.build(path)


def test_the_image_is_the_issue_s(image):
    path, data = image
    whole, damaged = I.scan(data)
    assert len(whole) == 200 and damaged == []
    assert len(JD.used(data)) >= 12     # the sittings fill most blocks of the partition


def test_a_sweep_of_damage_loses_one_sitting_a_flip_at_most_and_names_every_loss(image):
    verdicts = JD.sweep(image[1], 48, seed=5)
    assert [v for v in verdicts if v.crashed] == []
    assert [v for v in verdicts if v.unreported] == []
    flips = [v for v in verdicts if "erased" not in v.damage.what]
    assert max(v.lost for v in flips) <= 1, [v for v in flips if v.lost > 1]
    assert any(v.lost == 1 for v in flips)      # the sweep did hit sittings' records
    torn = [v for v in verdicts if "erased" in v.damage.what]
    assert torn and all(v.lost == len(v.named) for v in torn)


def test_the_judge_catches_a_changed_sitting():
    # The judge is not blind: a sitting exported changed counts as unreported.
    data = bytearray(JD.build("/tmp/jd-blind-%d.img" % os.getpid(), 20, blocks=2))
    os.remove("/tmp/jd-blind-%d.img" % os.getpid())
    baseline, _ = I.scan(bytes(data))
    cut = JD.torn_block(bytes(data), JD.used(bytes(data))[0][1] - 300)
    v = JD.judge(baseline, cut)
    assert v.lost and not v.unreported
    v = JD.judge(baseline[:-1] + [baseline[-1][:2] + (b"",) + baseline[-1][3:]], JD.Damage(
        "nothing", 0, bytes(data)))
    assert v.unreported == [baseline[-1][0]]     # a changed sitting is caught


def test_the_issue_s_flip_of_byte_5001_is_named_and_the_rest_exported(image, tmp_path,
                                                                       capsys):
    path, data = image
    d = bytearray(data)
    d[5001] ^= 0x04
    bad = tmp_path / "bad.img"
    bad.write_bytes(bytes(d))
    capsys.readouterr()
    code = cli.main(["export", "--all", "--from-image", str(bad), "--out",
                     str(tmp_path / "out") + "/"])
    out, err = capsys.readouterr()
    whole, damaged = I.scan(bytes(d))
    assert len(whole) + len(damaged) == 200 and len(damaged) <= 1
    assert len(os.listdir(tmp_path / "out")) == len(whole)
    if damaged:
        assert code == 2 and ("sitting %d damaged" % damaged[0]) in err
    else:
        assert code == 0        # the check value repaired a damaged tag


def test_a_sync_from_a_damaged_scorer_stores_the_rest_and_names_the_loss(tmp_path, capsys):
    img = str(tmp_path / "flash.img")
    data = bytearray(JD.build(img, 30))
    # A flipped bit in an event of sitting 10: its record fails its check.
    pos = _event_of(data, 10)
    data[pos] ^= 0x01
    with open(img, "wb") as f:
        f.write(data)
    cable = R.Cable()
    scorer = R.Scorer(img, cable)
    db = str(tmp_path / "t.db")
    try:
        capsys.readouterr()
        code = cli.main(["sync", "--port", cable.host_path, "--db", db, "--timeout", "0.3"])
        out, err = capsys.readouterr()
        assert code == 2 and "sitting 10 damaged" in err, (out, err)
        with D.open_db(db) as d:
            assert len(d.ids()) == 29
        # It was named once; the scorer no longer lists it, and the next sync is clean.
        code = cli.main(["sync", "--port", cable.host_path, "--db", db, "--timeout", "0.3"])
        out, err = capsys.readouterr()
        assert code == 0 and "nothing new on the scorer" in out, (out, err)
    finally:
        assert "Traceback" not in scorer.stop()
        cable.close()


def _event_of(data, sid):
    # The byte of an event of sitting sid (an event's payload, after its BEGIN).
    for start, end in JD.used(bytes(data)):
        pos = start + JD.HDR2
        while pos < end - 8:
            if (data[pos] == 0xC3 and data[pos + 2] | data[pos + 3] << 8 == sid
                    and data[pos + 4] == 0):
                return pos + 6 + data[pos + 5] + 1 + 1 + 1    # BEGIN, check, tag: the event
            pos += 1
    raise AssertionError("no sitting %d" % sid)
