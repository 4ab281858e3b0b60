"""`make venue-demo`: a local mosquitto, three tables and the venue service, until Ctrl-C.

The tables are the firmware's venue link (scoreboard/net) on the MicroPython unix port, driven
by a stand-in controller (vtable.py) that plays knock-off at random; once the app runs the net
part on virtual boards, these become `tools/sim.py` boards with a `net.json`.
"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


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
    mp = os.path.join(ROOT, '.venv', 'bin', 'micropython')
    path = '.frozen:%s:%s' % (os.path.join(ROOT, 'firmware'), os.path.join(ROOT, 'tools'))
    board_env = dict(os.environ, MICROPYPATH=path)
    for i in range(1, args.tables + 1):
        flash = os.path.join(work, 'table%d' % i)
        os.makedirs(flash)
        procs.append(subprocess.Popen(
            [mp, os.path.join(HERE, 'demo_board.py'), '127.0.0.1', str(port), 'demo', str(i),
             flash, str(args.speed)], env=board_env))
    print('venue demo: mosquitto on 127.0.0.1:%d, %d tables, the TV page on http://%s/ '
          '(Ctrl-C stops it; files in %s)' % (port, args.tables, args.http, work), flush=True)
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
        for pr in reversed(procs):
            if pr.poll() is None:
                pr.send_signal(signal.SIGINT if pr is procs[1] else signal.SIGTERM)
        for pr in procs:
            try:
                pr.wait(5)
            except subprocess.TimeoutExpired:
                pr.kill()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
