# runs-on: micropython
# The controller on its own: a saved state it cannot use (a future version, a damaged game,
# a game the rules refuse) starts fresh at setup with a message, never an exception.
import app_probe  # noqa: F401  (puts firmware/ on the path)
from scoreboard.core import new_game
from scoreboard.ui.controller import Controller


def fresh_setup(c):
    v = c.view
    return v['screen'] == 'setup' and v['red'] == 0 and c.game is None


def test_unusable_saved_states_start_fresh_with_a_message():
    g = new_game('knockoff')
    g.enter_frame(red=3)
    good = Controller(0)
    good.game = g
    good.screen = 'play'
    state = good.state()
    bad = [
        {'v': 99},
        {},
        dict(state, settings={'game': 'darts', 'brightness': 6, 'opts': {}}),
        dict(state, game={'kind': 'knockoff', 'options': {}, 'log': [['f', 3, 3]],
                          'redo': []}),
        dict(state, game='nonsense'),
        dict(state, settings=None),
    ]
    for d in bad:
        c = Controller(0, saved=d)
        assert fresh_setup(c), d
        assert c.view['message'] == 'state lost', d


def test_a_good_saved_state_resumes():
    g = new_game('knockoff')
    g.enter_frame(red=3)
    good = Controller(0)
    good.game = g
    good.screen = 'play'
    c = Controller(0, saved=good.state())
    v = c.view
    assert (v['screen'], v['red'], v['hammer'], v['message']) == ('play', 3, 'blue', None)
    assert c.game.undo() and c.game.points('red') == 0


def test_bad_brightness_and_options_in_a_state_fall_back_to_defaults():
    c0 = Controller(0)
    st = c0.state()
    st['settings'] = {'game': 'knockoff', 'brightness': 99, 'opts': {}}
    c = Controller(0, saved=st)
    assert c.settings['brightness'] == Controller.DEFAULT_BRIGHTNESS
    assert c.brightness == Controller.DEFAULT_BRIGHTNESS - 1
