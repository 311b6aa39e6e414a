"""The page `tally42 serve` puts on the screen of the room: the standings, the round's
tables with each one's live score, the byes, and "find your table" by player name.

Made to be read across a room: every size is in rem, and the root size is 1/40 of the
screen's height on a landscape screen, so the smallest text is that at any resolution
(27 px at 1920x1080, 54 px at 3840x2160). On a portrait screen (a phone) the root size
follows the width instead and the panes stack, every column within the width. The panes
sit side by side; when they do not fit the screen's height they take turns, one at a
time, and a pane still taller than the screen pages itself: its rows (a team, a table, a
player) go on pages that each fit whole, marked "1/3", turned on the same timer. The
page polls /state.json and redraws in place; an answer that fails (or is not
the state) leaves the last good state on the screen, marked as waiting for the PC."""

POLL_MS = 2000
TURN_MS = 12000         # how long each pane, or page of one, shows when they take turns

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
h1{font-size:1.7rem;margin:0}
h2{font-size:1.25rem;margin:.3rem 0;display:flex;justify-content:space-between;gap:1rem}
.mark{color:#9fd3ff;font-weight:400;white-space:nowrap}
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
body.turns #find{columns:3}.off{display:none!important}
@media (max-aspect-ratio:1/1){main{grid-template-columns:minmax(0,1fr)}
 body.turns section{display:block}#find{columns:1}td.s{white-space:normal}}
</style></head><body>
<header><h1 id="title">Tally 42</h1><span id="round"></span><span id="updated"></span>
</header>
<main>
<section id="standings-pane"><h2>Standings<span id="provisional"></span><span class="mark"></span></h2>
<div id="standings"></div>
<div id="bracket-box" style="display:none"><div id="champion" class="champion"></div>
<div id="bracket"></div></div></section>
<section id="tables-pane">
<h2><span id="tables-title">Tables</span><span class="mark"></span></h2>
<div id="tables"></div>
<div id="byes" class="bye"></div></section>
<section id="find-pane"><h2>Find your table<span class="mark"></span></h2>
<div id="find"></div></section>
<section id="desk-pane" style="display:none"><h2>Desk<span class="mark"></span></h2>
<div id="desk"></div><div id="desk-notes" class="bye"></div></section>
</main>
<script>
"use strict";
var good=null,drawn="",paged={},at={pane:null,page:0};
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
  // Standings that still move as tables play (a radio brings hands as they are taken).
  document.getElementById("provisional").textContent=s.provisional?" (provisional)":"";
  var title=s.bracket?"Matches now":"Round "+s.round+" of "+s.rounds;
  document.getElementById("tables-title").textContent=title;
  document.getElementById("round").textContent=s.bracket?"":title;
  document.getElementById("tables").innerHTML=table(
    ["Table","Side A","Side B","Score","Now"],
    s.tables.map(function(t){return [s.bracket?t.label:
      // a table running ahead of the round shown says its round
      t.round!==s.round?t.table+" (round "+t.round+")":t.table,t.a,t.b,
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
  // The desk (serve --desk): each scorer, its table, what it is doing, its next table.
  var dk=document.getElementById("desk-pane");
  if(s.desk){dk.style.display="";
    document.getElementById("desk").innerHTML=table(["Scorer","Keeps","At","Table",
      "Next (radio)","Heard"],s.desk.scorers.map(function(r){return [r.device,
      r.home?"table "+r.home:"-",r.at?"round "+r.at[0]+" table "+r.at[1]:"-",r.live||"-",
      r.next?r.next+" ("+(r.next_state||"sent")+")":"-",r.heard||"-"];}),"desk-table",
      ["","","","s","",""],s.desk.scorers.map(function(r){return r.conflict?"live":"";}));
    document.getElementById("desk-notes").textContent=s.desk.scorers.filter(function(r){
      return r.conflict;}).map(function(r){return "CONFLICT: "+r.conflict;}).concat(
      s.desk.unscored.length?["no scorer at: "+s.desk.unscored.map(function(x){
      return "round "+x[0]+" table "+x[1];}).join(", ")]:[]).join(" \u2022 ");
  }else{dk.style.display="none";}
  var box=document.getElementById("bracket-box");
  if(s.bracket){box.style.display="";
    document.getElementById("champion").textContent=s.bracket.champion?
      "Champion: "+s.bracket.champion:"";
    document.getElementById("bracket").innerHTML=table(["Round","Match","Side A","Side B",
      "Games","Winner"],s.bracket.matches.map(function(m){return [m.round,m.label,
      m.a||"?",m.b||"?",m.wins[0]+"-"+m.wins[1],m.winner||""];}),"bracket-table",
      ["n","","","","n",""]);}
  fit();}
function panes(){
  return Array.from(document.querySelectorAll("main section")).filter(function(p){
    return p.style.display!=="none";});}
function tall(){return document.documentElement.scrollHeight>innerHeight+1;}
function fit(){
  // Side by side when it all fits the screen's height, else the panes take turns, and a
  // pane too tall on its own is cut into pages. A phone (portrait) scrolls instead.
  var body=document.body,hint=paged;body.classList.remove("turns");paged={};
  document.querySelectorAll(".off").forEach(function(e){e.classList.remove("off");});
  document.querySelectorAll(".mark").forEach(function(m){m.textContent="";});
  if(innerWidth<=innerHeight||!tall())return;
  body.classList.add("turns");
  var all=panes();
  all.forEach(function(p){
    all.forEach(function(q){q.classList.toggle("shown",q===p);});
    paged[p.id]=paginate(p,hint[p.id]||[]);});
  show();}
function blocks(p){
  // What a page keeps whole: a table's rows (its head row shows on every page), a player
  // of "find your table", a line of text.
  return Array.from(p.querySelectorAll("tr:not(:first-child),#find>div,.bye,.champion"));}
function heads(p){
  // A table shows, head row and all, only on the pages that hold one of its rows.
  p.querySelectorAll("table").forEach(function(t){var rows=Array.from(t.rows).slice(1);
    t.classList.toggle("off",rows.length>0&&rows.every(function(r){
      return r.classList.contains("off");}));});}
function fits(p,all,s,e){
  // Whether the screen holds blocks s to e-1 of the pane: laid out and measured, so
  // wrapped names and the columns of "find your table" take the room they take.
  all.forEach(function(b,i){b.classList.toggle("off",i<s||i>=e);});heads(p);
  return !tall();}
function span(p,all,s,guess){
  // How many blocks from s the screen holds (one at least, however tall). From a guess
  // out, step doubling, then halving between: a right guess costs two layouts.
  var n=all.length-s,lo=1,hi=n+1,k=Math.max(1,Math.min(guess,n)),step=1;
  if(fits(p,all,s,s+k)){lo=k;
    while(lo+step<hi){if(!fits(p,all,s,s+lo+step)){hi=lo+step;break;}lo+=step;step*=2;}}
  else{hi=k;
    while(hi-step>lo){if(fits(p,all,s,s+hi-step)){lo=hi-step;break;}hi-=step;step*=2;}}
  while(hi-lo>1){var m=(lo+hi)>>1;if(fits(p,all,s,s+m))lo=m;else hi=m;}
  return lo;}
function paginate(p,hint){
  // Pages as [first, end) of the pane's blocks, each as many as the screen holds. The
  // guesses: the last draw's page (a redraw mostly keeps them), else the page before,
  // else all. The mark is measured at its widest.
  var all=blocks(p),pages=[],s=0,mark=p.querySelector(".mark");
  mark.textContent="88/88";
  do{var h=hint[pages.length],last=pages[pages.length-1],
      e=s+span(p,all,s,h?h[1]-h[0]:last?last[1]-last[0]:all.length);
    pages.push([s,e]);s=e;}while(s<all.length);
  mark.textContent="";
  return pages;}
function show(){
  // The pane and page `at` names, or the nearest still there after a redraw.
  var all=panes(),i=all.findIndex(function(p){return p.id===at.pane;});
  if(!all.length)return;
  if(i<0){i=0;at.page=0;}
  var p=all[i],pages=paged[p.id],keep;
  at.pane=p.id;at.page=Math.min(at.page,pages.length-1);keep=pages[at.page];
  all.forEach(function(q){q.classList.toggle("shown",q===p);});
  blocks(p).forEach(function(b,j){b.classList.toggle("off",j<keep[0]||j>=keep[1]);});
  heads(p);
  p.querySelector(".mark").textContent=pages.length>1?(at.page+1)+"/"+pages.length:"";}
function turnPage(){
  // The pane's next page, or the next pane's first.
  var all=panes(),i=all.findIndex(function(p){return p.id===at.pane;});
  if(!all.length)return;
  if(i>=0&&at.page+1<paged[all[i].id].length)at.page++;
  else{at.pane=all[(i+1)%all.length].id;at.page=0;}
  show();}
function stamp(ok){var u=document.getElementById("updated"),
  high=document.querySelector("header").offsetHeight;
  u.className=ok?"":"stale";
  u.textContent=ok?"updated "+new Date().toLocaleTimeString():
    (good?"waiting for the PC (last update "+good+")":"waiting for the PC...");
  // A longer line can wrap the header, and the pages were measured below the old one.
  if(document.querySelector("header").offsetHeight!==high)fit();}
function poll(){fetch("state.json",{cache:"no-store"}).then(function(r){
    if(!r.ok)throw new Error("HTTP "+r.status);return r.json();})
  .then(function(s){if(!usable(s))throw new Error("not the state");
    // The same state again leaves the screen, and the page it is on, as it is.
    var text=JSON.stringify(s);if(text!==drawn){draw(s);drawn=text;}
    good=new Date().toLocaleTimeString();stamp(true);})
  .catch(function(){stamp(false);});}
poll();setInterval(poll,POLL_MS);
setInterval(function(){if(document.body.classList.contains("turns"))turnPage();},TURN_MS);
addEventListener("resize",fit);
</script></body></html>
""".replace("POLL_MS", str(POLL_MS)).replace("TURN_MS", str(TURN_MS))
