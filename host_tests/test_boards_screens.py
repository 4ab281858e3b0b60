# runs-on: micropython
# Every board through every game and screen: play with pending points, refused entries and
# their messages, three-digit horse-collar totals, the shove ha'penny bed grid and cursor, game
# over, banking, the whole menu, dimming, sleep and waking. Under MicroPython the app refreshes
# the displays with the heap locked, so any layout or driver that allocates fails here.
import app_probe
from app_probe import new_sim, play


KINDS = ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'practice', 'shovehapenny')


def script_for(kind):
    s = ['hold OK 3200'] + ['tap BLUE'] * KINDS.index(kind) + ['hold OK 1000', 'tap BLUE',
                                                                  'tap OK']
    if kind == 'shovehapenny':
        s += ['tap OK', 'tap OK', 'tap OK', 'tap OK', 'tap BLUE', 'tap OK', 'tap OK',
              'tap RED', 'tap RED', 'wait 700', 'tap OK', 'tap BLUE', 'tap BLUE', 'tap OK']
        s += ['tap OK'] * 4 + ['tap RED', 'tap OK']       # a sixth coin: refused, a message
    elif kind == 'horsecollar':
        s += ['hold RED 6000', 'wait 300', 'tap OK', 'tap BLUE', 'tap OK', 'wait 2500',
              'hold OK 1000', 'tap OK', 'hold BLUE 20000', 'tap OK']
    elif kind == 'practice':
        s += ['tap RED', 'tap RED', 'tap OK', 'tap BLUE', 'tap OK'] + ['tap RED'] * 5 + [
            'tap OK', 'wait 2500', 'hold OK 1000']
    else:
        s += ['tap RED', 'tap RED', 'tap BLUE', 'wait 400', 'tap OK', 'hold OK 1000',
              'hold BLUE 3000', 'tap OK', 'hold RED 4000', 'tap OK']
    s += ['chord RED BLUE 1200', 'hold OK 1000']
    # the whole menu, stepping every value
    s += ['hold OK 3200'] + ['tap BLUE', 'tap OK'] * 14 + ['hold OK 1000', 'wait 2500']
    return s


def test_every_board_draws_every_game_and_screen():
    for board in app_probe.boards()[1:]:        # the real boards, not the bare fixture
        for kind in KINDS:
            sim = play(new_sim(board), script_for(kind))
            # finish a knock-off game to see 'over' and the banked setup
            ctl = sim.app.ctl
            assert ctl.view['screen'] in ('setup', 'play', 'over'), (board, kind, ctl.view)
        lines = ['tap OK'] + ['hold RED 2000', 'tap OK', 'tap OK'] * 2 + ['state', 'tap OK',
                                                                           'tap RED']
        play(sim, lines)
        # the pages of game over and setup (2 s each: the winner in words, the target and end,
        # games won, legs), refreshed heap-locked like every other screen
        for _ in range(20):
            screen = sim.app.ctl.view['screen']
            if screen == 'over':
                break
            play(sim, ['tap OK'] if screen == 'setup' else ['hold RED 3000', 'tap OK'])
        assert sim.app.ctl.view['screen'] == 'over', (board, sim.app.ctl.view)
        play(sim, ['wait 12000', 'tap OK', 'wait 10000'])
        assert sim.app.ctl.view['screen'] == 'setup', (board, sim.app.ctl.view)
        play(sim, ['tap OK', 'tap RED'])
        # dim, sleep and the waking press, on short timers
        ctl = sim.app.ctl
        ctl.DIM_MS = 2000
        ctl.SLEEP_MS = 4000
        sim.run('wait', [2500])
        assert ctl.dimmed, board
        sim.run('wait', [2000])
        assert ctl.view['screen'] == 'sleep', board
        sim.run('tap', ['RED'])
        assert ctl.view['screen'] != 'sleep', board
        # a picture for each display
        assert sim.picture(), board
