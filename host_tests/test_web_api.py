# runs-on: micropython
# The phone remote's HTTP API (DESIGN section 10) from a client on loopback, against the
# firmware's runner on a virtual board: watching, pairing, the seed 000 game played from HTTP,
# refusals that change nothing and say why, two phones and the board's buttons together.
import sys

import net_harness as nh
from scoreboard.net import pairing as P
from scoreboard.net import web

R, B = 'red', 'blue'
VIEW_KEYS = ('screen', 'game', 'red', 'blue', 'pending', 'hammer', 'turn', 'frame', 'end',
             'target', 'winner', 'games', 'legs', 'message', 'names')


def test_anyone_may_watch_the_view_and_the_page():
    async def check(h):
        r = await h.get('/api/view')
        assert r.status == 200 and r.headers['content-type'].startswith('application/json')
        assert r.headers['x-view-format'] == '1'       # the format's version (docs/formats.md)
        v = r.json()
        assert 'v' not in v                             # the body is the view model as it is
        for k in VIEW_KEYS:
            assert k in v, k
        assert v['screen'] == 'setup' and v['game'] == 'knockoff'
        r = await h.get('/')
        assert r.status == 200 and r.headers['content-type'].startswith('text/html')
        assert 'scoreboard.net.page' not in sys.modules     # its texts are let go of again
        page = r.body.decode()
        assert '/api/events' in page and '/api/pair' in page and 'EventSource' in page
        assert 'http://' not in page.replace('http://\' +', '') and 'https://' not in page
        s = await nh.Stream(h).open()
        try:
            assert ' 200 ' in s.status
            first = await s.until(lambda v: True)
            assert first == v
        finally:
            s.close()
    nh.run(check, tag='watch')


def test_the_pin_is_on_the_board_only_never_served():
    async def check(h):
        s = await nh.Stream(h).open()
        try:
            r = await h.post('/api/pair', {})
            assert r.status == 202 and r.json() == {'pin': 'shown on the board'}
            pin = h.ctl.view['pin']
            assert len(pin) == 4 and pin.isdigit()
            assert pin not in (await h.get('/api/view')).body.decode()
            await nh.sleep_ms(50)
            for v in s.views:
                assert 'pin' not in v
        finally:
            s.close()
    nh.run(check, tag='pin')


async def _frame(h, token, red, blue):
    r = await h.post('/api/action', {'do': 'frame', 'red': red, 'blue': blue}, token)
    assert r.status == 200, r
    return r.json()


def test_a_paired_phone_plays_the_seed_000_game():
    async def check(h):
        token = await h.pair()
        assert 'pin' not in h.ctl.view                  # paired: the PIN is off the display
        r = await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, token)
        assert r.status == 200 and r.json()['screen'] == 'play'
        v = r.json()
        assert (v[R], v[B], v['hammer'], v['frame'], v['end']) == (0, 0, B, 1, 1)
        v = await _frame(h, token, 0, 5)      # "Ben 5: a 3 and a 2 beyond Alice's best"
        assert (v[R], v[B], v['hammer'], v['frame'], v['end']) == (0, 5, R, 2, 2)
        v = await _frame(h, token, 4, 0)      # "Alice 4: a hanger"
        assert (v[R], v[B], v['hammer'], v['frame'], v['end']) == (4, 5, B, 3, 1)
        v = await _frame(h, token, 4, 0)
        assert (v[R], v[B], v['hammer'], v['frame']) == (8, 5, B, 4)
        v = await _frame(h, token, 0, 3)      # "three brings him level"
        assert (v[R], v[B], v['hammer'], v['frame']) == (8, 8, R, 5)
        await _frame(h, token, 0, 4)
        v = await _frame(h, token, 6, 0)
        assert (v[R], v[B], v['winner']) == (14, 12, None)
        v = await _frame(h, token, 0, 5)      # no exact landing: blue wins on 17
        assert (v[R], v[B], v['winner'], v['screen']) == (14, 17, B, 'over')
        before = h.ctl.state()
        r = await h.post('/api/action', {'do': 'frame', 'red': 2, 'blue': 0}, token)
        assert r.status == 400 and r.json()['error']     # refused, and says why
        assert h.ctl.state() == before
        r = await h.post('/api/action', {'do': 'undo'}, token)
        v = r.json()
        assert r.status == 200 and (v[R], v[B], v['winner']) == (14, 12, None)
        v = (await h.post('/api/action', {'do': 'redo'}, token)).json()
        assert v['winner'] == B
        r = await h.post('/api/action', {'do': 'redo'}, token)
        assert r.status == 400 and h.ctl.view['winner'] == B
        v = (await h.post('/api/action', {'do': 'bank'}, token)).json()
        assert v['screen'] == 'setup' and v['games'] == {R: 0, B: 1}
        assert (await h.get('/api/view')).json() == v
    nh.run(check, tag='seed000')


def test_acting_needs_a_paired_token():
    async def check(h):
        token = await h.pair()
        before = h.ctl.state()
        ver = h.ctl.view
        for path, body in (('/api/press', {'button': 'OK', 'gesture': 'tap'}),
                           ('/api/action', {'do': 'frame', 'red': 1, 'blue': 0})):
            r = await h.post(path, body)
            assert r.status == 401 and r.json()['error'], r
            r = await h.post(path, body, token='f' * 32)
            assert r.status == 403 and r.json()['error'], r
            r = await h.call('POST', path, body, headers={'Authorization': 'Basic ' + token})
            assert r.status == 401, r
        assert h.ctl.state() == before and h.ctl.view == ver
        r = await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, token)
        assert r.status == 200
    nh.run(check, tag='auth')


def test_pairing_over_http_wrong_pins_lock_and_four_phones():
    async def check(h):
        assert (await h.post('/api/pair', {})).status == 202
        pin = h.ctl.view['pin']
        wrong = '0000' if pin != '0000' else '1111'
        for _ in range(P.MAX_WRONG):
            r = await h.post('/api/pair', {'pin': wrong})
            assert r.status == 403, r
        assert (await h.post('/api/pair', {'pin': pin})).status == 429
        r = await h.post('/api/pair', {})
        assert r.status == 429 and 'minute' in r.json()['error'] or 'seconds' in \
            r.json()['error'], r
        assert h.ctl.view['pin'] == pin     # locked is this address: the PIN stays for others
        h.runner.pairing.clients['127.0.0.1'].lock_at -= P.LOCK_MS       # a minute later
        tokens = []
        for _ in range(P.MAX_PHONES + 1):
            tokens.append(await h.pair())
        body = {'button': 'RED', 'gesture': 'tap'}
        assert (await h.post('/api/press', body, tokens[0])).status == 403   # the oldest went
        for t in tokens[1:]:
            assert (await h.post('/api/press', body, t)).status == 200
        assert (await h.post('/api/pair', {})).status == 202
        for bad in ({'pin': 1234}, {'pin': '12'}, {'pin': 'abcd'}, {'pin': None},
                    {'pin': h.ctl.view['pin'], 'x': 1}, {'token': 'x'}):
            r = await h.post('/api/pair', bad)
            assert r.status == 400 and r.json()['error'], (bad, r)   # malformed, not a guess
        assert '127.0.0.1' not in h.runner.pairing.clients      # no wrong PIN counted
        pin = h.ctl.view['pin']
        r = await h.call('POST', '/api/press', body,
                         headers={'Authorization': 'bearer ' + tokens[-1]})   # any case
        assert r.status == 200, r
        assert (await h.post('/api/pair', {'pin': pin})).status == 200
        h.ctl.on_unpair()                  # what the menu's unpair calls
        for t in tokens:
            assert (await h.post('/api/press', body, t)).status == 403
    nh.run(check, tag='pairhttp')


def test_tokens_survive_a_power_cut_of_the_board():
    box = {}

    async def first(h):
        box['token'] = await h.pair()
        box['flash'] = h.flash

    nh.run(first, tag='cut1')

    async def second(h):
        r = await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, box['token'])
        assert r.status == 200 and r.json()['screen'] == 'play'
    nh.run(second, flash=box['flash'])


def test_gestures_and_the_chord_from_the_phone_are_the_buttons():
    async def check(h):
        t = await h.pair()

        async def press(body):
            r = await h.post('/api/press', body, t)
            assert r.status == 200, (body, r)
            return r.json()
        await press({'button': 'OK', 'gesture': 'tap'})             # start
        v = await press({'button': 'BLUE', 'gesture': 'tap'})
        assert v['pending'] == {R: 0, B: 1}
        await press({'button': 'BLUE', 'gesture': 'tap'})
        v = await press({'button': 'BLUE_MINUS', 'gesture': 'tap'})
        assert v['pending'] == {R: 0, B: 1}
        v = await press({'button': 'OK', 'gesture': 'tap'})         # commit blue 1
        assert v[B] == 1 and v['pending'] == {R: 0, B: 0}
        v = await press({'button': 'OK', 'gesture': 'long'})        # undo
        assert v[B] == 0
        v = await press({'chord': ['RED', 'BLUE']})                 # redo
        assert v[B] == 1
        v = await press({'button': 'OK', 'gesture': 'hold'})        # the menu
        assert v['screen'] == 'menu' and v['menu']['item'] == 'game'
        v = await press({'button': 'OK', 'gesture': 'long'})        # leave it
        assert v['screen'] == 'play'
    nh.run(check, tag='gestures')


def test_names_and_a_new_game_with_options():
    async def check(h):
        t = await h.pair()
        r = await h.post('/api/action', {'do': 'new', 'game': 'knockoff',
                                         'options': {'target': 21},
                                         'names': {'red': 'Alice', 'blue': None}}, t)
        assert r.status == 200, r
        v = r.json()
        assert v['names'] == {R: 'Alice', B: None} and v['target'] == 21
        before = h.ctl.state()
        view = h.ctl.view
        for names in ({'red': 'A' * 13}, {'red': 'tab\there'}, {'red': 5}, {'green': 'x'},
                      {'red': ''}, {'blue': 'bell\x07'}, 'Alice'):
            r = await h.post('/api/action', {'do': 'new', 'game': 'knockoff',
                                             'names': names}, t)
            assert r.status == 400 and r.json()['error'], (names, r)
            assert h.ctl.state() == before and h.ctl.view['names'] == view['names']
        names = {'red': 'Zoë Ängström', 'blue': '12 chars ok!'}
        r = await h.post('/api/action', {'do': 'new', 'game': 'knockoff', 'names': names}, t)
        assert r.status == 200 and r.json()['names'] == {R: 'Zoë Ängström', B: '12 chars ok!'}
    nh.run(check, tag='names')


def test_refusals_change_nothing_and_say_why():
    async def check(h):
        t = await h.pair()
        await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, t)
        await _frame(h, t, 0, 5)
        before = h.ctl.state()
        view = h.ctl.view
        cases = [
            ('/api/action', {'do': 'frame', 'red': 3, 'blue': 2}),       # both sides in knockoff
            ('/api/action', {'do': 'frame', 'red': 17, 'blue': 0}),      # over 16
            ('/api/action', {'do': 'frame', 'red': True, 'blue': 0}),    # a bool is no score
            ('/api/action', {'do': 'frame', 'red': 1.5, 'blue': 0}),
            ('/api/action', {'do': 'redo'}),                             # nothing to redo
            ('/api/action', {'do': 'target', 'value': 0}),
            ('/api/action', {'do': 'target', 'value': 'x'}),
            ('/api/action', {'do': 'bank'}),                             # nothing to bank
            ('/api/action', {'do': 'new', 'game': 'chess'}),
            ('/api/action', {'do': 'new', 'game': 'knockoff', 'options': {'target': 500}}),
            ('/api/action', {'do': 'new', 'game': 'knockoff', 'options': {'colour': 1}}),
            ('/api/action', {'do': 'fly'}),                              # unknown action
            ('/api/action', {'do': 'undo', 'extra': 1}),
            ('/api/action', {}),
            ('/api/press', {'button': 'GREEN', 'gesture': 'tap'}),
            ('/api/press', {'button': 'RED', 'gesture': 'wiggle'}),
            ('/api/press', {'chord': ['RED', 'OK']}),
            ('/api/press', {'chord': 'RED'}),
            ('/api/press', {'button': 'RED', 'gesture': 'tap', 'x': 1}),
        ]
        for path, body in cases:
            r = await h.post(path, body, t)
            assert r.status == 400, (body, r)
            assert r.json()['error'], (body, r)
            assert h.ctl.state() == before, body
        v = h.ctl.view
        for k in view:
            if k != 'message':
                assert v[k] == view[k], k
    nh.run(check, tag='refuse')


def test_a_press_that_commits_a_refused_entry_answers_400_with_the_rule():
    # RED, BLUE, OK from the phone: the board refuses the frame as its own OK would (the
    # message, the pending points kept for a correction); the answer says why with 400.
    async def check(h):
        t = await h.pair()
        await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, t)
        for b in ('RED', 'BLUE'):
            r = await h.post('/api/press', {'button': b, 'gesture': 'tap'}, t)
            assert r.status == 200, r
        before = h.ctl.state()
        r = await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, t)
        assert r.status == 400 and r.json()['error'] == 'only one side scores', r
        assert h.ctl.state() == before
        v = (await h.get('/api/view')).json()
        assert v['pending'] == {R: 1, B: 1} and v['message'] == 'only one side scores', v
        r = await h.post('/api/press', {'button': 'BLUE_MINUS', 'gesture': 'tap'}, t)
        assert r.status == 200, r
        r = await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, t)
        assert r.status == 200 and r.json()['red'] == 1, r       # corrected, then committed
    nh.run(check, tag='refpress')


def test_two_phones_and_the_buttons_stay_consistent():
    async def check(h):
        a = await h.pair()
        b = await h.pair()
        sa = await nh.Stream(h).open()
        sb = await nh.Stream(h).open()
        try:
            await h.tap('OK')                                        # the board's own button
            await sa.until(lambda v: v['screen'] == 'play')
            for _ in range(3):
                assert (await h.post('/api/press', {'button': 'RED', 'gesture': 'tap'},
                                     a)).status == 200
                await h.tap('RED')
                assert (await h.post('/api/press', {'button': 'RED', 'gesture': 'tap'},
                                     b)).status == 200
            want = lambda v: v['pending'][R] == 9                   # noqa: E731
            va = await sa.until(want)
            vb = await sb.until(want)
            await h.tap('OK')                                        # commit red 9 on the board
            r = await h.post('/api/action', {'do': 'frame', 'red': 0, 'blue': 2}, b)
            assert r.status == 200
            done = lambda v: v[R] == 9 and v[B] == 2                 # noqa: E731
            va = await sa.until(done)
            vb = await sb.until(done)
            same = lambda v: v == web.public(h.ctl.view)           # noqa: E731
            await sa.until(same)
            await sb.until(same)
            now = (await h.get('/api/view')).json()
            assert sa.views[-1] == sb.views[-1] == now == web.public(h.ctl.view)
            assert va[R] == vb[R] == 9
        finally:
            sa.close()
            sb.close()
    nh.run(check, tag='two')


def test_streams_send_a_comment_as_keep_alive_and_a_watcher_never_ends_a_phones_stream():
    async def check(h):
        streams = []
        try:
            for _ in range(web.MAX_STREAMS):
                streams.append(await nh.Stream(h).open())
            await streams[0].until(lambda v: True)
            for s in streams:
                await s.until(lambda v: True)
            h.runner.hub.beat()                  # what the 15 s timer does
            for s in streams:
                await s.count(lambda s: s.comments >= 1)
                assert s.comments == 1
            # A seventh watcher is refused; every stream open stays open.
            extra = await nh.Stream(h).open()
            streams.append(extra)
            assert ' 503 ' in extra.status, extra.status
            await nh.sleep_ms(100)
            assert not any(s.task.done() for s in streams[:web.MAX_STREAMS])
            # A paired phone opens its stream with its token: the oldest watcher's makes room.
            token = await h.pair()
            bad = await nh.Stream(h, '/api/events?token=' + 'f' * 32).open()
            streams.append(bad)
            assert ' 403 ' in bad.status, bad.status
            phones = []
            for _ in range(web.MAX_STREAMS):
                p = await nh.Stream(h, '/api/events?token=' + token).open()
                streams.append(p)
                phones.append(p)
                assert ' 200 ' in p.status, p.status
                await p.until(lambda v: True)
            for s in streams[:web.MAX_STREAMS]:
                await s.count(lambda s: s.task.done())       # the watchers', ended
            # Now every stream is a phone's: watchers get 503 and end none of them.
            for _ in range(3):
                w = await nh.Stream(h).open()
                streams.append(w)
                assert ' 503 ' in w.status, w.status
            await nh.sleep_ms(100)
            assert not any(p.task.done() for p in phones)
            assert len(h.runner.hub.streams) == web.MAX_STREAMS
            await h.tap('RED')                   # and each phone hears the board
            for p in phones:
                await p.until(lambda v: v['hammer'] == 'red')   # RED chose the hammer
        finally:
            for s in streams:
                s.close()
    nh.run(check, tag='streams')
