# States saved by the firmware as it was before the controller's state became an explicit
# structure (host_tests/fixtures/saved/, made once by make_fixtures.py there, never remade):
# each must resume exactly after every later change. A player powers the board on from that
# flash (tools/sim.py --flash, the real loop on the virtual board, under the MicroPython unix
# port and under CPython), sees the same view, and undoes and redoes as that firmware did.
import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SAVED = os.path.join(HERE, 'fixtures', 'saved')
SIM = os.path.join(ROOT, 'tools', 'sim.py')
NAMES = sorted(n for n in os.listdir(SAVED) if os.path.isdir(os.path.join(SAVED, n)))


def expect(name):
    with open(os.path.join(SAVED, name, 'expect.json')) as f:
        return json.load(f)


def flash(tmp_path, name):
    d = tmp_path / name
    shutil.copytree(os.path.join(SAVED, name), d)
    for extra in ('expect.json', 'state.json'):
        os.remove(d / extra)
    return d


def same(views, want):
    # Every key the firmware of the fixtures showed, with its value; a key a later firmware
    # adds to the view model is no difference in what resumed.
    assert len(views) == len(want), (views, want)
    for got, exp in zip(views, want):
        assert {k: got.get(k, '(missing)') for k in exp} == exp


def resume(tmp_path, name, *args):
    d = flash(tmp_path, name)
    script = tmp_path / 'resume.txt'
    script.write_text('\n'.join(expect(name)['resume']) + '\n')
    r = subprocess.run([sys.executable, SIM, '--script', str(script), '--flash', str(d)]
                       + list(args), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()], d


def test_there_are_fixtures():
    assert len(NAMES) >= 8
    assert {'knockoff_mid', 'knockoff_match', 'horsecollar_aside', 'banked_aside',
            'phone_names', 'shovehapenny_cursor'} <= set(NAMES)


@pytest.mark.parametrize('name', NAMES)
def test_resumes_exactly_under_micropython(tmp_path, name):
    views, d = resume(tmp_path, name)
    same(views, expect(name)['views'])
    # and the state it saved since (in the current format) resumes too: power on again
    again = tmp_path / 'again'
    shutil.copytree(d, again)
    script = tmp_path / 'again.txt'
    script.write_text('state\n')
    r = subprocess.run([sys.executable, SIM, '--script', str(script), '--flash', str(again)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    last = json.loads(r.stdout.splitlines()[-1])
    assert dict(last, message=None) == dict(views[-1], message=None)


@pytest.mark.parametrize('name', ['knockoff_match', 'banked_aside', 'phone_names'])
def test_resumes_exactly_under_cpython(tmp_path, name):
    views, _ = resume(tmp_path, name, '--cpython')
    same(views, expect(name)['views'])


def test_settings_and_tally_come_back(tmp_path):
    # What the view does not show: the menu's brightness and sound, the match's best of, the
    # options each game remembers.
    from scoreboard.store import Store
    from scoreboard.ui.controller import Controller
    from scoreboard.ui.state import check
    st = Store(str(flash(tmp_path, 'knockoff_match')))
    c = Controller(0, store=st, saved=st.load(check), message=st.message)
    assert st.message is None
    assert c.settings['brightness'] == 4 and c.brightness == 3
    assert c.settings['sound'] == 'off'
    assert c.match.best_of == 3
    assert c.opts('knockoff')['target'] == 5
    st = Store(str(flash(tmp_path, 'phone_names')))
    c = Controller(0, store=st, saved=st.load(check), message=st.message)
    assert c.view['names'] == {'red': 'Ann', 'blue': 'Bo & Cy'}
    assert c.opts('tapdraw')['doubles'] is True and c.opts('tapdraw')['handicap'] == 'red'
