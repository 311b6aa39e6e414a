# A gin sitting survives a power cut at every flash write, like a 42 sitting: a real gin
# pad evening (an Oklahoma game played out, finished and synced, then a Skarney game a few
# hands in) journalled event by event, power cut after every flash operation in several
# partial forms; after the reboot the journal holds every acknowledged event and the
# sitting resumed from it is the sitting that was played (the event in flight aside).
from engine_core.header import decode_header, encode_header
from engine_core.gin import codec as gincodec
from engine_core.texas42 import options as O
from engine_core.games import new_sitting
from firmware.journal import Journal
from engine_core.journal.reader import JournalReader
from boards.sim.flash import NorFlash, PowerCut
from ginrand import RandomGinPlayer
from journalrig import (CUT_FORMS, Model, append_again, check_model, cut_points, drive,
                        new_image, sitting_events)

# The cut operation whole, not at all, or with some bits of its first byte: the evening
# stays in one 4 KB block, so the forms that tear a block header do not arise.
_FORMS = CUT_FORMS[:3]


def _game(variant, options, seed, limit):
    rules = O.resolve(variant, options)
    s = new_sitting(rules, 0)
    player = RandomGinPlayer(seed, undo_rate=8)
    steps = [("begin", encode_header(rules, 0, ("Ann", "Bob")))]
    buf = bytearray(3)
    while len(steps) <= limit:
        ev = player.next_event(s)
        if ev < 0:
            break
        assert s.apply(ev) == 0
        n = gincodec.encode_into(ev, buf, 0)
        steps.append(("ev", bytes(buf[:n])))
    return steps, s


def _scenario():
    first, s1 = _game("oklahoma-gin", {"spade_doubles": True, "target": 800}, 11, 200)
    assert s1.over()
    second, _ = _game("skarney-gin", {}, 5, 6)
    return first + [("finish",), ("sync", 0)] + second


def _resume(j, sid):
    # What the scorer does at boot: the header, then every event into a new sitting.
    evs = sitting_events(j, sid)
    rules, dealer, _ = decode_header(evs[0])
    s = new_sitting(rules, dealer)
    for e in evs[1:]:
        assert s.apply(s.codec.decode_at(e, 0)) == 0
    return s, len(evs) - 1


def _played(model, k, n):
    # The sitting as played from the model's k-th sitting's first n events.
    _, header, events = model.sittings[k][:3]
    rules, dealer, _ = decode_header(header)
    s = new_sitting(rules, dealer)
    i = 0
    while i < n:
        e = events[i] if i < len(events) else model.inflight[1]
        s.apply(s.codec.decode_at(e, 0))
        i += 1
    return s


def test_a_gin_evening_survives_a_power_cut_at_every_flash_write():
    steps = _scenario()
    model = Model()
    whole = NorFlash(4, 4096)
    drive(whole, steps, model)
    total = whole.ops
    assert total > 150
    cuts = 0
    for k in cut_points(total):
        seen = []
        for keep, bits, from_end in _FORMS:
            flash = NorFlash(4, 4096)
            flash.cut_after(k, keep, bits, from_end)
            model = Model()
            try:
                drive(flash, steps, model)
            except PowerCut:
                pass
            flash.power_on()
            cuts += 1
            if not new_image(seen, flash):
                continue
            where = "cut after op %d (keep %d)" % (k, keep)
            j = Journal(flash)
            j.mount()
            check_model(j, model, where)
            for i in range(len(model.sittings)):
                sid = model.sittings[i][0]
                if sid not in [x[0] for x in JournalReader(j).sittings()]:
                    continue
                s, n = _resume(j, sid)
                assert n >= len(model.sittings[i][2]), where
                assert bytes(s.st) == bytes(_played(model, i, n).st), where
            append_again(flash, j, where)
    assert cuts == len(cut_points(total)) * len(_FORMS)
