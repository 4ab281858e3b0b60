# Trial boot and rollback on the pty board (DESIGN section 12), with the watchdog as the
# RP2040's: version 1 runs with a saved game; version 2 is deployed and fails on trial, by
# faulting three times or by hanging (the watchdog resets the board), before it has run 60 s.
# The board goes back to version 1 by itself, says `update undone` on its display and in the
# fault log, and the saved game is there.
import json
import time

import pytest

import deploy
from test_deploy import tree  # noqa: F401  (the fixture)
from test_deploy_powercut import BOARD, look, saved_game
from test_vboard import VBoardProcess, mpremote

pytest.importorskip('serial')

FAULTS = '''

def _broken_step(self, now):
    raise RuntimeError('version 2 is broken')


App.step = _broken_step
'''
HANGS = '''

def _hung_step(self, now):
    while True:
        pass


App.step = _hung_step
'''
VIEW = ("import scoreboard.app as a, json\n"
        "print('@@' + json.dumps(a.current.ctl.view))\n")


def undone(vb, flash, v1, game, within):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        ptr = json.loads((flash / 'app.json').read_text())
        if ptr['run'] == 'a' and not ptr['trial'] and ptr['prev'] == 'b':
            break
        time.sleep(0.5)
    took = within - (deadline - time.monotonic())
    got = look(vb)
    assert got['version'] == v1 and got['verify'] is None and got['game'] == game, got
    r = mpremote(vb.path, 'resume', 'exec', VIEW)
    view = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith('@@')][0][2:])
    log = (flash / 'log.txt').read_text()
    return took, view, log


@pytest.mark.parametrize('fault', ['faults', 'hangs'])
def test_a_version_that_fails_on_trial_is_undone(tree, tmp_path, fault):  # noqa: F811
    if not tree['real']:
        pytest.skip('needs the real firmware')
    flash = tmp_path / 'flash'
    flash.mkdir()
    game = saved_game(flash)
    vb = VBoardProcess(flash)
    try:
        v1 = deploy.deploy(BOARD, vb.path, src=str(tree['src']), out=str(tmp_path / 'b'),
                           boards_dir=str(tree['boards']))['version']
        time.sleep(1)
        app = tree['src'] / 'scoreboard' / 'app.py'
        app.write_text(app.read_text() + (FAULTS if fault == 'faults' else HANGS))
        t0 = time.monotonic()
        v2 = deploy.deploy(BOARD, vb.path, src=str(tree['src']), out=str(tmp_path / 'b'),
                           boards_dir=str(tree['boards']))
        assert v2['switched'] == 'b' and v2['version'] != v1
        took, view, log = undone(vb, flash, v1, game, 40)
        print('%s: undone %.1fs after the deploy' % (fault, time.monotonic() - t0))
        assert view['message'] == 'update undone', view
        assert 'update undone: %s' % v2['version'] in log, log
        if fault == 'faults':
            assert 'version 2 is broken' in log and '3 faults' in log
            assert 'watchdog reset' not in vb.messages()
        else:
            assert 'watchdog reset' in vb.messages() and 'watchdog reset' in log
    finally:
        vb.stop()
