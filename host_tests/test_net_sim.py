# tools/net_sim.py, the real-time simulator of a Wi-Fi board, as a person or a test runs it:
# `--http HOST:PORT --headless` serves the API from the firmware under the MicroPython unix port
# and prints the view model as one JSON line at every change; lines on standard input are
# press-script commands in real time; a board without Wi-Fi is refused.
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from sim_proc import SimProc, free_port, write_net

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NET_SIM = os.path.join(ROOT, 'tools', 'net_sim.py')


class Sim(SimProc):
    def __init__(self, flash, board='wlan_tm1637', extra=()):
        super().__init__(NET_SIM, board, flash, extra)


def test_headless_serves_the_api_and_prints_every_change():
    with tempfile.TemporaryDirectory() as flash:
        write_net(flash, password='secret-password')
        sim = Sim(flash)
        try:
            first = sim.view(lambda v: True)
            assert first['screen'] == 'setup'
            status, v = sim.http('GET', '/api/view')
            assert status == 200 and v['screen'] == 'setup'
            sim.send('tap OK')                     # the board's own button, in real time
            v = sim.view(lambda v: v['screen'] == 'play')
            assert sim.http('GET', '/api/view')[1]['screen'] == 'play'
            status, r = sim.http('POST', '/api/press', {'button': 'RED', 'gesture': 'tap'})
            assert status == 401 and r['error']
        finally:
            err = sim.stop()
        assert 'secret-password' not in err and 'on bar' in err


def test_a_board_without_wifi_is_refused():
    r = subprocess.run([sys.executable, NET_SIM, '--board', 'pico_tm1637', '--http',
                        '127.0.0.1:%d' % free_port(), '--headless'],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "NETWORK = 'wlan'" in r.stderr
    r = subprocess.run([sys.executable, NET_SIM, '--http', 'nowhere'], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and 'HOST:PORT' in r.stderr


def test_without_net_json_the_board_opens_its_access_point():
    with tempfile.TemporaryDirectory() as flash:
        sim = Sim(flash)
        try:
            sim.view(lambda v: True)
            for _ in range(100):
                req = urllib.request.urlopen('http://127.0.0.1:%d/' % sim.port, timeout=5)
                page = req.read().decode()
                if '<form' in page:
                    break
                time.sleep(0.05)
            assert 'name="ssid"' in page and 'scoreboard-' in page
        finally:
            err = sim.stop()
        assert 'access point scoreboard-' in err


def test_a_phone_pairs_with_the_pin_the_simulator_prints_and_plays():
    with tempfile.TemporaryDirectory() as flash:
        write_net(flash, password='password1')
        sim = Sim(flash)
        try:
            sim.pair()                     # with the PIN read off the board's view
            token = sim.token
            status, v = sim.http('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'}, token)
            assert status == 200 and v['screen'] == 'play'
            status, v = sim.http('POST', '/api/action', {'do': 'frame', 'red': 0, 'blue': 5},
                                 token)
            assert status == 200 and v['blue'] == 5 and v['hammer'] == 'red'
            assert sim.view(lambda v: v['blue'] == 5)['frame'] == 2
        finally:
            sim.stop()
        # The token is on the virtual flash: a second run of the board knows the phone.
        sim = Sim(flash)
        try:
            sim.view(lambda v: True)
            status, v = sim.http('POST', '/api/action', {'do': 'undo'}, token)
            assert status == 200 and v['blue'] == 0
        finally:
            sim.stop()
