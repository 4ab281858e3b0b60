# runs-on: micropython
# Found by black-box checks against DESIGN: the starter alternates between banked games only (a
# game set aside by a menu change or new_game is no game of the match), and a hold's repeats are
# counted to the last millisecond the key is down. Press scripts through the virtual board.
from test_flows import play, taps


def test_an_abandoned_game_does_not_move_the_starter():
    # One frame of knock-off (red opened), then horse collar from the menu: horse collar's
    # default, first RED, as on a fresh board.
    script = 'tap OK\n' + taps('RED', 2) + 'tap OK\nhold OK 3000\ntap BLUE\ntap BLUE\n' \
        'hold OK 1000\nstate\n'
    (v,), _ = play(script)
    assert v['screen'] == 'setup' and v['game'] == 'horsecollar', v
    assert v['turn'] == 'red', v


def test_new_game_keeps_the_default_hammer():
    # Knock-off, one frame, then the menu's new_game: blue has the hammer again (red opens).
    script = 'tap OK\n' + taps('BLUE', 3) + 'tap OK\nhold OK 3000\n'
    _, sim = play(script)
    for _ in range(20):
        if sim.app.ctl.view['menu']['item'] == 'new_game':
            break
        play('tap OK\n', sim)
    (v,), _ = play('tap BLUE\nstate\n', sim)
    assert v['menu'] == {'item': 'new_game', 'value': 'yes'}, v
    (v,), _ = play('hold OK 1000\nstate\n', sim)
    assert v['screen'] == 'setup' and v['hammer'] == 'blue', v


def test_a_banked_game_moves_the_starter():
    # Red reaches 15 and the game is banked: the next game opens with blue (red has the hammer).
    script = 'tap OK\n' + (taps('RED', 4) + 'tap OK\n') * 4 + 'state\ntap OK\nstate\n'
    over, setup = play(script)[0]
    assert over['screen'] == 'over' and over['winner'] == 'red', over
    assert setup['screen'] == 'setup' and setup['hammer'] == 'red', setup
    assert setup['games'] == {'red': 1, 'blue': 0}, setup


def test_hold_counts_to_its_last_millisecond():
    # DESIGN: +1 after 600 ms, then every 150 ms: 600 -> 1, 750 -> 2, 1200 -> 5.
    got = []
    for ms in (599, 600, 750, 1200):
        (v,), _ = play('tap OK\nhold RED %d\nstate\n' % ms)
        got.append(v['pending']['red'])
    assert got == [1, 1, 2, 5], got


def test_hold_ok_2999_is_long_and_3000_the_menu():
    (v,), _ = play('tap OK\ntap RED\nhold OK 2999\nstate\n')
    assert v['screen'] == 'play' and v['pending'] == {'red': 0, 'blue': 0}, v
    (v,), _ = play('tap OK\nhold OK 3000\nstate\n')
    assert v['screen'] == 'menu', v


def test_a_frame_from_the_phone_on_setup_starts_the_game():
    # DESIGN section 10: "new" with the game, then "frame": the phone need not press OK first.
    _, sim = play('state\n')
    c = sim.app.ctl
    c.act({'do': 'new', 'game': 'knockoff', 'names': {'red': 'Ann', 'blue': 'Ben'}}, 0)
    assert c.view['screen'] == 'setup'
    c.act({'do': 'frame', 'red': 0, 'blue': 5}, 10)
    v = c.view
    assert (v['screen'], v['blue'], v['hammer'], v['frame']) == ('play', 5, 'red', 2), v
    assert v['names'] == {'red': 'Ann', 'blue': 'Ben'}
    # and on the setup after a new game, undo brings the set-aside game back (as OK long does)
    c.act({'do': 'new', 'game': 'horsecollar'}, 20)
    c.act({'do': 'undo'}, 30)
    v = c.view
    assert (v['screen'], v['game'], v['blue'], v['message']) == ('play', 'knockoff', 5,
                                                                   'game back'), v


def test_a_long_ok_that_clears_says_so():
    (v,), _ = play('tap OK\ntap RED\ntap RED\nhold OK 1000\nstate\n')
    assert v['pending'] == {'red': 0, 'blue': 0} and v['message'] == 'clear', v


def test_doubles_says_which_end_shoots_after_each_frame():
    # DESIGN section 2: doubles, "Show which end shoots": after each frame the message names
    # the end for 2 s; the score positions keep only the scores.
    _, sim = play('state\n')
    c = sim.app.ctl
    c.act({'do': 'new', 'game': 'knockoff', 'options': {'doubles': True}}, 0)
    (v,), _ = play('tap OK\n' + taps('RED', 2) + 'tap OK\nstate\n', sim)
    assert (v['red'], v['end'], v['message']) == (2, 2, 'end 2'), v
    (v,), _ = play('wait 2500\nstate\n', sim)
    assert v['message'] is None and v['end'] == 2, v


def test_a_press_script_on_standard_input():
    # `tools/sim.py --script -` reads the script from a pipe, as a file would be read.
    import sys
    if sys.implementation.name == 'micropython':
        return                  # the front end is CPython's; the engine runs either way
    import json
    import subprocess
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, os.path.join(root, 'tools', 'sim.py'), '--script', '-'],
                       input=b'tap OK\ntap RED\nstate\n', capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    (v,) = [json.loads(x) for x in r.stdout.decode().split('\n') if x.startswith('{')]
    assert v['screen'] == 'play' and v['pending'] == {'red': 1, 'blue': 0}, v


def test_a_piped_script_error_names_standard_input():
    # The error names the script as the person gave it (`<stdin>`), not the temporary copy.
    import sys
    if sys.implementation.name == 'micropython':
        return                  # the front end is CPython's
    import subprocess
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, os.path.join(root, 'tools', 'sim.py'), '--script', '-'],
                       input=b'tap OK\nbogus 12\n', capture_output=True, timeout=120)
    assert r.returncode == 2
    assert r.stderr.decode().strip() == '<stdin>: line 2: unknown command bogus: bogus 12'
