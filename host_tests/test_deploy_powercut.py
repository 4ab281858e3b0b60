# The power cut at every file of a deploy (DESIGN section 12): the pty board (tools/vboard.py)
# runs version 1 of the firmware with a saved game; version 2 changes every file; its deploy is
# cut at the first file it opens for writing, then at the second, ... up to the last (and the
# pointer's writes at the first boots of the new version): every one with SWEEP=long (make
# fuzz), a sample of them and every one around the switch in make test. After each cut the
# power comes back and the board boots: it runs the whole of version 1 or the whole of
# version 2 (every module it loaded from the folder the pointer names, every file of that
# folder as its manifest says), never a mix, and the saved game is there. Then two deploys in
# a row with every file changed, with the watchdog running, both complete.
import json
import os
import shutil
import subprocess
import time

import pytest

import deploy
from test_deploy import tree  # noqa: F401  (the fixture)
from test_vboard import VBoardProcess, mpremote

pytest.importorskip('serial')

BOARD = 'pico_tm1637'
CHECK = '''\
import sys, json, apps
from scoreboard.store import Store
from scoreboard.ui.state import check
ptr = apps.read()
run = ptr['run'] if ptr else None
mods = sorted(set([getattr(m, '__file__', '') for n, m in sys.modules.items()
                   if n == 'scoreboard' or n.startswith('scoreboard.')]))
st = Store('').load(check)
print('@@' + json.dumps({'run': run, 'version': apps.version(run) if run else None,
                         'verify': apps.verify(run) if run else 'none', 'mods': mods,
                         'app': 'scoreboard.app' in sys.modules,
                         'game': st['game'] if st else None}))
'''


def saved_game(flash):
    """Play a few frames on the simulator with `flash` as its flash: the saved game."""
    import app_probe      # host_tests/ is on the test path
    sim = app_probe.sim_engine.Sim(BOARD, str(flash), app_probe.Null())
    app_probe.play(sim, ['wait 1200', 'tap OK', 'tap RED', 'tap RED', 'tap OK', 'tap BLUE',
                         'tap OK'])
    from scoreboard.store import Store
    from scoreboard.ui.state import check
    return Store(str(flash)).load(check)['game']


def every_file_changed(tree):  # noqa: F811
    for dirpath, _, files in os.walk(tree['src']):
        for name in files:
            p = os.path.join(dirpath, name)
            if name.endswith('.py'):
                with open(p, 'a') as f:
                    f.write('\n_V2 = 2\n')
            elif name.endswith('.html'):
                with open(p, 'a') as f:
                    f.write('<!-- v2 -->\n')


def look(vb, tries=3):
    """What the board runs, once its firmware is up (booted by main.py, then interrupted)."""
    time.sleep(1.5)
    last = ''
    for _ in range(tries):
        try:
            r = mpremote(vb.path, 'resume', 'exec', CHECK, timeout=30)
        except subprocess.TimeoutExpired as e:
            # the unix port's rare Ctrl-C deadlock (test_vboard.py): the board goes on
            last = 'mpremote timed out: %r' % (e.stdout,)
            continue
        line = [ln for ln in r.stdout.splitlines() if ln.startswith('@@')]
        if line:
            got = json.loads(line[0][2:])
            if got['app']:
                return got
            last = repr(got)
        else:
            last = r.stdout + r.stderr
        mpremote(vb.path, 'reset')      # not up yet when interrupted: boot it again
        time.sleep(2.5)
    raise AssertionError('the board does not run the firmware: %s\n%s\n%s' % (
        last, flash_report(vb.flash), vb.messages()[-3000:]))


def flash_report(flash):
    out = []
    for name in ('app.json', 'app.json.new', 'log.txt'):
        p = os.path.join(flash, name)
        if os.path.exists(p):
            with open(p, errors='replace') as f:
                out.append('%s: %s' % (name, f.read()[-1500:]))
    for d in ('app_a', 'app_b'):
        top = os.path.join(flash, d)
        n = sum(len(fs) for _, _, fs in os.walk(top))
        out.append('%s: %d files, manifest %s' % (d, n, os.path.exists(
            os.path.join(top, 'manifest.json'))))
    return '\n'.join(out)


STRIDE = 16
TAIL = 5


def writes(tree, tmp_path, snapshot, flash):  # noqa: F811
    """How many files the whole deploy (and the first boot after it) opens for writing."""
    shutil.rmtree(flash)
    shutil.copytree(snapshot, flash)
    counter = tmp_path / 'count'
    big = 100000
    counter.write_text(str(big))
    vb = VBoardProcess(flash, env={'VBOARD_CUT': str(counter)})
    try:
        deploy.deploy(BOARD, vb.path, src=str(tree['src']), out=str(tmp_path / 'b2'),
                      boards_dir=str(tree['boards']))
        time.sleep(4)
    finally:
        vb.stop()
    return big - int(counter.read_text())


def build_version(tree, out):  # noqa: F811
    made = deploy.build(str(tree['src']), str(out))
    return deploy.make_manifest(deploy.package_files(made))['version']


def test_a_power_cut_at_each_write_of_a_deploy_leaves_one_whole_version(tree, tmp_path):  # noqa: F811
    if not tree['real']:
        pytest.skip('needs the real firmware')
    flash = tmp_path / 'flash'
    flash.mkdir()
    game = saved_game(flash)
    assert game is not None
    vb = VBoardProcess(flash)
    try:
        deploy.deploy(BOARD, vb.path, src=str(tree['src']), out=str(tmp_path / 'b1'),
                      boards_dir=str(tree['boards']))
        v1 = look(vb)
    finally:
        vb.stop()
    assert v1['app'] and v1['verify'] is None and v1['game'] == game, v1
    snapshot = tmp_path / 'v1'
    shutil.copytree(flash, snapshot)
    every_file_changed(tree)
    v2 = build_version(tree, tmp_path / 'b2')
    assert v2 != v1['version']

    # Every write with SWEEP=long (make fuzz: about 80 cuts, 15 minutes on a loaded machine);
    # in make test every STRIDE-th, and each of the last writes, where the switch happens.
    every = os.environ.get('SWEEP') == 'long'
    total = writes(tree, tmp_path, snapshot, flash)
    cuts = [k for k in range(1, total + 2)
            if every or k % STRIDE == 1 or k > total - TAIL]
    counter = tmp_path / 'cut'
    seen = {}
    t0 = time.monotonic()
    for k in cuts:
        shutil.rmtree(flash)
        shutil.copytree(snapshot, flash)
        counter.write_text(str(k))
        vb = VBoardProcess(flash, env={'VBOARD_CUT': str(counter)})
        try:
            try:
                deploy.deploy(BOARD, vb.path, src=str(tree['src']), out=str(tmp_path / 'b2'),
                              boards_dir=str(tree['boards']), timeout=3)
            except deploy.DeployError:
                pass
            # the first boots of the new version write its pointer too: give them a chance
            deadline = time.monotonic() + 6
            while vb.proc.poll() is None and time.monotonic() < deadline and int(
                    counter.read_text()) > 0:
                time.sleep(0.2)
            cut = 'vboard: power cut' in vb.messages()
        finally:
            vb.stop()
        vb = VBoardProcess(flash)     # the power is back
        try:
            got = look(vb)
        finally:
            vb.stop()
        assert got['verify'] is None, (k, got, flash_report(flash))
        assert got['version'] in (v1['version'], v2), (k, got)
        prefix = 'app_%s/' % got['run']
        assert got['mods'] and all(m.startswith(prefix) for m in got['mods']), (k, got)
        assert got['game'] == game, (k, got)
        seen[k] = 'v1' if got['version'] == v1['version'] else 'v2'
        assert cut or k > total, (k, total)
    print('power cut at %d of %d writes in %.0fs: %s' % (
        len(cuts) - 1, total, time.monotonic() - t0,
        ''.join('1' if seen[i] == 'v1' else '2' for i in sorted(seen))))
    assert total > 70           # every file of the package is a cut point
    assert seen[1] == 'v1' and seen[cuts[-1]] == 'v2'
    # once the new version runs, it stays: no cut goes back to a mix or to the old one
    order = [seen[i] for i in sorted(seen)]
    assert order == sorted(order), order


def test_two_deploys_in_a_row_with_every_file_changed_and_the_watchdog_running(tree, tmp_path):  # noqa: F811
    if not tree['real']:
        pytest.skip('needs the real firmware')
    flash = tmp_path / 'flash'
    flash.mkdir()
    vb = VBoardProcess(flash)
    try:
        deploy.deploy(BOARD, vb.path, src=str(tree['src']), out=str(tmp_path / 'b'),
                      boards_dir=str(tree['boards']))
        time.sleep(1)
        versions = []
        for n in range(2):
            every_file_changed(tree)
            t0 = time.monotonic()
            got = deploy.deploy(BOARD, vb.path, src=str(tree['src']), out=str(tmp_path / 'b'),
                                boards_dir=str(tree['boards']))
            took = time.monotonic() - t0
            assert got['switched'] and not got['carried'], got
            print('deploy %d: every file changed, %d written in %.1fs' % (
                n + 1, len(got['wrote']), took))
            state = look(vb)
            assert state['version'] == got['version'] and state['verify'] is None, state
            versions.append(state['version'])
            # the watchdog runs all along (the firmware started it at boot)
            r = mpremote(vb.path, 'resume', 'exec', 'import machine\n'
                         'print(machine.watchdog().timeout)')
            assert r.stdout.strip() == '8000', r.stdout + r.stderr
        assert len(set(versions)) == 2
        assert 'watchdog reset' not in vb.messages()
    finally:
        vb.stop()
