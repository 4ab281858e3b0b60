# The firmware's MQTT client and outbox under the MicroPython unix port, against a real mosquitto:
# what a board publishes, its last will, and a broker outage in the middle of a game.
import json
import os
import time

import pytest
from venue_support import STALL_MS, BoardProc, Broker, Collector, expected_games, wait_until


def game_plan(n, names=None):
    # Knock-off to 5: red 3, blue 2, red 2 -> red wins 5-2; alternate the winner.
    plan = []
    for i in range(n):
        frames = [[3, 0], [0, 2], [2, 0]] if i % 2 == 0 else [[0, 3], [2, 0], [0, 2]]
        plan.append({'options': {'target': 5}, 'frames': frames,
                     'names': names or {'red': 'Ann', 'blue': None}})
    return plan


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


def test_board_publishes_status_state_games_and_discovery(broker, tmp_path):
    sub = Collector(broker.port, ('shuffleboard/#', 'homeassistant/#'))
    plan = game_plan(2)
    board = BoardProc(broker.port, '7', str(tmp_path / 'b7'), plan)
    lines = board.wait()
    done = lines[-1]
    assert done['done'] and done['sent'] == 2 and done['connects'] == 1
    assert wait_until(lambda: len(sub.on('/game')) == 2, 15)
    sub.close()
    assert sub.on('bar/7/status')[0] == (b'online', False)
    recs = [json.loads(p) for p, _ in sub.on('/game')]
    assert len({r['id'] for r in recs}) == 2
    got = [(r['table'], r['names']['red'], r['names']['blue'], r['red'], r['blue'], r['winner'])
           for r in recs]
    assert got == expected_games(plan, '7')
    for r in recs:
        assert r['game'] == 'knockoff' and len(r['frames']) == 3 and r['options']['target'] == 5
        assert isinstance(r['ended'], int)
    assert len([m for m in sub.msgs if m[0].startswith('homeassistant/')]) == 6
    # A newcomer (the venue service starting later, Home Assistant) gets the retained topics.
    late = Collector(broker.port, ('shuffleboard/#', 'homeassistant/#'))
    assert wait_until(lambda: len(late.msgs) >= 8, 15)
    late.close()
    assert late.on('bar/7/status') == [(b'online', True)]
    state = json.loads(late.on('bar/7/state')[0][0])
    assert state['screen'] == 'setup' and state['games'] == {'red': 1, 'blue': 1}
    assert state['names'] == {'red': 'Ann', 'blue': None}
    assert len([m for m in late.msgs if m[0].startswith('homeassistant/') and m[2]]) == 6
    assert late.on('/game') == []   # game records are not retained


def test_last_will_says_offline(broker, tmp_path):
    sub = Collector(broker.port)
    board = BoardProc(broker.port, '8', str(tmp_path / 'b8'), game_plan(30), interval=100)
    assert wait_until(lambda: sub.on('bar/8/status'), 15)
    board.kill()   # the power is cut: no DISCONNECT, the broker sends the will
    assert wait_until(lambda: (b'offline', False) in sub.on('bar/8/status'), 15)
    sub.close()


def test_broker_outage_mid_game(broker, tmp_path):
    sub = Collector(broker.port, client_id='outage-watcher', persistent=True)
    plan = game_plan(12)
    interval = 40
    board = BoardProc(broker.port, '9', str(tmp_path / 'b9'), plan, interval=interval)
    assert wait_until(lambda: len(board.events('banked')) >= 2, 15)
    broker.stop()
    stopped = time.monotonic()
    during = len(board.events('frame'))
    time.sleep(0.8)   # the outage lasts at least this long
    # The board kept scoring while the broker was away (ten frames take 0.4 s when idle).
    assert wait_until(lambda: len(board.events('frame')) > during + 10, 15)
    broker.start()
    lines = board.wait()
    outage = time.monotonic() - stopped
    done = lines[-1]
    assert done['done'] and done['connects'] >= 2, done
    assert done['published'] == done['version']   # the last state went out after the reconnect
    # Scoring never waited on the network: no gap between frames much over the interval.
    frames = board.events('frame')
    gaps = [b['t'] - a['t'] for a, b in zip(frames, frames[1:])]
    assert max(gaps) < STALL_MS, max(gaps)
    assert wait_until(lambda: len({json.loads(p)['id'] for p, _ in sub.on('/game')}) == 12, 15)
    sub.close()
    # Every banked game arrived. QoS 1 is at least once: a record whose PUBACK the outage cut
    # off is sent again after the reconnect (or the broker sends again one its subscriber had
    # not acknowledged), so a game may come twice, always as the same record with the same id.
    records = {}
    for p, _ in sub.on('/game'):
        r = json.loads(p)
        assert records.setdefault(r['id'], r) == r, (records[r['id']], r)
    assert len(records) == 12
    winners = sorted(r['winner'] for r in records.values())
    assert winners == ['blue'] * 6 + ['red'] * 6
    last = Collector(broker.port)
    assert wait_until(lambda: last.on('bar/9/state'), 15)
    last.close()
    assert json.loads(last.on('bar/9/state')[0][0])['games'] == {'red': 6, 'blue': 6}
    print('outage %.1f s, %d connects' % (outage, done['connects']))


def test_undelivered_games_survive_a_power_cut(tmp_path):
    # The broker is down while three games are banked; the board loses power before it comes
    # back; after the reboot (the same flash) the three go out with the next one.
    (tmp_path / 'broker').mkdir()
    broker = Broker(tmp_path / 'broker')
    flash = str(tmp_path / 'b5')
    board = BoardProc(broker.port, '5', flash, game_plan(3))
    assert wait_until(lambda: len(board.events('banked')) == 3, 15)
    time.sleep(0.2)
    board.kill()
    broker.start()
    try:
        sub = Collector(broker.port)
        again = BoardProc(broker.port, '5', flash, game_plan(1))
        assert again.wait()[-1]['done']
        assert wait_until(lambda: len(sub.on('/game')) >= 4, 15)
        sub.close()
        ids = [json.loads(p)['id'] for p, _ in sub.on('/game')]
        assert len(set(ids)) == 4
        seqs = sorted(int(i.rsplit('-', 1)[1]) for i in set(ids))
        assert seqs == [1, 2, 3, 4]   # the ids went on counting across the reboot
    finally:
        broker.stop()


def test_a_broker_that_hangs_does_not_hold_the_board(broker, tmp_path):
    # SIGSTOP: the broker keeps its sockets open and answers nothing (a router that died, say).
    # The board keeps scoring, notices by the keepalive (1 s here), and after SIGCONT it is back.
    import signal
    sub = Collector(broker.port, client_id='hang-watcher', persistent=True)
    interval = 40
    board = BoardProc(broker.port, '6', str(tmp_path / 'b6'), game_plan(14), interval=interval,
                      keepalive=1)
    assert wait_until(lambda: len(board.events('banked')) >= 2, 15)
    broker.proc.send_signal(signal.SIGSTOP)
    during = len(board.events('frame'))
    time.sleep(2.5)   # the hang lasts at least this long: past the keepalive
    # Scoring went on while the broker hung (twenty frames take 0.8 s when idle).
    assert wait_until(lambda: len(board.events('frame')) > during + 20, 15)
    broker.proc.send_signal(signal.SIGCONT)
    done = board.wait()[-1]
    assert done['done'] and done['connects'] >= 2, done
    frames = board.events('frame')
    assert max(b['t'] - a['t'] for a, b in zip(frames, frames[1:])) < STALL_MS
    assert wait_until(lambda: len({json.loads(p)['id'] for p, _ in sub.on('/game')}) == 14, 15)
    sub.close()


# The client's side: host_tests/fixtures/onboard/mqtt_auth.py, on the unix port.


def test_user_and_password(tmp_path):
    # The CONNECT's user and password flags against a broker that wants them.
    import subprocess
    from venue_support import MICROPYTHON, ROOT
    import shutil
    (tmp_path / 'broker').mkdir()
    broker = Broker(tmp_path / 'broker')
    if shutil.which('mosquitto_passwd') is None:
        pytest.skip('mosquitto_passwd missing (it comes with Debian\'s mosquitto)')
    pw = str(tmp_path / 'broker' / 'passwd')
    subprocess.run(['mosquitto_passwd', '-c', '-b', pw, 'table3', 'right'], check=True,
                   capture_output=True)
    with open(broker.conf) as f:
        conf = f.read().replace('allow_anonymous true', 'allow_anonymous false')
    with open(broker.conf, 'w') as f:
        f.write(conf + 'password_file %s\n' % pw)
    script = os.path.join(ROOT, 'host_tests', 'fixtures', 'onboard', 'mqtt_auth.py')
    broker.start()
    try:
        out = subprocess.run([MICROPYTHON, str(script), str(broker.port)], capture_output=True,
                             timeout=20, env={'MICROPYPATH': '.frozen:%s/firmware' % ROOT},
                             text=True)
    finally:
        broker.stop()
    lines = out.stdout.splitlines()
    assert lines[0] == 'ok table3 right', out
    assert lines[1].startswith('refused table3 wrong') and 'refused:' in lines[1], out
    assert lines[2].startswith('refused None None'), out
