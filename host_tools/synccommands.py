"""The serial subcommands of `tally42`: sync (the scorer's finished sittings into the
database, the PC's clock, names and settings onto the scorer) and devices."""
import sys
import time

from host_tools import sync as Y
from host_tools.cli import CommandError
from host_tools.transport import BAUDRATE, LinkError, SerialLink, candidate_ports

PROBE_TIMEOUT = 1.0
FIRST_ANSWER = 3.0          # seconds a scorer has to answer the first hello
_BAUD_HELP = "line speed (default %d; boards with native USB ignore it)" % BAUDRATE


def _open_link(url, baud):
    try:
        return SerialLink(url, baud)
    except LinkError as e:
        raise CommandError(str(e))


def _probe(url, baud, timeout=PROBE_TIMEOUT):
    """The hello of the scorer on url (its session closed again), or an error message."""
    try:
        with SerialLink(url, baud) as link:
            client = Y.Client(link, timeout=timeout, wait=timeout)
            info = client.hello()
            client.bye()
            return info, None
    except (LinkError, Y.SyncError) as e:
        return None, str(e)


def _find_port(baud):
    ports = candidate_ports()
    if not ports:
        raise CommandError("no scorer found: no ESP32 USB serial port is connected "
                           "(plug the scorer in, or give --port)")
    found = []
    for device, _ in ports:
        info, _ = _probe(device, baud)
        if info is not None:
            found.append(device)
    if not found:
        raise CommandError("no scorer answered on %s (asleep? press a button on the scorer "
                           "to wake it, then try again)" % ", ".join(d for d, _ in ports))
    if len(found) > 1:
        raise CommandError("several scorers are connected (%s): choose one with --port"
                           % ", ".join(found))
    return found[0]


def _kb(n):
    return "%d KB" % (n // 1024) if n >= 10240 else "%d bytes" % n


class _Progress:
    # One line on stderr, redrawn, when it is a terminal and the transfer is long.
    def __init__(self, stream):
        self.stream = stream
        self.tty = stream.isatty()
        self.shown = False
        self.t0 = time.monotonic()

    def __call__(self, done, total):
        if not self.tty or total < 4096:
            return
        rate = done / max(1e-3, time.monotonic() - self.t0)
        self.stream.write("\rfetching: %s of %s (%d%%, %.1f KB/s)  " % (
            _kb(done), _kb(total), 100 * done // max(1, total), rate / 1024))
        self.stream.flush()
        self.shown = True

    def notice(self, text):
        self.end()
        self.stream.write("tally42: %s\n" % text)
        self.stream.flush()

    def end(self):
        if self.shown:
            self.stream.write("\n")
            self.shown = False


def _names(text, what):
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise CommandError("--%s: an empty name in %r (names are separated by commas)"
                           % (what, text))
    return names


def _settings(pairs):
    out = []
    for p in pairs or ():
        key, eq, value = p.partition("=")
        if not eq or not key:
            raise CommandError("--set %s: give KEY=VALUE" % p)
        out.append((key, value))
    return out


def _db_store(database):
    from host_tools import db as D

    def store(lines, device_id):
        try:
            st = database.store_lines(lines, source="sync", device=device_id)
        except D.DbError as e:
            raise Y.SyncError(str(e))
        return st.status, st.id, st.describe()
    return store


def cmd_sync(args):
    from host_tools import db as D
    names = [("p", _names(args.players, "players"))] if args.players else []
    if args.teams:
        names.append(("t", _names(args.teams, "teams")))
    pairs = _settings(args.set)
    url = args.port if args.port and args.port != "auto" else _find_port(args.baud)
    try:
        database = D.open_db(args.db)
    except D.DbError as e:
        raise CommandError(str(e))
    progress = _Progress(sys.stderr)
    link = _open_link(url, args.baud)
    report = None
    try:
        client = Y.Client(link, timeout=args.timeout, wait=args.wait, notice=progress.notice)
        info = client.hello(patience=min(args.wait, FIRST_ANSWER))
        print(info.describe())
        if not args.no_clock:
            _optional(client.set_clock, "clock")
        for kind, ns in names:
            client.push_names(kind, ns)
        if pairs:
            client.push_settings(pairs)
        report = Y.Report(info)
        Y.sync(client, _db_store(database), progress, report)
        progress.end()
        client.bye()
    except Y.SyncError as e:
        progress.end()
        if report is not None and (report.stored or report.updated):
            _print_stored(report)
            print("(stored so far: the next sync goes on from there)")
        raise CommandError(str(e))
    finally:
        link.close()
        database.close()
    _print_report(report, database.path)
    return 0


def _optional(step, what):
    # A scorer without a clock says so; that is no reason to stop syncing.
    try:
        step()
    except Y.DeviceError as e:
        if e.code != Y.E_UNSUPPORTED:
            raise
        print("(the scorer has no %s to set)" % what)


def _print_stored(r):
    for sid, what in r.stored + r.updated:
        print(what)


def _print_report(r, path):
    if not r.listed:
        print("nothing new on the scorer: every finished sitting is on the PC already")
    _print_stored(r)
    if r.already:
        print("already on the PC: %s (the scorer now knows)" % ", ".join(s for s, _ in r.already))
    if r.listed:
        print("%d new, %d updated, %d already stored, into %s" % (
            len(r.stored), len(r.updated), len(r.already), path))
    print("scorer journal free: %s" % _kb(r.free))


def cmd_devices(args):
    ports = [(args.port, "given")] if args.port else candidate_ports()
    if not ports:
        print("no ESP32 USB serial port is connected")
        return 0
    for device, description in ports:
        info, error = _probe(device, args.baud, args.timeout)
        if info is None:
            print("%s  %s: no scorer (%s)" % (device, description, error))
        else:
            print("%s  %s  firmware %s  protocol %d.%d  %d sittings to sync  free %s" % (
                device, info.device_id, info.firmware, info.version, info.minor,
                info.unsynced, _kb(info.free)))
    return 0


def _sync_parser(sub):
    from host_tools import db as D
    p = sub.add_parser("sync", help="store the scorer's finished sittings in the database")
    p.add_argument("--port", default="auto",
                   help="serial port or pyserial URL of the scorer (default: auto, the one "
                        "ESP32 USB serial port a scorer answers on)")
    p.add_argument("--db", metavar="PATH",
                   help="the database file (default: %s)" % D.default_path())
    p.add_argument("--players", metavar="A,B,C,D", help="player names to send to the scorer")
    p.add_argument("--teams", metavar="A,B", help="team names to send to the scorer")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="a scorer setting to send (repeatable)")
    p.add_argument("--no-clock", action="store_true", help="leave the scorer's clock alone")
    p.add_argument("--baud", type=int, default=BAUDRATE, help=_BAUD_HELP)
    p.add_argument("--timeout", type=float, default=1.0, metavar="S",
                   help="seconds to wait for a reply before asking again (default 1)")
    p.add_argument("--wait", type=float, default=30.0, metavar="S",
                   help="seconds to wait for a silent or unplugged scorer (default 30)")
    p.set_defaults(func=cmd_sync)


def _devices_parser(sub):
    p = sub.add_parser("devices", help="list connected scorers with their id and version")
    p.add_argument("--port", help="ask only this port (a device or pyserial URL)")
    p.add_argument("--baud", type=int, default=BAUDRATE, help=_BAUD_HELP)
    p.add_argument("--timeout", type=float, default=PROBE_TIMEOUT, metavar="S",
                   help="seconds to wait for each port's answer (default 1)")
    p.set_defaults(func=cmd_devices)


PARSERS = [_sync_parser, _devices_parser]
