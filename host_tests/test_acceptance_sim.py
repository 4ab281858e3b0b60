# Acceptance checks of tools/sim.py as a user (or an outside test) runs it: a press-script file,
# `--board NAME`, `--flash DIR`, one JSON view-model line per `state` (DESIGN section 6), and
# attacks on the kept flash folder (DESIGN section 7: "Corrupt or foreign files are ignored with
# a message, never a crash loop"). Each run is a subprocess under the MicroPython unix port, the
# simulator's default.
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, 'tools', 'sim.py')

SEED_000 = """# seed 000: Alice (red) plays Ben (blue) to fifteen; Ben has the hammer
state
tap OK
""" + 'tap BLUE\n' * 5 + 'tap OK\nstate\n' + 'tap RED\n' * 4 + 'tap OK   # Alice 4\n' + \
    'tap RED\n' * 4 + 'tap OK\nstate\n' + 'tap BLUE\n' * 3 + 'tap OK\nstate\n'


def sim(tmp_path, script, *args, name='s.txt'):
    path = tmp_path / name
    path.write_text(script)
    r = subprocess.run([sys.executable, SIM, '--script', str(path)] + list(args),
                       capture_output=True, text=True, timeout=120)
    return r


def views(r):
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def boards():
    r = subprocess.run([sys.executable, SIM, '--list-boards'], capture_output=True, text=True,
                       timeout=60)
    names = r.stdout.split()
    assert 'pico_tm1637' in names
    return names


def test_seed_000_on_the_default_board(tmp_path):
    s = views(sim(tmp_path, SEED_000))
    assert len(s) == 4                       # one line per `state`, nothing else on stdout
    setup, f1, f3, f4 = s
    assert (setup['screen'], setup['game'], setup['hammer'], setup['target']) == (
        'setup', 'knockoff', 'blue', 15)
    assert (f1['blue'], f1['hammer'], f1['frame']) == (5, 'red', 2)
    assert (f3['red'], f3['blue'], f3['frame']) == (8, 5, 4)
    assert (f4['red'], f4['blue'], f4['hammer'], f4['frame']) == (8, 8, 'red', 5)


def test_every_board_plays_the_same_game(tmp_path):
    first = None
    for b in boards():
        s = views(sim(tmp_path, SEED_000, '--board', b))
        if first is None:
            first = s
        assert s == first, b


def test_flash_dir_keeps_the_game_between_runs(tmp_path):
    flash = tmp_path / 'flash'
    flash.mkdir()
    views(sim(tmp_path, SEED_000, '--flash', str(flash)))
    (v,) = views(sim(tmp_path, 'state\n', '--flash', str(flash)))
    assert (v['screen'], v['red'], v['blue'], v['frame'], v['hammer']) == ('play', 8, 8, 5, 'red')
    # without --flash each run starts blank
    (v,) = views(sim(tmp_path, 'state\n'))
    assert (v['screen'], v['red'], v['blue']) == ('setup', 0, 0)


def test_power_cut_in_a_script_resumes_with_undo_history(tmp_path):
    s = views(sim(tmp_path, SEED_000 + 'power-cut\nstate\nhold OK 1000\nstate\n'))
    assert s[-2]['red'] == 8 and s[-2]['blue'] == 8 and s[-2]['frame'] == 5
    assert (s[-1]['blue'], s[-1]['frame'], s[-1]['hammer']) == (5, 4, 'blue')


def test_script_errors_exit_2_naming_the_line(tmp_path):
    for script in ('tap OK\nbogus X\n', 'tap GREEN\n', 'hold RED\n', 'wait soon\n'):
        r = sim(tmp_path, script)
        assert r.returncode == 2, script
        assert 'line' in r.stderr


def good_flash(tmp_path):
    flash = tmp_path / 'flash'
    flash.mkdir()
    views(sim(tmp_path, 'tap OK\ntap RED\ntap OK\ntap BLUE\ntap BLUE\ntap OK\n', '--flash',
              str(flash)))
    return flash


def slots(flash):
    return sorted(n for n in os.listdir(flash) if n.startswith('state'))


def run_state(tmp_path, flash):
    s = views(sim(tmp_path, 'state\ntap OK\ntap RED\ntap OK\npower-cut\nstate\n', '--flash',
                  str(flash)))
    return s


@pytest.mark.parametrize('attack', ['garbage', 'foreign_json', 'empty', 'truncated',
                                    'bit_flip', 'huge'])
def test_a_damaged_newest_slot_falls_back_or_starts_fresh_with_a_message(tmp_path, attack):
    flash = good_flash(tmp_path)
    names = slots(flash)
    assert names, 'no state file written'
    for n in names:
        data = (flash / n).read_bytes()
        if attack == 'garbage':
            data = os.urandom(300)
        elif attack == 'foreign_json':
            data = b'{"hello": "world", "v": 1}\n'
        elif attack == 'empty':
            data = b''
        elif attack == 'truncated':
            data = data[:len(data) // 2]
        elif attack == 'bit_flip':
            data = bytearray(data)
            data[len(data) // 2] ^= 0x10
            data = bytes(data)
        elif attack == 'huge':
            data = data + os.urandom(200000)
        (flash / n).write_bytes(data)
    boot, after = run_state(tmp_path, flash)
    # no crash loop: it boots, can be played, and what is played is kept
    assert boot['screen'] in ('setup', 'play')
    if attack != 'empty':
        assert boot['message'], attack       # "ignored with a message"
    assert after['screen'] == 'play'


def test_an_older_damaged_slot_keeps_the_newest_game(tmp_path):
    flash = good_flash(tmp_path)
    names = slots(flash)
    assert len(names) == 2
    # damage each slot in turn: one of them holds the newest game, which must come back whole
    seen = []
    for n in names:
        f2 = tmp_path / ('copy_' + n)
        f2.mkdir()
        for m in names:
            (f2 / m).write_bytes((flash / m).read_bytes())
        (f2 / n).write_bytes(os.urandom(300))
        (v,) = views(sim(tmp_path, 'state\n', '--flash', str(f2)))
        seen.append((v['red'], v['blue'], v['frame']))
    assert (1, 2, 3) in seen                 # red 1, blue 2, frame 3: the last entry


def test_a_slot_that_cannot_be_written_still_saves(tmp_path):
    flash = good_flash(tmp_path)
    for n in slots(flash):
        os.remove(flash / n)
        os.mkdir(flash / n)                  # a directory where a slot file should be
        break
    s = views(sim(tmp_path, 'state\ntap RED\ntap OK\npower-cut\nstate\n', '--flash', str(flash)))
    assert s[-1]['screen'] == 'play'
    assert s[-1]['red'] == s[0]['red'] + 1   # the new entry survived the power cut


def test_a_power_cut_after_every_committed_step_changes_nothing(tmp_path):
    # The seed 000 game, a line move, an undo and a redo, a win and a bank: the same script
    # with a power cut after every step that commits ends exactly where the uncut one does.
    # '!' marks a step after which the cut comes (never inside the menu: it is RAM).
    steps = (['tap OK!'] + ['tap BLUE'] * 5 + ['tap OK!'] + ['tap RED'] * 4 + ['tap OK!'] +
             ['tap RED'] * 4 + ['tap OK!'] + ['tap BLUE'] * 3 + ['tap OK!'] +
             ['hold OK 3100', 'tap OK', 'tap RED', 'tap RED', 'tap RED', 'hold OK 1000!',
              'hold OK 1000!', 'chord RED BLUE 1200!'] +
             ['tap RED'] * 4 + ['tap OK!', 'state', 'tap OK!', 'state'])
    plain = ''.join(x.rstrip('!') + '\n' for x in steps)
    cut = ''.join(x.rstrip('!') + '\n' + ('power-cut\nwait 1200\n' if x.endswith('!') else '')
                  for x in steps)
    a = views(sim(tmp_path, plain))
    b = views(sim(tmp_path, cut, name='cut.txt'))
    assert a[0]['screen'] == 'over' and a[0]['winner'] == 'red' and a[0]['target'] == 12
    assert a[1]['screen'] == 'setup' and a[1]['games'] == {'red': 1, 'blue': 0}
    strip = [{k: v[k] for k in v if k != 'message'} for v in a]
    assert [{k: v[k] for k in v if k != 'message'} for v in b] == strip
