# The remote, light and tone commands of tools/sim.py --script as a user runs them (DESIGN
# section 11): seed 000's worked game scored from the IR remote of pico_tm1637 and from the
# keyfob of pico_ws2812_digits, the same lines under MicroPython and CPython, the tones played,
# errors that name the line.
import json
import os
import subprocess
import sys

from test_remote_app import IR, RF, seed_000

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, 'tools', 'sim.py')


def run(tmp_path, lines, board, *args):
    script = tmp_path / 'script.txt'
    script.write_text('\n'.join(lines) + '\n')
    return subprocess.run([sys.executable, SIM, '--script', str(script), '--board', board]
                          + list(args), capture_output=True, text=True, timeout=300)


def lines(r):
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_seed_000_from_the_remotes_through_sim_py(tmp_path):
    for board, cmd, codes in (('pico_tm1637', 'ir', IR), ('pico_ws2812_digits', 'rf', RF)):
        script = ['# seed 000 from the %s remote' % cmd] + seed_000(cmd, codes) + ['wait 1000',
                                                                                  'tones']
        r = run(tmp_path, script, board)
        assert r.returncode == 0, r.stderr
        v, tones = lines(r)
        assert (v['screen'], v['red'], v['blue'], v['winner']) == ('over', 14, 17, 'blue'), v
        assert 'tone' not in v and 'tones' not in v        # the view model's keys as documented
        hz = [t[0] for t in tones['tones']]
        if board == 'pico_tm1637':                 # the board with a buzzer: each press
            assert hz.count(3000) == len(seed_000(cmd, codes)) - 1, hz   # clicked,
            assert hz.count(1760) == 6 and hz[-4:] == [1047, 1319, 1568, 2093], hz
        else:
            assert hz == [], hz                    # no buzzer on this board: silence
        c = run(tmp_path, script, board, '--cpython')
        assert c.returncode == 0 and c.stdout == r.stdout, c.stderr


def test_held_keys_light_and_errors(tmp_path):
    r = run(tmp_path, ['rf 5a5a52', 'rf 0x5A5A58 1500', 'state', 'light 80', 'state'],
            'pico_ws2812_digits')
    assert r.returncode == 0, r.stderr
    a, b = lines(r)
    assert a['pending']['red'] >= 1 + (1500 - 600) // 150, a   # the fob's held key repeats
    r = run(tmp_path, ['tap OK', 'rf 5A5A52'], 'pico_tm1637')     # no RF receiver there
    assert r.returncode == 2 and 'line 2' in r.stderr and 'RF' in r.stderr, r.stderr
    r = run(tmp_path, ['tap OK', 'ir 12G4'], 'pico_tm1637')
    assert r.returncode == 2 and 'line 2' in r.stderr and 'hex' in r.stderr, r.stderr


def test_help_lists_the_remote_commands():
    r = subprocess.run([sys.executable, SIM, '--help'], capture_output=True, text=True,
                       timeout=60)
    for words in ('ir CODE [MS]', 'rf CODE [MS]', 'light PCT', 'tones'):
        assert '\n  ' + words + ' ' in r.stdout, (words, r.stdout)
