# The phone page (GET /) and the access point's Wi-Fi page: plain HTML, CSS and script in one
# response, nothing fetched from the internet. The page watches the board through
# /api/events, pairs through /api/pair and acts through /api/press and /api/action with the
# token it keeps in the phone's localStorage. The games and their options come from the
# catalogue (the core's traits), so the page offers exactly what the board accepts.
#
# The page's text is page.html, beside this module, sent from the file CHUNK bytes at a time: as
# string constants of a .mpy module its 8 KB took 11 KB of heap at each answer (unix port). Two
# marker lines cut it: HEAD_END after the head (the style sheet, which the Wi-Fi pages share too)
# and GAMES, where the game table goes, built from the catalogue as the answer gets there.
import json
import os

from ..catalogue import games  # noqa: F401  (the table of the games, read by the page)

NAME = 'page.html'
CHUNK = 512
HEAD_END = b'<!--end of head-->\n'
GAMES = b'/*GAMES*/\n'
# Where else to look: where `make deploy` and `mip install --target /` put the file, and where a
# frozen build has it (a frozen module's __file__ names no file on the flash; manifest.py).
ON_FLASH = ('/scoreboard/net/' + NAME, '/lib/scoreboard/net/' + NAME)


def where(path=None):
    """The page file: `path` when given, else the one next to this module (a .py or .mpy on
    the flash or the host), else the first of ON_FLASH that is there. OSError('page file
    missing: ...') when it is not there."""
    if path:
        tried = [path]
    else:
        here = globals().get('__file__') or ''
        cut = max(here.rfind('/'), here.rfind('\\'))
        tried = ([here[:cut + 1] + NAME] if cut >= 0 else []) + list(ON_FLASH)
    for p in tried:
        try:
            os.stat(p)
            return p
        except OSError:
            pass
    raise OSError('page file missing: ' + ', '.join(tried))


def chunks(path, marks):
    """The file's bytes at most CHUNK at a time, the file closed when they end or when the
    answer is closed (the client went away). `marks` lists (marker, fn) in the order the
    markers come in the file: a marker is not sent, fn() is sent in its place, or with fn None
    the file ends there. A marker may span two reads: the last len(marker) - 1 bytes of a read
    wait for the next one."""
    with open(path, 'rb') as f:
        buf = b''
        i = 0
        while True:
            data = f.read(CHUNK - len(buf))
            buf = buf + data if buf else data
            while i < len(marks):
                mark, fn = marks[i]
                at = buf.find(mark)
                if at < 0:
                    break
                if at:
                    yield buf[:at]
                if fn is None:
                    return
                text = fn()
                if text:
                    yield text
                buf = buf[at + len(mark):]
                i += 1
            if not data:
                if buf:
                    yield buf
                return
            keep = len(marks[i][0]) - 1 if i < len(marks) else 0
            if len(buf) > keep:
                yield buf[:len(buf) - keep]
                buf = buf[len(buf) - keep:]


def game_table():
    return 'const GAMES=' + json.dumps(games()) + ';\n'


def nothing():
    return ''


def page(path=None):
    """The phone page, as chunks for microdot to send one after the other: the file with the
    game table built at GAMES, from the core, as the answer gets there."""
    return chunks(where(path), ((HEAD_END, nothing), (GAMES, game_table)))


def head_then(path, text):
    yield from chunks(path, ((HEAD_END, None),))
    yield text


def escape(s):
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace(
        '"', '&quot;')


def setup_page(wifi, path=None):
    """The access point's page: the bar's Wi-Fi, asked for once. The form is sent as JSON
    (every POST is, DESIGN section 10) and the board's answer shown as the sentence it is."""
    return head_then(where(path), (
        '<h1>Put the scoreboard on your Wi-Fi</h1><p>This board is its own Wi-Fi network '
        'for now (<b>' + escape(wifi.ap_name) + '</b>). Tell it the Wi-Fi of the bar or '
        'home, and it joins that network.</p>'
        '<form id="wifi"><label>Wi-Fi name <input name="ssid" id="ssid" maxlength="32" '
        'required autocomplete="off"></label>'
        '<label>Password <input name="password" id="pw" type="password" maxlength="63" '
        'placeholder="empty for an open network"></label>'
        '<label>Board name (optional) <input name="hostname" id="host" maxlength="32" '
        'placeholder="scoreboard" autocapitalize="none"></label>'
        '<p class="note">The board is then at http://<i>board name</i>.local/ on that '
        'network.</p><div id="err" role="alert"></div>'
        '<button class="go" id="join">Join this Wi-Fi</button></form><div id="done"></div>'
        '<p><a href="/remote" style="color:#8cf;display:block;min-height:48px;'
        'padding:.7rem 0">Score from this phone now, without the bar\'s Wi-Fi</a></p>'
        '</main><script>' + _SETUP_JS + '</script></body></html>'))


# The Wi-Fi page's script: the checks a player can fix before sending, then the board's answer.
_SETUP_JS = (
    "const $=i=>document.getElementById(i);"
    "$('wifi').onsubmit=async e=>{e.preventDefault();const s=$('ssid').value,p=$('pw').value,"
    "h=$('host').value.trim();const err=t=>{$('err').textContent=t;};"
    "if(!s){err('Type the name of the Wi-Fi.');return;}"
    "if(p&&p.length<8){err('A Wi-Fi password is at least 8 characters. Check it, or leave it "
    "empty for an open network.');return;}"
    "if(h&&!/^[A-Za-z0-9-]+$/.test(h)){err('The board name takes only letters, digits and -.');"
    "return;}"
    "const b={ssid:s,password:p};if(h)b.hostname=h;let r,d={};"
    "try{r=await fetch('/wifi',{method:'POST',headers:{'Content-Type':'application/json'},"
    "body:JSON.stringify(b)});d=await r.json();}catch(x){"
    "err('The board did not answer. Stay on its Wi-Fi and try again.');return;}"
    "if(r.status!=200){err(r.status==400&&d.error&&!/[{}\\x22]/.test(d.error)?d.error:"
    "'The board could not take that. Try again.');return;}"
    "$('wifi').style.display='none';$('done').innerHTML='';const m=document.createElement('p');"
    "m.textContent='The board is joining '+d.joining+' now and closes its own Wi-Fi once it is "
    "on it. Switch this phone to '+d.joining+' and open http://'+d.hostname+'.local/ (or the "
    "address your router gave the board).';$('done').appendChild(m);};")


def joining_page(wifi, path=None):
    return head_then(where(path), (
        '<h2>Joining ' + escape(wifi.ssid or '') + '</h2><p>The board joins that '
        'network now and closes its access point once it is on it. Then open <b>http://' +
        escape(wifi.hostname) + '.local/</b> (or the address your router gave it) from a '
        'phone on the same network.</p></main></body></html>'))
