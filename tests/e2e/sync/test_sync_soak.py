"""The sync soaked in line faults (tests/kit/syncsoak.py): sittings synced again and again
while bytes are dropped, garbage and stray Ctrl-Cs reach the scorer, replies are lost, a
second reader takes bytes and the scorer restarts; in the end every sitting is stored
exactly once. A short soak here; the 1,000-sitting one is bench/bench_sync_soak.py."""
import syncsoak as S


def test_a_short_soak_stores_every_sitting_exactly_once(tmp_path):
    lost, duplicates, syncs, left, faults, err = S.soak(tmp_path, 80, 16, seed=7)
    assert "Traceback" not in err, err
    assert sum(faults.values()) >= 3, faults       # the line did misbehave
    assert (lost, duplicates, left) == (0, 0, 0), (lost, duplicates, left, syncs, faults)


def test_the_tally_sees_a_lost_and_a_doubled_sitting(tmp_path):
    # The soak's judge is not blind: a sitting missing from the database, and one stored
    # under a second id, are counted.
    rig = S.Rig(tmp_path, 6, 16)
    try:
        assert rig.sync() == 0
        assert rig.tally() == (0, 0)
        from host_tools.store import db as D
        with D.open_db(rig.db) as d:
            ids = d.ids()
            log = d.log(ids[0])
            d.delete(ids[1])
            d.store(log.replace(ids[0], ids[0] + "-again").encode(), source="import")
        assert rig.tally() == (1, 1)
    finally:
        rig.close()
