# The phone remote and the venue together, as a person runs them: `tools/sim.py --board NAME
# --http HOST:PORT --headless --flash DIR` on the real Wi-Fi boards of boards/ (the firmware's
# network runner under the MicroPython unix port). A phone pairs with the PIN the simulator prints
# and plays seed 000's worked game over HTTP; with `mqtt` settings in the virtual flash's net.json
# the runner starts the venue link, and the venue service (tools/venue) on a real mosquitto stores
# each banked game once, counts it on /api/leaderboard with its names, and keeps `state` retained
# and current.
import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from sim_proc import SimProc, free_port, write_net

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, 'tools', 'sim.py')

# Seed 000's worked game, frame by frame (core_scenarios.py): Ben (blue) wins 17 to 14.
SEED_000 = [(0, 5), (4, 0), (4, 0), (0, 3), (0, 4), (6, 0), (0, 5)]


class Board(SimProc):
    """One `tools/sim.py --http --headless` board; its JSON view lines as they come."""
    VIEW_S = 20
    HTTP_TRIES = 200
    HTTP_S = 10
    STOP_S = 10

    def __init__(self, board, flash):
        super().__init__(SIM, board, flash)

    def act(self, action):
        status, v = self.http('POST', '/api/action', action)
        assert status == 200, (action, v)
        return v

    def play(self, frames, names):
        """A new knock-off game with these names, started with OK, its frames entered, banked."""
        v = self.act({'do': 'new', 'game': 'knockoff', 'options': {}, 'names': names})
        assert v['screen'] == 'setup' and v['names'] == names
        status, v = self.http('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'})
        assert status == 200 and v['screen'] == 'play', v
        for red, blue in frames:
            v = self.act({'do': 'frame', 'red': red, 'blue': blue})
        assert v['screen'] == 'over', v
        return self.act({'do': 'bank'})


@pytest.mark.parametrize('board', ['pico_w_tm1637', 'pico_w_ws2812_digits',
                                   'esp32_ws2812_digits'])
def test_a_paired_phone_plays_seed_000_on_a_real_wifi_board(tmp_path, board):
    flash = str(tmp_path / 'flash')
    write_net(flash)
    b = Board(board, flash)
    try:
        b.pair()
        status, v = b.http('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'})
        assert status == 200 and v['screen'] == 'play'
        for red, blue in SEED_000:
            v = b.act({'do': 'frame', 'red': red, 'blue': blue})
        assert (v['red'], v['blue'], v['winner'], v['screen']) == (14, 17, 'blue', 'over')
        assert b.view(lambda v: v['winner'] == 'blue')['blue'] == 17   # the board's own view
        v = b.act({'do': 'bank'})
        assert v['games'] == {'red': 0, 'blue': 1}
        # An unpaired phone watches but cannot act.
        token, b.token = b.token, None
        assert b.http('GET', '/api/view')[1]['games'] == {'red': 0, 'blue': 1}
        assert b.http('POST', '/api/action', {'do': 'undo'})[0] == 401
        b.token = token
    finally:
        err = b.stop()
    assert 'bar-password-1' not in err


def test_the_help_documents_http():
    r = subprocess.run([sys.executable, SIM, '--help'], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0
    assert '--http HOST:PORT' in r.stdout and '--headless' in r.stdout and 'net.json' in r.stdout
    r = subprocess.run([sys.executable, SIM, '--board', 'pico_tm1637', '--http',
                        '127.0.0.1:%d' % free_port(), '--headless'],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "NETWORK = 'wlan'" in r.stderr


# --- the venue -------------------------------------------------------------------------------

GAMES = {
    # table: [(names, frames)]; the totals come from the core below, not from here.
    '1': [({'red': 'Ann', 'blue': 'Ben'}, SEED_000),
          ({'red': 'Ann', 'blue': 'Ben'}, [(5, 0), (6, 0), (4, 0)])],
    '2': [({'red': 'Cat', 'blue': None}, [(0, 4), (0, 6), (0, 5)]),
          ({'red': None, 'blue': None}, [(8, 0), (7, 0)])],
}
BOARDS = {'1': 'pico_w_tm1637', '2': 'esp32_ws2812_digits'}


def expected_records():
    from scoreboard.core import new_game
    out = []
    for table, games in GAMES.items():
        for names, frames in games:
            g = new_game('knockoff')
            for r, b in frames:
                g.enter_frame(red=r, blue=b)
            assert g.over
            out.append((table, names['red'], names['blue'], g.points('red'), g.points('blue'),
                        g.winner))
    return sorted(out, key=_key)


def _key(rec):
    return tuple('' if x is None else str(x) for x in rec)


def test_wifi_boards_bank_their_games_at_the_venue(tmp_path):
    from venue_support import Broker, Collector, start_service, stop_service, wait_until

    from venue import web
    (tmp_path / 'broker').mkdir()
    broker = Broker(tmp_path / 'broker').start()
    svc = start_service(broker, tmp_path / 'venue.sqlite')
    server = web.serve_in_thread(svc)
    base = 'http://127.0.0.1:%d' % server.server_address[1]
    boards = {}
    try:
        for table, name in BOARDS.items():
            flash = str(tmp_path / ('table' + table))
            write_net(flash, {'host': '127.0.0.1', 'port': broker.port, 'venue': 'bar',
                              'table': table})
            boards[table] = Board(name, flash)
        for b in boards.values():
            b.pair()
        # Both tables online, their retained state the board's own view.
        assert wait_until(lambda: len(svc.table_list()) == 2 and all(
            t['status'] == 'online' and t['state'] for t in svc.table_list()), 20), \
            svc.table_list()
        for table, b in boards.items():
            for names, frames in GAMES[table]:
                b.play(frames, names)
        want = expected_records()
        assert wait_until(lambda: svc.stats['games'] == len(want), 20), svc.stats
        got = sorted([(g['table'], g['names']['red'], g['names']['blue'], g['red'], g['blue'],
                      g['winner']) for g in svc.db.games()], key=_key)
        assert got == want                    # each game exactly once, names included
        assert svc.stats['duplicates'] == 0 and svc.stats['rejected'] == 0
        lb = json.load(urllib.request.urlopen(base + '/api/leaderboard', timeout=5))
        rows = {r['name']: (r['won'], r['played']) for r in lb['all']}
        # Ann lost seed 000 and won the second; Ben the other way; Cat lost to an unnamed blue
        # (no win: not listed), and the unnamed sides are nobody.
        assert rows == {'Ann': (1, 2), 'Ben': (1, 2)}
        assert lb['tonight'] == lb['all'] and lb['show'] == ['tonight']
        # `state` is retained and current: a late subscriber gets each board's last view.
        for table, b in boards.items():
            v = b.http('GET', '/api/view')[1]
            assert wait_until(lambda table=table, v=v: [
                t for t in svc.table_list() if t['table'] == table][0]['state']['games']
                == v['games'], 10)
        late = Collector(broker.port, topics=('shuffleboard/bar/+/state',))
        try:
            assert wait_until(lambda: len(late.on('/state')) >= 2, 15)
            for table, b in boards.items():
                v = b.http('GET', '/api/view')[1]
                payloads = [(json.loads(p), r) for t, p, r in late.msgs
                            if t == 'shuffleboard/bar/%s/state' % table]
                assert payloads and payloads[0][1] is True          # retained
                seen = payloads[-1][0]
                assert seen['games'] == v['games'] and seen['screen'] == v['screen']
                assert 'pin' not in seen
        finally:
            late.close()
        api = json.load(urllib.request.urlopen(base + '/api/tables', timeout=5))
        assert [t['table'] for t in api['tables']] == ['1', '2']
    finally:
        errs = [b.stop() for b in boards.values()]
        server.shutdown()
        server.server_close()
        stop_service(svc)
        broker.stop()
    for err in errs:
        assert 'bar-password-1' not in err


def test_venue_demo_runs_three_firmware_tables(tmp_path):
    # `make venue-demo`, played fast: three Wi-Fi boards of the firmware, its own mosquitto and
    # the service; the TV page's address printed; every table live on /api/tables and the
    # leaderboard counts exactly the games the boards say they banked.
    from venue_support import need_mosquitto, wait_until
    need_mosquitto()
    port = free_port()
    demo = subprocess.Popen([sys.executable, os.path.join(ROOT, 'tools', 'venue', 'demo.py'),
                             '--http', '127.0.0.1:%d' % port, '--speed', '20', '--seconds', '120'],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = 'http://127.0.0.1:%d' % port

    def get(path):
        try:
            with urllib.request.urlopen(base + path, timeout=5) as r:
                return json.load(r)
        except (OSError, ValueError):
            return None

    def settled():
        tables = get('/api/tables')
        lb = get('/api/leaderboard')
        if not tables or not lb or len(tables['tables']) != 3:
            return None
        banked = sum(sum(t['state']['games'].values()) for t in tables['tables']
                     if t['state'])
        # Named players only (the demo leaves some sides unnamed), each with a win.
        won = sum(r['won'] for r in lb['all'])
        if banked >= 3 and 0 < won <= banked and all(r['won'] > 0 and r['name']
                                                     for r in lb['all']):
            return tables
        return None

    try:
        first = demo.stdout.readline()
        assert 'the TV page on http://127.0.0.1:%d/' % port in first
        tables = wait_until(settled, 90, 0.1)
        assert tables, (get('/api/tables'), get('/api/leaderboard'))
        assert [t['table'] for t in tables['tables']] == ['1', '2', '3']
        assert all(t['status'] == 'online' for t in tables['tables'])
        assert '<' in urllib.request.urlopen(base + '/', timeout=5).read().decode()
    finally:
        demo.send_signal(signal.SIGINT)
        try:
            demo.wait(30)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait()
        demo.stdout.close()


def test_the_menus_unpair_on_the_board_forgets_the_phone(tmp_path):
    # On a real Wi-Fi board in the simulator: the board's own buttons open the menu, step
    # `unpair` to yes and leave; the phone's token is refused (403) from then on.
    flash = str(tmp_path / 'flash')
    write_net(flash)
    b = Board('pico_w_tm1637', flash)
    try:
        b.pair()
        assert b.http('POST', '/api/action', {'do': 'undo'})[0] in (200, 400)
        n = len(b.lines)
        b.send('hold OK 3200')
        v = b.view(lambda v: v['screen'] == 'menu', since=n)
        for _ in range(30):
            if v['menu']['item'] == 'unpair':
                break
            n = len(b.lines)
            b.send('tap OK')
            v = b.view(lambda v: v.get('menu') is not None, since=n)
        assert v['menu'] == {'item': 'unpair', 'value': 'no'}
        n = len(b.lines)
        b.send('tap BLUE')
        b.view(lambda v: v.get('menu') == {'item': 'unpair', 'value': 'yes'}, since=n)
        n = len(b.lines)
        b.send('hold OK 1000')
        b.view(lambda v: v['screen'] == 'setup', since=n)
        status, r = b.http('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'})
        assert status == 403, r
        b.token = None
        b.pair()                                   # a new pairing works as before
        assert b.http('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'})[0] == 200
    finally:
        b.stop()


def test_draw_prints_the_displays_of_a_wifi_board(tmp_path):
    # The `draw` command (and the interactive picture of `make sim ... HTTP=`) reads the chips.
    flash = str(tmp_path / 'flash')
    write_net(flash)
    b = Board('pico_w_ws2812_digits', flash)
    try:
        b.view(lambda v: True)
        b.send('draw')
        rows = []
        for _ in range(40):
            line = b.proc.stdout.readline()
            if line.strip() == '.':
                break
            if not line.startswith('{'):          # a view line may come in between
                rows.append(line)
        assert rows and any(set(r.strip()) - {'.', ' '} for r in rows), rows
    finally:
        err = b.stop()
    assert 'Traceback' not in err
