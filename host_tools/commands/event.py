"""The event subcommands of `tally42`: `event create|list|show|result|slot|standings|
delete|next|release|desk|cards|add-team|substitute` and `serve` (the page for the room)."""
import argparse
import functools
import sys

from host_tools.commands.common import (CommandError, add_db, damage_refused, open_db,
                                        read_log, write_stdout)
from host_tools.commands import club as CC
from host_tools.events import cards as CA
from host_tools.events import club as CL
from host_tools.events import event as EV
from host_tools.events import late as LT
from host_tools.events import schedule as SC
from host_tools.events import serve as SV
from host_tools.events import slots as SL
from host_tools.events import standings as ST
from host_tools.events import state as ES
from host_tools.tables.assignment import setting_value
from host_tools.log.lines import LogError
from host_tools.store import db as D


def refused(func):
    """A handler whose EventError and DbError are the organiser's to act on: `tally42:
    ...`, exit 2 (and a damaged database too)."""
    @functools.wraps(func)
    def run(args):
        try:
            return func(args)
        except (EV.EventError, D.DbError) as e:
            raise CommandError(str(e))
    return damage_refused(run)


def _write(args, text):
    if getattr(args, "out", None):
        try:
            with open(args.out, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        except OSError as e:
            raise CommandError("%s: cannot write: %s" % (args.out, e.strerror or e))
        sys.stderr.write("wrote %s\n" % args.out)
    else:
        write_stdout(text)


# ---- the roster ----

def _team(text, where="--team %s"):
    name, colon, members = text.partition(":")
    players = [p.strip() for p in members.split(",")]
    if not colon or not name.strip() or not all(players):
        raise CommandError("%s: give NAME: PLAYER, PLAYER (a colon after the team's "
                           "name, commas between its players)" % (where % text))
    return name.strip(), players


def _roster(args):
    teams = [_team(t) for t in args.team or ()]
    players = []
    for text in args.players or ():
        players += [p.strip() for p in text.split(",")]
    if args.roster:
        read = read_roster(args.roster)
        if any(colon for _, _, colon in read) and not all(colon for _, _, colon in read):
            n, ln, _ = next(r for r in read if not r[2])
            raise CommandError("%s line %d: %s has no colon: a roster of teams gives each "
                               "line as NAME: PLAYER, PLAYER" % (args.roster, n, ln))
        for n, ln, colon in read:
            if colon:
                teams.append(_team(ln, "%s line %d: %%s" % (args.roster, n)))
            else:
                players.append(ln)
    if players and not all(players):
        raise CommandError("--players: an empty name (names are separated by commas)")
    return teams, players


def read_roster(path):
    """[(line number, text, has a colon)] of a roster file: `#` starts a comment (on a
    line of its own or after a name), blank lines are skipped, a UTF-8 byte order mark
    (what some editors put first) is not part of the first name."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise CommandError("%s: cannot read the roster: %s" % (
            path, getattr(e, "strerror", None) or e))
    out = []
    for n, ln in enumerate(lines, 1):
        ln = ln.split("#", 1)[0].strip()
        if ln:
            out.append((n, ln, ":" in ln))
    return out


@refused
def cmd_create(args):
    teams, players = _roster(args)
    options = {}
    for pair in args.set or ():
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise CommandError("--set %s: give KEY=VALUE" % pair)
        options[key.strip()] = setting_value(value)
    # Checked before the database is opened: a refused event leaves no file behind.
    if args.tiebreak is not None:
        CL.tiebreak_order(args.tiebreak)
    plan = EV.prepare(args.name, args.format, args.game, options, teams=teams,
                      players=players, rounds=args.rounds, best_of=args.best_of,
                      seed=args.seed)
    with open_db(args) as database:
        ev = EV.store(database, plan)
        if args.gate:
            CL.set_gate(database, ev.name, True)
        CC.apply_settings(database, ev.name, args.bye, args.tiebreak)
    tables = len(ev.tables)
    print("created %s: %s of %d %s, %s (%s to %d), %d round%s, %d table%s%s" % (
        ev.name, ev.format, len(ev.entrants), "teams" if ev.teams else "players",
        ev.variant, ev.units, ev.rules.target, ev.rounds, "" if ev.rounds == 1 else "s",
        tables, "" if tables == 1 else "s",
        ", best of %d" % ev.best_of if ev.best_of > 1 else ""))
    print("`tally42 event show %s` prints the rounds" % _quoted(ev.name))
    return 0


def _quoted(name):
    return name if name.replace("-", "").replace("_", "").isalnum() else '"%s"' % name


@refused
def cmd_list(args):
    with open_db(args, readonly=True) as database:
        names = EV.names(database)
        if not names:
            print("no events yet (`tally42 event create` makes one)")
            return 0
        for name in names:
            ev = EV.load(database, name)
            state = ES.event_state(ev, database)
            done = sum(1 for t in ev.tables if ES.table_status(ev, t, state) in
                       ("done", "not needed"))
            print("%s  %s  %s  %d %s  %d/%d tables decided" % (
                ev.name, ev.format, ev.variant, len(ev.entrants),
                "teams" if ev.teams else "players", done, len(ev.tables)))
    return 0


@refused
def cmd_show(args):
    with open_db(args, readonly=True) as database:
        ev = EV.load(database, args.name)
        state = ES.event_state(ev, database)
        rounds = ES.schedule_rounds(ev, state)
    if args.round is not None:
        rounds = [r for r in rounds if r[0] == args.round]
        if not rounds:
            raise CommandError("%s has no round %d (rounds 1 to %d)" % (
                ev.name, args.round, ev.rounds))
    title = "%s: %s, %s" % (ev.name, ev.format, ev.variant)
    if args.html:
        _write(args, SC.html_page(title, SC.html_rounds(rounds)))
    else:
        _write(args, SC.text(title, rounds))
    return 0


def _event_state(args):
    """The event named and its state, read; a --round it does not have refused."""
    with open_db(args, readonly=True) as database:
        ev = EV.load(database, args.name)
        state = ES.event_state(ev, database)
    if args.round is not None and not 1 <= args.round <= ev.rounds:
        raise CommandError("%s has no round %d (rounds 1 to %d)" % (ev.name, args.round,
                                                                   ev.rounds))
    return ev, state


@refused
def cmd_standings(args):
    ev, state = _event_state(args)
    rows = ST.compute(ev, state, through=args.round)
    title = "%s: standings%s" % (ev.name, " after round %d" % args.round
                                 if args.round is not None else "")
    if ev.bracket is not None and args.round is None:
        champ = state["bracket"]["champion"]
        if champ is not None:
            title += " (champion: %s)" % ev.entrants[champ]
    if args.format == "csv":
        _write(args, ST.csv_text(ev, rows))
    elif args.format == "html":
        body = ST.html_table(ev, rows)
        if args.head_to_head:
            body += "\n" + ST.head_to_head_html(rows)
        _write(args, SC.html_page(title, body))
    else:
        text = ST.text(ev, rows, title)
        if args.head_to_head:
            text += "\n" + ST.head_to_head_text(rows)
        if args.players:
            text += "\nPlayers (each game to whoever played it)\n" + ST.players_text(
                ST.players(ev, state))
        _write(args, text)
    return 0


@refused
def cmd_result(args):
    try:
        data = read_log(args.log)
    except OSError as e:
        raise CommandError("%s: cannot read: %s" % (args.log, e.strerror or e))
    with open_db(args) as database:
        ev = EV.load(database, args.name)
        ev.table(args.round, args.table)        # no table: refused before storing
        try:
            # Stored and slotted in one transaction: a refused slot stores nothing.
            with database.batch():
                stored = database.store(data, source="import")
                what = SL.slot_sitting(database, stored.id, ev, args.round, args.table)
                CL.note(database, ev.name, "result entered: round %d table %d, sitting %s"
                        % (args.round, args.table, stored.id))
        except LogError as e:
            raise CommandError("%s%s: %s" % (args.log, ":%d" % e.line if e.line else "",
                                              e.message))
    print("%s: %s" % (args.log, stored.describe()))
    print("%s round %d table %d: sitting %s%s" % (ev.name, args.round, args.table,
                                                   stored.id,
                                                   " (already)" if what != "slotted" else ""))
    return 0


def cmd_import_to_table(args):
    """`tally42 import --event E --round R --table T LOG`: as `event result`."""
    given = [o for o in ("event", "round", "table") if getattr(args, o) is None]
    if given:
        raise CommandError("import into an event: give --event, --round and --table "
                           "(missing --%s)" % ", --".join(given))
    if len(args.logs) != 1:
        raise CommandError("import into an event: one LOG, the table's (%d given)"
                           % len(args.logs))
    args.name, args.log = args.event, args.logs[0]
    return cmd_result(args)


def import_options(p):
    """--event, --round and --table of `tally42 import` (commands/sittings.py)."""
    p.add_argument("--event", help="a table played without a scorer: make the sitting "
                                   "this event's result at --round and --table")
    p.add_argument("--round", type=_ROUND, help="the table's round (with --event)")
    p.add_argument("--table", type=_TABLE, help="the table (with --event)")


@refused
def cmd_slot(args):
    with open_db(args) as database:
        sid = database.resolve(args.sitting)
        with database.batch():
            what = SL.slot_sitting(database, sid, args.name, args.round, args.table)
            CL.note(database, args.name, "slotted by hand: round %d table %d, sitting %s"
                    % (args.round, args.table, sid))
    print("%s round %d table %d: sitting %s%s" % (args.name, args.round, args.table, sid,
                                                   " (already)" if what != "slotted" else ""))
    return 0


@refused
def cmd_delete(args):
    with open_db(args) as database:
        EV.delete(database, args.name)
    print("deleted event %s (its sittings stay stored)" % args.name)
    return 0


@refused
def cmd_next(args):
    with open_db(args) as database:
        if args.name is not None:
            EV.load(database, args.name)
        a = SL.next_assignment(database, args.device, args.name)
    if a is None:
        print("nothing to play for %s" % args.device)
        return 0
    print("%s  Table %d · Round %d  %s" % (a["event"], a["table"], a["round"],
                                          ", ".join(a["players"])))
    return 0


@refused
def cmd_serve(args):
    with open_db(args, readonly=True) as database:
        EV.load(database, args.name)
    path = args.db or D.default_path()      # a URL with its password: the server reopens
    try:
        server = SV.make_server(path, args.name, args.host, args.port, args.desk)
    except OSError as e:
        raise CommandError("cannot listen on %s:%d: %s" % (args.host, args.port,
                                                           e.strerror or e))
    relay = None
    if args.base:
        from host_tools.events.radio import Relay
        from host_tools.serial.client import SyncError
        from host_tools.serial.transport import LinkError
        relay = Relay(path, args.name, args.base)
        try:
            info = relay.start()
        except (SyncError, LinkError) as e:
            server.server_close()
            raise CommandError("--base %s: %s" % (args.base, e))
        print("base station %s on %s: results come over the radio" % (info.device_id,
                                                                       args.base), flush=True)
    host, port = server.server_address[:2]
    print("serving %s on http://%s:%d/ (Ctrl-C stops)" % (
        args.name, SV.shown_host(host), port), flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        if relay is not None:
            relay.stop()
    return 0


@refused
def cmd_desk(args):
    from host_tools.events import desk as DK
    with open_db(args) as database:
        write_stdout(DK.text(DK.desk(database, args.name)))
    return 0


@refused
def cmd_release(args):
    if (args.device is None) == (args.table is None):
        raise CommandError("release: give --device or --table (the scorer, or its table)")
    with open_db(args) as database:
        done = SL.release(database, args.name, args.device, args.table)
        CL.note(database, args.name, "released: %s" % ", ".join(d for d, _ in done))
    for device, table in done:
        print("released scorer %s%s: the next scorer synced may take %s" % (
            device, " from table %d" % table if table is not None else "",
            "its table" if table is not None else "the tables it was handed"))
    return 0


@refused
def cmd_cards(args):
    ev, state = _event_state(args)
    page, count = CA.html_cards(ev, state, args.round)
    if not count:
        raise CommandError("%s: no table to play%s (a decided table gets no card)" % (
            ev.name, " in round %d" % args.round if args.round else ""))
    _write(args, page)
    if args.out:
        sys.stderr.write("%d score card%s\n" % (count, "" if count == 1 else "s"))
    return 0


@refused
def cmd_add_team(args):
    name, players = _team(args.team)
    with open_db(args) as database:
        ev, first = LT.add_team(database, args.name, name, players)
        CL.note(database, ev.name, "late team %s: %s" % (name, ", ".join(players)))
    if first > ev.rounds:
        print("added %s to %s: every pair has met already" % (name, ev.name))
        return 0
    print("added %s to %s: rounds %d to %d seated afresh (%d rounds in all, the "
          "results so far kept)" % (name, ev.name, first, ev.rounds, ev.rounds))
    return 0


@refused
def cmd_substitute(args):
    with open_db(args) as database:
        LT.substitute(database, args.name, args.out_player, args.in_player, args.round)
        CL.note(database, args.name, "substitute: %s for %s from round %d" % (
            args.in_player, args.out_player, args.round))
    print("%s plays for %s from round %d of %s" % (args.in_player, args.out_player,
                                                   args.round, args.name))
    return 0


# `tally42 event ACTION`: each action's handler.
ACTIONS = {"create": cmd_create, "list": cmd_list, "show": cmd_show,
           "standings": cmd_standings, "result": cmd_result, "slot": cmd_slot,
           "delete": cmd_delete, "next": cmd_next, "release": cmd_release,
           "cards": cmd_cards, "add-team": cmd_add_team, "substitute": cmd_substitute,
           "desk": cmd_desk, **CC.ACTIONS}


def cmd_event(args):
    return ACTIONS[args.action](args)


# ---- parsers ----

def _positive(what, most):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            v = 0
        if not 1 <= v <= most:
            raise argparse.ArgumentTypeError("%s must be a whole number from 1 to %d, not %s"
                                             % (what, most, text))
        return v
    return parse


_ROUND = _positive("a round", 999)
_TABLE = _positive("a table", 999)


def _PORT(text):
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError("a port is a number from 0 to 65535, not %s" % text)
    return int(text)


def _where(p):
    p.add_argument("--round", type=_ROUND, required=True, help="the round")
    p.add_argument("--table", type=_TABLE, required=True, help="the table")


def _action(acts, name, help):
    # An action's help is its description too (`event ACTION --help` shows it).
    return acts.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".")


def event_parser(sub, name):
    top = sub.add_parser(
        name, help="club nights and tournaments: roster, rounds, results, standings",
        description="Run an event: make it from a roster (round robin of teams, progressive "
                    "of players, double elimination of teams), print its rounds, put "
                    "results in (scorers pushed their table by sync, or a log by hand), "
                    "and rank it. docs/events.md walks through a club night.")
    acts = top.add_subparsers(dest="action", metavar="ACTION")
    acts.required = True

    CC.parsers(acts, add_db)
    p = _action(acts, "create", "make an event and its rounds")
    p.add_argument("name", help="the event's name (at most %d characters)"
                   % EV.MAX_EVENT_NAME)
    p.add_argument("--gate", action="store_true",
                   help="round gating: no table of a round goes out until the round "
                        "before is all decided")
    CC.settings_options(p)
    p.add_argument("--format", required=True, choices=EV.FORMATS,
                   help="round-robin (teams), progressive (players, partners rotate), "
                        "double-elimination (teams)")
    p.add_argument("--game", default="42", metavar="VARIANT",
                   help="the game every table plays (default 42; a partnership game: %s)"
                        % ", ".join(EV.team_variants()))
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="an option of the game, checked as the engine checks it "
                        "(target=250, nello=true, ...); repeatable")
    p.add_argument("--team", action="append", metavar="\"NAME: A, B\"",
                   help="a team and its players (repeatable; seeding order for a bracket)")
    p.add_argument("--players", action="append", metavar="A,B,...",
                   help="the players of a progressive, comma-separated (repeatable)")
    p.add_argument("--roster", metavar="FILE",
                   help="a roster file: one team a line (NAME: A, B) or one player a line")
    p.add_argument("--rounds", type=_positive("rounds", 50),
                   help="rounds of a progressive (default: players - 1, at most 7)")
    p.add_argument("--best-of", type=int, default=1, choices=EV.BEST_OF,
                   help="games a bracket match (default 1)")
    p.add_argument("--seed", type=int, default=42,
                   help="the progressive's seating search seed (default 42)")
    add_db(p)

    p = _action(acts, "list", "the events in the database")
    add_db(p)

    p = _action(acts, "show", "print the rounds and table assignments")
    p.add_argument("name")
    p.add_argument("--round", type=_ROUND, help="only this round")
    p.add_argument("--html", action="store_true", help="an HTML page to print")
    p.add_argument("--out", metavar="FILE", help="write here (default: standard output)")
    add_db(p)

    p = _action(acts, "standings", "rank the event (text, CSV or HTML)")
    p.add_argument("name")
    p.add_argument("--round", type=_ROUND, help="the standings as they were after this round")
    p.add_argument("--format", choices=("text", "csv", "html"), default="text")
    p.add_argument("--head-to-head", action="store_true",
                   help="also the grid of results between each two (text and HTML)")
    p.add_argument("--players", action="store_true",
                   help="also each player's own games won and lost (text)")
    p.add_argument("--out", metavar="FILE", help="write here (default: standard output)")
    add_db(p)

    p = _action(acts, "result", "a table played without a scorer: store its log "
                                       "and make it the table's result")
    p.add_argument("name")
    _where(p)
    p.add_argument("log", help="the sitting log (JSON Lines; - for standard input)")
    add_db(p)

    p = _action(acts, "slot", "make a stored sitting a table's result")
    p.add_argument("name")
    _where(p)
    p.add_argument("sitting", help="the sitting's id (or its beginning)")
    add_db(p)

    p = _action(acts, "delete", "remove an event (its sittings stay stored)")
    p.add_argument("name")
    add_db(p)

    p = _action(acts, "next", "the table a scorer gets next (what sync pushes)")
    p.add_argument("name", nargs="?", help="the event (default: any open event)")
    p.add_argument("--device", required=True, help="the scorer's device id")
    add_db(p)

    p = acts.add_parser("release", help="free a scorer's table (a scorer gone home, or "
                                        "swapped for another)")
    p.add_argument("name")
    p.add_argument("--device", help="the scorer's device id")
    p.add_argument("--table", type=_TABLE, help="or the table it keeps")
    add_db(p)

    p = acts.add_parser("desk", help="the desk's view: each scorer, the table it keeps and "
                                     "is at, its live state, the next table sent over the "
                                     "radio, conflicts, when it was last heard")
    p.add_argument("name")
    add_db(p)

    p = acts.add_parser("cards", help="score cards to print for tables without a scorer "
                                      "(HTML, one a table a round)")
    p.add_argument("name")
    p.add_argument("--round", type=_ROUND, help="only this round (default: every table "
                                                "not decided yet)")
    p.add_argument("--out", metavar="FILE", help="write here (default: standard output)")
    add_db(p)

    p = acts.add_parser("add-team", help="a team that arrived late joins a round robin "
                                         "(the rounds under way are kept)")
    p.add_argument("name")
    p.add_argument("team", metavar="\"NAME: A, B\"", help="the team and its players")
    add_db(p)

    p = acts.add_parser("substitute", help="a player replaced from a round on (each game "
                                           "credited to whoever played it)")
    p.add_argument("name")
    p.add_argument("--out", dest="out_player", required=True, metavar="PLAYER",
                   help="the player who leaves")
    p.add_argument("--in", dest="in_player", required=True, metavar="PLAYER",
                   help="the player who comes in")
    p.add_argument("--round", type=_ROUND, required=True,
                   help="the first round the substitute plays")
    add_db(p)
    return top


def serve_parser(sub, name):
    p = sub.add_parser(
        name, help="the event's standings page for the room (a TV or phones)",
        description="Serve a page with the event's standings, the current round's tables "
                    "with live scores and the bracket, on the local network; it updates by "
                    "itself as sittings arrive. Ctrl-C stops.")
    p.add_argument("name", help="the event")
    p.add_argument("--host", default="0.0.0.0",
                   help="the address to listen on (default 0.0.0.0: the whole network)")
    p.add_argument("--port", type=_PORT, default=8042,
                   help="the port (default 8042; 0: any free one)")
    p.add_argument("--base", metavar="PORT",
                   help="the base station's serial port: each table's hands come live "
                        "over the radio (docs/radio.md)")
    p.add_argument("--desk", action="store_true",
                   help="the page has the desk's panel too: each scorer, its table, its "
                        "next table, conflicts (for the organiser's screen)")
    add_db(p)
    return p

