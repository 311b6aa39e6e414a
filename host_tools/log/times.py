"""Times of the sitting log (`started` in the header, `ended` on the `#tally42` line):
ISO 8601, read as instants so that they order by when they happened, whatever the UTC
offset they were written with."""
import datetime
import re

# A calendar date, then optionally a time (with seconds and their fraction optional) and
# a UTC offset: 2026-03-07, 2026-03-07T20:15, 2026-03-07T20:15:02-06:00, ...Z.
_ISO = re.compile(r"\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d{1,6})?)?(Z|[+-]\d\d:?\d\d)?)?")


def instant(text):
    """The UTC datetime of an ISO 8601 time; one without a UTC offset is taken as UTC.
    ValueError (with the reason) when it is not one."""
    if not isinstance(text, str) or not _ISO.fullmatch(text):
        raise ValueError("not an ISO 8601 time such as 2026-03-07T20:15:02-06:00")
    try:
        t = datetime.datetime.fromisoformat(text)
    except ValueError as e:
        raise ValueError("not a time of the calendar (%s)" % e)
    if t.tzinfo is None:
        t = t.replace(tzinfo=datetime.timezone.utc)
    return t.astimezone(datetime.timezone.utc)


def utc(text):
    """The instant of an ISO 8601 time as sortable text, 2026-03-08T02:15:02+00:00 (the
    form of the database's own UTC times); None when text is None or not such a time (a
    value stored before times were checked)."""
    try:
        return instant(text).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    except ValueError:
        return None
