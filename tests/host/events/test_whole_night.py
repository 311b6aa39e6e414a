"""A whole club night on the radio, both ways, with no USB sync after each scorer's first
push: 8 teams, 4 scorers, a round robin of 7 rounds, over an air that loses 30 % of
frames both ways. Each scorer's games go to the PC through the real base station
firmware (which checks each frame under its scorer's key), the PC stores and slots them
and sends each scorer its next table back; the scorer plays the table it was sent. At
every round the standings are checked against a hand count of the games as the scorers'
engines scored them, on SQLite and on PostgreSQL. In one process, in fake time
(tests/kit/radionight.py): a few seconds a database."""
import radionight as RN

from engine_core.air import wire as W
from host_tools.events import event as EV
from host_tools.events import radio as RA
from host_tools.events import slots as SL
from host_tools.events import standings as ST
from host_tools.events import state as ES
from host_tools.store import db as D

EVENT = "Whole night"
TEAMS = [("Aces", ["Ann", "Al"]), ("Bones", ["Bob", "Bea"]), ("Cats", ["Cy", "Cal"]),
         ("Dogs", ["Di", "Dan"]), ("Eels", ["Eve", "Ed"]), ("Fins", ["Fay", "Flo"]),
         ("Gnus", ["Gus", "Gil"]), ("Hens", ["Hal", "Hu"])]
TEAM_OF = {p: t for t, ps in TEAMS for p in ps}
MAX_STEPS = 4000        # 200 fake seconds a round: far past what a round takes


def _standings(d):
    ev = EV.load(d, EVENT)
    rows = ST.compute(ev, ES.event_state(ev, d))
    return [line.split(",") for line in ST.csv_text(ev, rows).splitlines()[1:]]


def _forge(air, victim, forger):
    # A scorer of the event makes a frame in another's name: the victim's tag and
    # address, records of its own, sealed under its own key (the victim's it has not).
    b = bytearray(W.MAX_FRAME)
    W.put_head(b, W.DATA, victim.tag, victim.sid or 1, 0, W.F_FINISHED)
    b[W.HEAD:W.HEAD + 6] = b"\x05forge"
    n = W.seal(forger.key, victim.mac, b, W.HEAD + 6)
    air.carry(victim.mac, RN.BASE_MAC, bytes(b[:n]), lossless=True)


def test_a_whole_round_robin_on_the_radio_has_every_result_in_and_every_next_table_out(
        db_url):
    d = D.open_db(db_url)
    ev = EV.create(d, EVENT, "round-robin", "42", teams=TEAMS)
    assert ev.rounds == 7 and len([t for t in ev.tables if t.round == 1]) == 4
    air = RN.FakeAir(loss=0.3, seed=42)
    base, line = RN.base_station(air)
    key = RA.event_key(d, EVENT)
    now = [0.0]
    rx = RA.Receiver(d, EVENT, clock=lambda: now[0])
    pc = RN.Pc(line, rx)
    assert pc.checks is True
    scorers = [RN.Scorer(air, n, RA.scorer_key(key, "T42-0000%02X" % (0xA0 + n)), n + 1)
               for n in range(4)]
    # Each scorer's one USB contact: `sync --event` pushes its first table (and its key).
    play = {}
    for s in scorers:
        a = SL.next_assignment(d, s.device, EVENT)
        assert a["round"] == 1, a
        s.home = a["table"]
        play[s.device] = (1, a["table"], a["players"])
    assert sorted(s.home for s in scorers) == [1, 2, 3, 4]
    games = []
    met = set()
    forged = 0
    for rnd in range(1, 8):
        ev = EV.load(d, EVENT)
        for s in scorers:
            r, table, names = play[s.device]
            # The table sent is the scorer's own number's in this round, its seats the
            # schedule's: the scorer keeps its table, the teams move.
            assert (r, table) == (rnd, s.home), (s.device, r, table)
            t = ev.table(rnd, table)
            assert names == ev.seats(t.side_a, t.side_b, rnd), (names, rnd, table)
            marks = s.play_game(EVENT, rnd, table, names)
            a, b = TEAM_OF[names[0]], TEAM_OF[names[1]]
            assert a != b and frozenset((a, b)) not in met, (rnd, a, b)
            met.add(frozenset((a, b)))
            games.append((a, b, marks[0], marks[1]))
        _forge(air, scorers[0], scorers[1])
        forged += 1
        for _ in range(MAX_STEPS):
            now[0] += RN.STEP
            for s in scorers:
                s.poll(now[0])
            pc.step()
            # Each scorer holds its next table, the PC heard it confirm it, and the
            # scorer heard the PC say so (F_TAKEN: it stops confirming).
            if all(s.next is not None and rx.nexts[(s.mac, s.sid)].confirmed is not None
                   and s.taken for s in scorers if (s.mac, s.sid) in rx.nexts):
                if len(rx.nexts) == 4 * rnd:
                    break
        late = [s.device for s in scorers if s.next is None]
        assert not late, "round %d: no next table reached %s (%s)" % (rnd, late, rx.notes)
        assert all(s.taken for s in scorers), rnd
        # Every result of the round in, by the radio alone; the standings as by hand.
        ev = EV.load(d, EVENT)
        state = ES.event_state(ev, d)
        assert all(ES.table_status(ev, t, state) == "done" for t in ev.tables
                   if t.round == rnd), rnd
        assert _standings(d) == RN.hand_standings(games, TEAM_OF), rnd
        for s in scorers:
            sid, r, table, name, names = s.next
            assert sid == s.sid
            if rnd < 7:
                assert name == EVENT.encode(), s.next
                play[s.device] = (r, table, [n.decode() for n in names])
            else:
                assert (r, table) == (0, 0), s.next     # no more tables tonight
    # Every pair of the eight teams met once; every game stored once, from the radio.
    assert len(met) == 28
    assert d.conn.execute("SELECT COUNT(*) FROM sittings").fetchone()[0] == 28
    assert {r[0] for r in d.conn.execute("SELECT device FROM sittings")} == {
        s.device for s in scorers}
    # The forgeries stopped at the base (its own count), none reached the PC.
    c = pc.counts()
    assert c["checks"] and c["forged"] == forged and c["foreign"] == 0, c
    assert rx.foreign == 0 and rx.refused == 0, rx.figures()
    assert air.lost > 0         # the air did lose frames: the resends carried the night
    pc.station.close()
    d.close()
