# runs-on: micropython
# Issue 25, the simulator's side: a press-script line of any length is read in bounded memory
# (a long line is an error naming it, exit code 2, not a MemoryError), and a virtual power cut
# loses all RAM, module-level state included (the store's count of failed writes), as a
# board's power cut does.
import os
import sys

from app_probe import new_sim, play


def _store_module():
    return sys.modules['scoreboard.store']


def test_a_power_cut_forgets_the_stores_failure_count():
    sim = new_sim('pico_tm1637', 'simfaults')
    play(sim, ['tap OK', 'tap RED', 'tap OK'])
    st = _store_module()
    # as after KEEP writes the flash refused this boot: the store writes nothing more
    st._kept[:] = [None] * st.KEEP
    play(sim, ['tap BLUE', 'tap OK'])
    v = sim.app.ctl.view
    assert v['message'] == 'not saved flash error', v
    assert (v['red'], v['blue']) == (1, 1)
    play(sim, ['power-cut'])            # the RAM goes, the count with it
    v = sim.app.ctl.view
    assert (v['red'], v['blue']) == (1, 0), v   # the unsaved frame is gone, as it said
    assert len(_store_module()._kept) == 0
    play(sim, ['tap BLUE', 'tap BLUE', 'tap OK'])
    v = sim.app.ctl.view
    assert v['message'] is None, v      # saved again
    play(sim, ['power-cut'])
    v = sim.app.ctl.view
    assert (v['red'], v['blue'], v['frame']) == (1, 2, 3), v


def _run_sim(path, *extra):
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run([sys.executable, os.path.join(root, 'tools', 'sim.py'),
                           '--script', path] + list(extra),
                          capture_output=True, text=True, timeout=300)


def test_tools_sim_power_cut_forgets_the_firmwares_module_state():
    # tools/sim.py as a user runs it: the firmware's modules load again after a power cut,
    # so the store's count of failed writes (full at the first boot here) is gone
    if sys.implementation.name == 'micropython':
        return
    import tempfile
    here = os.path.dirname(os.path.abspath(__file__))
    board = os.path.join(here, 'fixtures', 'boards', 'refusing_store.py')
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('tap OK\ntap RED\ntap OK\nstate\npower-cut\ntap OK\ntap BLUE\ntap OK\nstate\n'
                'power-cut\nstate\n')
    try:
        for extra in ((), ('--cpython',)):
            r = _run_sim(f.name, '--board', board, *extra)
            assert r.returncode == 0, (extra, r.stderr[-2000:])
            import json
            s = [json.loads(x) for x in r.stdout.splitlines()]
            assert s[0]['message'] == 'not saved flash error', (extra, s[0])
            assert (s[1]['red'], s[1]['blue'], s[1]['message']) == (0, 1, None), (extra, s[1])
            assert (s[2]['red'], s[2]['blue']) == (0, 1), (extra, s[2])    # it was saved
    finally:
        os.remove(f.name)


def test_a_line_of_a_megabyte_is_an_error_for_that_line():
    if sys.implementation.name == 'micropython':
        return                          # pytest runs tools/sim.py, which starts MicroPython
    import tempfile
    for line in ('tap ' + 'x' * (1 << 20), '# ' + 'y' * (1 << 20), 'z' * (3 << 20)):
        with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
            f.write('state\ntap OK\n' + line + '\nstate\n')
        try:
            for extra in ((), ('--cpython',)):
                r = _run_sim(f.name, *extra)
                assert r.returncode == 2, (extra, r.returncode, r.stderr[-2000:])
                assert 'line 3: a line longer than 4096 bytes' in r.stderr, r.stderr[-2000:]
                assert 'MemoryError' not in r.stderr and 'Traceback' not in r.stderr
                assert r.stdout == '', 'checked before anything runs'
        finally:
            os.remove(f.name)
    # lines up to the bound are read whole, the last one with or without its newline
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('tap OK\n' + 'wait 10' + ' ' * (4096 - 7) + '\nstate')
    try:
        r = _run_sim(f.name)
        assert r.returncode == 0, r.stderr[-2000:]
        assert '"screen": "play"' in r.stdout, r.stdout
    finally:
        os.remove(f.name)


def test_a_long_line_on_the_interactive_pipe_is_answered_as_an_error():
    # the engine's --stdin mode (what tools/sim.py's terminal front end talks to): the long
    # line gets an error answer, and the lines after it still run
    if sys.implementation.name == 'micropython':
        return
    import subprocess
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mp = os.path.join(root, '.venv', 'bin', 'micropython')
    if not os.path.exists(mp):
        import pytest
        pytest.skip('no MicroPython unix port in .venv')
    flash = tempfile.mkdtemp()
    text = 'tap OK\n' + 'tap ' + 'x' * (1 << 20) + '\nstate\n'
    for cmd in ([mp], [sys.executable]):
        r = subprocess.run(cmd + [os.path.join(root, 'tools', 'sim_cli.py'), '--root', root,
                                  '--board', 'pico_tm1637', '--flash', flash, '--stdin'],
                           input=text, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (cmd, r.stderr[-2000:])
        lines = r.stdout.splitlines()
        assert lines[0].startswith('error: line 2: a line longer than 4096 bytes'), lines[:3]
        assert '"screen": "play"' in lines[2], lines[:3]
