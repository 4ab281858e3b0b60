# runs-on: micropython
# The Wi-Fi task (scoreboard.net.wifi) on the stand-in network: the access point and its page
# when net.json has no ssid, the join with net.json, a dropped link and the reconnect with a
# growing pause, a wrong password, and never the password in a log, a page or the API. The
# scoring loop keeps its passes throughout.
import json

import net_harness as nh
import network
from scoreboard.net import wifi as W

GAP_MS = 400
PASSWORD = 'hunter2-secret'


class Quick:
    """The Wi-Fi timings shortened for a test, put back afterwards."""

    def __enter__(self):
        self.old = (W.BACKOFF_MS, W.BACKOFF_MAX_MS, W.WATCH_MS, W.POLL_MS, W.JOIN_MS)
        W.BACKOFF_MS, W.BACKOFF_MAX_MS, W.WATCH_MS, W.POLL_MS, W.JOIN_MS = 40, 320, 20, 10, 200
        return self

    def __exit__(self, *exc):
        W.BACKOFF_MS, W.BACKOFF_MAX_MS, W.WATCH_MS, W.POLL_MS, W.JOIN_MS = self.old


async def until(pred, ms=10000):
    await nh.until(pred, ms)


def no_secret(h, *texts):
    for line in h.logs:
        assert PASSWORD not in line, line
    for t in texts:
        assert PASSWORD not in t


def test_without_an_ssid_the_board_opens_its_access_point_and_asks():
    async def check(h):
        w = h.runner.wifi
        await until(lambda: w.mode == 'ap')
        assert w.ap_name.startswith('scoreboard-') and len(w.ap_name) == len('scoreboard-XXXX')
        ap = network.WLAN(network.AP_IF)
        assert ap.active() and ap.config('essid') == w.ap_name
        page = (await h.get('/')).body.decode()
        assert '<form' in page and 'name="ssid"' in page and w.ap_name in page
        assert (await h.get('/remote')).status == 200
        form = {'Content-Type': 'application/x-www-form-urlencoded'}
        body = ('ssid=The+Bar&password=%s&hostname=Table-3' % PASSWORD).encode()
        r = await h.call('POST', '/wifi', body, headers=form)
        assert r.status == 415 and w.ssid is None     # only JSON: no other page can post it
        r = await h.post('/wifi', {'ssid': 'bar', 'password': 'short'})
        assert r.status == 400 and w.ssid is None
        assert r.json()['error'].startswith('The password') and r.json()['error'][-1] == '.'
        body = {'ssid': 'The Bar', 'password': PASSWORD, 'hostname': 'Table-3'}
        r = await h.post('/wifi', body)
        assert r.status == 200 and r.json()['joining'] == 'The Bar'
        with open(h.flash + '/net.json') as f:
            saved = json.loads(f.read())
        assert saved == {'ssid': 'The Bar', 'password': PASSWORD, 'hostname': 'table-3'}
        await until(lambda: w.state == 'up')
        assert network.attempts[-1][1] == 'The Bar' and network.hostname() == 'table-3'
        assert not ap.active()                   # joined: the access point has done its job
        page = (await h.get('/')).body.decode()
        assert 'EventSource' in page             # now the remote itself
        r = await h.post('/wifi', body)
        assert r.status == 403
        state = (await h.get('/api/wifi')).json()
        assert state['mode'] == 'station' and state['ssid'] == 'The Bar'
        no_secret(h, json.dumps(state), page)
        assert h.runner.passes > 20
    with Quick():
        nh.run(check, tag='ap', wifi=True)


def test_net_json_joins_and_a_dropped_link_comes_back_with_backoff():
    settings = {'ssid': 'bar', 'password': PASSWORD, 'hostname': 'lane1'}

    async def check(h):
        w = h.runner.wifi
        await until(lambda: w.state == 'up')
        assert w.joins == 1 and len(network.attempts) == 1 and network.hostname() == 'lane1'
        h.runner.worst_gap = 0
        network.drop()
        await until(lambda: len(network.attempts) >= 5)
        assert w.state in ('down', 'joining')
        times = [t for t, _ in network.attempts[1:5]]
        gaps = [times[i + 1] - times[i] for i in range(3)]
        assert gaps[0] >= W.BACKOFF_MS - 5 and gaps[2] > gaps[0] * 2 - 20, gaps   # it grows
        await h.tap('OK')                        # the buttons play on, the Wi-Fi down
        assert h.ctl.view['screen'] == 'play'
        assert (await h.get('/api/view')).status == 200
        network.restore()
        await until(lambda: w.state == 'up')
        assert w.joins == 2 and w.backoff == W.BACKOFF_MS
        assert h.runner.worst_gap < GAP_MS, h.runner.worst_gap
        no_secret(h)
    with Quick():
        nh.run(check, tag='drop', wifi=True, settings=settings)


def test_a_wrong_password_keeps_trying_never_up_never_logged():
    settings = {'ssid': 'bar', 'password': PASSWORD}

    async def check(h):
        w = h.runner.wifi
        await until(lambda: len(network.attempts) >= 4)
        assert w.state != 'up' and w.joins == 0
        assert w.backoff > W.BACKOFF_MS
        await h.tap('OK')
        assert h.ctl.view['screen'] == 'play'
        no_secret(h, (await h.get('/api/wifi')).body.decode())
    with Quick():
        network.reset()
        h = nh.Harness(tag='wrong', wifi=True, settings=settings)
        network.air({'bar': 'the-right-one'})
        nh.run_on(h, check)


def test_settings_are_checked_and_saved_whole():
    root = nh.flash_dir('settings')
    for ssid, pw, host in (('', 'longenough', None), ('x' * 33, '', None),
                           ('bar', 'short', None), ('bar', 'x' * 64, None),
                           ('bar', '', 'no spaces'), ('bar', '', 'x' * 33), ('ba\nr', '', None)):
        try:
            W.check(ssid, pw, host)
            raise AssertionError('accepted %r' % ((ssid, pw, host),))
        except ValueError:
            pass
    W.check('bar', '', None)                    # an open network
    W.save_settings(root, {'ssid': 'bar', 'mqtt': {'host': 'h'}})
    assert W.load_settings(root) == {'ssid': 'bar', 'mqtt': {'host': 'h'}}
    w = W.Wifi(network, root, log=lambda t: None)
    w.configure('pub', 'password1', None)       # keeps what else net.json holds
    assert W.load_settings(root) == {'ssid': 'pub', 'password': 'password1',
                                     'mqtt': {'host': 'h'}}
    with open(root + '/net.json', 'w') as f:
        f.write('{"ssid": "half')
    assert W.load_settings(root) is None        # unreadable: as if there were none


def test_without_settings_the_game_plays_as_on_a_board_without_wifi():
    import app_probe
    script = ('tap OK', 'tap RED', 'tap RED', 'tap OK', 'tap BLUE')
    sim = app_probe.play(app_probe.new_sim('wlan_bare', tag='nowifi'), script)
    want = sim.app.ctl.view

    async def check(h):
        for line in script:
            await h.tap(line.split()[1])
        got = h.ctl.view
        for k in want:
            assert got[k] == want[k], (k, got[k], want[k])
    nh.run(check, tag='same', wifi=True)
