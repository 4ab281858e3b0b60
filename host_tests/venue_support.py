"""A real mosquitto for the venue tests, on a free loopback port, and the boards that play on it.

The broker is Debian's `mosquitto`; without it the tests skip with the reason printed, except
under CI (CI=true), where `.ci/run` installs it and a missing broker is a failure.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, '.venv', 'bin', 'micropython')
BOARD_SCRIPT = os.path.join(ROOT, 'host_tests', 'venue_board.py')


# The longest gap allowed between two frames of a board (40 ms apart) while its broker is away:
# well under the outage (800 ms), the connect timeout and the backoff, which a scoring loop that
# waited on the network would show, and loose enough for a loaded machine's scheduling.
STALL_MS = 400


def mosquitto_path():
    return shutil.which('mosquitto') or next(
        (p for p in ('/usr/sbin/mosquitto', '/usr/bin/mosquitto') if os.path.exists(p)), None)


def need_mosquitto():
    path = mosquitto_path()
    if path is None:
        if os.environ.get('CI'):
            pytest.fail('mosquitto is missing under CI (.ci/run installs it)')
        reason = 'mosquitto is not installed (apt-get install mosquitto): venue tests skipped'
        print(reason, file=sys.__stderr__)   # past pytest's capture: seen in any run
        pytest.skip(reason)
    return path


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Broker:
    """mosquitto on 127.0.0.1:port with persistence in `tmp`, so that a stop and a start keep
    the retained messages and the service's queued games, as a broker in a bar would."""

    def __init__(self, tmp):
        self.path = need_mosquitto()
        self.port = free_port()
        self.dir = str(tmp)
        self.conf = os.path.join(self.dir, 'mosquitto.conf')
        with open(self.conf, 'w') as f:
            f.write('listener %d 127.0.0.1\nallow_anonymous true\npersistence true\n'
                    'persistence_location %s/\nlog_dest file %s/mosquitto.log\n'
                    'max_queued_messages 100000\n' % (self.port, self.dir, self.dir))
            if hasattr(os, 'geteuid') and os.geteuid() == 0:
                # Started as root, mosquitto drops to user `mosquitto`, who cannot write here.
                f.write('user root\n')
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.path, '-c', self.conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 15   # a loaded machine reads the persistence slowly
        while time.monotonic() < deadline:
            try:
                socket.create_connection(('127.0.0.1', self.port), 0.2).close()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.02)
        raise RuntimeError('mosquitto did not start: %s' % self.log())

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)   # it saves its persistence on the way out
            self.proc.wait(15)
        self.proc = None

    def log(self):
        try:
            with open(os.path.join(self.dir, 'mosquitto.log')) as f:
                return f.read()[-2000:]
        except OSError:
            return ''


def wait_until(cond, timeout=10, step=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(step)
    return cond()


class BoardProc:
    """venue_board.py under the MicroPython unix port (or CPython): the firmware's client and
    outbox on a board that plays `plan`. Its JSON lines are collected as they come."""

    def __init__(self, broker_port, table, flash, plan, venue='bar', interval=40,
                 interp=MICROPYTHON, backoff=(100, 400), keepalive=10, password=None):
        os.makedirs(flash, exist_ok=True)
        plan_path = os.path.join(flash, 'plan.json')
        with open(plan_path, 'w') as f:
            json.dump(plan, f)
        path = os.path.join(ROOT, 'firmware') + ':' + os.path.join(ROOT, 'tools')
        env = dict(os.environ, MICROPYPATH='.frozen:' + path, PYTHONPATH=path)
        env.pop('MQTT_PASSWORD', None)
        if password is not None:      # user <venue>-<table>, as make venue-broker makes them
            env['MQTT_PASSWORD'] = password
        self.proc = subprocess.Popen(
            [interp, BOARD_SCRIPT, '127.0.0.1', str(broker_port), venue, table, flash, plan_path,
             str(interval), str(backoff[0]), str(backoff[1]), str(keepalive)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.lines = []
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.lines.append(json.loads(line))
            except ValueError:
                self.lines.append({'raw': line.decode('utf-8', 'replace')})

    def events(self, kind):
        return [d for d in self.lines if kind in d]

    def wait(self, timeout=20):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._t.join(10)   # every line read (the last is `done`)
        err = self.proc.stderr.read().decode('utf-8', 'replace')
        assert self.proc.returncode == 0, (self.proc.returncode, err, self.lines[-5:])
        return self.lines

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def expected_games(plan, table):
    """What the core says each planned game ends as: (table, names, red, blue, winner)."""
    from scoreboard.core import new_game
    out = []
    for g in plan:
        game = new_game(g.get('game', 'knockoff'), **g.get('options', {}))
        for r, b in g['frames']:
            game.enter_frame(red=r, blue=b)
        assert game.over, g
        names = g.get('names', {})
        out.append((table, names.get('red'), names.get('blue'), game.points('red'),
                    game.points('blue'), game.winner))
    return out


class Collector:
    """A paho subscriber that keeps every message: (topic, payload bytes, retain flag).
    `persistent` gives it a session the broker keeps (and queues QoS 1 for) while it is away."""

    def __init__(self, port, topics=('shuffleboard/#',), client_id=None, persistent=False):
        import paho.mqtt.client as mqtt
        self.msgs = []
        self._subscribed = threading.Event()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                             client_id=client_id or 'collector-%d' % free_port(),
                             clean_session=not persistent, protocol=mqtt.MQTTv311)
        self.c.reconnect_delay_set(0.1, 0.5)

        def on_connect(c, u, flags, rc, props):
            for t in topics:
                c.subscribe(t, qos=1)

        self.c.on_connect = on_connect
        self.c.on_subscribe = lambda *a: self._subscribed.set()
        self.c.on_message = lambda c, u, m: self.msgs.append((m.topic, m.payload, m.retain))
        self.c.connect('127.0.0.1', port, 10)
        self.c.loop_start()
        assert self._subscribed.wait(15)

    def on(self, suffix):
        return [(p, r) for t, p, r in self.msgs if t.endswith(suffix)]

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()


def publish(port, topic, payload, retain=False, qos=1):
    import paho.mqtt.publish as pub
    pub.single(topic, payload, qos=qos, retain=retain, hostname='127.0.0.1', port=port)


def running_broker(tmp_path):
    """The venue tests' mosquitto, its files in tmp_path/broker: a test module's fixture as
    `broker = pytest.fixture(running_broker, name='broker')`."""
    (tmp_path / 'broker').mkdir()
    b = Broker(tmp_path / 'broker').start()
    yield b
    b.stop()


def start_service(broker, db_path, wait=5):
    """The venue service of the venue 'bar' on a SQLite file, subscribed on `broker` (within
    `wait` seconds)."""
    from venue.db import SqliteStore
    from venue.service import Service
    svc = Service(SqliteStore(str(db_path)), 'bar')
    svc.connect('127.0.0.1', broker.port)
    assert svc.subscribed.wait(wait)
    return svc


def stop_service(svc):
    svc.stop()
    svc.db.close()
