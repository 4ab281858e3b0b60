# A Wi-Fi board's simulator as a person runs it, for test_net_sim and test_net_venue (CPython):
# `SCRIPT --board NAME --http 127.0.0.1:PORT --headless --flash DIR` (tools/net_sim.py or
# tools/sim.py) in a process of its own, its JSON view lines read as they come, its HTTP API
# asked with a bearer token, press-script lines sent on its standard input.
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

from venue_support import free_port


def write_net(flash, mqtt=None, password='bar-password-1'):
    """The virtual flash's net.json: the network 'bar', and the venue's `mqtt` settings if
    given."""
    os.makedirs(flash, exist_ok=True)
    net = {'ssid': 'bar', 'password': password}
    if mqtt is not None:
        net['mqtt'] = mqtt
    with open(os.path.join(flash, 'net.json'), 'w') as f:
        json.dump(net, f)


class SimProc:
    """One simulator process on a free loopback port. A subclass may set how long view() and
    stop() wait (VIEW_S, STOP_S) and how patient http() is (HTTP_TRIES connects, HTTP_S
    each)."""
    VIEW_S = 10
    HTTP_TRIES = 100
    HTTP_S = 5
    STOP_S = 5

    def __init__(self, script, board, flash, extra=()):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, script, '--board', board, '--http', '127.0.0.1:%d' % self.port,
             '--headless', '--flash', flash] + list(extra),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            bufsize=1)
        self.lines = []
        self.token = None

    def view(self, pred, timeout=None, since=0):
        """The first view line (from line `since` on, printed already or from now on) that
        satisfies pred."""
        end = time.monotonic() + (self.VIEW_S if timeout is None else timeout)
        for v in self.lines[since:]:
            if pred(v):
                return v
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            v = json.loads(line)
            self.lines.append(v)
            if pred(v):
                return v
        raise AssertionError('no such view; last %r' % self.lines[-1:])

    def send(self, line):
        self.proc.stdin.write(line + '\n')
        self.proc.stdin.flush()

    def http(self, method, path, body=None, token=None):
        """(status, JSON reply); with `token`, or else the paired one (self.token) if any."""
        token = token or self.token
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request('http://127.0.0.1:%d%s' % (self.port, path), data=data,
                                     method=method)
        if data is not None:
            req.add_header('Content-Type', 'application/json')
        if token:
            req.add_header('Authorization', 'Bearer ' + token)
        for _ in range(self.HTTP_TRIES):
            try:
                with urllib.request.urlopen(req, timeout=self.HTTP_S) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())
            except (ConnectionError, urllib.error.URLError):
                time.sleep(0.05)
        raise AssertionError('the simulator never answered')

    def pair(self):
        """Pair as a phone does, with the PIN the board's view shows; self.token is then the
        phone's."""
        self.view(lambda v: True)
        n = len(self.lines)
        status, _ = self.http('POST', '/api/pair', {})
        assert status == 202
        pin = self.view(lambda v: 'pin' in v, since=n)['pin']  # read off the board's view
        status, r = self.http('POST', '/api/pair', {'pin': pin})
        assert status == 200, r
        self.token = r['token']

    def stop(self):
        """Quit (killed if it does not); returns what it wrote on standard error."""
        try:
            self.send('quit')
            self.proc.wait(timeout=self.STOP_S)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        err = self.proc.stderr.read()
        for f in (self.proc.stdout, self.proc.stderr, self.proc.stdin):
            f.close()
        return err
