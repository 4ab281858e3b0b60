# Flashing without make or git: `mpremote mip install --target / URL` of package.json puts the
# whole board on the flash (main.py, the scoreboard package as source, every board file under
# /boards), the first boot offers the board files (scoreboard.boardpick), choosing one makes it
# /board.py and the firmware runs. On the virtual pty board (tools/vboard.py), from the
# repository served on a loopback HTTP server (as github:OWNER/REPO is, offline) and from a
# local path to package.json (an unpacked download of the repository).
import functools
import http.server
import json
import os
import re
import threading
import time

import pytest

from test_vboard import ROOT, VBoardProcess, mpremote

serial = pytest.importorskip('serial')


@pytest.fixture
def http_root():
    """The repository on http://127.0.0.1:PORT/, as raw.githubusercontent.com serves it."""
    handler = functools.partial(_Quiet, directory=ROOT)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield 'http://127.0.0.1:%d' % server.server_address[1], server
    server.shutdown()
    server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    served = []

    def log_message(self, fmt, *args):
        _Quiet.served.append(self.path)


def package():
    with open(os.path.join(ROOT, 'package.json')) as f:
        return json.load(f)


def installed_as_listed(flash):
    for target, url in package()['urls']:
        got = os.path.join(flash, target)
        assert os.path.isfile(got), target
        with open(got, 'rb') as a, open(os.path.join(ROOT, url), 'rb') as b:
            assert a.read() == b.read(), target


def mip(port, source):
    r = mpremote(port, 'mip', 'install', '--target', '/', source, timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'Done' in r.stdout, r.stdout
    return r


def test_mip_install_from_a_web_address_then_first_boot_then_play(tmp_path, http_root):
    url, _ = http_root
    flash = tmp_path / 'flash'
    flash.mkdir()
    (flash / 'notes.txt').write_text('mine')
    vb = VBoardProcess(flash)
    try:
        t0 = time.monotonic()
        mip(vb.path, url + '/package.json')
        took = time.monotonic() - t0
        installed_as_listed(str(flash))
        assert (flash / 'notes.txt').read_text() == 'mine'
        assert not (flash / 'board.py').exists()
        assert any(p.endswith('/package.json') for p in _Quiet.served)

        # First boot: no board.py, so main.py offers the board files one after another.
        r = mpremote(vb.path, 'reset')
        assert r.returncode == 0, r.stderr
        time.sleep(1.5)
        r = mpremote(vb.path, 'resume', 'exec',
                     "import sys; b = sys.modules.get('scoreboard.boardpick')\n"
                     "print(b.showing if b else 'no boardpick', 'scoreboard.app' in sys.modules)")
        assert r.returncode == 0, r.stderr
        showing, app_loaded = r.stdout.split()
        boards = [t[len('boards/'):-3] for t, _ in package()['urls'] if t.startswith('boards/')]
        assert showing in boards and app_loaded == 'False', r.stdout

        # The documented step: name the board; it becomes /board.py and the firmware runs.
        r = mpremote(vb.path, 'exec', "from scoreboard import boardpick\n"
                     "boardpick.choose('pico_tm1637')", '+', 'reset')
        assert r.returncode == 0, r.stdout + r.stderr
        with open(os.path.join(ROOT, 'boards', 'pico_tm1637.py'), 'rb') as f:
            assert (flash / 'board.py').read_bytes() == f.read()
        time.sleep(2)
        r = mpremote(vb.path, 'resume', 'exec',
                     "import sys, vboard_chips\n"
                     "print('app' if 'scoreboard.app' in sys.modules else 'no app')\n"
                     "print(vboard_chips.picture())")
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert lines[0] == 'app', r.stdout
        picture = '\n'.join(lines[1:])
        assert 'no virtual display' not in picture and re.search(r'[_|]', picture), picture
        print('mip install over HTTP: %d files in %.1fs' % (len(package()['urls']), took))
    finally:
        vb.stop()


def test_mip_install_from_a_local_package_json_then_make_deploy_over_it(tmp_path):
    flash = tmp_path / 'flash'
    flash.mkdir()
    vb = VBoardProcess(flash)
    try:
        mip(vb.path, os.path.join(ROOT, 'package.json'))
        installed_as_listed(str(flash))
        # A later `make deploy` puts the compiled package in an app folder (DESIGN section 12)
        # and removes the installed source: no .py of ours is left under /scoreboard, the
        # board files stay.
        import deploy
        got = deploy.deploy('pico_tm1637', vb.path, out=str(tmp_path / 'build'))
        left = [os.path.join(d, f) for d, _, fs in os.walk(flash / 'scoreboard') for f in fs
                if f.endswith('.py')]
        assert not left, left
        assert got['removed'] and all(p.endswith(('.py',) + deploy.DATA)
                                      for p in got['removed'])
        assert (flash / 'app_a' / 'scoreboard' / 'app.mpy').is_file()
        assert (flash / 'boards' / 'pico_tm1637.py').is_file()
        with open(os.path.join(ROOT, 'boards', 'pico_tm1637.py'), 'rb') as f:
            assert (flash / 'board.py').read_bytes() == f.read()
    finally:
        vb.stop()
