#!/usr/bin/env python3
"""The venue at scale, on this machine: one mosquitto, the venue service, F firmware boards (the
venue link on the MicroPython unix port, tools/venue/demo_board.py) and L light publishers (raw
MQTT connections from one thread, with the firmware's own packet code), then steps of rising
message rates. Prints, for each step, the messages per second the service kept, its worst lag
and its memory; first, a press on a board (the link under CPython) to `/api/tables` showing it.

    python tools/bench_venue.py [--boards 20] [--light 200] [--rates 500,1000,2000,4000]

By default the broker is set up as `make venue-broker` sets up a bar's (tools/venue/broker.py):
no anonymous clients, a user and password per table and for the service, the ACL; `--open`
runs it without them, to compare.
"""

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

import paths  # noqa: E402

paths.setup()
from scoreboard.net import mqtt  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def rss_kb(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    return 0


class LightTables:
    """n tables, one TCP connection each, written from the caller's thread; QoS 0 states (no
    traffic back, keepalive off) and QoS 1 games (acknowledgements read and dropped)."""

    def __init__(self, port, n, venue='light', passwords=None):
        self.socks = []
        self.venue = venue
        for i in range(n):
            s = socket.create_connection(('127.0.0.1', port))
            user = '%s-L%d' % (venue, i) if passwords else None
            pw = passwords.get(user) if passwords else None
            s.sendall(mqtt.connect_packet('light-%d' % i, 0, user, pw, will=(
                'shuffleboard/%s/L%d/status' % (venue, i), 'offline', True, 1)))
            assert s.recv(4)[3] == 0, 'light table %d refused' % i
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            # online, as a board says it (a table is shown once it said so)
            s.sendall(mqtt.publish_packet('shuffleboard/%s/L%d/status' % (venue, i), 'online',
                                          retain=True))
            self.socks.append(s)
        self.sent = 0

    def state(self, i, red):
        view = {'screen': 'play', 'game': 'knockoff', 'red': red % 100, 'blue': i % 16,
                'hammer': 'blue', 'turn': None, 'frame': 1, 'end': 1, 'target': 21,
                'winner': None, 'pending': {'red': 0, 'blue': 0},
                'games': {'red': 0, 'blue': 0}, 'legs': {'red': 0, 'blue': 0},
                'message': None, 'names': {'red': 'P%d' % i, 'blue': None}}
        self.socks[i].sendall(mqtt.publish_packet(
            'shuffleboard/%s/L%d/state' % (self.venue, i), json.dumps(view), retain=True))
        self.sent += 1

    def game(self, i, n):
        rec = {'id': 'L%d-%d' % (i, n), 'table': 'L%d' % i, 'game': 'knockoff', 'options': {},
               'names': {'red': 'P%d' % i, 'blue': None}, 'red': 21, 'blue': 3,
               'winner': 'red', 'frames': [['f', 3, 0]] * 7, 'ended': 100}
        self.socks[i].sendall(mqtt.publish_packet(
            'shuffleboard/%s/L%d/game' % (self.venue, i), json.dumps(rec), False, 1, 1 + n))

    def close(self):
        for s in self.socks:
            s.close()


def press_latency(mqtt_port, base, samples, passwords=None):
    """A tap on a board (the venue link and the stand-in controller, in CPython) until
    /api/tables shows the pending point."""
    from scoreboard.net.outbox import Outbox
    from scoreboard.net.venue import Venue, settings
    from venue.vtable import Table
    table = Table()
    table.new('knockoff', {'target': 21})
    user = 'bench-press' if passwords else None
    conf = settings({'mqtt': {'host': '127.0.0.1', 'port': mqtt_port, 'venue': 'bench',
                              'table': 'press', 'user': user,
                              'password': passwords.get(user) if passwords else None}})
    link = Venue(table, conf, Outbox(tempfile.mkdtemp()), 'press')
    link.POLL = 5
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_until_complete, args=(link.run(),), daemon=True).start()

    def pending():
        for t in get(base + '/api/tables')['tables']:
            if t['table'] == 'press' and t['state']:
                return t['state']['pending']['red']
        return None

    deadline = time.monotonic() + 10
    while pending() != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    out = []
    for k in range(1, samples + 1):
        t0 = time.perf_counter()
        loop.call_soon_threadsafe(table.add, 'red')
        while pending() != k:
            time.sleep(0.001)
        out.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.02)
    loop.call_soon_threadsafe(link.stop)
    return out


def press_latency_firmware(mqtt_port, base, samples, work, passwords=None):
    """A tap of RED on a Wi-Fi board of the firmware (tools/sim.py --http --headless, its
    net.json at this broker): from the button's release until /api/tables shows the pending
    point. The whole path: the debounce, the scoring pass, the venue link's poll, the broker,
    the service."""
    flash = os.path.join(work, 'fw-board')
    os.makedirs(flash)
    with open(os.path.join(flash, 'net.json'), 'w') as f:
        json.dump({'ssid': 'bench', 'password': 'bench-password',
                   'mqtt': {'host': '127.0.0.1', 'port': mqtt_port, 'venue': 'bench',
                            'table': 'fw', 'user': 'bench-fw' if passwords else None,
                            'password': passwords.get('bench-fw') if passwords else None}}, f)
    board = subprocess.Popen(
        [sys.executable, os.path.join(HERE, 'sim.py'), '--board', 'pico_w_tm1637', '--http',
         '127.0.0.1:%d' % free_port(), '--headless', '--flash', flash],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)

    def send(line):
        board.stdin.write(line + '\n')
        board.stdin.flush()

    def state():
        for t in get(base + '/api/tables')['tables']:
            if t['table'] == 'fw' and t['state']:
                return t['state']
        return None

    out = []
    try:
        deadline = time.monotonic() + 30
        while (state() or {}).get('screen') != 'setup' and time.monotonic() < deadline:
            time.sleep(0.05)
        send('tap OK')                                   # setup -> play
        while (state() or {}).get('screen') != 'play' and time.monotonic() < deadline:
            time.sleep(0.02)
        if (state() or {}).get('screen') != 'play':
            return out
        time.sleep(0.5)              # the simulator's tap is over (its gap after the release)
        for _ in range(samples):
            before = state()['pending']['red']
            send('down RED')
            time.sleep(0.08)
            t0 = time.perf_counter()
            send('up RED')
            end = time.monotonic() + 5
            while time.monotonic() < end:
                v = state()
                if v and (v['pending'] or {}).get('red') == before + 1:
                    out.append((time.perf_counter() - t0) * 1000)
                    break
                time.sleep(0.001)
            time.sleep(0.15)
    finally:
        try:
            send('quit')
            board.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            board.kill()
            board.wait()
    return out


def secured(work, port, boards, light):
    """The broker of tools/venue/broker.py in `work` for the bench's two venues (`bench`: the
    press tables and the firmware boards; `light`: the light publishers), the service reading
    both; {user: password}."""
    from venue import broker
    bench = ['press', 'fw'] + ['F%d' % i for i in range(boards)]
    lights = ['L%d' % i for i in range(light)]
    pw = broker.make('bench', bench, work, port, '127.0.0.1')
    pw.update(broker.make('light', lights, os.path.join(work, 'light'), port, '127.0.0.1'))
    with open(os.path.join(work, 'light', 'passwd')) as f:
        extra = f.read()
    with open(os.path.join(work, 'passwd'), 'a') as f:
        f.write(extra)
    acl = broker.acl('bench', bench) + '\n' + broker.acl('light', lights)
    acl = acl.replace('user bench-service\n', 'user bench-service\n'
                      'topic read shuffleboard/light/#\n')
    with open(os.path.join(work, 'acl'), 'w') as f:
        f.write(acl + '\n')
    path = os.path.join(work, 'mosquitto.conf')
    with open(path) as f:
        text = f.read().replace('max_queued_messages 10000', 'max_queued_messages 0')
    text += 'max_connections -1\n'
    if hasattr(os, 'geteuid') and os.geteuid() == 0:
        text += 'user root\n'   # as root mosquitto would become `mosquitto`
    with open(path, 'w') as f:
        f.write(text)
    return pw


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--boards', type=int, default=20, help='firmware boards (unix port)')
    p.add_argument('--light', type=int, default=200, help='light publishers')
    p.add_argument('--rates', default='1000,2000,4000,8000', help='total states per second')
    p.add_argument('--step', type=float, default=3.0, help='seconds per rate')
    p.add_argument('--presses', type=int, default=30)
    p.add_argument('--open', action='store_true',
                   help='no passwords and no ACL (by default: as make venue-broker writes)')
    args = p.parse_args(argv)
    mosq = shutil.which('mosquitto') or '/usr/sbin/mosquitto'
    if not os.path.exists(mosq):
        print('bench_venue: needs mosquitto (apt-get install mosquitto)')
        return 2
    work = tempfile.mkdtemp(prefix='bench-venue-')
    port, http = free_port(), free_port()
    conf = os.path.join(work, 'mosquitto.conf')
    passwords = None
    env = dict(os.environ, PYTHONPATH=HERE)
    user_args = []
    if args.open:
        with open(conf, 'w') as f:
            # As a venue's broker should be set: QoS 1 games queued for the service without
            # limit.
            f.write('listener %d 127.0.0.1\nallow_anonymous true\nmax_connections -1\n'
                    'max_queued_messages 0\n' % port)
    else:
        passwords = secured(work, port, args.boards, args.light)
        env['MQTT_PASSWORD'] = passwords['bench-service']
        user_args = ['--user', 'bench-service']
    procs = [subprocess.Popen([mosq, '-c', conf], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    time.sleep(0.3)
    print('broker: %s' % ('open (no passwords, no ACL)' if args.open else
                          'as make venue-broker writes it: a password per table and for the '
                          'service, the ACL, client ids from user names'))
    svc = subprocess.Popen([sys.executable, '-m', 'venue', '--mqtt', '127.0.0.1:%d' % port,
                            '--http', '127.0.0.1:%d' % http, '--venue', '+',
                            '--db', os.path.join(work, 'v.sqlite')] + user_args, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.append(svc)
    base = 'http://127.0.0.1:%d' % http
    try:
        for _ in range(100):
            try:
                get(base + '/api/stats')
                break
            except OSError:
                time.sleep(0.05)
        time.sleep(0.3)
        rss0 = rss_kb(svc.pid)
        lat = press_latency(port, base, args.presses, passwords)
        lat.sort()
        print('press to /api/tables (loopback, %d taps): median %.1f ms, worst %.1f ms'
              % (len(lat), statistics.median(lat), lat[-1]))
        lat = press_latency_firmware(port, base, args.presses, work, passwords)
        if lat:
            lat.sort()
            print('press on a firmware Wi-Fi board (tools/sim.py --http, the MicroPython unix '
                  'port; the button released) to /api/tables (%d taps): median %.1f ms, '
                  'worst %.1f ms' % (len(lat), statistics.median(lat), lat[-1]))
        mp = os.path.join(ROOT, '.venv', 'bin', 'micropython')
        mpenv = dict(os.environ, MICROPYPATH='.frozen:%s:%s' % (os.path.join(ROOT, 'firmware'),
                                                                HERE))
        for i in range(args.boards):
            flash = os.path.join(work, 'board%d' % i)
            os.makedirs(flash)
            procs.append(subprocess.Popen(
                [mp, os.path.join(HERE, 'venue', 'demo_board.py'), '127.0.0.1', str(port),
                 'bench', 'F%d' % i, flash, '5'],
                env=dict(mpenv, MQTT_PASSWORD=passwords['bench-F%d' % i]) if passwords
                else mpenv,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        lights = LightTables(port, args.light, passwords=passwords)
        for i in range(args.light):
            lights.state(i, 0)
        want = args.light + args.boards + 1
        deadline = time.monotonic() + 20
        while get(base + '/api/stats')['tables'] < want and time.monotonic() < deadline:
            time.sleep(0.1)
        print('%d tables on one broker: %d firmware boards (unix port), %d light publishers, '
              'the press table' % (get(base + '/api/stats')['tables'], args.boards, args.light))
        def light(what):
            return get(base + '/api/stats')['per_venue'].get('light', {}).get(what, 0)

        def light_states():
            return light('states')

        def all_states():
            return get(base + '/api/stats')['states']

        b0, tb = all_states(), time.monotonic()
        time.sleep(1)
        board_rate = (all_states() - b0) / (time.monotonic() - tb)
        print('the boards alone: %.0f states/s' % board_rate)
        for rate in [int(r) for r in args.rates.split(',')]:
            s0 = light_states()
            sent0 = lights.sent
            samples = []   # (time, service states so far), polled beside the senders
            sends = []     # (time, light states sent so far)
            stop = threading.Event()

            def poll(stop=stop, samples=samples, s0=s0):
                while not stop.is_set():
                    samples.append((time.monotonic(), light_states() - s0))
                    time.sleep(0.02)

            t0 = time.monotonic()

            poller = threading.Thread(target=poll)
            poller.start()
            k = 0
            while True:
                now = time.monotonic()
                if now - t0 >= args.step:
                    break
                due = int((now - t0) * rate)
                while k < due:
                    lights.state(k % args.light, k)
                    k += 1
                sends.append((time.monotonic(), lights.sent - sent0))
                time.sleep(0.002)
            t_end = time.monotonic()
            # Wait for the service to catch up (or give up after 10 s).
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if samples and samples[-1][1] >= k:
                    break
                time.sleep(0.05)
            stop.set()
            poller.join()
            got = samples[-1][1]
            # Lag: for each sample, how long the oldest light state not yet counted had waited.
            worst = 0.0
            j = 0
            for t, n in samples:
                # the first moment the publishers had sent more than n: the oldest not yet in
                while j < len(sends) and sends[j][1] <= n:
                    j += 1
                if j < len(sends) and n < k:
                    worst = max(worst, t - sends[j][0])
            caught = next((t for t, n in samples if n >= k), None)
            t_done = caught or samples[-1][0]
            print('  %5d states/s offered for %.0f s: the service took %d of %d at %.0f/s '
                  '(the boards\' besides), caught up %s after the last; worst lag %.0f ms; '
                  'service RSS %.1f MB'
                  % (rate, args.step, min(got, k), k, min(got, k) / (t_done - t0),
                     '%.0f ms' % ((caught - t_end) * 1000) if caught else 'never (10 s)',
                     worst * 1000, rss_kb(svc.pid) / 1024))
        t0 = time.monotonic()
        for i in range(args.light):
            lights.game(i, 1)
            lights.game(i, 1)   # sent twice: kept once
        while light('games') < args.light and time.monotonic() - t0 < 20:
            time.sleep(0.02)
        st = get(base + '/api/stats')
        print('the light tables\' game records, each sent twice: %d of %d stored in %.0f ms, '
              '%d repeats ignored' % (light('games'), args.light,
                                      (time.monotonic() - t0) * 1000, st['duplicates']))
        print('service memory: %.1f MB at start, %.1f MB with %d tables'
              % (rss0 / 1024, rss_kb(svc.pid) / 1024, st['tables']))
        lights.close()
    finally:
        for pr in reversed(procs):
            if pr.poll() is None:
                pr.terminate()
        for pr in procs:
            try:
                pr.wait(5)
            except subprocess.TimeoutExpired:
                pr.kill()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
