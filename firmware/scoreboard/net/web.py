# The phone remote's HTTP API (DESIGN section 10) on microdot. Every request is bounded before
# microdot sees it: the head at most MAX_HEAD bytes in MAX_HEADERS lines, the body at most
# MAX_BODY (413 without reading it), the whole request within READ_MS (408), every write within
# WRITE_MS, at most MAX_CONNECTIONS at once (503) and MAX_STREAMS event streams (the oldest is
# dropped). Handlers are coroutines: they run between two passes of the scoring loop, never
# beside it (microdot would put a plain function on a thread under CPython).
import asyncio
import json

from microdot import Microdot, Request, Response
from microdot.microdot import NoCaseDict

from .pairing import Locked, WrongPin

MAX_HEAD = 2048
MAX_HEADERS = 24
MAX_URL = 256
MAX_BODY = 1024
READ_MS = 4000
WRITE_MS = 5000
MAX_CONNECTIONS = 10
MAX_STREAMS = 6
KEEPALIVE_MS = 15000
NAME_MAX = 12

BUTTONS = ('RED', 'BLUE', 'OK', 'RED_MINUS', 'BLUE_MINUS')
GESTURES = ('tap', 'long', 'hold')
ACTIONS = {
    'frame': ('red', 'blue', 'points', 'bed'),
    'undo': (),
    'redo': (),
    'target': ('value',),
    'bank': (),
    'new': ('game', 'options', 'names'),
}
REASONS = {200: 'OK', 202: 'Accepted', 400: 'Bad Request', 401: 'Unauthorized',
           403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout',
           413: 'Payload Too Large', 429: 'Too Many Requests', 431: 'Header Fields Too Large',
           500: 'Internal Server Error', 501: 'Not Implemented', 503: 'Service Unavailable'}

STREAMED = ('/api/update',)  # routes whose handler streams its own body (net/update.py)

Request.max_content_length = MAX_BODY
Request.max_body_length = MAX_BODY

if hasattr(asyncio, 'wait_for_ms'):
    def within(aw, ms):
        return asyncio.wait_for_ms(aw, ms)
else:
    def within(aw, ms):
        return asyncio.wait_for(aw, ms / 1000)


class HTTPError(Exception):
    def __init__(self, code, reason):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def reply(code, obj=None, headers=None):
    h = {'Content-Type': 'application/json', 'Cache-Control': 'no-store'}
    if headers:
        h.update(headers)
    body = json.dumps(obj if obj is not None else {})
    return Response(body, status_code=code, headers=h, reason=REASONS.get(code, 'Error'))


def refuse(code, why):
    return reply(code, {'error': why})


def public(view):
    """The view model as any watcher may see it: without the pairing PIN (only the board's
    display shows that, or pairing would mean nothing)."""
    out = {}
    for k in view:
        if k != 'pin':
            out[k] = view[k]
    return out


def check_name(name):
    """None or a name of 1..NAME_MAX printable characters; else ValueError."""
    if name is None:
        return
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        raise ValueError('a name is 1..%d characters' % NAME_MAX)
    for ch in name:
        c = ord(ch)
        if c < 32 or 127 <= c < 160:
            raise ValueError('a name is printable text')


def check_action(a):
    """The shape of a POST /api/action body; the rules are the controller's."""
    do = a.get('do')
    if not isinstance(do, str) or do not in ACTIONS:
        raise ValueError('unknown action')
    allowed = ACTIONS[do]
    for k in a:
        if k != 'do' and k not in allowed:
            raise ValueError('%s takes no %s' % (do, k))
    if do == 'new':
        if not isinstance(a.get('game'), str):
            raise ValueError('new needs a game')
        opts = a.get('options')
        if opts is not None and not isinstance(opts, dict):
            raise ValueError('options are an object')
        names = a.get('names')
        if names is not None:
            if not isinstance(names, dict):
                raise ValueError('names are an object')
            for k in names:
                if k != 'red' and k != 'blue':
                    raise ValueError('names are red and blue')
                check_name(names[k])


def press_args(p):
    """A POST /api/press body -> (button, gesture) as ctl.press takes them."""
    if 'chord' in p:
        c = p['chord']
        if len(p) != 1 or not isinstance(c, list) or len(c) != 2 or \
                not ('RED' in c and 'BLUE' in c):
            raise ValueError('the chord is ["RED", "BLUE"]')
        return ('RED', 'BLUE'), 'chord'
    b, g = p.get('button'), p.get('gesture', 'tap')
    for k in p:
        if k != 'button' and k != 'gesture':
            raise ValueError('press takes button and gesture')
    if not isinstance(b, str) or b not in BUTTONS:
        raise ValueError('unknown button')
    if not isinstance(g, str) or g not in GESTURES:
        raise ValueError('unknown gesture')
    return b, g


class Hub:
    """The view model for the watchers: serialised once per change, handed to every stream."""

    def __init__(self):
        self._ver = None
        self.text = '{}'
        self.frame = b''
        self.seq = 0           # changes when the JSON does
        self.beats = 0         # changes every KEEPALIVE_MS
        self.streams = []

    def poll(self, ctl):
        """Called by the scoring loop every pass: nothing happens (nothing allocates) unless
        the controller's view changed."""
        if ctl.version != self._ver:
            self._refresh(ctl)

    def _refresh(self, ctl):
        self._ver = ctl.version
        text = json.dumps(public(ctl.view))
        if text != self.text:
            self.text = text
            self.frame = b'data: ' + text.encode() + b'\n\n'
            self.seq += 1
            self._wake()

    def beat(self):
        self.beats += 1
        self._wake()

    def _wake(self):
        for s in self.streams:
            s.ev.set()

    def open_stream(self):
        if len(self.streams) >= MAX_STREAMS:
            self.streams[0].close()        # the oldest watcher goes (a reloaded page, mostly)
        s = EventStream(self)
        self.streams.append(s)
        return s


class EventStream:
    """An SSE body for microdot: the view at once, then at every change, a comment as a
    keep-alive every KEEPALIVE_MS."""

    def __init__(self, hub):
        self.hub = hub
        self.ev = asyncio.Event()
        self.seq = -1
        self.beats = hub.beats
        self.closed = False

    def __aiter__(self):
        return self

    async def __anext__(self):
        hub = self.hub
        while True:
            if self.closed:
                raise StopAsyncIteration
            if self.seq != hub.seq:
                self.seq = hub.seq
                return hub.frame
            if self.beats != hub.beats:
                self.beats = hub.beats
                return b': keep-alive\n\n'
            self.ev.clear()
            await self.ev.wait()

    async def aclose(self):
        self.close()

    def close(self):
        if not self.closed:
            self.closed = True
            if self in self.hub.streams:
                self.hub.streams.remove(self)
            self.ev.set()


class TimedWriter:
    """The connection's writer, but no write may take longer than WRITE_MS: a phone that stops
    reading is dropped instead of holding its buffers for ever."""

    def __init__(self, w):
        self.w = w

    async def awrite(self, data):
        await within(self.w.awrite(data), WRITE_MS)


async def read_request(app, reader, writer):
    """The request, bounded: HTTPError for anything out of shape or over a limit."""
    buf = b''
    while True:
        end = buf.find(b'\r\n\r\n')
        if end >= 0:
            break
        if len(buf) >= MAX_HEAD:
            raise HTTPError(431, 'request head too large')
        chunk = await reader.read(MAX_HEAD + 4 - len(buf))
        if not chunk:
            raise HTTPError(400, 'incomplete request')
        buf += chunk
    if end > MAX_HEAD:
        raise HTTPError(431, 'request head too large')
    rest = buf[end + 4:]
    try:
        lines = buf[:end].decode().split('\r\n')
    except UnicodeError:
        raise HTTPError(400, 'request head is not text')
    parts = lines[0].split(' ')
    if len(parts) != 3 or not parts[2].startswith('HTTP/1.'):
        raise HTTPError(400, 'bad request line')
    method, url, version = parts
    if method not in ('GET', 'POST', 'HEAD', 'OPTIONS'):
        raise HTTPError(501, 'method not supported')
    if not url.startswith('/') or len(url) > MAX_URL:
        raise HTTPError(400, 'bad URL')
    if len(lines) - 1 > MAX_HEADERS:
        raise HTTPError(431, 'too many headers')
    headers = NoCaseDict()
    for line in lines[1:]:
        i = line.find(':')
        if i <= 0:
            raise HTTPError(400, 'bad header')
        name = line[:i].strip()
        if name in headers:
            raise HTTPError(400, 'repeated header %s' % name)
        headers[name] = line[i + 1:].strip()
    if 'Transfer-Encoding' in headers:
        raise HTTPError(501, 'chunked bodies not supported')
    length = 0
    if 'Content-Length' in headers:
        cl = headers['Content-Length']
        if not cl or not cl.isdigit() or len(cl) > 7:
            raise HTTPError(400, 'bad Content-Length')
        length = int(cl)
    streamed = url in STREAMED and method == 'POST'
    if streamed:
        length = len(rest)      # its handler reads the body as it comes (net/update.py)
    elif length > MAX_BODY:
        raise HTTPError(413, 'body over %d bytes' % MAX_BODY)
    while len(rest) < length:
        chunk = await reader.read(length - len(rest))
        if not chunk:
            raise HTTPError(400, 'incomplete body')
        rest += chunk
    try:
        req = Request(app, writer.get_extra_info('peername'), method, url,
                      version.split('/', 1)[1], headers, body=rest[:length],
                      sock=(reader, writer))
    except Exception:     # a query string microdot cannot decode, say
        raise HTTPError(400, 'bad request')
    if streamed:
        req.max_content_length = 1 << 30   # its handler knows the flash's room
    return req


class Server(Microdot):
    """Microdot with every connection bounded (see the top of this file)."""

    def __init__(self):
        super().__init__()
        self.active = 0
        self.served = 0          # requests answered, for the tests and the bench

    async def handle_request(self, reader, writer):
        timed = TimedWriter(writer)
        res = None
        unread = False
        counted = False
        try:
            if self.active >= MAX_CONNECTIONS:
                res = refuse(503, 'busy')
                unread = True
            else:
                self.active += 1
                counted = True
                try:
                    req = await within(read_request(self, reader, writer), READ_MS)
                except HTTPError as e:
                    res = refuse(e.code, e.reason)
                    unread = True
                except asyncio.TimeoutError:
                    res = refuse(408, 'request too slow')
                if res is None:
                    res = await self.dispatch_request(req)
            await res.write(timed)
            if unread:
                await drain(reader)
        except Exception:       # a connection that broke: nothing to answer, nobody to tell
            pass
        finally:
            if counted:
                self.active -= 1
            # An event stream leaves the hub, a page's file is closed (also when the client
            # went away or a write timed out half way).
            close = getattr(getattr(res, 'body', None), 'close', None)
            if close is not None:
                close()
            self.served += 1
            try:
                writer.close()
                await within(writer.wait_closed(), 1000)
            except Exception:
                pass


async def drain(reader, limit=4096, ms=200):
    """Read what the client still sends (a refused body) for a moment before closing, so the
    answer is not lost to a reset."""
    got = 0
    try:
        while got < limit:
            chunk = await within(reader.read(512), ms)
            if not chunk:
                return
            got += len(chunk)
    except Exception:
        pass


def bearer(req):
    """The token of `Authorization: Bearer TOKEN`, or None."""
    h = req.headers.get('Authorization')
    if not h or h[:7].lower() != 'bearer ':      # the scheme's case does not matter (RFC 7235)
        return None
    return h[7:].strip()


DIGITS = '0123456789'
MAX_DEPTH = 16


def _string(s, i):
    """The index after the JSON string that starts at s[i] ('"'), or -1."""
    n = len(s)
    j = i + 1
    while j < n:
        ch = s[j]
        if ch == '"':
            return j + 1
        if ch == '\\':
            e = s[j + 1:j + 2]
            if e == 'u':
                hx = s[j + 2:j + 6]
                if len(hx) != 4:
                    return -1
                for h in hx:
                    if h not in '0123456789abcdefABCDEF':
                        return -1
                j += 6
                continue
            if e == '' or e not in '"\\/bfnrt':
                return -1
            j += 2
            continue
        if ord(ch) < 32:
            return -1
        j += 1
    return -1


def _digits(s, j):
    k = j
    while k < len(s) and s[k] in DIGITS:
        k += 1
    return k


def _scalar(s, i):
    """The index after the number, string or literal at s[i], or -1."""
    c = s[i]
    if c == '"':
        return _string(s, i)
    for word in ('true', 'false', 'null'):
        if s[i:i + len(word)] == word:
            return i + len(word)
    j = i + 1 if c == '-' else i
    if j >= len(s) or s[j] not in DIGITS:
        return -1
    j = j + 1 if s[j] == '0' else _digits(s, j)
    if s[j:j + 1] == '.':
        k = _digits(s, j + 1)
        if k == j + 1:
            return -1
        j = k
    if s[j:j + 1] in ('e', 'E'):
        j += 1
        if s[j:j + 1] in ('+', '-'):
            j += 1
        k = _digits(s, j)
        if k == j:
            return -1
        j = k
    return j


def well_formed(s):
    """True when `s` is one JSON value by the grammar (MicroPython's json.loads also takes
    missing or trailing commas; a phone's body must be JSON, not something like it)."""
    stack = []
    want = 'value'
    i = 0
    n = len(s)
    while True:
        while i < n and s[i] in ' \t\r\n':
            i += 1
        if i == n:
            return want == 'done'
        c = s[i]
        if want == 'value' or want == 'value]':
            if c == ']' and want == 'value]':
                stack.pop()
                i += 1
            elif c == '{' or c == '[':
                if len(stack) >= MAX_DEPTH:
                    return False
                stack.append(c)
                want = 'key}' if c == '{' else 'value]'
                i += 1
                continue
            else:
                i = _scalar(s, i)
                if i < 0:
                    return False
        elif want == 'key' or want == 'key}':
            if c == '}' and want == 'key}':
                stack.pop()
                i += 1
            else:
                if c != '"':
                    return False
                i = _string(s, i)
                if i < 0:
                    return False
                want = ':'
                continue
        elif want == ':':
            if c != ':':
                return False
            i += 1
            want = 'value'
            continue
        elif want == 'next':
            top = stack[-1]
            if c == ',':
                i += 1
                want = 'key' if top == '{' else 'value'
                continue
            if c != ('}' if top == '{' else ']'):
                return False
            stack.pop()
            i += 1
        else:
            return False
        want = 'next' if stack else 'done'


def body_json(req):
    try:
        text = req.body.decode()
        if not well_formed(text):
            raise ValueError()
        d = json.loads(text)
    except (ValueError, UnicodeError):
        raise ValueError('malformed JSON')
    if not isinstance(d, dict):
        raise ValueError('the body is a JSON object')
    return d


def pages():
    """The page module, loaded for one answer and let go of again: the page itself is read
    from its file as it is sent (page.py), and the module is not kept between answers
    either."""
    import sys
    from . import page
    sys.modules.pop(page.__name__, None)
    from .. import net
    if hasattr(net, 'page'):
        delattr(net, 'page')
    return page


HTML = {'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store'}
PAGE_FILE = None    # the page file; None: where page.where() finds it (a test names another)


def html(name, *args):
    """One of page.py's pages, streamed from its file; 500 with the reason without the file."""
    try:
        return Response(getattr(pages(), name)(*args, path=PAGE_FILE), headers=HTML)
    except OSError as e:
        return refuse(500, str(e))


def make_app(remote):
    """The HTTP app. `remote` has `ctl` (the controller, looked up per request: the runner
    builds a new App after a fault), `now()`, `pairing`, `hub`, and optionally `wifi` for the
    access point's setup page."""
    app = Server()

    @app.route('/')
    async def index(req):
        wifi = getattr(remote, 'wifi', None)
        if wifi is not None and wifi.setup_wanted():
            return html('setup_page', wifi)
        return html('page')

    @app.route('/remote')
    async def remote_page(req):
        return html('page')

    @app.route('/api/view')
    async def view(req):
        remote.hub.poll(remote.ctl)
        return Response(remote.hub.text, headers={'Content-Type': 'application/json',
                                                  'Cache-Control': 'no-store'})

    @app.route('/api/events')
    async def events(req):
        remote.hub.poll(remote.ctl)
        return Response(remote.hub.open_stream(),
                        headers={'Content-Type': 'text/event-stream',
                                 'Cache-Control': 'no-cache'})

    @app.route('/api/pair', methods=['POST'])
    async def pair(req):
        try:
            d = body_json(req)
        except ValueError as e:
            return refuse(400, str(e))
        now = remote.now()
        p = remote.pairing
        try:
            if 'pin' not in d:
                if d:
                    return refuse(400, 'pair takes {} or {"pin": "NNNN"}')
                p.request(now)
                return reply(202, {'pin': 'shown on the board'})
            pin = d['pin']
            if len(d) != 1 or not isinstance(pin, str) or len(pin) != 4 or not pin.isdigit():
                return refuse(400, 'pair takes {"pin": "NNNN"}, the 4 digits as a string')
            token = p.confirm(pin, now)
        except Locked:
            return refuse(429, 'too many wrong PINs: wait a minute')
        except WrongPin:
            return refuse(403, 'wrong PIN')
        return reply(200, {'token': token})

    def authorised(req):
        t = bearer(req)
        if t is None:
            return refuse(401, 'pair first: Authorization: Bearer TOKEN')
        if not remote.pairing.paired(t):
            return refuse(403, 'not paired')
        return None

    @app.route('/api/press', methods=['POST'])
    async def press(req):
        no = authorised(req)
        if no is not None:
            return no
        ctl = remote.ctl
        try:
            button, gesture = press_args(body_json(req))
            ctl.press(button, gesture, remote.now())
        except ValueError as e:       # RuleError is a ValueError
            return refuse(400, str(e) or 'refused')
        remote.hub.poll(ctl)
        return reply(200, public(ctl.view))

    @app.route('/api/action', methods=['POST'])
    async def action(req):
        no = authorised(req)
        if no is not None:
            return no
        ctl = remote.ctl
        try:
            a = body_json(req)
            check_action(a)
            ctl.act(a, remote.now())
        except ValueError as e:
            return refuse(400, str(e) or 'refused')
        remote.hub.poll(ctl)
        return reply(200, public(ctl.view))

    @app.route('/api/wifi', methods=['GET'])
    async def wifi_state(req):
        wifi = getattr(remote, 'wifi', None)
        return reply(200, wifi.public() if wifi is not None else {'mode': 'none'})

    @app.route('/wifi', methods=['POST'])
    async def wifi_setup(req):
        wifi = getattr(remote, 'wifi', None)
        if wifi is None or not wifi.setup_wanted():
            return refuse(403, 'the Wi-Fi is set up; change it with make deploy')
        form = req.form
        if form is None:
            return refuse(400, 'send the form')
        try:
            wifi.configure(form.get('ssid'), form.get('password') or '',
                           form.get('hostname') or None)
        except ValueError as e:
            return refuse(400, str(e))
        return html('joining_page', wifi)

    from .update import register    # GET /api/version, POST /api/update (DESIGN section 12)
    register(app, remote, authorised, reply, refuse)

    @app.errorhandler(404)
    async def not_found(req):
        return refuse(404, 'not found')

    @app.errorhandler(405)
    async def not_allowed(req):
        return refuse(405, 'method not allowed')

    @app.errorhandler(500)
    async def crashed(req):
        return refuse(500, 'internal error')

    return app
