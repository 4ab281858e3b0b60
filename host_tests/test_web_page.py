# runs-on: micropython
# The phone page as the browser gets it over HTTP (GET / and GET /remote): byte for byte the
# text of page.html with the game table the core's traits give spliced in at its marker, sent
# from the file in chunks of at most page.CHUNK bytes, the file closed when the answer ends or
# the client goes away. Without the file: 500 with the reason, and the board keeps scoring.
import json
import sys

import net_harness as nh
from scoreboard.net import page as P
from scoreboard.net import web

PAGE_FILE = nh.ROOT + '/firmware/scoreboard/net/page.html'


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def parts():
    """page.html cut at its two markers (each there once, in this order): head, body, script."""
    text = read(PAGE_FILE)
    assert text.count(P.HEAD_END) == 1 and text.count(P.GAMES) == 1
    head, rest = text.split(P.HEAD_END)
    body, script = rest.split(P.GAMES)
    return head, body, script


def expected_page():
    head, body, script = parts()
    games = 'const GAMES=' + json.dumps(P.games()) + ';\n'
    return head + body + games.encode() + script


def joined(chunks):
    return b''.join([c if isinstance(c, bytes) else c.encode() for c in chunks])


def test_the_served_page_is_the_page_with_the_games_spliced_in():
    async def check(h):
        want = expected_page()
        for path in ('/', '/remote'):
            r = await h.get(path)
            assert r.status == 200, (path, r)
            assert r.headers['content-type'] == 'text/html; charset=utf-8'
            assert r.body == want, (path, len(r.body), len(want))
        assert b'/*GAMES*/' not in r.body and b'<!--end of head-->' not in r.body
        assert r.body.startswith(b'<!doctype html>') and r.body.endswith(b'</html>\n')
    nh.run(check, tag='page')


def test_the_page_file_is_next_to_the_module_on_the_host():
    assert P.where() == P.__file__.rsplit('/', 1)[0] + '/page.html'
    assert read(P.where()) == read(PAGE_FILE)


def test_the_file_goes_out_in_bounded_chunks_and_the_game_table_in_one():
    table = P.game_table()
    sizes = []
    for c in P.page():
        if isinstance(c, str):
            assert c == table
        else:
            sizes.append(len(c))
            assert 0 < len(c) <= P.CHUNK, len(c)
    assert sum(sizes) == len(read(PAGE_FILE)) - len(P.HEAD_END) - len(P.GAMES)
    assert len(sizes) >= len(read(PAGE_FILE)) // P.CHUNK
    assert joined(P.page()) == expected_page()


def test_a_marker_across_two_reads_is_still_found():
    d = nh.flash_dir('marks')
    path = d + '/p.html'
    old = P.CHUNK
    try:
        for size in (20, 21, 23, 29, 32, 40):
            P.CHUNK = size
            for lead in range(2 * size + 3):
                text = b'h' * lead + P.HEAD_END + b'b' * (size // 2) + P.GAMES + b's' * 7
                with open(path, 'wb') as f:
                    f.write(text)
                got = list(P.chunks(path, ((P.HEAD_END, P.nothing), (P.GAMES, lambda: 'G'))))
                assert joined(got) == b'h' * lead + b'b' * (size // 2) + b'Gsssssss', (size, lead)
                assert max([len(c) for c in got]) <= size
                head = joined(P.chunks(path, ((P.HEAD_END, None),)))
                assert head == b'h' * lead, (size, lead)
    finally:
        P.CHUNK = old


class Tracked:
    """A file that says whether it was closed."""

    def __init__(self, f, opened):
        self.f = f
        self.closed = False
        opened.append(self)

    def read(self, n):
        return self.f.read(n)

    def close(self):
        self.closed = True
        self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def tracked(opened):
    """page.py, its files tracked: put in sys.modules, where web.pages() takes it from (and
    lets go of it again after one answer)."""
    builtin = open

    def opener(path, mode='r'):
        return Tracked(builtin(path, mode), opened)
    P.open = opener
    sys.modules[P.__name__] = P


def test_the_file_is_closed_when_the_answer_is_closed_half_way():
    opened = []
    tracked(opened)
    try:
        g = P.page()
        assert not opened                      # opened when the answer starts, not before
        next(g)
        assert len(opened) == 1 and not opened[0].closed
        g.close()                              # what the server does when the client left
        assert opened[0].closed
        g = P.setup_page(type('W', (), {'ap_name': 'scoreboard-ab12'})())
        assert b'scoreboard-ab12' in joined(g)
        assert opened[1].closed
        P.page().close()                       # closed before it started: nothing was opened
        assert len(opened) == 2
    finally:
        del P.open


def test_the_file_is_closed_after_every_answer_and_when_the_client_goes_away():
    opened = []

    async def check(h):
        import asyncio
        served = h.runner.server.served
        tracked(opened)
        r = await h.get('/')
        assert r.status == 200 and r.body == expected_page()
        for _ in range(5):                     # asks for the page and goes at once
            tracked(opened)
            _, w = await asyncio.open_connection('127.0.0.1', h.port)
            w.write(b'GET / HTTP/1.1\r\nHost: board\r\n\r\n')
            await w.drain()
            w.close()
        tracked(opened)
        r = await h.raw(b'HEAD / HTTP/1.1\r\nHost: board\r\n\r\n')
        assert r.status == 200 and r.body == b''
        for _ in range(200):
            if h.runner.server.served == served + 7:
                break
            await nh.sleep_ms(10)
        assert h.runner.server.served == served + 7
        # A client gone before the head was written, or a HEAD answer, never starts the
        # body: that file is never opened.
        assert 1 <= len(opened) <= 6 and all(f.closed for f in opened), [
            f.closed for f in opened]
    try:
        nh.run(check, tag='closed')
    finally:
        if hasattr(P, 'open'):
            del P.open


class Gone:
    """A connection whose client sends GET / and goes once the status line, the headers and
    `keep` writes of the body are out: the next write fails with `exc`."""

    def __init__(self, keep, exc):
        self.data = b'GET / HTTP/1.1\r\nHost: board\r\n\r\n'
        self.keep = keep
        self.exc = exc
        self.started = False
        self.body = b''

    async def read(self, n):
        got, self.data = self.data[:n], self.data[n:]
        return got

    def get_extra_info(self, name):
        return ('127.0.0.1', 5000)

    async def awrite(self, data):
        if not self.started:
            self.started = data == b'\r\n'        # the end of the head
        elif self.keep == 0:
            raise self.exc
        else:
            self.keep -= 1
            self.body += data

    def close(self):
        pass

    async def wait_closed(self):
        pass


def test_the_file_is_closed_when_the_client_goes_half_way_through():
    import asyncio

    class Remote:
        pass
    # A reset (microdot closes the body itself) and a write that timed out (the server does).
    for exc in (OSError(104, 'reset'), asyncio.TimeoutError()):
        opened = []
        tracked(opened)
        try:
            app = web.make_app(Remote())
            c = Gone(2, exc)
            asyncio.run(app.handle_request(c, c))
        finally:
            del P.open
        assert len(opened) == 1 and opened[0].closed, (exc, opened)
        assert 0 < len(c.body) <= 2 * P.CHUNK and expected_page().startswith(c.body)


def test_where_next_to_the_module_then_on_the_flash():
    d = nh.flash_dir('where')
    for sub in ('/mod', '/flash', '/lib'):
        nh.os.mkdir(d + sub)
    old = P.__file__, P.ON_FLASH
    try:
        P.ON_FLASH = (d + '/flash/page.html', d + '/lib/page.html')
        P.__file__ = d + '/mod/page.mpy'
        try:
            P.where()
            raise AssertionError('found a page where there is none')
        except OSError as e:
            assert str(e) == 'page file missing: %s/mod/page.html, %s/flash/page.html, ' \
                '%s/lib/page.html' % (d, d, d), str(e)
        for at in ('/lib/page.html', '/flash/page.html', '/mod/page.html'):
            with open(d + at, 'w') as f:
                f.write('x')
            assert P.where() == d + at          # the module's own folder first, then the flash
        P.__file__ = '.frozen/scoreboard/net/page.py'   # frozen: no file next to it
        assert P.where() == d + '/flash/page.html'
        try:
            P.where(d + '/nowhere.html')
            raise AssertionError('a missing page file was found')
        except OSError as e:
            assert str(e) == 'page file missing: %s/nowhere.html' % d
    finally:
        P.__file__, P.ON_FLASH = old


def test_without_the_page_file_a_500_says_why_and_the_board_plays_on():
    missing = '/tmp/sb-no-such-dir/page.html'
    web.PAGE_FILE = missing

    async def check(h):
        for path in ('/', '/remote'):
            r = await h.get(path)
            assert r.status == 500, (path, r)
            assert r.json() == {'error': 'page file missing: ' + missing}, r
        t = await h.pair()
        r = await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, t)     # start
        assert r.status == 200 and r.json()['screen'] == 'play', r
        r = await h.post('/api/action', {'do': 'frame', 'red': 3, 'blue': 0}, t)
        assert r.status == 200 and (r.json()['red'], r.json()['blue']) == (3, 0), r
        passes = h.runner.passes
        await h.tap('RED')
        assert h.runner.passes > passes
        assert (await h.get('/api/view')).json()['pending']['red'] == 1
    try:
        nh.run(check, tag='nopage')
    finally:
        web.PAGE_FILE = None


def test_the_game_table_lets_the_game_modules_it_read_go_again():
    # Building the table reads every game's traits; the modules that were not loaded before
    # (a board loads the one in play) are dropped again, so serving the page keeps no code.
    from scoreboard import core
    from scoreboard.core import KINDS
    core.game_class('knockoff')                 # the game in play
    for kind in KINDS:
        if kind != 'knockoff':
            core.drop('scoreboard.core.' + kind)
    table = P.games()
    assert sorted(table) == sorted(KINDS)
    assert 'scoreboard.core.knockoff' in sys.modules
    for kind in KINDS:
        if kind != 'knockoff':
            assert 'scoreboard.core.' + kind not in sys.modules, kind
            assert not hasattr(core, kind), kind
    assert core.traits('horsecollar').COLLARS    # and they load again when wanted
