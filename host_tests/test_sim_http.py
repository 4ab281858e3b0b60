# `make sim BOARD=... HTTP=...` as a user meets it (tools/sim.py handing over to tools/net_sim.py):
# in a terminal it draws the live display after the lamp test, without a key pressed, and lists
# the keys; killing tools/sim.py (even with SIGKILL) leaves no MicroPython engine serving the
# port; a port in use is one clear error and an exit, not a retry every 2 s; HTTP= on a board
# without Wi-Fi says so, and prints no URL. CPython (it drives processes and a pseudo-terminal).
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIM = [sys.executable, os.path.join(ROOT, 'tools', 'sim.py')]
import net_harness as nh  # noqa: E402  (host_tests/ is on the test path)


def served(port):
    try:
        with socket.create_connection(('127.0.0.1', port), timeout=1) as s:
            s.sendall(b'GET /api/view HTTP/1.1\r\nHost: x\r\n\r\n')
            return s.recv(12).startswith(b'HTTP/1.')
    except OSError:
        return False


def wait_served(port, secs=30):
    end = time.time() + secs
    while time.time() < end:
        if served(port):
            return True
        time.sleep(0.1)
    return False


def test_http_on_a_board_without_wifi_says_so_and_prints_no_url():
    r = subprocess.run(SIM + ['--board', 'pico_tm1637', '--http', str(nh.free_port())],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    assert 'pico_tm1637 has no Wi-Fi' in r.stderr and 'pico_w_tm1637' in r.stderr
    assert 'http://' not in r.stderr + r.stdout


def test_a_port_in_use_is_one_clear_error_and_an_exit():
    port = nh.free_port()
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(('127.0.0.1', port))
    s.listen()
    try:
        t0 = time.time()
        r = subprocess.run(SIM + ['--board', 'pico_w_tm1637', '--http', '127.0.0.1:%d' % port],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert time.time() - t0 < 20
        assert r.returncode == 2, r
        lines = [x for x in r.stderr.splitlines() if x.strip()]
        assert lines == ['sim: port %d on 127.0.0.1 is in use (another simulator or server?): '
                         'choose another with HTTP=PORT' % port], lines
    finally:
        s.close()


def test_killing_sim_leaves_nothing_serving_the_port():
    for sig in (signal.SIGKILL, signal.SIGTERM):
        port = nh.free_port()
        # stdin a pipe that stays open, as in a script: the engine must not live on after sim.py
        proc = subprocess.Popen(SIM + ['--board', 'pico_w_tm1637', '--http',
                                       '127.0.0.1:%d' % port], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert wait_served(port), 'never served'
            proc.send_signal(sig)
            proc.wait(10)
            end = time.time() + 10
            while served(port) and time.time() < end:
                time.sleep(0.1)
            assert not served(port), 'the engine still serves after %s' % sig
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stdin.close()


def test_in_a_terminal_the_live_display_follows_the_lamp_test_and_the_keys_are_listed():
    import pty
    port = nh.free_port()
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(SIM[0], SIM + ['--board', 'pico_w_tm1637', '--http', '127.0.0.1:%d' % port])
    out = b''
    try:
        end = time.time() + 40
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
            frames = out.split(b'\x1b[H\x1b[2J')
            if len(frames) >= 3 and b'"screen": "setup"' in frames[-1] and \
                    b'space/enter: tap OK' in frames[-1]:
                break
        frames = [re.sub(rb'\x1b\[[0-9;?]*[a-zA-Z]', b'', f).decode('utf-8', 'replace')
                  for f in out.split(b'\x1b[H\x1b[2J')[1:]]
        assert len(frames) >= 2, out[-2000:]
        lamp, live = frames[0], frames[-1]
        assert 'http://127.0.0.1:%d/' % port in live
        assert 'r/b: tap RED/BLUE' in live and 'q: quit' in live       # the keys
        # The lamp test lights every segment: eight full digits; the live display does not.
        assert lamp.count('|_|') >= 16 and live.count('|_|') < 8, (lamp, live)
        os.write(fd, b'q')
        _, status = os.waitpid(pid, 0)
        pid = None
        assert not served(port)
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
