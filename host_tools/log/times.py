"""Times of the sitting log (`started` in the header, `ended` on the `#tally42` line):
ISO 8601, read as instants so that they order by when they happened, whatever the UTC
offset they were written with. Plain Python (the log is read on MicroPython too)."""

_FORM = "an ISO 8601 time such as 2026-03-07T20:15:02-06:00"


def zoned(text, utc=False):
    """(day and minute, zone name) of an ISO 8601 time in the PC's local zone (utc: in
    UTC), so that times of several offsets order by instant; one written without an
    offset is UTC. Text that is no time: as it is, no zone. For the PC's tables and
    scoresheets (it loads datetime, which MicroPython lacks)."""
    import datetime
    try:
        t = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (AttributeError, TypeError, ValueError):
        return text or "", None
    if t.tzinfo is None:
        t = t.replace(tzinfo=datetime.timezone.utc)
    t = t.astimezone(datetime.timezone.utc if utc else None)
    return t.strftime("%Y-%m-%d %H:%M"), "UTC" if utc else t.tzname()


def _digits(text, at, n):
    part = text[at:at + n]
    if len(part) != n or not all("0" <= c <= "9" for c in part):
        raise ValueError("not " + _FORM)
    return int(part)


def _days(y, m, d):
    # Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def instant(text):
    """Seconds since 1970-01-01T00:00Z of an ISO 8601 time: a date, optionally a time
    (T or a space; seconds and their fraction optional) and a UTC offset (Z, +HH:MM,
    +HHMM); one without an offset is taken as UTC. ValueError when it is not one."""
    if not isinstance(text, str):
        raise ValueError("not " + _FORM)
    y, mo, d = _digits(text, 0, 4), _digits(text, 5, 2), _digits(text, 8, 2)
    if text[4:5] != "-" or text[7:8] != "-":
        raise ValueError("not " + _FORM)
    month_days = (31, 29 if y % 4 == 0 and (y % 100 or y % 400 == 0) else 28, 31, 30, 31,
                  30, 31, 31, 30, 31, 30, 31)
    if not 1 <= mo <= 12 or not 1 <= d <= month_days[mo - 1]:
        raise ValueError("not a day of the calendar")
    secs = _days(y, mo, d) * 86400
    rest = text[10:]
    if rest:
        if rest[0] not in "T ":
            raise ValueError("not " + _FORM)
        h, mi = _digits(rest, 1, 2), _digits(rest, 4, 2)
        if rest[3:4] != ":":
            raise ValueError("not " + _FORM)
        s = 0
        rest = rest[6:]
        if rest[:1] == ":":
            s = _digits(rest, 1, 2)
            rest = rest[3:]
            if rest[:1] == ".":
                n = 1
                while rest[n:n + 1].isdigit():
                    n += 1
                if not 2 <= n <= 7:
                    raise ValueError("not " + _FORM)
                rest = rest[n:]
        if h > 23 or mi > 59 or s > 59:
            raise ValueError("not a time of the day")
        secs += h * 3600 + mi * 60 + s
        if rest == "Z":
            rest = ""
        elif rest:
            if rest[0] not in "+-" or len(rest) not in (5, 6):
                raise ValueError("not " + _FORM)
            oh = _digits(rest, 1, 2)
            om = _digits(rest, len(rest) - 2, 2)
            if len(rest) == 6 and rest[3] != ":" or oh > 23 or om > 59:
                raise ValueError("not a UTC offset")
            secs -= (oh * 60 + om) * (60 if rest[0] == "+" else -60)
            rest = ""
        if rest:
            raise ValueError("not " + _FORM)
    return secs


def utc(text):
    """The instant of an ISO 8601 time as sortable text, 2026-03-08T02:15:02+00:00 (the
    form of the database's own UTC times); None when text is None or not such a time (a
    value stored before times were checked)."""
    try:
        secs = instant(text)
    except ValueError:
        return None
    days, s = divmod(secs, 86400)
    # The date of a day count (the inverse of _days).
    z = days + 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    y = yoe + era * 400 + (m <= 2)
    return "%04d-%02d-%02dT%02d:%02d:%02d+00:00" % (y, m, d, s // 3600, s // 60 % 60, s % 60)
