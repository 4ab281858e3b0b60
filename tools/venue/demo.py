"""`make venue-demo`: a local mosquitto, three tables and the venue service, until Ctrl-C.

Each table is the firmware itself: a Wi-Fi board (`tools/sim.py --board pico_w_tm1637 --http
127.0.0.1:PORT --headless --flash DIR`, the network runner under the MicroPython unix port) whose
virtual flash holds a net.json pointing at the demo's broker. A player per table pairs with the
PIN the board shows and plays knock-off at random through the board's own HTTP API (the phone
remote), so every banked game goes out through the firmware's venue link. Each board's phone
page is printed too: open one and play along.
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


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


BOARDS = ('pico_w_tm1637', 'esp32_ws2812_digits', 'pico_w_ws2812_digits')
PLAYERS = ('Ann', 'Ben', 'Cat', 'Dev', 'Eve', 'Fin', None, None)


class Player:
    """Plays one table through its board's HTTP API, as a paired phone would."""

    def __init__(self, proc, port, speed, stop):
        self.proc = proc
        self.base = 'http://127.0.0.1:%d' % port
        self.speed = speed
        self.stop = stop
        self.token = None
        self.pin = None
        self.rng = random.Random(port)

    def read_views(self):
        for line in self.proc.stdout:      # the board's view at every change (PIN included)
            try:
                v = json.loads(line)
            except ValueError:
                continue
            if v.get('pin'):
                self.pin = v['pin']

    def call(self, path, body=None):
        req = urllib.request.Request(self.base + path, method='POST' if body is not None
                                     else 'GET', data=json.dumps(body).encode()
                                     if body is not None else None)
        req.add_header('Content-Type', 'application/json')
        if self.token:
            req.add_header('Authorization', 'Bearer ' + self.token)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b'{}')

    def wait(self, seconds):
        return self.stop.wait(seconds / self.speed)

    def pair(self):
        while not self.stop.is_set():
            try:
                self.call('/api/pair', {})
            except (OSError, ValueError):
                self.stop.wait(0.2)
                continue
            for _ in range(50):
                if self.pin:
                    break
                self.stop.wait(0.1)
            if self.pin:
                status, r = self.call('/api/pair', {'pin': self.pin})
                if status == 200:
                    self.token = r['token']
                    return True
            self.pin = None
        return False

    def run(self):
        threading.Thread(target=self.read_views, daemon=True).start()
        try:
            if not self.pair():
                return
            while not self.stop.is_set():
                self.game()
        except Exception as e:     # noqa: BLE001  (the board went away: its player stops)
            if not self.stop.is_set():
                print('venue demo: a player stopped: %s' % e, file=sys.stderr)

    def game(self):
        names = {'red': self.rng.choice(PLAYERS), 'blue': self.rng.choice(PLAYERS)}
        if names['red'] is not None and names['red'] == names['blue']:
            names['blue'] = None
        self.call('/api/action', {'do': 'new', 'game': 'knockoff', 'options': {'target': 15},
                                  'names': names})
        self.call('/api/press', {'button': 'OK', 'gesture': 'tap'})
        view = {}
        while not view.get('winner'):
            side = self.rng.choice(('RED', 'BLUE'))
            for _ in range(self.rng.randint(1, 4)):       # the weights counted, one tap each
                if self.wait(0.4):
                    return
                self.call('/api/press', {'button': side, 'gesture': 'tap'})
            if self.wait(1.0):
                return
            status, view = self.call('/api/press', {'button': 'OK', 'gesture': 'tap'})
            if status != 200:
                return
        if self.wait(4.0):                               # the winner shown, then banked
            return
        self.call('/api/action', {'do': 'bank'})
        self.wait(2.0)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--http', default='127.0.0.1:8000')
    p.add_argument('--mqtt-port', type=int, default=0, help='default: a free port')
    p.add_argument('--tables', type=int, default=3)
    p.add_argument('--speed', type=float, default=1.0, help='play faster (2: twice as fast)')
    p.add_argument('--seconds', type=float, default=0, help='stop after this long (0: never)')
    args = p.parse_args(argv)
    mosq = shutil.which('mosquitto') or '/usr/sbin/mosquitto'
    if not os.path.exists(mosq):
        print('venue-demo needs mosquitto (apt-get install mosquitto)', file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix='venue-demo-')
    port = args.mqtt_port or free_port()
    conf = os.path.join(work, 'mosquitto.conf')
    with open(conf, 'w') as f:
        f.write('listener %d 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n' % port)
    procs = [subprocess.Popen([mosq, '-c', conf], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    time.sleep(0.3)
    py = sys.executable
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, 'tools'))
    procs.append(subprocess.Popen([py, '-m', 'venue', '--mqtt', '127.0.0.1:%d' % port,
                                   '--http', args.http, '--venue', 'demo',
                                   '--db', os.path.join(work, 'venue.sqlite')], env=env))
    stop = threading.Event()
    pages = []
    for i in range(1, args.tables + 1):
        flash = os.path.join(work, 'table%d' % i)
        os.makedirs(flash)
        with open(os.path.join(flash, 'net.json'), 'w') as f:
            json.dump({'ssid': 'demo', 'password': 'demo-password', 'hostname': 'table%d' % i,
                       'mqtt': {'host': '127.0.0.1', 'port': port, 'venue': 'demo',
                                'table': str(i)}}, f)
        http = free_port()
        board = BOARDS[(i - 1) % len(BOARDS)]
        proc = subprocess.Popen(
            [py, os.path.join(ROOT, 'tools', 'sim.py'), '--board', board, '--http',
             '127.0.0.1:%d' % http, '--headless', '--flash', flash],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            bufsize=1)
        procs.append(proc)
        pages.append('table %d (%s): http://127.0.0.1:%d/' % (i, board, http))
        threading.Thread(target=Player(proc, http, args.speed, stop).run, daemon=True).start()
    tv = args.http if not args.http.startswith('0.0.0.0:') else '127.0.0.1:' + \
        args.http.split(':')[1]
    print('venue demo: the TV page on http://%s/ (the leaderboard at /api/leaderboard)\n'
          '  mosquitto on 127.0.0.1:%d; %d tables, each the firmware on a virtual Wi-Fi board:\n'
          '  %s\n  Ctrl-C stops it; files in %s'
          % (tv, port, args.tables, '\n  '.join(pages), work), flush=True)
    try:
        deadline = time.monotonic() + args.seconds if args.seconds else None
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.5)
            for pr in procs:
                if pr.poll() is not None:
                    print('a demo process ended (%s): stopping' % pr.args[:2], file=sys.stderr)
                    deadline = 0
                    break
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        for pr in procs[2:]:             # the boards: `quit` ends the firmware and its front
            try:
                pr.stdin.write('quit\n')
                pr.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass
        for pr in reversed(procs):
            if pr.poll() is None and pr.stdin is None:
                pr.send_signal(signal.SIGINT if pr is procs[1] else signal.SIGTERM)
        for pr in procs:
            try:
                pr.wait(5)
            except subprocess.TimeoutExpired:
                pr.kill()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
