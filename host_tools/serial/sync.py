"""sync(): every finished sitting the scorer has not synced, fetched through a Client,
stored in the database, and only then acknowledged; then the scorer's next table
assignment pushed. A sitting's journal stream is turned into sitting log lines here."""
from host_tools.tables.assignment import check_assignment
from host_tools.serial.client import (E_JOURNAL, E_OPEN, E_UNKNOWN, E_UNSUPPORTED,
                                    DeviceError, SyncError)
from host_tools.serial.clock import ScorerClock
from host_tools.serial.transport import LinkError
from host_tools.log.device import END_ITEM, device_sitting_id, end_item, from_device
from host_tools.log.lines import LogError


class Refused(SyncError):
    """One sitting the PC will not store (it does not replay, or its id is stored with
    another log): reported, left on the scorer, and the sync goes on."""


def split_stream(data):
    """A sitting's journal stream (a length byte before the header and before each event)
    as (header bytes, event bytes); ValueError if it is not one."""
    header, events, _ = stream_parts(data)
    return header, events


def stream_parts(data):
    """A sitting's journal stream as (header bytes, event bytes, its end or None): the
    last END item's (seconds since 2024, UTC offset minutes). ValueError if it is not
    a stream."""
    if not data:
        raise ValueError("no bytes")
    n = data[0]
    if 1 + n > len(data):
        raise ValueError("the header runs past the end")
    header = bytes(data[1:1 + n])
    events = bytearray()
    ended = None
    pos = 1 + n
    while pos < len(data):
        n = data[pos]
        if not 1 <= n <= END_ITEM or pos + 1 + n > len(data):
            raise ValueError("byte %d is not an event's length" % pos)
        if n == END_ITEM:
            ended = end_item(data[pos + 1:pos + 1 + n])
        else:
            events.extend(data[pos + 1:pos + 1 + n])
        pos += 1 + n
    return header, bytes(events), ended


def sitting_lines(device_id, entry, data, clock=None):
    """The log lines of a fetched sitting, its id "<device id>-<random id>" (or
    "<device id>-<journal number>" from older firmware); SyncError if the bytes are not
    a sitting. A sitting the scorer lists as damaged comes as far as its records read
    (up to the damaged one): its lines are marked damaged (a partial sitting). clock: the
    scorer's clock at the sync's first hello (host_tools.serial.clock.ScorerClock), which
    places its times on the PC's clock; None keeps the stamps of a clock the PC set."""
    try:
        header, events, ended = stream_parts(data)
        sid = device_sitting_id(device_id, entry.sid, header)
        extra = {"id": sid}
        if entry.damaged:
            extra["damaged"] = True
        return from_device(header, events, extra, ended,
                           clock.place if clock is not None else None)
    except ValueError as e:
        raise Refused("sitting %d from the scorer is damaged (%s): not stored, the scorer "
                      "keeps it" % (entry.sid, e))


class Report:
    def __init__(self, info, clock=None):
        self.info = info
        self.clock = clock or ScorerClock(info)     # the scorer's clock at the first hello
        self.listed = 0
        self.stored = []        # (sitting id, what) stored new
        self.updated = []
        self.already = []       # were on the PC already (an acknowledge that got lost)
        self.refused = []       # (sitting number on the scorer, why): left on the scorer
        self.damaged = []       # sitting numbers the scorer holds damaged, nothing readable:
                                # named, not stored
        self.partial = []       # (sitting number, id, hands): damaged ones stored as far
                                # as they read, marked damaged
        self.acked = 0
        self.free = info.free
        self.payload = 0        # sitting bytes fetched
        self.assigned = None    # the table assignment pushed (assign())
        self.placed = []        # sitting ids whose times the PC's clock gave (clock "pc")
        self.lost = []          # sitting ids with a time stamped before the scorer's
                                # last power-on: not known (clock "lost")
        self.assign_refused = None


def sync(client, store, progress=None, report=None, assignment_for=None):
    """Store every finished sitting the scorer has not synced, acknowledging each batch
    once it is stored. store(lines, device_id) -> (status, sitting id, description) with
    status "stored", "updated" or "already stored"; it checks the sitting with the engine
    (log.lines.LogError when refused) and stores all of it or nothing, raising Refused
    for a sitting it will not store. A refused sitting is reported (report.refused),
    not acknowledged, and the others go on. Returns the Report (pass one in to keep what
    was done when sync fails half way). assignment_for(device id) -> dict or None: the
    scorer's next table assignment, pushed once the sittings are stored (assign())."""
    info = client.info
    report = report or Report(getattr(client, "first_info", None) or info)
    _store_all(client, store, progress, report)
    if assignment_for is not None:
        assign(client, assignment_for, report)
    return report


def _store_all(client, store, progress, report):
    info = client.info
    if not info.unsynced:
        return report
    entries = [e for e in client.list(unsynced=True) if e.finished and not e.synced]
    # A damaged sitting (a record of it on the scorer fails its check) cannot be read
    # whole: its records before the damage are fetched and stored as a partial sitting
    # marked damaged, and acknowledged only then, like the others. One with nothing to
    # read (its beginning lost) is named, and acknowledged so that its space comes back.
    report.damaged = [e.sid for e in entries if e.damaged and not e.length]
    entries = [e for e in entries if e.length]
    report.listed = len(entries)
    if report.damaged:
        report.free = client.ack(report.damaged)
    total = sum(e.length for e in entries)
    done = [0]

    def moved(n):
        done[0] += n
        report.payload += n
        if progress:
            progress(done[0], total)

    _fetch_and_store(client, store, report, [e for e in entries if not e.damaged], moved)
    for e in entries:
        if not e.damaged:
            continue
        try:
            _fetch_and_store(client, store, report, [e], moved)
        except DeviceError as err:
            if err.code != E_JOURNAL:
                raise
            # A scorer older than partial sittings refuses to send a damaged one: it is
            # named, and acknowledged so that its space comes back, as it always was.
            report.listed -= 1
            report.damaged.append(e.sid)
            report.free = client.ack([e.sid])
    return report


def _fetch_and_store(client, store, report, entries, moved):
    data = [bytearray() for _ in entries]
    i = 0
    while i < len(entries):
        client.fetch(entries[i:], data[i:], moved)
        acked = []
        try:
            while i < len(entries) and len(data[i]) >= entries[i].length:
                try:
                    _store_one(report, store, entries[i], data[i])
                    acked.append(entries[i].sid)
                except Refused as e:
                    report.refused.append((entries[i].sid, str(e)))
                data[i] = None
                i += 1
        except BaseException:
            # What is stored is acknowledged, even when a later sitting fails.
            if acked:
                try:
                    client.ack(acked)
                    report.acked += len(acked)
                except (SyncError, LinkError):
                    pass    # unacknowledged: the next sync finds them stored already
            raise
        if acked:
            report.free = client.ack(acked)
            report.acked += len(acked)


def assign(client, assignment_for, report):
    """Push the scorer's next table assignment, assignment_for(device id) -> dict or
    None (check_assignment's form), once its sittings are stored (so that the result
    just synced can decide what comes next). report.assigned: what was pushed;
    report.assign_refused: why nothing was (a bad assignment, an old firmware, the
    scorer's refusal). The link failing raises as in sync()."""
    a = assignment_for(client.info.device_id)
    if a is None:
        return report
    try:
        a = check_assignment(a)
        client.push_assignment(a)
    except ValueError as e:
        report.assign_refused = "table assignment for %s not pushed: %s" % (
            client.info.device_id, e)
    except DeviceError as e:
        if e.code in (E_UNKNOWN, E_UNSUPPORTED):
            report.assign_refused = (
                "the scorer %s (firmware %s) takes no table assignments: update its "
                "firmware; nothing was pushed" % (client.info.device_id,
                                                  client.info.firmware))
        else:
            report.assign_refused = str(e)
    else:
        report.assigned = a
    return report


def open_sitting(client):
    """The log lines of the sitting being played on the scorer (its bytes so far, fetched
    but never acknowledged), or None: no sitting open, or a firmware that sends only
    finished sittings (error 7), or bytes that are not a sitting yet."""
    entries = [e for e in client.list(unsynced=False) if not e.finished]
    if not entries or not entries[-1].length:
        return None
    entry = entries[-1]
    data = bytearray()
    try:
        while len(data) < entry.length:
            before = len(data)
            client.fetch([entry], [data])
            if len(data) == before:
                return None
    except DeviceError as e:
        if e.code == E_OPEN:
            return None
        raise
    try:
        return sitting_lines(client.info.device_id, entry, bytes(data[:entry.length]),
                             ScorerClock(getattr(client, "first_info", None) or client.info))
    except Refused:
        return None


def _store_one(report, store, entry, data):
    lines = sitting_lines(report.info.device_id, entry, data, report.clock)
    try:
        status, sid, what = store(lines, report.info.device_id)
    except LogError as err:
        raise Refused("sitting %d from the scorer does not replay (line %d: %s): not stored, "
                      "the scorer keeps it" % (entry.sid, err.line, err.message))
    {"stored": report.stored, "updated": report.updated}.get(
        status, report.already).append((sid, what))
    clock = lines[1].get("clock") if len(lines) > 1 and "type" not in lines[1] else None
    if status != "already stored" and clock in ("pc", "lost"):
        (report.placed if clock == "pc" else report.lost).append(sid)
    if entry.damaged:
        report.partial.append((entry.sid, sid, _hands(lines)))


def _hands(lines):
    # The hands a partial sitting's lines hold (every deal ended, thrown-in ones too).
    from host_tools.log import sittinglog as L
    from host_tools.log.lines import dump_log
    return len(L.report(L.replay(dump_log(lines).encode("utf-8")))["hands"])
