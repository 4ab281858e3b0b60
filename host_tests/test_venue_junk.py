# Junk never displaces real tables (DESIGN section 10), on a real mosquitto without ACLs: 5,001
# retained junk `state` topics and a flood of `status` topics; a real table still appears, the
# memory stays bounded, and after a restart the junk is not brought back as tables.
import json
import time

import paho.mqtt.client as mqtt
import pytest
from venue.service import MAX_PENDING, MAX_TABLES
from venue_support import publish, running_broker, start_service, stop_service, wait_until

STATE = {'v': 1, 'screen': 'play', 'game': 'knockoff', 'red': 3, 'blue': 1,
         'names': {'red': 'Ann', 'blue': 'Ben'}}
GAME = {'v': 1, 'id': 'b1-x-1', 'table': '1', 'game': 'knockoff', 'options': {'target': 5},
        'names': {'red': 'Ann', 'blue': 'Ben'}, 'red': 5, 'blue': 2, 'winner': 'red',
        'frames': [], 'ended': 12}

broker = pytest.fixture(running_broker, name='broker')


def flood(port, n):
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id='junk', protocol=mqtt.MQTTv311)
    up = []
    c.on_connect = lambda *a: up.append(1)
    c.connect('127.0.0.1', port, 30)
    c.loop_start()
    assert wait_until(lambda: up, 10)
    last = None
    for i in range(n):
        last = c.publish('shuffleboard/bar/junk%d/state' % i, json.dumps(STATE), qos=1,
                         retain=True)
        if i % 500 == 0:
            last.wait_for_publish(30)
    for i in range(n // 2):
        last = c.publish('shuffleboard/bar/ghost%d/status' % i, 'online', qos=1, retain=True)
    last.wait_for_publish(60)
    c.disconnect()
    c.loop_stop()


def test_junk_never_displaces_a_real_table(broker, tmp_path):
    db = tmp_path / 'v.sqlite'
    svc = start_service(broker, db, wait=10)
    n = MAX_TABLES + 1
    flood(broker.port, n)
    assert wait_until(lambda: svc.stats['states'] >= n, 60), svc.stats
    assert svc.table_list() == []                       # none was ever online
    assert len(svc.tables) + len(svc.heard) + len(svc.pending) <= MAX_TABLES + 2 * MAX_PENDING
    # A real table comes online after the flood: it is on the TV at once.
    publish(broker.port, 'shuffleboard/bar/1/status', 'online', retain=True)
    publish(broker.port, 'shuffleboard/bar/1/state', json.dumps(STATE), retain=True)
    publish(broker.port, 'shuffleboard/bar/1/game', json.dumps(GAME))
    assert wait_until(lambda: [t['table'] for t in svc.table_list()] == ['1'], 15), \
        svc.table_list()[:3]
    assert wait_until(lambda: svc.stats['games'] == 1, 10)
    stop_service(svc)
    # Table 2 comes online while the service is away, and has banked nothing yet: its
    # messages wait in the service's session and come as sent.
    publish(broker.port, 'shuffleboard/bar/2/status', 'online', retain=True)
    publish(broker.port, 'shuffleboard/bar/2/state', json.dumps(STATE), retain=True)
    # A restart: every retained topic comes back; the junk is not brought back as tables.
    t0 = time.monotonic()
    svc = start_service(broker, db, wait=10)
    assert wait_until(lambda: svc.stats['states'] >= n + 1, 60), svc.stats
    took = time.monotonic() - t0
    assert wait_until(lambda: [t['table'] for t in svc.table_list()] == ['1', '2'], 10), \
        svc.table_list()[:3]
    stop_service(svc)
    # A service on a new database (no session, nothing known): the retained copies alone,
    # junk and real alike, make no table; a table is shown once it speaks.
    svc = start_service(broker, tmp_path / 'new.sqlite', wait=10)
    assert wait_until(lambda: svc.stats['states'] >= n + 2, 60), svc.stats
    assert svc.table_list() == []
    publish(broker.port, 'shuffleboard/bar/2/state', json.dumps(dict(STATE, red=4)),
            retain=True)
    assert wait_until(lambda: [t['table'] for t in svc.table_list()] == ['2'], 10)
    print('restart with %d retained junk topics read in %.1f s' % (n + n // 2, took))
    stop_service(svc)
