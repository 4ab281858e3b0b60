# The tournament night in the venue service (tools/venue/night.py, host_api.py) on a real
# mosquitto: the host's API with its password and bounds, matches published retained to free
# tables only, results from banked records exactly once, a restart of the service, a move.
# The tables here are paho clients publishing what a board publishes; test_night_boards.py
# plays whole nights on the firmware itself.
import json
import os
import urllib.error
import urllib.request

import pytest
from venue.db import SqliteStore
from venue.night import Night
from venue.service import Service
from venue_support import Broker, Collector, publish, wait_until
from venue import web

PASSWORD = 'host-pass-1'


@pytest.fixture
def broker(tmp_path):
    (tmp_path / 'broker').mkdir()
    b = Broker(tmp_path / 'broker').start()
    yield b
    b.stop()


@pytest.fixture(autouse=True)
def host_password(monkeypatch):
    monkeypatch.setenv('HOST_PASSWORD', PASSWORD)


class Venue:
    def __init__(self, broker, path):
        self.svc = Service(SqliteStore(path), 'bar')
        self.night = Night(self.svc, path)
        self.svc.connect('127.0.0.1', broker.port)
        assert self.svc.subscribed.wait(5)
        self.server = web.serve_in_thread(self.svc)
        self.base = 'http://127.0.0.1:%d' % self.server.server_address[1]

    def call(self, method, path, body=None, password=PASSWORD, ctype='application/json',
             raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None
                                            else None)
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header('Content-Type', ctype)
        if password:
            req.add_header('Authorization', 'Bearer ' + password)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.svc.stop()
        self.svc.db.close()
        self.night.store.close()


def table_at(port, table, screen='setup', names=None, status='online'):
    publish(port, 'shuffleboard/bar/%s/status' % table, status, retain=True)
    publish(port, 'shuffleboard/bar/%s/state' % table,
            json.dumps({'screen': screen, 'game': 'knockoff', 'red': 0, 'blue': 0,
                        'names': names or {'red': None, 'blue': None}}), retain=True)


def bank(port, table, rid, match, winner, red, blue):
    publish(port, 'shuffleboard/bar/%s/game' % table, json.dumps(
        {'id': rid, 'table': table, 'game': 'knockoff', 'options': {}, 'names': {},
         'red': red, 'blue': blue, 'winner': winner, 'frames': [], 'ended': 10,
         'match': match}))


def retained(port, table):
    c = Collector(port, ('shuffleboard/bar/%s/match' % table,))
    wait_until(lambda: c.msgs, 1)
    c.close()
    return json.loads(c.msgs[-1][1]) if c.msgs and c.msgs[-1][1] else None


def test_the_host_api_is_guarded_and_bounded(broker, tmp_path, monkeypatch):
    v = Venue(broker, str(tmp_path / 'v.sqlite'))
    try:
        body = {'name': 'Friday', 'players': ['Ann', 'Ben'], 'start': False}
        assert v.call('POST', '/api/tournaments', body, password=None)[0] == 401
        assert v.call('POST', '/api/tournaments', body, password='wrong')[0] == 401
        assert v.call('POST', '/api/tournaments', body, ctype='text/plain')[0] == 415
        assert v.call('POST', '/api/tournaments', raw=b'x' * 20000)[0] == 413
        assert v.call('POST', '/api/tournaments', raw=b'{"name": 1')[0] == 400
        assert v.call('POST', '/api/tournaments', raw=b'{"a": 1, "a": 2}')[0] == 400
        assert v.call('POST', '/api/tournaments', raw=b'[1]')[0] == 400
        code, r = v.call('POST', '/api/tournaments', {'players': ['x' * 13]})
        assert code == 400 and 'longer than 12' in r['error']
        code, r = v.call('POST', '/api/tournaments', {'game': 'knockoff',
                                                       'options': {'target': -4}})
        assert code == 400 and r['error'].startswith('options')
        code, r = v.call('POST', '/api/tournaments', {'format': 'swiss'})
        assert code == 400 and 'round robin' in r['error']
        assert v.call('GET', '/api/tournaments/99')[0] == 404
        assert v.call('POST', '/api/matches/t9r1m1/result', {'winner': 'red'})[0] == 404
        code, t = v.call('POST', '/api/tournaments', body)
        assert code == 201 and t['state'] == 'signup' and t['players'] == ['Ann', 'Ben']
        assert v.call('GET', '/api/tournaments')[1]['tournaments'][0]['id'] == t['id']
        monkeypatch.delenv('HOST_PASSWORD')
        code, r = v.call('POST', '/api/tournaments/%d/start' % t['id'], {})
        assert code == 403 and 'HOST_PASSWORD' in r['error']
    finally:
        v.stop()


def test_matches_go_to_free_tables_and_results_land_once(broker, tmp_path):
    path = str(tmp_path / 'v.sqlite')
    v = Venue(broker, path)
    port = broker.port
    try:
        table_at(port, '1')
        table_at(port, '2')
        table_at(port, '3', screen='play')          # a game in play: not free
        table_at(port, '4', status='offline')        # offline: not free
        assert wait_until(lambda: len(v.svc.tables) == 4, 5)
        code, t = v.call('POST', '/api/tournaments', {
            'name': 'Friday', 'format': 'roundrobin', 'game': 'knockoff',
            'options': {'target': 5}, 'players': ['Ann', 'Ben', 'Cat', 'Dev', 'Eve', 'Fin'],
            'start': True})
        assert code == 201, t
        tid = t['id']
        assert wait_until(lambda: len(v.night.view(tid)['playing']) == 2, 5)
        t = v.night.view(tid)
        on = {m['table']: m for m in t['playing']}
        assert set(on) == {'1', '2'}
        m1 = retained(port, '1')
        assert m1 == {'id': on['1']['id'], 'tournament': tid, 'round': 1, 'game': 'knockoff',
                      'options': {'target': 5},
                      'names': {'red': on['1']['red'], 'blue': on['1']['blue']}}
        assert retained(port, '3') is None and retained(port, '4') is None
        # the board at table 1 plays it: in play, then banked (record repeated, as after a
        # lost PUBACK), then at setup again
        table_at(port, '1', screen='play')
        bank(port, '1', 'b1-1', m1['id'], 'red', 5, 2)
        bank(port, '1', 'b1-1', m1['id'], 'red', 5, 2)
        bank(port, '1', 'b1-2', m1['id'], 'blue', 1, 5)    # another record for it: ignored
        assert wait_until(lambda: v.night.stats['results'] == 1 and
                          v.night.stats['repeats'] == 2, 5), v.night.stats
        done = [m for m in v.night.view(tid)['matches'] if m['state'] == 'done']
        assert [(m['id'], m['winner'], m['score']) for m in done] == [
            (m1['id'], 'red', {'red': 5, 'blue': 2})]
        assert wait_until(lambda: retained(port, '1') is None, 5)   # cleared: table free
        # a result from a table the match is not on is refused
        m2 = retained(port, '2')
        bank(port, '1', 'b1-3', m2['id'], 'red', 5, 0)
        assert wait_until(lambda: v.night.stats['refused'] == 1, 5)
        table_at(port, '1')                          # back at setup: the next match comes
        assert wait_until(lambda: retained(port, '1') is not None, 5)
        nxt = retained(port, '1')
        assert nxt['round'] == 1 and nxt['id'] not in (m1['id'], m2['id'])   # r1's third
        # the service restarts: the night is as it was, the retained matches stay
        before = v.night.view(tid)
        v.stop()
        v = Venue(broker, path)
        assert wait_until(lambda: len(v.svc.tables) == 4, 5)
        after = v.night.view(tid)
        assert [(m['id'], m['state'], m['table']) for m in after['matches']] == \
            [(m['id'], m['state'], m['table']) for m in before['matches']]
        assert retained(port, '1') == nxt and retained(port, '2') == m2
        # table 2 goes offline; the host moves its match to table 3, free once at setup
        table_at(port, '2', status='offline')
        code, r = v.call('POST', '/api/matches/%s/move' % m2['id'], {'table': '3'})
        assert code == 400 and 'not free' in r['error']
        table_at(port, '3')
        wait_until(lambda: v.svc.tables[('bar', '3')]['state']['screen'] == 'setup', 5)
        code, r = v.call('POST', '/api/matches/%s/move' % m2['id'], {'table': '3'})
        assert code == 200, r
        assert wait_until(lambda: retained(port, '3') == dict(m2), 5)
        assert wait_until(lambda: retained(port, '2') is None, 5)
        bank(port, '3', 'b3-1', m2['id'], 'blue', 3, 5)
        assert wait_until(lambda: [m for m in v.night.view(tid)['matches']
                                   if m['id'] == m2['id']][0]['winner'] == 'blue', 5)
        # the host corrects the first result
        code, r = v.call('POST', '/api/matches/%s/result' % m1['id'],
                         {'winner': 'blue', 'red': 4, 'blue': 5})
        assert code == 200, r
        row = [m for m in r['matches'] if m['id'] == m1['id']][0]
        assert row['winner'] == 'blue' and row['score'] == {'red': 4, 'blue': 5}
        hist = [h['what'] for h in v.night.store.history(tid)]
        assert hist[:2] == ['create', 'assign'] and 'correct' in hist and 'move' in hist
    finally:
        v.stop()
    assert os.path.exists(path)


def test_a_board_away_while_its_match_was_moved_is_told_when_it_comes_back(broker, tmp_path):
    # An empty retained message is not held by the broker: a board that was offline when
    # its match was moved off it would show that match on and on. When it connects again
    # (status `online`, its subscription, then its state), the empty one is sent to it.
    v = Venue(broker, str(tmp_path / 'v.sqlite'))
    port = broker.port
    try:
        table_at(port, '1')
        table_at(port, '2', screen='play')
        assert wait_until(lambda: len(v.svc.tables) == 2, 5)
        code, t = v.call('POST', '/api/tournaments', {
            'name': 'Friday', 'game': 'knockoff', 'players': ['Ann', 'Ben'], 'start': True})
        assert code == 201, t
        m = wait_until(lambda: retained(port, '1'), 5)
        assert m and m['names'] == {'red': 'Ann', 'blue': 'Ben'}
        table_at(port, '1', status='offline')
        assert wait_until(lambda: v.svc.tables[('bar', '1')]['status'] == 'offline', 5)
        table_at(port, '2')                  # free now: the moved match goes there
        assert v.call('POST', '/api/matches/%s/move' % m['id'], {'table': None})[0] == 200
        assert wait_until(lambda: retained(port, '2') == m, 5)
        assert wait_until(lambda: retained(port, '1') is None, 5)
        board = Collector(port, ('shuffleboard/bar/1/match',))   # the board, subscribed
        try:
            assert not board.msgs        # nothing held: it would keep showing Ann v Ben
            table_at(port, '1', names={'red': 'Ann', 'blue': 'Ben'})   # it is back
            assert wait_until(lambda: board.msgs, 5), 'the board was never told'
            assert [p for _, p, _ in board.msgs] == [b'']
            assert retained(port, '2') == m          # the match stays where it went
        finally:
            board.close()
        # a retained (not live) state, as after a restart of the service, is not a connect
        before = v.night.stats['published']
        v.svc.handle('shuffleboard/bar/1/state', json.dumps(
            {'screen': 'setup', 'game': 'knockoff', 'red': 0, 'blue': 0,
             'names': {'red': None, 'blue': None}}).encode(), retained=True)
        assert v.night.stats['published'] == before
    finally:
        v.stop()


def test_a_record_kept_just_before_a_crash_is_taken_on_the_next_start(tmp_path):
    # The games table and the tournaments are written one after the other: a record stored
    # by the service that then died before the tournament was saved is found on the next start.
    path = str(tmp_path / 'v.sqlite')
    svc = Service(SqliteStore(path), 'bar')
    night = Night(svc, path)
    svc.handle('shuffleboard/bar/1/status', b'online')
    svc.handle('shuffleboard/bar/1/state', json.dumps({'screen': 'setup'}).encode())
    t = night.create({'players': ['Ann', 'Ben'], 'start': True})
    m = night.view(t.id)['playing'][0]
    assert m['table'] == '1'
    rec = {'id': 'b1-1', 'table': '1', 'game': 'knockoff', 'options': {}, 'names': {},
           'red': 5, 'blue': 0, 'winner': 'red', 'frames': [], 'ended': 10, 'match': m['id']}
    rec['names'] = {'red': None, 'blue': None}
    svc.db.add_game('bar', rec, 100.0)          # stored; the service dies here
    svc.db.close()
    night.store.close()
    svc = Service(SqliteStore(path), 'bar')
    night = Night(svc, path)
    v = night.view(t.id)
    assert v['state'] == 'done' and v['matches'][0]['winner_name'] == 'Ann'
    # the board sends it again (its PUBACK was lost): nothing changes
    svc.handle('shuffleboard/bar/1/game', json.dumps(rec).encode())
    # one result (taken on the start), one repeat
    assert night.stats == {'results': 1, 'repeats': 1, 'refused': 0, 'published': 0}
    assert [h['what'] for h in night.store.history(t.id)].count('result') == 1
    svc.db.close()
    night.store.close()
