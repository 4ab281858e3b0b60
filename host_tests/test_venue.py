# The venue service against a real mosquitto, with three tables, each the firmware's MQTT client
# and outbox under the MicroPython unix port: the games kept exactly, a broker outage, a service
# restart, hostile messages, the leaderboard's nights and weeks.
import json
import time
import urllib.request
from collections import Counter

import pytest
from venue.db import SqliteStore
from venue.service import Service, windows
from venue_support import (STALL_MS, BoardProc, expected_games, publish, running_broker,
                           start_service, stop_service, wait_until)
from venue import web

broker = pytest.fixture(running_broker, name='broker')


def plan_for(table, n, names):
    # Knock-off to 5, the winner alternating with the table and the game: the totals and the
    # winners come from the core (expected_games), not from here.
    out = []
    for i in range(n):
        red_wins = (i + int(table)) % 3 != 0
        frames = [[3, 0], [0, 2], [2, 0]] if red_wins else [[0, 3], [2, 0], [0, 2]]
        out.append({'options': {'target': 5}, 'frames': frames, 'names': names})
    return out


NAMES = {'1': {'red': 'Ann', 'blue': 'Ben'}, '2': {'red': 'Cat', 'blue': None},
         '3': {'red': None, 'blue': None}}


def expected_board(expected):
    # Per named player (a side without a name is nobody), players with a win only.
    won, played = Counter(), Counter()
    for _table, rname, bname, _r, _b, winner in expected:
        for name, side in ((rname, 'red'), (bname, 'blue')):
            if name:
                played[name] += 1
                won[name] += winner == side
    rows = [{'name': k, 'won': won[k], 'played': played[k]} for k in played if won[k]]
    rows.sort(key=lambda r: (-r['won'], r['played'], r['name']))
    return rows


def stored(svc):
    return sorted((g['table'], g['names']['red'], g['names']['blue'], g['red'], g['blue'],
                   g['winner']) for g in svc.db.games())


def boards(broker, tmp_path, games, interval=40):
    plans = {t: plan_for(t, games, NAMES[t]) for t in ('1', '2', '3')}
    procs = {t: BoardProc(broker.port, t, str(tmp_path / ('board' + t)), plans[t],
                          interval=interval) for t in plans}
    expected = sorted(sum((expected_games(plans[t], t) for t in plans), []))
    return procs, expected


def test_three_tables_play_and_the_database_is_exact(broker, tmp_path):
    svc = start_service(broker, tmp_path / 'v.sqlite')
    procs, expected = boards(broker, tmp_path, 4)
    for p in procs.values():
        assert p.wait()[-1]['done']
    assert wait_until(lambda: svc.stats['games'] == 12, 15), svc.stats
    assert stored(svc) == expected
    board = svc.leaderboard()
    assert board['tonight'] == board['week'] == board['all'] == expected_board(expected)
    assert board['show'] == ['tonight']     # a first night: one list, not three the same
    ann = [r for r in board['all'] if r['name'] == 'Ann'][0]
    assert ann['played'] == 4 and ann['won'] == sum(1 for e in expected if e[1] == 'Ann' and
                                                    e[5] == 'red')
    # Table 3's sides have no names: nobody there is ranked, its games count in its figures.
    assert {r['name'] for r in board['all']} == {'Ann', 'Ben', 'Cat'}
    assert wait_until(lambda: all(t['state'] and t['state']['screen'] == 'setup'
                                  for t in svc.table_list()), 15)
    tables = svc.table_list()
    assert [t['table'] for t in tables] == ['1', '2', '3']
    for t in tables:
        assert t['status'] == 'online'
        assert sum(t['state']['games'].values()) == 4
        assert t['state']['names'] == NAMES[t['table']]
    assert svc.stats['rejected'] == 0 and svc.stats['duplicates'] == 0
    # The same through HTTP.
    server = web.serve_in_thread(svc)
    base = 'http://127.0.0.1:%d' % server.server_address[1]
    api = json.load(urllib.request.urlopen(base + '/api/tables', timeout=5))
    assert [t['table'] for t in api['tables']] == ['1', '2', '3']
    lb = json.load(urllib.request.urlopen(base + '/api/leaderboard', timeout=5))
    assert lb['all'] == expected_board(expected)
    server.shutdown()
    server.server_close()
    stop_service(svc)


def test_broker_stopped_mid_game_and_started_again(broker, tmp_path):
    svc = start_service(broker, tmp_path / 'v.sqlite')
    procs, expected = boards(broker, tmp_path, 10)
    assert wait_until(lambda: svc.stats['games'] >= 3, 15)
    broker.stop()
    time.sleep(0.8)
    broker.start()
    for p in procs.values():
        done = p.wait()[-1]
        assert done['done'] and done['connects'] >= 2, done
        frames = p.events('frame')
        assert max(b['t'] - a['t'] for a, b in zip(frames, frames[1:])) < STALL_MS
    assert wait_until(lambda: svc.stats['games'] == 30, 15), svc.stats
    assert stored(svc) == expected          # every banked game, each once
    assert svc.leaderboard()['all'] == expected_board(expected)
    # `state` is current: the service has each table's final view again after the reconnect.
    assert wait_until(lambda: all(t['state'] and sum(t['state']['games'].values()) == 10
                                  and t['status'] == 'online' for t in svc.table_list()), 15)
    stop_service(svc)


def test_service_restarted_loses_nothing_counts_nothing_twice(broker, tmp_path):
    db = tmp_path / 'v.sqlite'
    svc = start_service(broker, db)
    procs, expected = boards(broker, tmp_path, 10)
    assert wait_until(lambda: svc.stats['games'] >= 3, 15)
    stop_service(svc)     # the service goes away; the boards bank on (the broker queues them)
    time.sleep(0.6)
    svc = start_service(broker, db)
    for p in procs.values():
        assert p.wait()[-1]['done']
    assert wait_until(lambda: len(svc.db.games()) == 30, 15), (len(svc.db.games()), svc.stats)
    assert stored(svc) == expected
    # A record delivered again (a board that lost the acknowledgement) changes nothing.
    again = svc.db.games()[0]
    rec = {k: again[k] for k in ('id', 'table', 'game', 'options', 'names', 'red', 'blue',
                                 'winner', 'frames', 'ended')}
    # (Counted from here: the broker may also have sent again a record the first service took
    # but had not yet acknowledged when it stopped; that too is only a duplicate.)
    d0 = svc.stats['duplicates']
    publish(broker.port, 'shuffleboard/bar/%s/game' % rec['table'], json.dumps(rec))
    assert wait_until(lambda: svc.stats['duplicates'] == d0 + 1, 15), svc.stats
    assert stored(svc) == expected
    stop_service(svc)
    # And a third start, with nothing new: the retained states come back, the counts do not move.
    svc = start_service(broker, db)
    assert wait_until(lambda: len(svc.table_list()) == 3 and
                      all(t['state'] for t in svc.table_list()), 15), svc.table_list()
    time.sleep(0.2)
    assert svc.stats['games'] == 0 and stored(svc) == expected
    assert svc.leaderboard()['all'] == expected_board(expected)
    stop_service(svc)


GOOD = {'id': 'x-1', 'table': '4', 'game': 'knockoff', 'options': {'target': 5},
        'names': {'red': 'Dan', 'blue': None}, 'red': 5, 'blue': 2, 'winner': 'red',
        'frames': [['f', 3, 0]], 'ended': 12}


def hostile():
    t = 'shuffleboard/bar/4/'
    bad = []

    def rec(**kw):
        d = dict(GOOD, **kw)
        return json.dumps({k: v for k, v in d.items() if v is not ...})

    bad.append((t + 'game', b'not json {'))
    bad.append((t + 'game', b'\xff\xfe\x00garbage'))
    bad.append((t + 'game', b'[1, 2, 3]'))
    bad.append((t + 'game', b'"a string"'))
    bad.append((t + 'game', json.dumps(dict(GOOD, frames=['x' * 100] * 1000))))  # 100 KB
    bad.append((t + 'game', rec(table='5')))                 # a forged table
    bad.append((t + 'game', rec(id=...)))                    # no id
    bad.append((t + 'game', rec(id=7)))
    bad.append((t + 'game', rec(red='5')))
    bad.append((t + 'game', rec(red=True)))
    bad.append((t + 'game', rec(red=-3)))
    bad.append((t + 'game', rec(blue=10 ** 30)))
    bad.append((t + 'game', rec(winner='green')))
    bad.append((t + 'game', rec(game='darts')))
    bad.append((t + 'game', rec(names=['Dan'])))
    bad.append((t + 'game', rec(names={'red': 'D' * 500})))
    bad.append((t + 'game', rec(ended='yesterday')))
    bad.append((t + 'game', rec(options=[1])))
    bad.append((t + 'state', b'{"screen": 1}'))
    bad.append((t + 'state', b'{"screen": "play", "red": "lots"}'))
    bad.append((t + 'state', b'{"screen": "play", "hammer": "<b>x</b>"}'))
    bad.append((t + 'state', b'{"screen": "play", "pending": 3}'))
    bad.append((t + 'state', b'null'))
    bad.append((t + 'status', b'hacked'))
    bad.append((t + 'launch', b'{}'))
    bad.append(('shuffleboard/bar/4/game/extra', json.dumps(GOOD)))
    bad.append(('shuffleboard/bar/t@ble/game', json.dumps(dict(GOOD, table='t@ble'))))
    return bad


def test_hostile_messages_are_logged_and_ignored(broker, tmp_path, caplog):
    svc = start_service(broker, tmp_path / 'v.sqlite')
    bad = hostile()
    for topic, payload in bad:
        publish(broker.port, topic, payload)
    assert wait_until(lambda: svc.stats['rejected'] == len(bad), 15), (svc.stats, svc.rejects)
    assert svc.db.games() == [] and svc.table_list() == []
    assert len([r for r in caplog.records if r.levelname == 'WARNING']) >= len(bad)
    reasons = ' '.join(r for _, r in svc.rejects)
    assert 'too large' in reasons and 'not JSON' in reasons and "table '5'" in reasons
    # Still alive: a good record and a state with a name that is markup are taken as data.
    publish(broker.port, 'shuffleboard/bar/4/game', json.dumps(GOOD))
    publish(broker.port, 'shuffleboard/bar/4/status', 'online')
    publish(broker.port, 'shuffleboard/bar/4/state', json.dumps(
        {'screen': 'play', 'game': 'knockoff', 'red': 1, 'blue': 0,
         'names': {'red': '<img src=x onerror=alert(1)>', 'blue': None}}))
    assert wait_until(lambda: svc.stats['games'] == 1 and svc.stats['states'] == 1, 15)
    assert svc.table_list()[0]['state']['names']['red'] == '<img src=x onerror=alert(1)>'
    assert svc.stats['rejected'] == len(bad)
    stop_service(svc)


def test_nights_and_weeks(tmp_path):
    # No broker: messages handed to the service directly, on a clock the test sets.
    now = [time.mktime((2026, 12, 2, 23, 0, 0, 0, 0, -1))]   # a Wednesday, 11 pm
    svc = Service(SqliteStore(str(tmp_path / 'v.sqlite')), 'bar', clock=lambda: now[0])
    tonight, week = windows(now[0])
    assert time.localtime(tonight)[:5] == (2026, 12, 2, 6, 0)
    assert time.localtime(week)[:5] == (2026, 11, 30, 6, 0)     # Monday
    late = time.mktime((2026, 12, 3, 1, 30, 0, 0, 0, -1))   # 1:30 am is still tonight
    assert windows(late) == (tonight, week)

    def bank(n, at, winner, ended=3):
        rec = dict(GOOD, id='g%d' % n, winner=winner, ended=ended)
        now[0] = at
        svc.handle('shuffleboard/bar/4/game', json.dumps(rec).encode())

    bank(1, tonight + 3600, 'red')                       # tonight
    bank(2, tonight - 3600, 'blue')                      # Wednesday 5 am: last night, this week
    bank(3, week - 60, 'red')                            # last week
    bank(4, tonight + 7200, 'blue', ended=tonight + 60)  # a board that knows the time
    now[0] = tonight + 8000
    lb = svc.leaderboard()
    # Dan (red) won g1 and g3; the blue side had no name: not a player, not listed.
    assert lb['tonight'] == [{'name': 'Dan', 'won': 1, 'played': 2}]
    assert lb['week'] == [{'name': 'Dan', 'won': 1, 'played': 3}]
    assert lb['all'] == [{'name': 'Dan', 'won': 2, 'played': 4}]
    assert lb['show'] == ['tonight', 'week', 'all']
    # A week whose only games are tonight's: the week says nothing more and is left out.
    svc2 = Service(SqliteStore(str(tmp_path / 'v2.sqlite')), 'bar', clock=lambda: now[0])
    for n, at in ((1, tonight + 3600), (3, week - 60)):
        now[0] = at
        svc2.handle('shuffleboard/bar/4/game', json.dumps(dict(GOOD, id='g%d' % n)).encode())
    now[0] = tonight + 8000
    lb = svc2.leaderboard()
    assert lb['show'] == ['tonight', 'all'] and lb['tonight'] == lb['week'] != lb['all']
    assert [g['at'] for g in svc.db.games() if g['id'] == 'g4'] == [tonight + 60]


def test_a_flood_of_made_up_tables_is_bounded(tmp_path, monkeypatch):
    # (The junk tests against a real broker are in test_venue_junk.py.)
    import venue.service as service
    monkeypatch.setattr(service, 'MAX_TABLES', 5)
    monkeypatch.setattr(service, 'MAX_PENDING', 5)
    svc = Service(SqliteStore(str(tmp_path / 'v.sqlite')), 'bar')
    for i in range(8):
        svc.handle('shuffleboard/bar/fake%d/status' % i, b'online')
    assert svc.table_list() == [] and len(svc.heard) == 5   # online, but no state yet
    for i in range(8):
        svc.handle('shuffleboard/bar/fake%d/state' % i, b'{"screen": "play"}')
    assert len(svc.table_list()) == 5 and len(svc.heard) + len(svc.pending) <= 10
    for i in range(20):       # states alone never push out a table that said online
        svc.handle('shuffleboard/bar/junk%d/state' % i, b'{"screen": "play"}')
    svc.handle('shuffleboard/bar/real/status', b'online')
    for i in range(20, 40):
        svc.handle('shuffleboard/bar/junk%d/state' % i, b'{"screen": "play"}')
    svc.handle('shuffleboard/bar/real/state', b'{"screen": "setup"}')
    assert 'real' in [t['table'] for t in svc.table_list()]


def test_a_state_keeps_collars_beds_and_the_cursor_checked():
    # The TV's JSON of a horse-collar or shove ha'penny table carries what that game counts
    # beside the totals; a hostile shape of either is refused, not stored.
    from venue import records
    base = {'screen': 'play', 'game': 'shovehapenny', 'red': 1, 'blue': 0,
            'names': {'red': None, 'blue': None}}
    d = dict(base, beds={'red': [1, 0, 2, 0, 0], 'blue': [0, 0, 0, 3, 0]}, cursor=3)
    s = records.state(json.dumps(d).encode())
    assert s['beds'] == d['beds'] and s['cursor'] == 3
    assert records.state(json.dumps(dict(d, cursor='end')).encode())['cursor'] == 'end'
    s = records.state(json.dumps(dict(base, game='horsecollar',
                                      collars={'red': 2, 'blue': 0})).encode())
    assert s['collars'] == {'red': 2, 'blue': 0} and 'beds' not in s
    for bad in ({'beds': {'red': 'x', 'blue': []}}, {'beds': {'red': [1] * 50, 'blue': []}},
                {'beds': {'red': [-1], 'blue': [0]}}, {'beds': [1, 2]},
                {'beds': {'red': [1], 'blue': [0]}, 'cursor': 'x'},
                {'collars': {'red': 'many'}}, {'collars': 3}):
        with pytest.raises(records.Reject):
            records.state(json.dumps(dict(base, **bad)).encode())
