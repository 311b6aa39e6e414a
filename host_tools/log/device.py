"""A sitting as the scorer stores it (a codec header, event bytes, the journal's END
record) as sitting log lines, with its id, start and end times and table assignment."""
from engine_core.texas42 import options as O
from engine_core.texas42 import variants as V
from host_tools.log.lines import Header
from host_tools.log.sittinglog import log_lines
from host_tools.log.times import instant


# The scorer's clock counts seconds from here (engine_core.header's stamp).
DEVICE_EPOCH = 1704067200       # 2024-01-01T00:00:00Z


def device_time(seconds, offset_minutes):
    """ISO 8601 local time (with its UTC offset) of a time on the scorer's clock, as
    datetime's isoformat() writes it; plain arithmetic, so the web board's MicroPython
    (host_tools/log/pagelog.py) writes the same."""
    t = DEVICE_EPOCH + seconds + offset_minutes * 60
    days, s = t // 86400, t % 86400
    # The civil date of a day count since 1970-01-01 (the inverse of times._days).
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (m <= 2)
    off = abs(offset_minutes)
    return "%04d-%02d-%02dT%02d:%02d:%02d%s%02d:%02d" % (
        y, m, d, s // 3600, s // 60 % 60, s % 60, "-" if offset_minutes < 0 else "+",
        off // 60, off % 60)


def _as_stamped(seconds, offset_minutes):
    # A stamp with no hello to place it by (a flash image): a clock the PC set, as it
    # is; a count from the scorer's power-on (engine_core.stamp) is no time, as a clock
    # not set always was.
    from engine_core.stamp import power_on_tag
    if power_on_tag(offset_minutes) >= 0:
        return None, None
    return device_time(seconds, offset_minutes), "scorer"


END_ITEM = 5    # a journal stream item of 5 bytes is an END record, not an event


def end_item(item):
    """(seconds since 2024, UTC offset minutes) of an END item's 5 bytes."""
    q = item[4]
    return (item[0] | item[1] << 8 | item[2] << 16 | item[3] << 24,
            (q - 256 if q > 127 else q) * 15)


def device_sitting_id(device_id, number, header_bytes):
    """A synced sitting's id: the scorer's id and the sitting's random id (hex) from its
    header; headers of version 1 have none, and take the journal's number instead."""
    from engine_core.header import header_stamp
    stamp = header_stamp(header_bytes)
    if stamp and stamp[0]:
        return "%s-%08X" % (device_id, stamp[0])
    return "%s-%d" % (device_id, number)


def from_device(header_bytes, event_bytes, extra=None, ended=None, place=None):
    """A sitting as the device stores it (codec header + event bytes) as log lines, its
    start time in the header when the scorer's clock was set, its end time from the
    journal's END record (ended: (seconds since 2024, UTC offset minutes), or None).
    place(seconds, offset minutes) -> (ISO time or None, how): where a stamp goes on the
    PC's clock (host_tools.serial.clock.ScorerClock.place, how "scorer", "pc" or "lost");
    without it a stamp of a clock the PC set is kept, and one counted from the scorer's
    power-on is no time (never a date). ValueError when the bytes are not a sitting."""
    from engine_core import codec
    from engine_core.header import decode_header, header_assignment, header_stamp
    rules, dealer, names = decode_header(header_bytes)
    try:
        # The device trusts its flash; here a damaged header must not pass for rules.
        checked = O.resolve(rules.name, O.to_dict(rules))
    except (IndexError, O.OptionError):
        checked = None
    if checked is None or O.to_dict(checked) != O.to_dict(rules):
        raise ValueError("the sitting header holds options that are no game's")
    if not 0 <= dealer < rules.row[V.SEATS]:
        raise ValueError("the sitting header's dealer is no seat")
    extra = dict(extra or {})
    place = place or _as_stamped
    hows = set()
    stamp = header_stamp(header_bytes)
    if stamp and stamp[1] and "started" not in extra:
        when, how = place(stamp[1], stamp[2])
        hows.add(how)
        if when:
            extra["started"] = when
    if ended and ended[0] and "ended" not in extra:
        when, how = place(ended[0], ended[1])
        hows.add(how)
        if when:
            extra["ended"] = when
        if when and "started" in extra and instant(extra["ended"]) < instant(extra["started"]):
            # The scorer's clock was set back during the sitting: its end is not known
            # (the sitting is stored all the same).
            del extra["ended"]
    if "clock" not in extra and hows & {"pc", "lost"}:
        extra["clock"] = "lost" if "lost" in hows else "pc"
    assign = header_assignment(header_bytes)      # the PC's table assignment
    if assign:
        extra.setdefault("event", assign[0])
        extra.setdefault("round", assign[1])
        extra.setdefault("table", assign[2])
    header = Header(rules, dealer, names, extra)
    if rules.family:
        from engine_core.gin import codec
    events = []
    pos = 0
    while pos < len(event_bytes):
        n = codec.length_at(event_bytes, pos)
        if n == 0 or pos + n > len(event_bytes):
            raise ValueError("byte %d is not an event" % pos)
        events.append(codec.decode_at(event_bytes, pos))
        pos += n
    return log_lines(header, events)
