# The phone remote's HTTP API (DESIGN section 10) on microdot. Every request is bounded before
# microdot sees it: the head at most MAX_HEAD bytes in MAX_HEADERS lines, CRLF only (400), the
# body at most MAX_BODY (413 without reading it), a POST only as application/json (415), the
# whole request within READ_MS of its first byte (408), every write within WRITE_MS, at most
# MAX_CONNECTIONS at once (the oldest still sending its request makes room, else 503) and
# MAX_STREAMS event streams (a watcher over it gets 503; a paired phone's stream, opened with
# ?token=, ends the oldest watcher's). A refused request's connection is closed after its
# answer, nothing more read; bodies are JSON by RFC 8259 (net/strict.py). Handlers are
# coroutines: they run between two passes of the scoring loop, never beside it (microdot would
# put a plain function on a thread under CPython).
import asyncio
import json

from microdot import Microdot, Request, Response
from microdot.microdot import NoCaseDict

from ..catalogue import BUTTONS, GESTURES, VIEW_FORMAT, pin_ok
from .. import names
from . import strict
from .pairing import Locked, WrongPin

MAX_HEAD = 2048
MAX_HEADERS = 24
MAX_URL = 256
MAX_BODY = 1024
READ_MS = 4000          # a connection's first byte; then the whole request from it
WRITE_MS = 5000
MAX_CONNECTIONS = 10
MAX_STREAMS = 6
KEEPALIVE_MS = 15000
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
           413: 'Payload Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests',
           431: 'Header Fields Too Large',
           500: 'Internal Server Error', 501: 'Not Implemented', 503: 'Service Unavailable'}

STREAMED = ('/api/update',)  # routes whose handler streams its own body (net/update.py)

Request.max_content_length = MAX_BODY
Request.max_body_length = MAX_BODY

GRACE_MS = 50      # a refused request's answer, then this long, then the close

try:
    from asyncio import sleep_ms
except ImportError:  # CPython
    def sleep_ms(ms):  # type: ignore[misc,no-redef]
        return asyncio.sleep(ms / 1000)

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
    """None or a name by the rule of scoreboard/names.py; else ValueError with the reason."""
    why = names.why(name)
    if why is not None:
        raise ValueError(why)


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
            self.wake()

    def beat(self):
        self.beats += 1
        self.wake()

    def wake(self):
        """Every open stream sends what it has not sent yet (a bench times it here)."""
        for s in self.streams:
            s.ev.set()

    def open_stream(self, paired=False):
        """A new event stream, or None when MAX_STREAMS are open and none may make room: an
        unpaired watcher never ends another's stream; a paired phone's ends the oldest
        unpaired one (else the oldest paired one: a reloaded page of a phone, mostly)."""
        if len(self.streams) >= MAX_STREAMS:
            if not paired:
                return None
            gone = None
            for s in self.streams:
                if not s.paired:
                    gone = s
                    break
            (gone or self.streams[0]).close()
        s = EventStream(self)
        s.paired = paired
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
        self.paired = False

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


def _bare(head):
    """True when the head has a CR or LF that is not part of a CRLF pair (a head that ends in
    CR is waiting for its LF)."""
    n = head.count(b'\r\n')
    cr = head.count(b'\r') - (1 if head.endswith(b'\r') else 0)
    return head.count(b'\n') != n or cr != n


def json_type(headers, want='application/json'):
    ct = headers.get('Content-Type')
    return ct is not None and ct.split(';', 1)[0].strip().lower() == want


async def read_request(app, reader, writer, buf):
    """The request whose first bytes are `buf`, bounded: HTTPError for anything out of shape
    or over a limit, found as soon as the bytes that show it arrive."""
    while True:
        end = buf.find(b'\r\n\r\n')
        if _bare(buf if end < 0 else buf[:end + 4]):
            raise HTTPError(400, 'a bare CR or LF in the request head')
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
    if not strict.utf8_ok(buf[:end]):
        raise HTTPError(400, 'request head is not text')
    lines = buf[:end].decode().split('\r\n')
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
    if streamed and not json_type(headers, 'application/octet-stream'):
        # An update's body is the package itself: application/octet-stream, which no other
        # web page may send from a visitor's browser without the board's consent either.
        raise HTTPError(415, 'send Content-Type: application/octet-stream')
    if method == 'POST' and not streamed and not json_type(headers):
        # A form or text/plain post is what any web page may make a visitor's browser send;
        # application/json it cannot without the board's consent (CORS): DESIGN section 10.
        raise HTTPError(415, 'send Content-Type: application/json')
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
        self.reading = []        # tasks of connections still sending their request, oldest first
        self.served = 0          # requests answered, for the tests and the bench

    async def handle_request(self, reader, writer):
        timed = TimedWriter(writer)
        res = None
        counted = False
        try:
            room = self.active < MAX_CONNECTIONS
            if not room and self.reading:
                # The oldest connection still sending its request makes room (a phone's
                # request arrives at once; one that trickles is the one to go).
                self.reading.pop(0).cancel()
                room = True
            if not room:
                res = refuse(503, 'busy')
                res.refused = True
            else:
                self.active += 1
                counted = True
                res = await self._answer(reader, writer)
            if res is not None:
                await res.write(timed)
                if getattr(res, 'refused', False):
                    # Nothing more is read from a refused request; a moment (not more, whatever
                    # the client does) lets the answer leave before the close, which resets a
                    # connection with unread bytes.
                    await sleep_ms(GRACE_MS)
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
            # Refused or answered, the connection ends here: nothing more is read from it.
            try:
                writer.close()
                await within(writer.wait_closed(), 1000)
            except Exception:
                pass

    async def _answer(self, reader, writer):
        """The answer to the connection's request; None when the client closed it unasked. The
        first bytes may take READ_MS (a browser opens a connection before it needs one); from
        the first byte the whole request must arrive within READ_MS, whatever its pace."""
        task = asyncio.current_task()
        self.reading.append(task)
        try:
            try:
                first = await within(reader.read(MAX_HEAD + 4), READ_MS)
                if not first:
                    return None
                req = await within(read_request(self, reader, writer, first), READ_MS)
            except HTTPError as e:
                res = refuse(e.code, e.reason)
            except asyncio.TimeoutError:
                res = refuse(408, 'request too slow')
            else:
                res = None
            if res is not None:
                res.refused = True
                return res
        finally:
            if task in self.reading:
                self.reading.remove(task)
        return await self.dispatch_request(req)


def client(req):
    """The client's address (its IP, without the port): wrong PINs are counted per address."""
    a = req.client_addr
    if isinstance(a, (tuple, list)) and a:
        return str(a[0])                 # (host, port): CPython, and lwIP on the boards
    if isinstance(a, (bytes, bytearray)) and len(a) >= 8:
        # The unix port's raw sockaddr (Linux: the family in host order, then the port)
        fam = a[0] | a[1] << 8
        if fam == 2:
            return '%d.%d.%d.%d' % (a[4], a[5], a[6], a[7])
        if fam == 10 and len(a) >= 24:
            return ':'.join(['%02x%02x' % (a[i], a[i + 1]) for i in range(8, 24, 2)])
    return str(a)


def locked(ms):
    """429 for a pairing refused: this address locked for `ms`, or pairing closed (None)."""
    if ms is None:
        return reply(429, {'error': 'Pairing is closed after too many wrong PINs. Open it '
                                    'on the board: menu, pair.'})
    s = (ms + 999) // 1000
    if s <= 90:
        wait = '%d seconds' % s
    elif s <= 90 * 60:
        wait = '%d minutes' % ((s + 59) // 60)
    else:
        wait = '%d hours' % ((s + 3599) // 3600)
    return reply(429, {'error': 'Too many wrong PINs from this phone. Try again in %s, or '
                                'open pairing on the board: menu, pair.' % wait},
                 {'Retry-After': str(s)})


def bearer(req):
    """The token of `Authorization: Bearer TOKEN`, or None."""
    h = req.headers.get('Authorization')
    if not h or h[:7].lower() != 'bearer ':      # the scheme's case does not matter (RFC 7235)
        return None
    return h[7:].strip()


def body_json(req):
    """The body as a JSON object, strictly (net/strict.py); ValueError with the reason."""
    try:
        d = strict.loads(req.body)
    except strict.BadJSON as e:
        raise ValueError(str(e))
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
        # The view's format version rides in a header (docs/formats.md): the body is the view
        # model exactly as DESIGN section 4 names its keys.
        return Response(remote.hub.text, headers={'Content-Type': 'application/json',
                                                  'Cache-Control': 'no-store',
                                                  'X-View-Format': VIEW_FORMAT})

    @app.route('/api/options')
    async def options(req):
        # What the page's new-game form starts from: the game in play (else the one chosen)
        # with its options as they are, the setup's hammer or first choice included.
        ctl = remote.ctl
        g = ctl.game
        if g is not None:
            kind, opts = g.KIND, dict(g.options)
        else:
            from ..catalogue import turns
            kind = ctl.kind
            opts = ctl.opts(kind)
            opts['first' if turns(kind) else 'hammer'] = ctl.choice
        return reply(200, {'game': kind, 'options': opts})

    @app.route('/api/events')
    async def events(req):
        # A paired phone opens its stream as /api/events?token=TOKEN (a browser's EventSource
        # sends no headers): its stream is never ended for a watcher's.
        token = req.args.get('token') if req.args else None
        paired = False
        if token is not None:
            if not remote.pairing.paired(token):
                return refuse(403, 'not paired')
            paired = True
        remote.hub.poll(remote.ctl)
        stream = remote.hub.open_stream(paired)
        if stream is None:
            return refuse(503, 'too many watchers')
        return Response(stream, headers={'Content-Type': 'text/event-stream',
                                         'Cache-Control': 'no-cache'})

    @app.route('/api/pair', methods=['POST'])
    async def pair(req):
        try:
            d = body_json(req)
        except ValueError as e:
            return refuse(400, str(e))
        now = remote.now()
        p = remote.pairing
        who = client(req)
        try:
            if 'pin' not in d:
                if d:
                    return refuse(400, 'Ask for a PIN with an empty request.')
                p.request(now, who)
                return reply(202, {'pin': 'shown on the board'})
            pin = d['pin']
            if len(d) != 1 or not pin_ok(pin):
                return refuse(400, 'The PIN is the 4 digits the board shows.')
            token = p.confirm(pin, now, who)
        except Locked as e:
            return locked(e.ms)
        except WrongPin:
            return refuse(403, 'That is not the PIN the board shows.')
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
        try:
            d = body_json(req)
            for k in d:
                if k not in ('ssid', 'password', 'hostname'):
                    raise ValueError('the Wi-Fi takes ssid, password and hostname')
            wifi.configure(d.get('ssid'), d.get('password') or '', d.get('hostname') or None)
        except ValueError as e:
            return refuse(400, str(e))
        return reply(200, {'joining': wifi.ssid, 'hostname': wifi.hostname})

    # GET /api/version, POST /api/update (DESIGN section 12): the routes here, their work in
    # update.py, loaded at the first request (at boot only to end a version's trial)
    root = getattr(remote, 'root', '')
    from .. import trial as trials
    trial = trials.current
    if trial is not None and trial.on and hasattr(remote, 'now'):
        from .update import end_trial
        end_trial(trial, remote.now)

    @app.route('/api/version')
    async def version(req):
        from .update import version_state
        return reply(200, version_state(root))

    @app.route(STREAMED[0], methods=['POST'])
    async def update(req):
        from .update import post
        return await post(req, root, authorised, reply, refuse)

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
