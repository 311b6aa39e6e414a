# The binary event codec and frames.
from array import array

from engine_core import codec
from engine_core.header import decode_header, encode_header, header_assignment, header_stamp
import frames
from engine_core.texas42 import options as O
from engine_core.codes import (EV_BID, EV_TRUMP, EV_TRICK, EV_MADE, EV_POINTS, EV_TRICKS,
                               EV_UNDO, GAME, PLUNGE, SPLASH, MARKS, event)
from engine_core.texas42.sitting import Sitting
from randsit import RandomPlayer, play

EVENTS = [event(EV_BID, b) for b in (0, 1, 30, 41, 42, 95, MARKS + 2, MARKS + 15, GAME, PLUNGE,
                                     SPLASH)]
EVENTS += [event(EV_TRUMP, c) for c in range(15)]
EVENTS += [event(EV_TRICK, seat << 8 | count) for seat in range(6) for count in (0, 5, 30, 35, 50)]
EVENTS += [event(EV_MADE, 0), event(EV_MADE, 1), event(EV_POINTS, 0), event(EV_POINTS, 88),
           event(EV_POINTS, 2 << 8 | 42), event(EV_POINTS, 1 << 8 | 7),
           event(EV_TRICKS, 0x2221), event(EV_TRICKS, 0x0700), event(EV_UNDO)]


def test_every_event_round_trips():
    buf = bytearray(4)
    for ev in EVENTS:
        end = codec.encode_into(ev, buf, 0)
        assert end > 0, ev
        assert codec.length_at(buf, 0) == end, ev
        assert codec.decode_at(buf, 0) == ev, ev
        assert buf[0] != 0xFF


def test_uncodable_events_are_refused():
    buf = bytearray(4)
    assert codec.encode_into(event(EV_BID, 0x73), buf, 0) == -1
    assert codec.encode_into(event(EV_TRICK, 1 << 8 | 7), buf, 0) == -1
    assert codec.encode_into(event(9, 0), buf, 0) == -1
    buf[0] = 0xFF
    assert codec.length_at(buf, 0) == 0
    assert codec.decode_at(buf, 0) == -1


def test_typical_marks_hand_is_six_bytes_eight_framed():
    s = Sitting(O.resolve("42"))
    for ev in (event(EV_BID, 30), event(EV_BID, 0), event(EV_BID, 0), event(EV_BID, 0),
               event(EV_TRUMP, 5), event(EV_MADE, 1)):
        assert s.apply(ev) == 0
    assert s.hlen == 6
    out = bytearray(16)
    end = frames.frame_into(s.hist, 0, s.hlen, out, 0)
    assert end == 8
    assert frames.frame_at(out, 0, end) == 6
    out[3] ^= 1
    assert frames.frame_at(out, 0, end) == -1
    assert frames.frame_at(out, 0, end - 1) == -1


def test_history_of_random_sittings_decodes_to_the_events_played():
    out = array("l", bytes(8 * 600))
    for k in range(20):
        s = Sitting(O.resolve("42", {"plunge": True, "nello": True}), k % 4)
        n = play(s, RandomPlayer(k + 3, undo_rate=0), out, 600)
        pos = 0
        i = 0
        while pos < s.hlen:
            assert codec.decode_at(s.hist, pos) == out[i]
            pos += codec.length_at(s.hist, pos)
            i += 1
        assert i == n


def test_header_round_trips_rules_dealer_and_names():
    rules = O.resolve("42", {"nello": True, "nello_doubles": ["suit", "low"], "min_bid": 31,
                             "all_pass": "redeal", "made_scores": "bid", "target": 300})
    data = encode_header(rules, 3, ["Ann", "Bob", "Cy", "Dé"])
    back, dealer, names = decode_header(data)
    assert dealer == 3 and names == ["Ann", "Bob", "Cy", "Dé"]
    assert O.to_dict(back) == O.to_dict(rules)
    back, dealer, names = decode_header(encode_header(O.resolve("moon"), 2))
    assert names is None and back.name == "moon" and dealer == 2
    try:
        decode_header(b"\x07" * 15)
        raise AssertionError("accepted a bad header")
    except ValueError:
        pass


def test_header_version_2_carries_a_stamp_and_version_1_is_still_read():
    rules = O.resolve("42")
    data = encode_header(rules, 1, ["Ann", "Bob", "Cy", "Di"], (1 << 30) - 1,
                               92045555, -330)
    assert data[0] == 2
    assert header_stamp(data) == ((1 << 30) - 1, 92045555, -330)
    back, dealer, names = decode_header(data)
    assert dealer == 1 and names == ["Ann", "Bob", "Cy", "Di"]
    # Version 1 (before the stamp): the same fields, no stamp.
    old = bytearray(encode_header(rules, 2)[:15])
    old[0] = 1
    back, dealer, names = decode_header(bytes(old))
    assert O.to_dict(back) == O.to_dict(rules) and dealer == 2 and names is None
    assert header_stamp(bytes(old)) is None
    # A version 2 header cut before its stamp is torn.
    try:
        decode_header(data[:-1])
        raise AssertionError("accepted a torn header")
    except ValueError:
        pass


def test_a_long_name_is_cut_between_characters():
    name = "\u00e9" * 20      # 40 bytes of UTF-8
    data = encode_header(O.resolve("42"), 0, [name, "B", "C", "D"])
    names = decode_header(data)[2]
    assert names[0] == "\u00e9" * 16 and names[1:] == ["B", "C", "D"]


def test_header_carries_the_table_assignment_in_version_3():
    rules = O.resolve("42", {"target": 250, "scoring": "points"})
    names = ["Ann", "Bob", "Cy", "Zoë"]
    data = encode_header(rules, 1, names, 12345, 92045555, -360,
                               ("Club night", 2, 3))
    assert data[0] == 3
    assert header_assignment(data) == ("Club night", 2, 3)
    assert header_stamp(data) == (12345, 92045555, -360)
    back, dealer, got = decode_header(data)
    assert O.to_dict(back) == O.to_dict(rules) and dealer == 1 and got == names
    # Without one: version 2, no assignment; a torn one is refused.
    plain = encode_header(rules, 1, names, 12345, 92045555, -360)
    assert plain[0] == 2 and header_assignment(plain) is None
    assert data[:len(plain)] == b"\x03" + plain[1:]
    try:
        header_assignment(data[:-2])
    except ValueError:
        pass
    else:
        assert False, "a torn assignment was read"
    # A long event name is cut to 32 bytes, between characters.
    long = encode_header(rules, 0, None, 0, 0, 0, ("é" * 20, 255, 1))
    assert header_assignment(long) == ("é" * 16, 255, 1)


def _attrs(r, keys):
    return [getattr(r, k) for k in keys]


def test_header_carries_the_house_rules_in_bits_that_were_always_0():
    keys = ("forced_min", "nello_min", "nello_by", "min_bid", "all_pass", "made_scores")
    for opts in ({"forced_min": 41, "nello": True, "nello_min": 30, "nello_by": "forced_dealer"},
                 {"min_bid": 1, "forced_min": 41, "all_pass": "redeal", "made_scores": "bid"},
                 {"nello": True, "nello_min": 84}, {"nello": True, "nello_min": 41}):
        rules = O.resolve("42", opts)
        data = encode_header(rules, 0)
        back = decode_header(data)[0]
        assert _attrs(back, keys) == _attrs(rules, keys), opts
        assert len(data) == len(encode_header(O.resolve("42"), 0))     # no longer
    moon = decode_header(encode_header(O.resolve("moon", {"min_bid": 3}), 0))[0]
    assert moon.min_bid == 3 and moon.forced_min == 3
    # The defaults write bytes 6 and 7 as before them: all_pass and made_scores alone.
    data = encode_header(O.resolve("42", {"all_pass": "redeal", "made_scores": "bid"}), 0)
    assert data[6] == 1 and data[7] == 1
    # A header with a nello_min or forced_min no rule allows is not a header.
    for i, v in ((7, 45 << 1), (7, 0x80), (6, 12 << 2)):   # nello_min 23; bit 7; 42
        bad = bytearray(data)
        bad[i] = v
        try:
            decode_header(bytes(bad))
            raise AssertionError("accepted byte %d = %d" % (i, v))
        except ValueError:
            pass


def test_gin_header_carries_hoyles_options():
    keys = ("knock_scores", "gin_bonus", "undercut_bonus", "ace_turnup", "spade_doubles",
            "bonus", "deal")
    for variant, opts in (("oklahoma-gin", {"knock_scores": "difference", "gin_bonus": 25,
                                            "undercut_bonus": 21, "ace_turnup": "gin"}),
                          ("sequence-gin", {"bonus": True, "gin_bonus": 23,
                                            "spade_doubles": True}),
                          ("skarney-gin", {"deal": "loser"})):
        rules = O.resolve(variant, opts)
        data = encode_header(rules, 1)
        back, dealer, _ = decode_header(data)
        assert _attrs(back, keys) == _attrs(rules, keys) and dealer == 1, variant
    plain = encode_header(O.resolve("oklahoma-gin"), 0)
    assert plain[11] == 0 and plain[12] == 0 and plain[9] == 0
    for i, v in ((11, 6), (12, 9), (9, 0x20)):
        bad = bytearray(plain)
        bad[i] = v
        try:
            decode_header(bytes(bad))
            raise AssertionError("accepted byte %d = %d" % (i, v))
        except ValueError:
            pass
    skarney = bytearray(encode_header(O.resolve("skarney-gin"), 0))
    skarney[11] = 5     # Skarney Gin has no gin_bonus option
    try:
        decode_header(bytes(skarney))
        raise AssertionError("accepted a Skarney gin_bonus")
    except ValueError:
        pass
