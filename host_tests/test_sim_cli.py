# tools/sim.py as a user runs it: a press script on virtual time under the MicroPython unix port
# (and the same output under CPython), errors that name the line with exit code 2, a flash
# folder kept between runs.
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, 'tools', 'sim.py')

GAME = """# seed 000, the first two frames
state
tap OK
tap BLUE
tap BLUE
hold BLUE 1000
state
tap OK
state
tap RED
down OK
wait 100
up OK
wait 300
state
power-cut
state
"""


def sim(tmp_path, text, *args):
    script = tmp_path / 'script.txt'
    script.write_text(text)
    return subprocess.run([sys.executable, SIM, '--script', str(script)] + list(args),
                          capture_output=True, text=True, timeout=120)


def states(r):
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_script_under_micropython(tmp_path):
    r = sim(tmp_path, GAME)
    assert r.returncode == 0, r.stderr
    s = states(r)
    assert len(s) == 5
    assert s[0]['screen'] == 'setup'
    assert s[1]['pending'] == {'red': 0, 'blue': 5}    # 2 taps, then 600 ms + 2 x 150 ms held
    assert (s[2]['blue'], s[2]['hammer'], s[2]['frame']) == (5, 'red', 2)
    assert (s[3]['red'], s[3]['hammer']) == (1, 'blue')
    assert s[4] == dict(s[3], message=s[4]['message'])
    assert list(s[0])[:4] == ['screen', 'game', 'red', 'blue']   # documented key order


def test_cpython_gives_the_same_lines(tmp_path):
    a = sim(tmp_path, GAME)
    b = sim(tmp_path, GAME, '--cpython')
    assert a.returncode == b.returncode == 0, b.stderr
    assert a.stdout == b.stdout


def test_every_board_plays_the_same_script(tmp_path):
    boards = sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, 'boards')) if n.endswith('.py'))
    want = None
    for board in boards:
        r = sim(tmp_path, GAME, '--board', board)
        assert r.returncode == 0, (board, r.stderr)
        if want is None:
            want = r.stdout
        assert r.stdout == want, board


def test_errors_name_the_line_and_exit_2(tmp_path):
    for text, words in (('state\ntap PURPLE\n', 'line 2'), ('tap OK\n\nfly\n', 'line 3'),
                        ('wait x\n', 'line 1'), ('hold OK\n', 'line 1')):
        r = sim(tmp_path, text)
        assert r.returncode == 2, text
        assert words in r.stderr, r.stderr
        assert r.stdout == ''
    r = sim(tmp_path, 'state\n', '--board', 'no_such_board')
    assert r.returncode == 2 and 'unknown board' in r.stderr


def test_a_line_that_is_not_utf8_is_named_too(tmp_path):
    script = tmp_path / 'script.txt'
    script.write_bytes(b'tap OK\r\n\xff\xfe bad\nstate\n')
    for extra in ([], ['--cpython']):
        r = subprocess.run([sys.executable, SIM, '--script', str(script)] + extra,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and 'line 2: not UTF-8 text' in r.stderr, (extra, r.stderr)
        assert r.stdout == ''


def test_quit_ends_a_script_there(tmp_path):
    r = sim(tmp_path, 'tap OK\r\ntap RED\r\nstate\nquit\ntap RED\nstate\n')
    assert r.returncode == 0, r.stderr
    assert [v['pending'] for v in states(r)] == [{'red': 1, 'blue': 0}]


def test_flash_folder_keeps_the_game(tmp_path):
    flash = tmp_path / 'flash'
    r1 = sim(tmp_path, 'tap OK\ntap RED\ntap OK\n', '--flash', str(flash))
    assert r1.returncode == 0
    r2 = sim(tmp_path, 'state\n', '--flash', str(flash))
    (v,) = states(r2)
    assert (v['screen'], v['red'], v['hammer']) == ('play', 1, 'blue')
    r3 = sim(tmp_path, 'state\n')
    assert states(r3)[0]['screen'] == 'setup'    # without --flash: a blank flash


def test_interactive_summary_line(tmp_path):
    # `make sim` shows the view in words under the display; taken from real engine output
    r = sim(tmp_path, 'tap OK\ntap BLUE\ntap BLUE\nstate\nhold OK 3200\ntap OK\nstate\n'
                      'hold OK 1000\nhold OK 3200\n' + 'tap BLUE\n' * 5 + 'hold OK 1000\n'
                      'tap OK\ntap OK\ntap OK\nstate\nwait 3600000\nstate\n')
    assert r.returncode == 0, r.stderr
    import sim as front
    lines = [front.summary(line) for line in r.stdout.splitlines()]
    assert lines[0] == ('play | knockoff | red 0 | blue 0 (+2) | to 15 | hammer blue | '
                        'frame 1, end 1 | games 0-0'), lines[0]
    assert lines[1] == 'menu | knockoff | target = 15 | games 0-0', lines[1]
    # the knock-off game was set aside, not banked: no game of the match, so red opens this one
    # as it would have (the starter alternates between banked games)
    assert lines[2] == ('play | shovehapenny | red 2 | blue 0 | red to shoot | frame 1, end 1 | '
                        'cursor 1 | games 0-0'), lines[2]
    assert lines[3] == 'sleep | shovehapenny | games 0-0', lines[3]
    assert front.summary('not json') == 'not json'


def test_the_documented_example_script_does_what_its_comments_say(tmp_path):
    # (the example moved from the README to docs/simulator.md with the rest of the press scripts)
    with open(os.path.join(ROOT, 'docs', 'simulator.md')) as f:
        readme = f.read()
    part = readme.split('## Press scripts', 1)[1]
    script = part.split('```\n', 2)[1]
    assert script.startswith('# seed 000'), script[:40]
    before, after = states(sim(tmp_path, script))
    assert before['pending'] == {'red': 0, 'blue': 5} and before['blue'] == 0
    assert (after['blue'], after['frame'], after['hammer']) == (5, 3, 'blue')
    assert after['screen'] == 'play'


def test_help_lists_the_script_commands():
    r = subprocess.run([sys.executable, SIM, '--help'], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    for words in ('tap B', 'hold B MS', 'chord B1 B2 MS', 'down B', 'up B', 'wait MS',
                  'power-cut', 'state', 'draw', 'quit'):
        assert '\n  ' + words + ' ' in r.stdout, (words, r.stdout)
    # every command of the engine's table is listed, with what it does
    import sim_engine
    listed = [line.split() for line in r.stdout.split('press-script commands', 1)[1]
              .splitlines()[1:] if line.startswith('  ')]
    assert sorted(w[0] for w in listed) == sorted(sim_engine.COMMANDS)
    for w in listed:
        kinds = sim_engine.COMMANDS[w[0]][0]
        assert len(w) > 1 + len(kinds), w          # arguments, then a description


def test_draw_into_a_pipe_has_no_colour_codes(tmp_path):
    for board in ('pico_tm1637', 'esp32_ws2812'):
        r = sim(tmp_path, 'tap OK\ntap RED\ndraw\n', '--board', board)
        assert r.returncode == 0, r.stderr
        assert r.stdout.endswith('.\n') and len(r.stdout) > 20, r.stdout
        assert '\x1b' not in r.stdout, (board, r.stdout[:200])


def test_a_script_of_several_megabytes_streams_under_micropython(tmp_path):
    # 20,000 commands, 4.4 MB: the unix port's default heap (2 MB) cannot hold it whole
    pad = ' # ' + 'x' * 200
    lines = ['tap OK', 'tap RED'] + ['wait 5' + pad] * 19994 + ['tap RED', 'state', 'wait 1',
                                                                'state']
    text = '\n'.join(lines) + '\n'
    assert len(lines) == 20000 and len(text) > 4000000
    r = sim(tmp_path, text)
    assert r.returncode == 0, r.stderr[-2000:]
    s = states(r)
    assert len(s) == 2 and s[0]['pending'] == {'red': 2, 'blue': 0}, s


def test_a_bad_line_at_the_end_of_a_long_script_runs_nothing(tmp_path):
    r = sim(tmp_path, 'state\n' * 5000 + 'fly\n')
    assert r.returncode == 2 and 'line 5001' in r.stderr and r.stdout == ''


def test_a_wait_of_a_million_years_returns(tmp_path):
    r = sim(tmp_path, 'tap OK\ntap RED\nwait 1000000000000\nstate\ntap RED\ntap RED\nstate\n')
    assert r.returncode == 0, r.stderr
    asleep, awake = states(r)
    assert asleep['screen'] == 'sleep'
    assert awake['screen'] == 'play' and awake['pending'] == {'red': 2, 'blue': 0}
