"""The page `tally42 serve` puts on the screen of the room: the standings, the round's
tables with each one's live score, the byes, and "find your table" by player name.

Made to be read across a room: every size is in rem, and the root size is 1/40 of the
screen's height on a landscape screen, so the smallest text is that at any resolution
(27 px at 1920x1080, 54 px at 3840x2160). On a portrait screen (a phone) the root size
follows the width instead and the panes stack, every column within the width. The panes
sit side by side; when they do not fit the screen's height they take turns, one at a
time. The page polls /state.json and redraws in place; an answer that fails (or is not
the state) leaves the last good state on the screen, marked as waiting for the PC."""

POLL_MS = 2000
TURN_MS = 12000         # how long each pane shows when they take turns

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tally 42</title>
<style>
html{font-size:2.5vh}
@media (max-aspect-ratio:1/1){html{font-size:min(2.5vh,4.1vw)}}
*{box-sizing:border-box}
body{margin:0;padding:.4rem .8rem;font:1rem/1.25 system-ui,sans-serif;background:#101418;
 color:#f2f2f2}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 1.2rem}
h1{font-size:1.7rem;margin:0}h2{font-size:1.25rem;margin:.3rem 0}
#round{font-size:1.25rem;color:#9fd3ff}#updated{font-size:1rem;color:#aaa}
#updated.stale{color:#ffb347}
main{display:grid;grid-template-columns:minmax(0,1.1fr) minmax(0,1.3fr) minmax(0,.9fr);
 gap:1.2rem}
section{min-width:0}
table{border-collapse:collapse;width:100%}
td,th{padding:.12rem .35rem;text-align:left;border-bottom:1px solid #39424c;
 overflow-wrap:break-word}
th{color:#9fd3ff;font-weight:600}td.n,th.n{text-align:right;white-space:nowrap}td.s{white-space:nowrap}
tr.live td{color:#ffe08a}
.bye{margin:.4rem 0;color:#ddd}
#find{columns:2;column-gap:1.2rem}
#find div{break-inside:avoid;display:flex;justify-content:space-between;gap:.5rem;
 border-bottom:1px solid #2a3138}
#find b{font-weight:600}#find span{white-space:nowrap}
.champion{font-size:1.4rem;font-weight:bold;color:#8fe39a}
body.turns main{grid-template-columns:minmax(0,1fr)}
body.turns section{display:none}body.turns section.shown{display:block}
@media (max-aspect-ratio:1/1){main{grid-template-columns:minmax(0,1fr)}
 body.turns section{display:block}#find{columns:1}td.s{white-space:normal}}
</style></head><body>
<header><h1 id="title">Tally 42</h1><span id="round"></span><span id="updated"></span>
</header>
<main>
<section id="standings-pane"><h2>Standings</h2><div id="standings"></div>
<div id="bracket-box" style="display:none"><div id="champion" class="champion"></div>
<div id="bracket"></div></div></section>
<section id="tables-pane"><h2 id="tables-title">Tables</h2><div id="tables"></div>
<div id="byes" class="bye"></div></section>
<section id="find-pane"><h2>Find your table</h2><div id="find"></div></section>
</main>
<script>
"use strict";
var good=null,turn=0;
function esc(s){return String(s).replace(/[&<>"]/g,function(c){
  return {"&":"&amp;","<":"&lt;",">":"&gt;","\\"":"&quot;"}[c];});}
function table(head,rows,id,kinds,cls){
  // kinds: a class a column ("n" a number, "s" a status kept on one line)
  function c(i){return kinds[i]?" class=\\""+kinds[i]+"\\"":"";}
  var h="<table id=\\""+id+"\\"><tr>"+head.map(function(x,i){
    return "<th"+c(i)+">"+esc(x)+"</th>";}).join("")+"</tr>";
  rows.forEach(function(r,j){h+="<tr"+(cls&&cls[j]?" class=\\""+cls[j]+"\\"":"")+">"+
    r.map(function(x,i){return "<td"+c(i)+">"+esc(x)+"</td>";}).join("")+"</tr>";});
  return h+"</table>";}
function now(t){
  // What a table is doing: the scorer's last word, or its stored sitting's.
  if(t.live)return t.live;
  if(t.status==="playing")return "playing, hand "+(t.hands+1);
  return t.status+(t.status==="done"&&t.hands?", "+t.hands+" hands":"");}
function usable(s){return s&&typeof s==="object"&&typeof s.event==="string"&&
  Array.isArray(s.standings)&&Array.isArray(s.tables);}
function draw(s){
  document.getElementById("title").textContent=s.event;
  document.title=s.event;
  var u=s.units.charAt(0).toUpperCase()+s.units.slice(1);
  document.getElementById("standings").innerHTML=table(
    ["#","Name","P","W","L",u,"Agst","Diff"],
    s.standings.map(function(r){return [r.rank,r.name,r.played,r.won,r.lost,r["for"],
      r.against,(r.diff>0?"+":"")+r.diff];}),"standings-table",
    ["n","","n","n","n","n","n","n"]);
  var title=s.bracket?"Matches now":"Round "+s.round+" of "+s.rounds;
  document.getElementById("tables-title").textContent=title;
  document.getElementById("round").textContent=s.bracket?"":title;
  document.getElementById("tables").innerHTML=table(
    ["Table","Side A","Side B","Score","Now"],
    s.tables.map(function(t){return [s.bracket?t.label:t.table,t.a,t.b,
      t.score?t.score[0]+" - "+t.score[1]:"",
      now(t)+(t.games?" (games "+t.games[0]+"-"+t.games[1]+")":"")];}),
    "tables-table",[s.bracket?"":"n","","","n","s"],
    s.tables.map(function(t){return t.live||t.status==="playing"?"live":"";}));
  document.getElementById("byes").textContent=s.byes&&s.byes.length?
    "Sitting out: "+s.byes.join(", "):"";
  document.getElementById("find").innerHTML=(s.find||[]).map(function(f){
    return "<div><b>"+esc(f.player)+"</b><span>"+esc(f.table===null?"sitting out":
      "Table "+f.table)+"</span></div>";}).join("");
  document.getElementById("find-pane").style.display=s.find&&s.find.length?"":"none";
  var box=document.getElementById("bracket-box");
  if(s.bracket){box.style.display="";
    document.getElementById("champion").textContent=s.bracket.champion?
      "Champion: "+s.bracket.champion:"";
    document.getElementById("bracket").innerHTML=table(["Round","Match","Side A","Side B",
      "Games","Winner"],s.bracket.matches.map(function(m){return [m.round,m.label,
      m.a||"?",m.b||"?",m.wins[0]+"-"+m.wins[1],m.winner||""];}),"bracket-table",
      ["n","","","","n",""]);}
  fit();}
function fit(){
  // Side by side when it all fits the screen's height, else the panes take turns.
  var body=document.body;body.classList.remove("turns");
  if(innerWidth>innerHeight&&document.documentElement.scrollHeight>innerHeight+1){
    body.classList.add("turns");show();}}
function show(){
  var panes=Array.from(document.querySelectorAll("main section")).filter(function(p){
    return p.style.display!=="none";});
  panes.forEach(function(p,i){p.classList.toggle("shown",i===turn%panes.length);});}
function stamp(ok){var u=document.getElementById("updated");
  u.className=ok?"":"stale";
  u.textContent=ok?"updated "+new Date().toLocaleTimeString():
    (good?"waiting for the PC (last update "+good+")":"waiting for the PC...");}
function poll(){fetch("state.json",{cache:"no-store"}).then(function(r){
    if(!r.ok)throw new Error("HTTP "+r.status);return r.json();})
  .then(function(s){if(!usable(s))throw new Error("not the state");draw(s);
    good=new Date().toLocaleTimeString();stamp(true);})
  .catch(function(){stamp(false);});}
poll();setInterval(poll,POLL_MS);
setInterval(function(){if(document.body.classList.contains("turns")){turn++;show();}},
  TURN_MS);
addEventListener("resize",fit);
</script></body></html>
""".replace("POLL_MS", str(POLL_MS)).replace("TURN_MS", str(TURN_MS))
