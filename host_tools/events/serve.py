"""`tally42 serve`: an event's page for the room, from the standard library's
http.server. GET / is the page; it polls GET /state.json every few seconds and redraws
the standings, the current round's tables (with the live score of each sitting as
scorers sync) and the bracket, without a reload. The server keeps one read-only
connection (a SQLite file or a PostgreSQL database); each request reads one snapshot and
ends it, so sittings stored meanwhile by `tally42 sync` on any PC show up."""
import http.server
import json
import socketserver
import sqlite3
import threading

from host_tools.events import event as EV
from host_tools.events import standings as ST
from host_tools.events import state as ES
from host_tools.store import db as D

POLL_MS = 2000


def live_line(game):
    """A table's game in progress as the room reads it: "playing 3-2, hand 5"."""
    return "playing %d-%d, hand %d" % (game.score[0], game.score[1], game.hands + 1)


def state_json(database, name):
    """What the page shows, as a dict (the body of /state.json)."""
    ev = EV.load(database, name)
    state = ES.event_state(ev, database)
    rows = ST.compute(ev, state)
    open_rounds = [t.round for t in ev.tables
                   if ES.table_status(ev, t, state) in ("ready", "playing")]
    current = min(open_rounds) if open_rounds else ev.rounds
    tables = []
    for t in ev.tables:
        status = ES.table_status(ev, t, state)
        if ev.bracket is not None:
            if status not in ("ready", "playing"):
                continue
        elif t.round != current:
            continue
        a, b = ES.sides_of(ev, t, state)
        games = state["results"].get((t.round, t.table), [])
        live = games[-1] if games else None
        wa, wb, _ = ES.match_outcome(ev, games)
        tables.append({
            "round": t.round, "table": t.table, "status": status,
            "a": ev.side_name(a), "b": ev.side_name(b),
            "label": ev.bracket.label(t.match) if t.match is not None else None,
            "score": live.score if live else None,
            "hands": live.hands if live else 0,
            "games": [wa, wb] if ev.best_of > 1 else None,
            "live": live_line(live) if live and status == "playing" else None,
        })
    out = {"event": ev.name, "format": ev.format, "variant": ev.variant,
           "units": ev.units, "round": current, "rounds": ev.rounds,
           "standings": [r.as_dict() for r in rows], "tables": tables, "bracket": None,
           "provisional": bool(open_rounds)}
    if ev.bracket is not None:
        br = state["bracket"]
        matches = []
        for t in ev.tables:
            if not br["needed"].get(t.match, True) and EV.GRAND_FINAL in br["winner"]:
                continue
            a, b = br["teams"][t.match]
            games = state["results"].get((t.round, t.table), [])
            wa, wb, _ = ES.match_outcome(ev, games)
            w = br["winner"].get(t.match)
            matches.append({
                "label": ev.bracket.label(t.match), "round": t.round,
                "a": None if a is None else ev.entrants[a],
                "b": None if b is None else ev.entrants[b],
                "wins": [wa, wb], "winner": None if w is None else ev.entrants[w]})
        champ = br["champion"]
        out["bracket"] = {"matches": matches,
                          "champion": None if champ is None else ev.entrants[champ]}
    return out


PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Tally 42</title>
<style>
body{font-family:sans-serif;margin:1em 2em;background:#fafafa;color:#222}
h1{margin:.2em 0}h2{margin:.8em 0 .3em}
table{border-collapse:collapse;margin-bottom:1em;background:#fff}
td,th{border:1px solid #bbb;padding:.3em .8em;text-align:left}
th{background:#e8e8e8}td.n{text-align:right}
.cols{display:flex;flex-wrap:wrap;gap:2em}
.status{color:#666;font-size:90%}#updated{color:#888;font-size:80%}
.champion{font-size:130%;font-weight:bold;color:#063}
</style></head><body>
<h1 id="title">Tally 42</h1>
<div id="updated"></div>
<div class="cols">
<div><h2 id="standings-title">Standings</h2><div id="standings"></div></div>
<div><h2 id="tables-title">Tables</h2><div id="tables"></div></div>
</div>
<div id="bracket-box" style="display:none"><h2>Bracket</h2><div id="champion"
 class="champion"></div><div id="bracket"></div></div>
<script>
"use strict";
function esc(s){return String(s).replace(/[&<>"]/g,function(c){
  return {"&":"&amp;","<":"&lt;",">":"&gt;","\\"":"&quot;"}[c];});}
function table(head, rows, id){
  var h="<table id=\\""+id+"\\"><tr>"+head.map(function(x){return "<th>"+esc(x)+"</th>";})
    .join("")+"</tr>";
  rows.forEach(function(r){h+="<tr>"+r.map(function(x){
    return "<td"+(typeof x==="number"?" class=\\"n\\"":"")+">"+esc(x)+"</td>";}).join("")
    +"</tr>";});
  return h+"</table>";}
function draw(s){
  document.getElementById("title").textContent=s.event;
  var u=s.units.charAt(0).toUpperCase()+s.units.slice(1);
  document.getElementById("standings").innerHTML=table(
    ["#","Name","P","W","L",u,"Against","Diff"],
    s.standings.map(function(r){return [r.rank,r.name,r.played,r.won,r.lost,r["for"],
      r.against,(r.diff>0?"+":"")+r.diff];}),"standings-table");
  document.getElementById("standings-title").textContent=s.provisional?
    "Standings (provisional)":"Standings";
  document.getElementById("tables-title").textContent=s.bracket?"Matches now":
    "Round "+s.round+" of "+s.rounds;
  document.getElementById("tables").innerHTML=table(
    ["Table","Side A","Side B","Score","Hands",""],
    s.tables.map(function(t){return [s.bracket?t.label:t.table,t.a,t.b,
      t.score?t.score[0]+" - "+t.score[1]:"",t.hands,
      (t.live||t.status)+(t.games?" (games "+t.games[0]+"-"+t.games[1]+")":"")];}),
    "tables-table");
  var box=document.getElementById("bracket-box");
  if(s.bracket){box.style.display="";
    document.getElementById("champion").textContent=s.bracket.champion?
      "Champion: "+s.bracket.champion:"";
    document.getElementById("bracket").innerHTML=table(["Round","Match","Side A","Side B",
      "Games","Winner"],s.bracket.matches.map(function(m){return [m.round,m.label,
      m.a||"?",m.b||"?",m.wins[0]+"-"+m.wins[1],m.winner||""];}),"bracket-table");}
  document.getElementById("updated").textContent="updated "+
    new Date().toLocaleTimeString();}
function poll(){fetch("state.json",{cache:"no-store"}).then(function(r){return r.json();})
  .then(draw).catch(function(){document.getElementById("updated").textContent=
  "waiting for the PC...";});}
poll();setInterval(poll,POLL_MS);
</script></body></html>
""".replace("POLL_MS", str(POLL_MS))


class Reader:
    """The server's read-only connection, opened at the first request and shared by the
    request threads in turn. A request's reads are one transaction (on PostgreSQL a
    REPEATABLE READ snapshot, host_tools/store/dbpg.py), ended when it is answered: the figures
    of one page add up, and the next request sees what was stored meanwhile. A connection
    that fails (a server restarted, a file replaced) is dropped and opened again."""

    def __init__(self, db_path):
        self.db_path = db_path
        self.lock = threading.Lock()
        self.database = None

    def read(self, work):
        """work(database) in one read transaction; DbError when the database cannot be read."""
        with self.lock:
            if self.database is None:
                self.database = D.open_db(self.db_path, readonly=True)
            database = self.database
            conn = database.conn
            try:
                if isinstance(conn, sqlite3.Connection):
                    conn.execute("BEGIN")       # PostgreSQL's reader begins by itself
                result = work(database)
                if conn.in_transaction:
                    conn.execute("COMMIT")
                return result
            except sqlite3.Error as e:
                self.close()
                raise D.DbError("%s: cannot read the database: %s" % (database.path, e))
            except BaseException:
                if conn.in_transaction:
                    conn.execute("COMMIT")
                raise

    def close(self):
        if self.database is not None:
            try:
                self.database.close()
            except sqlite3.Error:
                pass        # a connection already broken: nothing to give back
            self.database = None


class Handler(http.server.BaseHTTPRequestHandler):
    reader = None
    event = None

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self._send(200, "text/html; charset=utf-8", PAGE.encode("utf-8"))
        elif path == "/state.json":
            try:
                body = json.dumps(self.reader.read(lambda d: state_json(d, self.event)),
                                  ensure_ascii=False)
            except (D.DbError, EV.EventError) as e:
                self._send(503, "application/json", json.dumps({"error": str(e)}).encode())
                return
            self._send(200, "application/json; charset=utf-8", body.encode("utf-8"))
        else:
            self._send(404, "text/plain; charset=utf-8", b"not found\n")

    def _send(self, code, kind, body):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        pass        # a page polled every 2 s would fill the terminal


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    reader = None

    def server_close(self):
        super().server_close()
        if self.reader is not None:
            with self.reader.lock:
                self.reader.close()


def make_server(db_path, event, host="0.0.0.0", port=8042):
    """An HTTP server for the event (call serve_forever); OSError if it cannot listen.
    db_path: a SQLite file's path or a postgresql:// URL (with its password, if any)."""
    reader = Reader(db_path)
    handler = type("EventHandler", (Handler,), {"reader": reader, "event": event})
    server = Server((host, port), handler)
    server.reader = reader
    return server


def shown_host(host):
    """The address to tell people: the machine's LAN address when listening on all."""
    if host not in ("0.0.0.0", ""):
        return host
    import socket
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("10.255.255.255", 1))    # no packet is sent: picks the LAN route
            return s.getsockname()[0]
        finally:
            s.close()
    except OSError:
        return "localhost"
