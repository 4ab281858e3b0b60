"""A tournament night on simulated boards: `make venue-demo` and the night tests.

Each table is the firmware on a virtual Wi-Fi board (`tools/sim.py --board NAME --http
127.0.0.1:PORT --headless --flash DIR`, the network runner under the MicroPython unix port),
its net.json pointing at a local mosquitto. The venue service runs in this process (its TV page
and host page on --http). A scripted phone per table pairs with the PIN the board shows, and,
like a player who looks at the TV, plays the match the service says is on its table once the
board shows its names: OK starts it, frames are entered through the board's phone API, the
game is banked, and the record carrying the match goes back to the service by itself.

Who wins is decided by `strength` (the earlier name in the list wins), so a night's standings
can be checked. Run as a script it is the demo: six players, a round robin to the end on three
tables, then it keeps the pages up until Ctrl-C (or --seconds).
"""

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

BOARDS = ('pico_w_tm1637', 'esp32_ws2812_digits', 'pico_w_ws2812_digits')
PLAYERS = ('Ann', 'Ben', 'Cat', 'Dev', 'Eve', 'Fin')


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def mosquitto_path():
    return shutil.which('mosquitto') or next(
        (p for p in ('/usr/sbin/mosquitto', '/usr/bin/mosquitto') if os.path.exists(p)), None)


class Mosquitto:
    """A local broker with persistence (a stop and a start keep the retained messages)."""

    def __init__(self, folder, port=0):
        self.port = port or free_port()
        self.dir = folder
        os.makedirs(folder, exist_ok=True)
        self.conf = os.path.join(folder, 'mosquitto.conf')
        with open(self.conf, 'w') as f:
            f.write('listener %d 127.0.0.1\nallow_anonymous true\npersistence true\n'
                    'persistence_location %s/\nlog_dest file %s/mosquitto.log\n'
                    'max_queued_messages 100000\n' % (self.port, folder, folder))
            if hasattr(os, 'geteuid') and os.geteuid() == 0:
                f.write('user root\n')
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([mosquitto_path(), '-c', self.conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 15
        while time.monotonic() < end:
            try:
                socket.create_connection(('127.0.0.1', self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError('mosquitto did not start')

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(15)
        self.proc = None


class SimBoard:
    """One table: tools/sim.py --http --headless on its own virtual flash. kill() is a power
    cut (the process group, RAM and all, at once); start() boots it again from that flash."""

    def __init__(self, folder, table, broker_port, board='pico_w_tm1637', venue='bar'):
        self.flash = folder
        self.table = table
        self.board = board
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, 'net.json'), 'w') as f:
            json.dump({'ssid': 'bar', 'password': 'bar-password-1', 'hostname': 't' + table,
                       'mqtt': {'host': '127.0.0.1', 'port': broker_port, 'venue': venue,
                                'table': table}}, f)
        self.port = None
        self.proc = None
        self.view = None
        self.views = 0
        self.pin = None

    def start(self):
        self.port = free_port()
        self.view = None
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, 'tools', 'sim.py'), '--board', self.board,
             '--http', '127.0.0.1:%d' % self.port, '--headless', '--flash', self.flash],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, start_new_session=True)
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()
        return self

    def _read(self, proc):
        for line in proc.stdout:
            try:
                v = json.loads(line)
            except ValueError:
                continue
            if proc is self.proc:
                self.view = v
                self.views += 1
                if v.get('pin'):
                    self.pin = v['pin']

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """The power cut."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass
        self.proc = None

    def stop(self):
        if self.alive():
            try:
                self.proc.stdin.write('quit\n')
                self.proc.stdin.flush()
                self.proc.wait(10)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def http(self, method, path, body=None, token=None, timeout=10):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request('http://127.0.0.1:%d%s' % (self.port, path), data=data,
                                     method=method)
        if data is not None:
            req.add_header('Content-Type', 'application/json')
        if token:
            req.add_header('Authorization', 'Bearer ' + token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b'{}')


def get_json(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


class Phone:
    """The players of one table, with a phone paired to its board. `venue_url` is the venue
    service's page (the TV's JSON says which match is on which table)."""

    def __init__(self, board, venue_url, strength, stop, pace=0.15, upsets=0.0):
        self.board = board
        self.upsets = upsets     # the chance that the weaker side wins (the demo: a real night)
        self._upset = {}
        self.venue_url = venue_url
        self.strength = list(strength)
        self.stop = stop
        self.pace = pace
        self.token = None
        self.played = []        # match ids this phone banked
        self.error = None
        self.paused = threading.Event()   # set: the players leave the table alone
        self.last = None        # the last match seen on this table (the TV may be away)
        self.hold = threading.Event()     # set: a match shown at setup is not started
        self._busy = threading.Lock()     # held while a step runs

    def pause(self):
        """The players step away: returns once the step under way (if any) is over."""
        self.paused.set()
        with self._busy:
            pass

    def resume(self):
        self.paused.clear()

    def hold_on(self):
        """The players start no new match (they finish one in play): returns once the step
        under way (if any) is over, so a match the board shows at setup now stays there."""
        self.hold.set()
        with self._busy:
            pass

    def pair(self):
        b = self.board
        b.pin = None
        status, _ = b.http('POST', '/api/pair', {})
        if status != 202:
            return False
        end = time.monotonic() + 10
        while not b.pin and time.monotonic() < end:
            time.sleep(0.05)
        if not b.pin:
            return False
        status, r = b.http('POST', '/api/pair', {'pin': b.pin})
        if status == 200:
            self.token = r['token']
            return True
        return False

    def my_match(self):
        """The match the service has on this table: (tournament view, match view) or None.
        While the service cannot be reached the players remember the last one."""
        try:
            lst = get_json(self.venue_url + '/api/tournaments')['tournaments']
        except (OSError, ValueError):
            return self.last
        self.last = None
        for s in lst:
            if s['state'] != 'running':
                continue
            try:
                t = get_json(self.venue_url + '/api/tournaments/%d' % s['id'])
            except (OSError, ValueError):
                return None
            for m in t['playing']:
                if m['table'] == self.board.table:
                    self.last = t, m
                    return self.last
        return None

    def winner(self, m):
        strong = 'red' if self.strength.index(m['red'].split('/')[0]) < \
            self.strength.index(m['blue'].split('/')[0]) else 'blue'
        if m['id'] not in self._upset:
            self._upset[m['id']] = random.random() < self.upsets
        if self._upset[m['id']]:
            return 'blue' if strong == 'red' else 'red'
        return strong

    def act(self, body):
        status, v = self.board.http('POST', '/api/action', body, self.token)
        if status in (401, 403):
            self.token = None
        return status, v

    def step(self):
        b = self.board
        if not b.alive() or self.paused.is_set():
            return
        if b.view is None:               # not booted yet
            return
        if self.token is None and not self.pair():
            return
        status, v = b.http('GET', '/api/view')   # what the board shows now
        if status != 200:
            return
        found = self.my_match()
        if found is None:
            return
        t, m = found
        if m['id'] in self.played:       # banked already: its result is on its way
            return
        if v.get('names') != {'red': m['red'], 'blue': m['blue']} or v.get('game') != t['game']:
            return                       # the board does not show this match (yet)
        win = self.winner(m)
        lose = 'blue' if win == 'red' else 'red'
        if v['screen'] == 'setup':
            if self.hold.is_set():
                return
            status, _ = b.http('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'},
                               self.token)
            if status in (401, 403):
                self.token = None
        elif v['screen'] == 'play':
            pts = {'red': 0, 'blue': 0}
            pts[lose if v['frame'] == 1 else win] = 2 if v['frame'] == 1 else 3
            self.act(dict(pts, do='frame'))
        elif v['screen'] == 'over':
            status, _ = self.act({'do': 'bank'})
            if status == 200:
                self.played.append(m['id'])

    def run(self):
        while not self.stop.is_set():
            try:
                with self._busy:
                    self.step()
            except (OSError, ValueError, KeyError, TypeError) as e:   # a board or page away
                self.error = repr(e)
            self.stop.wait(self.pace)


class Night:
    """The broker, the service (in this process), the boards and their phones."""

    def __init__(self, work, tables=3, http_port=0, password='host', strength=PLAYERS,
                 pace=0.15, upsets=0.0):
        self.work = work
        os.environ.setdefault('HOST_PASSWORD', password)
        self.password = os.environ['HOST_PASSWORD']
        self.broker = Mosquitto(os.path.join(work, 'broker')).start()
        self.db = os.path.join(work, 'venue.sqlite')
        self.http_port = http_port or free_port()
        self.svc = self.night = self.server = None
        self.start_service()
        self.stop = threading.Event()
        self.boards = [SimBoard(os.path.join(work, 'table%d' % i), str(i), self.broker.port,
                                BOARDS[(i - 1) % len(BOARDS)]).start()
                       for i in range(1, tables + 1)]
        self.phones = [Phone(b, self.url, strength, self.stop, pace, upsets)
                       for b in self.boards]
        for p in self.phones:
            threading.Thread(target=p.run, daemon=True).start()

    @property
    def url(self):
        return 'http://127.0.0.1:%d' % self.http_port

    def start_service(self):
        from venue import web
        from venue.db import SqliteStore
        from venue.night import Night as Tournaments
        from venue.service import Service
        self.svc = Service(SqliteStore(self.db), 'bar')
        self.night = Tournaments(self.svc, self.db)
        self.svc.connect('127.0.0.1', self.broker.port)
        self.server = web.serve(self.svc, '127.0.0.1', self.http_port)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop_service(self):
        self.server.shutdown()
        self.server.server_close()
        self.svc.stop()
        self.svc.db.close()
        self.night.store.close()

    def host(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header('Content-Type', 'application/json')
        req.add_header('Authorization', 'Bearer ' + self.password)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def close(self):
        self.stop.set()
        for b in self.boards:
            b.stop()
        try:
            self.stop_service()
        except Exception:   # noqa: BLE001  (stopped already)
            pass
        self.broker.stop()


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--http', default='127.0.0.1:8000', help='the TV and host pages')
    p.add_argument('--seconds', type=float, default=0, help='stop after this long (0: never)')
    p.add_argument('--pace', type=float, default=1.0,
                   help='seconds between two things a table\'s players do (default %(default)s)')
    p.add_argument('--upsets', type=float, default=0.3,
                   help='the chance that the weaker player wins a match (default %(default)s)')
    args = p.parse_args(argv)
    if mosquitto_path() is None:
        print('venue-demo needs mosquitto (apt-get install mosquitto)', file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix='venue-night-')
    port = int(args.http.rpartition(':')[2])
    night = Night(work, http_port=port, pace=args.pace, upsets=args.upsets)
    code, t = night.host('POST', '/api/tournaments', {
        'name': 'Demo night', 'format': 'roundrobin', 'game': 'knockoff',
        'options': {'target': 5}, 'players': list(PLAYERS), 'start': True})
    print('venue demo: a round robin of six players on three simulated boards\n'
          '  the TV page:   %s/\n  the host page: %s/host (password %r, from HOST_PASSWORD)\n'
          '  the tables\' phone pages:\n  %s\n  Ctrl-C stops it; files in %s'
          % (night.url, night.url, night.password,
             '\n  '.join('table %s (%s): http://127.0.0.1:%d/' % (b.table, b.board, b.port)
                         for b in night.boards), work), flush=True)
    try:
        end = time.monotonic() + args.seconds if args.seconds else None
        said = False
        while end is None or time.monotonic() < end:
            time.sleep(0.5)
            v = night.night.view(t['id'])
            if v['state'] == 'done' and not said:
                said = True
                print('venue demo: the round robin is over; %s wins. Standings:' % v['champion'])
                for r in v['standings']:
                    print('  %d. %-4s %d won, %d lost' % (r['place'], r['name'], r['won'],
                                                         r['lost']))
                sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        night.close()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
