# The phone page (GET /) and the access point's Wi-Fi page: plain HTML, CSS and script in one
# response, nothing fetched from the internet. The page watches the board through
# /api/events, pairs through /api/pair and acts through /api/press and /api/action with the
# token it keeps in the phone's localStorage. The games and their options come from the core,
# so the page offers exactly what the board accepts.
import json

from ..core import KINDS, traits


HEAD = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Scoreboard</title><style>
body{font-family:system-ui,sans-serif;margin:0;background:#111;color:#eee}
main{max-width:32rem;margin:auto;padding:.5rem}
.sides{display:flex;gap:.5rem}.side{flex:1;border-radius:.6rem;padding:.5rem;text-align:center}
#red{background:#7a1010}#blue{background:#10307a}
.name{font-size:1.1rem;min-height:1.3rem}.total{font-size:3.5rem;font-weight:700}
.pend{font-size:1.4rem;min-height:1.7rem;color:#ff0}.mark{font-size:1.2rem;min-height:1.5rem}
#line,#msg{text-align:center;margin:.4rem 0;min-height:1.2rem}#msg{color:#ff0}
button{font-size:1.05rem;padding:.7rem .4rem;margin:.15rem 0;border-radius:.5rem;border:0;
background:#444;color:#fff;width:100%}button.r{background:#a01818}button.b{background:#1840a0}
.row{display:flex;gap:.3rem}.row>*{flex:1}input,select{font-size:1.05rem;padding:.4rem;
width:100%;box-sizing:border-box}fieldset{border:1px solid #444;border-radius:.5rem;margin:.5rem 0}
label{display:block;margin:.2rem 0}#err{color:#f66;text-align:center;min-height:1.2rem}
.hide{display:none}small{color:#aaa}
</style></head><body><main>
"""

BODY = """<div id="conn"><small>connecting...</small></div>
<div class="sides"><div class="side" id="red"><div class="name" id="rn"></div>
<div class="total" id="rt">0</div><div class="pend" id="rp"></div><div class="mark" id="rm"></div>
<small id="rg"></small></div><div class="side" id="blue"><div class="name" id="bn"></div>
<div class="total" id="bt">0</div><div class="pend" id="bp"></div><div class="mark" id="bm"></div>
<small id="bg"></small></div></div>
<div id="line"></div><div id="msg"></div><div id="err"></div>
<fieldset id="pairing"><legend>Pair this phone</legend>
<button id="ask">Show a PIN on the board</button>
<div class="row"><input id="pin" inputmode="numeric" maxlength="4" placeholder="PIN">
<button id="send">Pair</button></div></fieldset>
<div id="acts" class="hide">
<fieldset><legend>Buttons</legend>
<div class="row"><button class="r" data-b="RED" data-g="tap">RED</button>
<button data-b="OK" data-g="tap">OK</button>
<button class="b" data-b="BLUE" data-g="tap">BLUE</button></div>
<div class="row"><button class="r" data-b="RED_MINUS" data-g="tap">RED &minus;</button>
<button data-b="OK" data-g="long">OK long</button>
<button class="b" data-b="BLUE_MINUS" data-g="tap">BLUE &minus;</button></div>
<div class="row"><button data-b="OK" data-g="hold">OK hold (menu)</button>
<button id="chord">RED+BLUE chord (redo)</button></div>
</fieldset>
<fieldset><legend>Enter</legend>
<div class="row" id="twin"><input id="fr" type="number" min="0" placeholder="red">
<input id="fb" type="number" min="0" placeholder="blue"></div>
<div id="one" class="hide"><input id="fp" type="number" min="0" placeholder="points"></div>
<div id="bed" class="hide"><select id="fbed"></select></div>
<button id="frame">Enter frame</button>
<div class="row"><button id="undo">Undo</button><button id="redo">Redo</button>
<button id="bank">Bank game</button></div>
<div class="row"><input id="tv" type="number" min="1" placeholder="target">
<button id="target">Move the line</button></div></fieldset>
<fieldset><legend>New game</legend><label>Game <select id="game"></select></label>
<div id="opts"></div>
<label>Red <input id="nr" maxlength="12" placeholder="name"></label>
<label>Blue <input id="nb" maxlength="12" placeholder="name"></label>
<button id="new">Start a new game</button></fieldset>
<button id="forget">Forget this phone</button></div>
<small>Anyone may watch; a paired phone may play.</small>
</main><script>
"""

SCRIPT = """const $=id=>document.getElementById(id);let V={},T=localStorage.getItem('token');
function paired(){$('acts').classList.toggle('hide',!T);$('pairing').classList.toggle('hide',!!T);}
function err(t){$('err').textContent=t||'';}
async function post(url,body){const h={'Content-Type':'application/json'};
 if(T)h.Authorization='Bearer '+T;let r;
 try{r=await fetch(url,{method:'POST',headers:h,body:JSON.stringify(body)});}
 catch(e){err('no answer from the board');return null;}
 let d={};try{d=await r.json();}catch(e){}
 if(r.status==401||r.status==403&&url!='/api/pair'){T=null;localStorage.removeItem('token');
paired();}
 if(r.status>=400){err(d.error||('error '+r.status));return null;}
 err('');if(d.screen)show(d);return d;}
function side(s,k){const n=V.names&&V.names[s];$(k+'n').textContent=n||s;
 $(k+'t').textContent=V[s];const p=V.pending?V.pending[s]:0;$(k+'p').textContent=p?'+'+p:'';
 let m='';if(V.hammer==s)m+='\\u25cf hammer ';if(V.turn==s)m+='\\u25b6 to shoot';
 if(V.winner==s)m='WINS';$(k+'m').textContent=m;
 let g='games '+(V.games?V.games[s]:0);if(V.legs&&(V.legs.red||V.legs.blue))g+=', legs '+V.legs[s];
 if(V.beds)g+=' | '+V.beds[s].join(' ');if(V.collars)g+=' | collars '+V.collars[s];
$(k+'g').textContent=g;}
function show(v){V=v;side('red','r');side('blue','b');
 let l=[v.screen,v.game];if(v.target!=null)l.push('to '+v.target);
l.push('frame '+v.frame,'end '+v.end);
 if(v.cursor!=null)l.push('bed '+v.cursor);if(v.menu)l.push(v.menu.item+' = '+v.menu.value);
 $('line').textContent=l.join(' \\u00b7 ');$('msg').textContent=v.message||'';
 const g=GAMES[v.game]||{},e=g.entry||'frame';$('twin').classList.toggle('hide',e!='frame');
 $('one').classList.toggle('hide',e!='turn'&&e!='shot');$('bed').classList.toggle('hide',e!='bed');
 if(e=='bed'&&v.beds){const s=$('fbed'),n=v.beds.red.length;
  if(s.options.length!=n+1){s.innerHTML='';
  for(let i=1;i<=n;i++)s.add(new Option('bed '+i,i));
  s.add(new Option('end the turn','end'));}}}
function connect(){const es=new EventSource('/api/events');
 es.onopen=()=>{$('conn').innerHTML='<small>live</small>';};
 es.onmessage=m=>show(JSON.parse(m.data));
 es.onerror=()=>{$('conn').innerHTML='<small>reconnecting...</small>';};}
for(const b of document.querySelectorAll('button[data-b]'))
 b.onclick=()=>post('/api/press',{button:b.dataset.b,gesture:b.dataset.g});
$('chord').onclick=()=>post('/api/press',{chord:['RED','BLUE']});
$('ask').onclick=()=>post('/api/pair',{}).then(d=>{
 if(d)$('msg').textContent='enter the PIN the board shows';});
$('send').onclick=async()=>{const d=await post('/api/pair',{pin:$('pin').value.trim()});
 if(d&&d.token){T=d.token;localStorage.setItem('token',T);$('pin').value='';paired();}};
$('forget').onclick=()=>{T=null;localStorage.removeItem('token');paired();};
function num(id){const s=$(id).value.trim();return s==''?0:Number(s);}
$('frame').onclick=()=>{const e=(GAMES[V.game]||{}).entry||'frame';let a={do:'frame'};
 if(e=='frame'){a.red=num('fr');a.blue=num('fb');}else if(e=='bed'){
  const b=$('fbed').value;a.bed=b=='end'?b:Number(b);}
 else a.points=num('fp');
post('/api/action',a).then(d=>{if(d){$('fr').value=$('fb').value=$('fp').value='';}});};
$('undo').onclick=()=>post('/api/action',{do:'undo'});
$('redo').onclick=()=>post('/api/action',{do:'redo'});
$('bank').onclick=()=>post('/api/action',{do:'bank'});
$('target').onclick=()=>post('/api/action',{do:'target',value:num('tv')});
function opts(){const k=$('game').value,o=$('opts');o.innerHTML='';const g=GAMES[k];
 for(const [n,d,c,r] of g.options){const l=document.createElement('label');l.textContent=n+' ';
  let i;if(c){i=document.createElement('select');
   c.forEach((x,j)=>i.add(new Option(x===null?'none':String(x),j)));
   i.value=c.findIndex(x=>x===d);i.dataset.c=JSON.stringify(c);}
  else if(typeof d=='boolean'){i=document.createElement('input');i.type='checkbox';i.checked=d;}
  else{i=document.createElement('input');i.type='number';i.value=d;
   if(r){i.min=r[0];i.max=r[1];}}
  i.dataset.o=n;l.appendChild(i);o.appendChild(l);}}
for(const k in GAMES)$('game').add(new Option(GAMES[k].title||k,k));$('game').onchange=opts;opts();
$('new').onclick=()=>{const o={};for(const i of $('opts').querySelectorAll('[data-o]')){
  o[i.dataset.o]=i.dataset.c?JSON.parse(i.dataset.c)[i.value]:i.type=='checkbox'?i.checked:Number(i.value);}
 const nm=id=>{const s=$(id).value.trim();return s==''?null:s;};
 post('/api/action',{do:'new',game:$('game').value,options:o,names:{red:nm('nr'),blue:nm('nb')}});};
paired();fetch('/api/view').then(r=>r.json()).then(show).catch(()=>{});connect();
</script></body></html>
"""


def games():
    """Each game's options as the page needs them: [name, default, choices or [lo, hi] or
    None], and how a frame is entered. The core's traits say it where it declares them
    (OPTIONS: name, default, a tuple of choices or a [lo, hi] list; ENTRY)."""
    out = {}
    for kind in KINDS:
        t = traits(kind)
        opts = []
        for name, default, allowed in t.OPTIONS:
            if isinstance(allowed, tuple) and (False not in allowed or True not in allowed):
                opts.append([name, default, list(allowed)])
            elif isinstance(allowed, list):
                opts.append([name, default, None, allowed])
            else:
                opts.append([name, default, None])
        out[kind] = {'options': opts, 'entry': t.ENTRY}
    return out


def page():
    """The phone page as its parts, for microdot to send one after the other: nothing the size
    of the page is kept in RAM (frozen, the texts stay in flash), and the game table is built
    per request from the core."""
    return iter((HEAD, BODY, 'const GAMES=' + json.dumps(games()) + ';\n', SCRIPT))


def escape(s):
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace(
        '"', '&quot;')


def setup_page(wifi):
    """The access point's page: the bar's Wi-Fi, asked for once."""
    return (HEAD + '<h2>Scoreboard Wi-Fi</h2><p>This board is its own access point (<b>' +
            escape(wifi.ap_name) + "</b>). Give it the bar's Wi-Fi:</p>"
            '<form method="post" action="/wifi">'
            '<label>Network (SSID) <input name="ssid" maxlength="32" required></label>'
            '<label>Password <input name="password" type="password" maxlength="63"></label>'
            '<label>Board name <input name="hostname" maxlength="32" placeholder="scoreboard">'
            '</label><button>Join</button></form>'
            '<p><a href="/remote" style="color:#8cf">Score from this phone now</a></p>'
            '</main></body></html>')


def joining_page(wifi):
    return (HEAD + '<h2>Joining ' + escape(wifi.ssid or '') + '</h2><p>The board joins that '
            'network now and closes its access point once it is on it. Then open <b>http://' +
            escape(wifi.hostname) + '.local/</b> (or the address your router gave it) from a '
            'phone on the same network.</p></main></body></html>')
