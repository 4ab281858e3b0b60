# runs-on: micropython
# Power cuts in the simulator: a game played through the buttons is cut after every command,
# and each time the firmware boots from its virtual flash to exactly the same screen, scores,
# hammer, turn, undo history and games won.
from app_probe import new_sim, play


def lines(text):
    return [x for x in text.split('\n') if x.strip()]


KNOCKOFF = lines('''
tap OK
tap BLUE
tap BLUE
tap OK
tap RED
tap RED
tap RED
tap OK
hold OK 1000
chord RED BLUE 1200
tap OK
hold BLUE 2000
tap OK
tap RED
tap OK
tap OK
tap OK
hold OK 3200
tap OK
tap RED
hold OK 1000
tap OK
''')

SHOVE = lines('''
hold OK 3200
tap BLUE
tap BLUE
tap BLUE
tap BLUE
tap BLUE
hold OK 1000
tap OK
tap OK
tap BLUE
tap OK
tap OK
tap RED
tap RED
tap OK
hold OK 1000
tap OK
''')

HORSE = lines('''
hold OK 3200
tap BLUE
tap BLUE
hold OK 1000
tap BLUE
tap OK
tap OK
hold RED 2500
tap OK
hold OK 1000
tap OK
''')


def resumable(sim):
    """What a power cut must not lose: everything but the RAM-only pending points, the menu
    and the passing message."""
    ctl = sim.app.ctl
    v = dict(ctl.view)
    for k in ('message', 'pending'):
        v.pop(k, None)
    if v['screen'] == 'menu':
        v.pop('menu')
        v['screen'] = ctl.screen
    return (v, ctl.game.to_dict() if ctl.game else None, ctl.match.to_dict(), ctl.settings)


def play_with_cuts(tag, script, board='bare'):
    cuts = 0
    for cut_after in range(len(script)):
        sim = play(new_sim(board, tag), script[:cut_after + 1])
        before = resumable(sim)
        sim.run('power-cut', [])
        after = resumable(sim)
        assert after == before, '%s: cut after line %d (%s):\n%r\n%r' % (
            tag, cut_after + 1, script[cut_after], before, after)
        cuts += 1
    return cuts


def test_knockoff_resumes_exactly_after_every_cut():
    assert play_with_cuts('knockoff', KNOCKOFF) == len(KNOCKOFF)


def test_shovehapenny_resumes_exactly_after_every_cut():
    assert play_with_cuts('shove', SHOVE) == len(SHOVE)


def test_horsecollar_resumes_exactly_after_every_cut():
    assert play_with_cuts('horse', HORSE) == len(HORSE)


def test_cut_on_a_real_display_board_redraws_the_resumed_game():
    sim = play(new_sim('pico_tm1637'), KNOCKOFF[:8])
    before = [c.digits() for g in sim.chips for c in g]
    sim.run('power-cut', [])
    sim.run('wait', [600])          # past a blink phase so the picture is comparable
    sim.run('wait', [0])
    after = [c.digits() for g in sim.chips for c in g]
    assert sim.boots == 2 and after and len(after) == len(before)
    assert sim.app.ctl.view['red'] == 3 and sim.app.ctl.view['blue'] == 2
