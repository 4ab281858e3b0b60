# The network tests' board: the firmware's Runner (scoring task, HTTP server, Wi-Fi task) on a
# virtual board, with real sockets on loopback and the stand-in `network`, on either
# interpreter, plus a small HTTP client written on the same asyncio streams. Each test is a
# coroutine `async def check(h)` given to run(); it ends with the runner stopped.
import json
import os
import time

import paths

HERE = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
ROOT = HERE + '/..'
paths.net()
paths.ahead(paths.FIXTURES)

import asyncio  # noqa: E402

import machine  # noqa: E402  (the stand-in)
import network  # noqa: E402  (the stand-in)
import net_sim  # noqa: E402

if hasattr(asyncio, 'sleep_ms'):
    sleep_ms = asyncio.sleep_ms
else:
    def sleep_ms(ms):
        return asyncio.sleep(ms / 1000)


def within(aw, ms):
    if hasattr(asyncio, 'wait_for_ms'):
        return asyncio.wait_for_ms(aw, ms)
    return asyncio.wait_for(aw, ms / 1000)


if hasattr(time, 'ticks_ms'):
    def now_ms():
        return time.ticks_ms()

    def since_ms(t0):
        return time.ticks_diff(time.ticks_ms(), t0)
else:
    def now_ms():
        return int(time.monotonic() * 1000)

    def since_ms(t0):
        return now_ms() - t0


async def until(pred, ms=10000, what='never happened'):
    """Wait for pred() to hold: at once on an idle machine, up to `ms` on a loaded one."""
    t0 = now_ms()
    while not pred():
        if since_ms(t0) > ms:
            raise AssertionError(what() if callable(what) else what)
        await sleep_ms(10)


def _ephemeral_low():
    try:
        with open('/proc/sys/net/ipv4/ip_local_port_range') as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port():
    """A loopback port for a test server, below the kernel's ephemeral range, and free now.
    A port of that range may be the local end of some client's socket, of this process or
    another on a busy machine: one that closed first keeps it a minute in TIME_WAIT, which a
    server cannot bind over (it retries every SERVER_RETRY_MS and never comes up), and a
    client dialling such a port before anything listens can connect to itself."""
    import socket
    top = min(_ephemeral_low(), 50000)
    span = top - 20000 if top - 20000 >= 1000 else 30000
    for _ in range(200):
        b = os.urandom(2)
        port = 20000 + ((b[0] << 8 | b[1]) % span)
        s = socket.socket()
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as the server's
            s.bind(socket.getaddrinfo('127.0.0.1', port)[0][-1])
            return port
        except OSError:
            pass              # another server has it, or a client socket's TIME_WAIT
        finally:
            s.close()
    raise AssertionError('no free loopback port')


def flash_dir(tag):
    d = '/tmp/sb-net-%s-%s' % (''.join(['%02x' % x for x in os.urandom(4)]), tag)
    os.mkdir(d)
    return d


def write_json(path, d):
    with open(path, 'w') as f:
        f.write(json.dumps(d))


class Reply:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body.decode())

    def __repr__(self):
        return '<%d %s>' % (self.status, self.body[:120])


class Harness:
    def __init__(self, board='wlan_bare', tag='t', wifi=False, flash=None, settings=None):
        self.flash = flash or flash_dir(tag)
        if settings is not None:
            write_json(self.flash + '/net.json', settings)
        self.port = free_port()
        self.logs = []
        network.reset()
        self.runner = net_sim.SimRunner(__import__(board), self.flash,
                                        network=network if wifi else None,
                                        host='127.0.0.1', port=self.port, log=self.logs.append)

    @property
    def ctl(self):
        return self.runner.app.ctl

    # --- HTTP -----------------------------------------------------------------------------

    async def raw(self, data, read=True, ms=3000):
        """Send bytes as they are; the whole answer (until the server closes)."""
        r, w = await asyncio.open_connection('127.0.0.1', self.port)
        try:
            w.write(data)
            await w.drain()
            if not read:
                return None
            got = b''
            while True:
                try:
                    chunk = await within(r.read(2048), ms)
                except OSError:      # reset after the answer: a refused request's close
                    if got:
                        break
                    raise
                if not chunk:
                    break
                got += chunk
            return parse(got)
        finally:
            w.close()

    async def call(self, method, path, body=None, token=None, headers=None):
        head = '%s %s HTTP/1.1\r\nHost: board\r\n' % (method, path)
        data = b''
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            if 'Content-Type' not in (headers or {}):
                head += 'Content-Type: application/json\r\n'
            head += 'Content-Length: %d\r\n' % len(data)
        if token is not None:
            head += 'Authorization: Bearer %s\r\n' % token
        for k in headers or {}:
            head += '%s: %s\r\n' % (k, headers[k])
        return await self.raw(head.encode() + b'\r\n' + data)

    async def get(self, path):
        return await self.call('GET', path)

    async def post(self, path, body, token=None):
        return await self.call('POST', path, body, token)

    async def pair(self):
        """Pair a phone as a person would: ask, read the PIN off the board's view, send it."""
        r = await self.post('/api/pair', {})
        assert r.status == 202, r
        pin = self.ctl.view['pin']
        r = await self.post('/api/pair', {'pin': pin})
        assert r.status == 200, r
        return r.json()['token']

    async def wait_up(self, ms=20000):
        """Until the server answers: at once on an idle machine, up to `ms` on a loaded one."""
        t0 = now_ms()
        last = None
        while True:
            try:
                r = await self.get('/api/view')
                if r.status == 200:
                    return
                last = r
            except OSError as e:
                last = e
            if since_ms(t0) > ms:
                raise AssertionError('the server never answered: %r; log %r'
                                     % (last, self.logs[-5:]))
            await sleep_ms(20)

    # --- the board's buttons, in real time ------------------------------------------------

    async def tap(self, button, ms=80):
        """Press for `ms` and release, then a gap; each side lasts at least that many scoring
        passes too, so a loaded machine that starves the loop cannot make the press vanish."""
        pin = self.runner.board.BUTTONS[button]
        machine.drive(pin, 0)
        await self.passes(ms)
        machine.drive(pin, None)
        await self.passes(120)

    async def passes(self, ms):
        start = self.runner.passes
        await sleep_ms(ms)
        while self.runner.passes - start < ms // 5:
            await sleep_ms(5)


class Stream:
    """An /api/events client: collects the views it is sent, and the comments."""

    def __init__(self, h, path='/api/events'):
        self.h = h
        self.path = path
        self.views = []
        self.comments = 0
        self.task = None
        self.w = None

    async def open(self):
        r, w = await asyncio.open_connection('127.0.0.1', self.h.port)
        self.w = w
        w.write(b'GET ' + self.path.encode() +
                b' HTTP/1.1\r\nHost: board\r\nAccept: text/event-stream\r\n\r\n')
        await w.drain()
        self.status = (await r.readline()).decode()
        while (await r.readline()).strip():
            pass
        self.task = asyncio.create_task(self._read(r))
        return self

    async def _read(self, r):
        while True:
            line = await r.readline()
            if not line:
                return
            line = line.decode().strip()
            if line.startswith('data: '):
                self.views.append(json.loads(line[6:]))
            elif line.startswith(':'):
                self.comments += 1

    async def count(self, pred, ms=2000):
        """Wait until pred(self) holds."""
        for _ in range(ms // 5):
            if pred(self):
                return
            await sleep_ms(5)
        raise AssertionError('never: views %d, comments %d' % (len(self.views), self.comments))

    async def until(self, pred, ms=2000):
        for _ in range(ms // 5):
            if self.views and pred(self.views[-1]):
                return self.views[-1]
            await sleep_ms(5)
        raise AssertionError('no such view; last: %r' % (self.views[-1:],))

    def close(self):
        if self.task is not None:
            self.task.cancel()
        if self.w is not None:
            self.w.close()


def parse(data):
    head, _, body = data.partition(b'\r\n\r\n')
    lines = head.decode().split('\r\n')
    status = int(lines[0].split(' ')[1]) if lines and ' ' in lines[0] else 0
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(':')
        headers[k.strip().lower()] = v.strip()
    return Reply(status, headers, body)


def run(check, **kw):
    """Boot a board with its network part, run `await check(h)`, stop everything."""
    return run_on(Harness(**kw), check)


def run_on(h, check):
    """The same with a Harness a test has prepared (a service added, the air set)."""
    async def main():
        h.runner.start()
        try:
            await h.wait_up()
            await check(h)
        finally:
            h.runner.stop()
            await sleep_ms(20)
    asyncio.run(main())
    return h
