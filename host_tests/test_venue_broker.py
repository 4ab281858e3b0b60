# `make venue-broker`'s configuration on a real mosquitto: passwords per table and for the
# service, the ACL (a table publishes only its own topics), the service's session that nobody
# can take over, and games queued while the service is down delivered when it is back.
import json
import logging
import os
import subprocess
import sys
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from venue import broker as vbroker
from venue.db import SqliteStore
from venue.service import Service
from venue_support import ROOT, Broker, free_port, need_mosquitto, wait_until

GOOD = {'v': 1, 'id': 'b1-x-1', 'table': '1', 'game': 'knockoff', 'options': {'target': 5},
        'names': {'red': 'Ann', 'blue': 'Ben'}, 'red': 5, 'blue': 2, 'winner': 'red',
        'frames': [['f', 3, 0], ['f', 0, 2], ['f', 2, 0]], 'ended': 12}


class BarBroker(Broker):
    """mosquitto started on the files `make venue-broker` wrote."""

    def __init__(self, folder, venue='bar', tables='3'):
        need_mosquitto()
        self.path = need_mosquitto()
        self.port = free_port()
        self.dir = str(folder)
        self.passwords = vbroker.make(venue, vbroker.table_names(tables), self.dir,
                                      self.port, '127.0.0.1')
        self.conf = os.path.join(self.dir, 'mosquitto.conf')
        if hasattr(os, 'geteuid') and os.geteuid() == 0:
            with open(self.conf, 'a') as f:   # as root mosquitto would become `mosquitto`
                f.write('user root\n')
        with open(self.conf, 'a') as f:
            f.write('log_dest file %s/mosquitto.log\n' % self.dir)
        self.proc = None


@pytest.fixture
def bar(tmp_path):
    b = BarBroker(tmp_path / 'broker').start()
    yield b
    b.stop()


def client(port, user=None, password=None, client_id='', clean=True):
    """A paho client connected (or refused): (client, connack reason code as a number)."""
    got = []
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                    clean_session=clean, protocol=mqtt.MQTTv311)
    if user:
        c.username_pw_set(user, password)
    c.on_connect = lambda cl, u, f, rc, p: got.append(rc.value)
    c.connect('127.0.0.1', port, 10)
    c.loop_start()
    assert wait_until(lambda: got, 10)
    if got[0]:        # refused (paho says 3.1.1's codes as MQTT 5's: 134, 135)
        close(c)
    return c, got[0]


def send(c, topic, payload, retain=False):
    info = c.publish(topic, payload, qos=1, retain=retain)
    info.wait_for_publish(10)


def close(c):
    c.disconnect()
    c.loop_stop()


def start_service(bar, db, caplog=None):
    svc = Service(SqliteStore(str(db)), 'bar')
    svc.connect('127.0.0.1', bar.port, 'bar-service', bar.service_password)
    assert svc.subscribed.wait(10), svc.refused
    return svc


def stop_service(svc):
    svc.stop()
    svc.db.close()


def test_the_files_it_writes_and_passwords_kept(tmp_path):
    folder = tmp_path / 'b'
    new = vbroker.make('bar', ['1', '2'], str(folder))
    assert sorted(new) == ['bar-1', 'bar-2', 'bar-homeassistant', 'bar-service']
    with open(folder / 'passwd') as f:
        first = f.read()
    for user, pw in new.items():
        assert pw not in first                 # only hashes on disk
        assert '%s:$7$101$' % user in first
    assert oct(os.stat(folder / 'passwd').st_mode & 0o777) == '0o600'
    # Again with one table more: only the new one is made; the others keep theirs.
    again = vbroker.make('bar', ['1', '2', '3'], str(folder))
    assert list(again) == ['bar-3']
    with open(folder / 'passwd') as f:
        lines = f.read().splitlines()
    assert set(first.splitlines()) < set(lines)
    acl = (folder / 'acl').read_text()
    assert 'user bar-3\ntopic write shuffleboard/bar/3/state\n' in acl
    conf = (folder / 'mosquitto.conf').read_text()
    assert 'allow_anonymous false' in conf and 'use_username_as_clientid true' in conf
    # The Python hash is the one mosquitto_passwd makes.
    line = vbroker.pbkdf2_line('u', 'secret', b'\x01' * 12)
    assert line.startswith('u:$7$101$AQEBAQEBAQEBAQEB$')
    # make venue-broker itself: prints each new password once, then none.
    env = dict(os.environ)
    cmd = ['make', '-s', '-o', '.venv/.installed', 'venue-broker', 'VENUE=pub', 'TABLES=2',
           'DIR=%s' % (tmp_path / 'm')]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count('new user pub-') == 4 and 'table=2,user=pub-2' in out.stdout
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert 'new user' not in out.stdout and 'kept' in out.stdout


def test_a_bad_venue_name_is_refused(tmp_path):
    with pytest.raises(ValueError):
        vbroker.make('b/ar', ['1'], str(tmp_path))
    with pytest.raises(ValueError):
        vbroker.make('bar', ['#'], str(tmp_path))


def test_the_acl_on_a_real_mosquitto(bar, tmp_path, caplog):
    pw = bar.passwords
    bar.service_password = pw['bar-service']
    caplog.set_level(logging.DEBUG)
    svc = start_service(bar, tmp_path / 'v.sqlite')
    # Nobody without a password; no one with a wrong one.
    _, rc = client(bar.port)
    assert rc == 135                                 # not authorised
    _, rc = client(bar.port, 'bar-1', 'wrong')
    assert rc in (134, 135)
    # Table 1 plays; it also tries to bank a game on table 2's topic and to write table 2's
    # state: the broker drops both (the service never sees them).
    t1, rc = client(bar.port, 'bar-1', pw['bar-1'])
    assert rc == 0
    send(t1, 'shuffleboard/bar/1/status', 'online', True)
    send(t1, 'shuffleboard/bar/1/state', json.dumps({'v': 1, 'screen': 'play',
                                                     'game': 'knockoff', 'red': 3}), True)
    send(t1, 'shuffleboard/bar/2/game', json.dumps(dict(GOOD, table='2', id='forged')))
    send(t1, 'shuffleboard/bar/2/state', json.dumps({'screen': 'over', 'winner': 'red'}), True)
    send(t1, 'shuffleboard/bar/2/match', '{}', True)
    send(t1, 'shuffleboard/bar/1/game', json.dumps(GOOD))
    assert wait_until(lambda: svc.stats['games'] == 1, 10), svc.stats
    time.sleep(0.3)
    assert [g['id'] for g in svc.db.games()] == ['b1-x-1']
    assert [t['table'] for t in svc.table_list()] == ['1']
    assert svc.stats['rejected'] == 0                # refused by the broker, not by us
    # Table 2 itself may, and the service reads it.
    t2, rc = client(bar.port, 'bar-2', pw['bar-2'])
    assert rc == 0
    send(t2, 'shuffleboard/bar/2/game', json.dumps(dict(GOOD, table='2', id='b2-x-1')))
    assert wait_until(lambda: svc.stats['games'] == 2, 10), svc.stats
    # A table reads its own match topic only; the service writes it.
    got = []
    t2.on_message = lambda c, u, m: got.append(m.topic)
    t2.subscribe('shuffleboard/bar/#', qos=1)
    t2.subscribe('shuffleboard/bar/2/match', qos=1)
    time.sleep(0.3)
    svc.client.publish('shuffleboard/bar/2/match', json.dumps({'id': 'm1'}), qos=1,
                       retain=True).wait_for_publish(10)
    send(t1, 'shuffleboard/bar/1/state', json.dumps({'v': 1, 'screen': 'setup'}), True)
    assert wait_until(lambda: 'shuffleboard/bar/2/match' in got, 10), got
    time.sleep(0.3)
    assert set(got) == {'shuffleboard/bar/2/match'}, got   # not table 1's state
    for c in (t1, t2):
        close(c)
    stop_service(svc)
    # The password is in no log line.
    text = '\n'.join(r.getMessage() for r in caplog.records)
    assert 'bar-service' in text and pw['bar-service'] not in text


def test_games_queued_while_the_service_is_down_arrive_and_its_id_cannot_be_taken(bar,
                                                                                  tmp_path):
    pw = bar.passwords
    bar.service_password = pw['bar-service']
    db = tmp_path / 'v.sqlite'
    svc = start_service(bar, db)
    cid = svc.client_id
    stop_service(svc)
    t1, _ = client(bar.port, 'bar-1', pw['bar-1'])
    for i in range(5):
        send(t1, 'shuffleboard/bar/1/game', json.dumps(dict(GOOD, id='b1-q-%d' % i)))
    # While it is away, a client on the bar's network takes the service's id with a clean
    # session: without the password it is refused; with a table's password it gets a session
    # of its own name, and the queue stays.
    c, rc = client(bar.port, None, None, client_id=cid, clean=True)
    assert rc == 135
    c, rc = client(bar.port, 'bar-2', pw['bar-2'], client_id=cid, clean=True)
    assert rc == 0
    close(c)
    c, rc = client(bar.port, 'bar-2', pw['bar-2'], client_id='bar-service', clean=True)
    assert rc == 0
    close(c)
    # And the broker restarts too before the service is back: the queue is on its disk.
    send(t1, 'shuffleboard/bar/1/game', json.dumps(dict(GOOD, id='b1-q-5')))
    close(t1)
    bar.stop()
    bar.start()
    svc = start_service(bar, db)
    assert svc.client_id == cid                   # the install's id, from its database
    assert wait_until(lambda: svc.stats['games'] == 6, 15), svc.stats
    assert sorted(g['id'] for g in svc.db.games()) == ['b1-q-%d' % i for i in range(6)]
    stop_service(svc)


def test_make_venue_takes_the_password_from_the_environment_only(bar, tmp_path):
    pw = bar.passwords['bar-service']
    http = free_port()
    env = dict(os.environ, MQTT_PASSWORD=pw, PYTHONPATH=os.path.join(ROOT, 'tools'))
    cmd = [sys.executable, '-m', 'venue', '--mqtt', '127.0.0.1:%d' % bar.port,
           '--http', '127.0.0.1:%d' % http, '--db', str(tmp_path / 'v.sqlite'),
           '--venue', 'bar', '--user', 'bar-service']
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    def stats():
        try:
            with urllib.request.urlopen('http://127.0.0.1:%d/api/stats' % http, timeout=2) as r:
                return json.load(r)
        except OSError:
            return {}

    try:
        assert wait_until(lambda: stats().get('subscribed'), 20)
        t1, _ = client(bar.port, 'bar-1', bar.passwords['bar-1'])
        send(t1, 'shuffleboard/bar/1/game', json.dumps(GOOD))
        assert wait_until(lambda: stats().get('games') == 1, 20)
        close(t1)
        with open('/proc/%d/cmdline' % p.pid, 'rb') as f:
            assert pw.encode() not in f.read()
    finally:
        p.terminate()
        out = p.communicate(timeout=10)[0]
    assert 'subscribed' in out and pw not in out


def test_firmware_tables_play_a_night_on_the_bars_broker(bar, tmp_path):
    # Three tables of the firmware (its MQTT client and outbox under the MicroPython unix port),
    # each with its own user and password; the service goes away mid-night and comes back; a
    # fourth board with a wrong password is refused and plays on. Every game arrives once.
    from test_venue import plan_for
    from venue_support import BoardProc, expected_games
    pw = bar.passwords
    bar.service_password = pw['bar-service']
    db = tmp_path / 'v.sqlite'
    svc = start_service(bar, db)
    names = {'1': {'red': 'Ann', 'blue': 'Ben'}, '2': {'red': 'Cat', 'blue': None},
             '3': {'red': None, 'blue': 'Dan'}}
    plans = {t: plan_for(t, 6, names[t]) for t in names}
    procs = {t: BoardProc(bar.port, t, str(tmp_path / ('b' + t)), plans[t], interval=60,
                          password=pw['bar-' + t]) for t in plans}
    intruder = BoardProc(bar.port, '1', str(tmp_path / 'bx'), plan_for('1', 1, {}),
                         interval=40, password='guessed')
    assert wait_until(lambda: svc.stats['games'] >= 2, 20), svc.stats
    stop_service(svc)                 # the service away; the tables bank on
    time.sleep(0.8)
    svc = start_service(bar, db)
    for p in procs.values():
        done = p.wait(60)[-1]
        assert done['done'] and done['left'] == 0, done
    last = intruder.wait(40)[-1]
    assert not last['done'] and last['sent'] == 0 and 'refused' in (last['error'] or ''), last
    want = sorted(sum((expected_games(plans[t], t) for t in plans), []))
    assert wait_until(lambda: len(svc.db.games()) == len(want),
                      20), (len(svc.db.games()), svc.stats)
    got = sorted((g['table'], g['names']['red'], g['names']['blue'], g['red'], g['blue'],
                  g['winner']) for g in svc.db.games())
    assert got == want
    assert all(g['v'] == 1 for g in svc.db.games())
    assert wait_until(lambda: [t['table'] for t in svc.table_list()] == ['1', '2', '3'], 10)
    stop_service(svc)
