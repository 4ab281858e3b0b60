# runs-on: micropython
# The one entry point of a second input (BRIEF contract 1, DESIGN section 10): ctl.press() does
# exactly what the gesture on the board's buttons does, ctl.act() takes the actions of
# POST /api/action, refuses with a reason and changes nothing; show_pin, names and on_bank.
import json

from app_probe import Out, new_sim, play
from scoreboard.core import RuleError, load_game
from scoreboard.ui.controller import Controller


class Store:
    """A store that keeps what it was given (contract 2: save() True or False, problem)."""

    def __init__(self):
        self.saves = []
        self.problem = None
        self.message = None

    def save(self, state):
        self.saves.append(json.loads(json.dumps(state)))
        return True


def ctl(kind=None):
    c = Controller(0, store=Store())
    if kind is not None:
        c.act({'do': 'new', 'game': kind}, 0)
    return c


def snapshot(c):
    return json.dumps([c.view, c.state()])


def refused(c, action, err=ValueError, why=None):
    before = snapshot(c)
    n = len(c._store.saves)
    version = c.version
    try:
        c.act(action, 100)
    except err as e:
        if why is not None:
            assert why in str(e), (action, str(e))
    else:
        raise AssertionError('accepted %r' % (action,))
    assert snapshot(c) == before, action
    assert len(c._store.saves) == n and c.version == version, action


def test_frame_undo_redo_and_their_refusals():
    c = ctl()
    # On the setup screen a frame starts the game first; a refused one leaves the setup as it was.
    refused(c, {'do': 'frame', 'red': 3, 'blue': 2}, RuleError, 'only one side scores')
    assert c.view['screen'] == 'setup' and c.game is None
    c.press('OK', 'tap', 0)                         # setup: start
    c.act({'do': 'frame', 'red': 0, 'blue': 5}, 10)
    assert (c.view['blue'], c.view['hammer'], c.view['frame']) == (5, 'red', 2)
    assert load_game(c._store.saves[-1]['game']).points('blue') == 5   # saved
    refused(c, {'do': 'frame', 'red': 3, 'blue': 2}, RuleError, 'only one side scores')
    refused(c, {'do': 'frame', 'red': 17}, RuleError, 'red max 16')
    refused(c, {'do': 'frame', 'red': True}, RuleError)
    refused(c, {'do': 'frame', 'red': 1.0}, RuleError)
    refused(c, {'do': 'frame', 'points': 3}, ValueError, 'red, blue')
    refused(c, {'do': 'redo'}, RuleError, 'nothing to redo')
    c.act({'do': 'undo'}, 20)
    assert c.view['blue'] == 0
    c.act({'do': 'redo'}, 30)
    assert c.view['blue'] == 5
    c.press('RED', 'tap', 40)
    refused(c, {'do': 'undo'}, RuleError, 'points pending')
    refused(c, {'do': 'redo'}, RuleError, 'points pending')
    # a direct entry replaces the points pending
    c.act({'do': 'frame', 'red': 2}, 50)
    assert c.view['red'] == 2 and c.view['pending'] == {'red': 0, 'blue': 0}


def test_malformed_actions():
    c = ctl()
    for bad in (None, [], 'undo', {}, {'do': 'jump'}, {'do': 3}, {'do': 'undo', 'x': 1},
                {'do': 'new', 'game': 'darts'}, {'do': 'new', 'options': []},
                {'do': 'new', 'names': {'green': 'Al'}}, {'do': 'new', 'names': 'Al'}):
        refused(c, bad, ValueError)


def test_turn_shot_and_bed_entries():
    c = ctl('horsecollar')
    c.press('OK', 'tap', 0)
    refused(c, {'do': 'frame', 'points': 2}, RuleError, 'needs a 3')
    refused(c, {'do': 'frame', 'red': 5}, ValueError, 'points')
    c.act({'do': 'frame', 'points': 0}, 10)
    assert c.view['collars'] == {'red': 1, 'blue': 0} and c.view['message'] == 'collar'
    c.act({'do': 'frame', 'points': 30}, 20)
    assert c.view['blue'] == 30 and c.view['turn'] == 'red'
    c = ctl('practice')
    c.press('OK', 'tap', 0)
    refused(c, {'do': 'frame', 'points': 5}, RuleError)
    c.act({'do': 'frame', 'points': 4}, 10)
    assert c.view['red'] == 4 and c.view['turn'] == 'blue'
    c = ctl('shovehapenny')
    c.press('OK', 'tap', 0)
    refused(c, {'do': 'frame', 'bed': 10}, RuleError, 'bed must be')
    refused(c, {'do': 'frame', 'points': 1}, ValueError)
    c.act({'do': 'frame', 'bed': 4}, 10)
    assert c.view['beds']['red'][3] == 1
    c.act({'do': 'frame', 'bed': 'end'}, 20)
    assert c.view['turn'] == 'blue'


def test_target_bank_and_new():
    c = ctl()
    c.act({'do': 'target', 'value': 21}, 0)          # setup: the next game's line
    assert c.view['target'] == 21
    refused(c, {'do': 'target', 'value': 100}, RuleError, '1..99')
    refused(c, {'do': 'bank'}, RuleError, 'not over')
    c.press('OK', 'tap', 0)
    c.act({'do': 'frame', 'red': 12}, 10)
    c.act({'do': 'target', 'value': 11}, 20)
    v = c.view
    assert v['screen'] == 'over' and v['winner'] == 'red' and v['message'] == 'target 11'
    banked = []
    c.on_bank = lambda game, names: banked.append((game.winner, game.points('red'), names))
    c.act({'do': 'bank'}, 30)
    assert c.view['games'] == {'red': 1, 'blue': 0} and c.view['screen'] == 'setup'
    assert banked == [('red', 12, {'red': None, 'blue': None})]
    # new: game, options checked by the core, names
    refused(c, {'do': 'new', 'game': 'knockoff', 'options': {'hanger': 0}}, RuleError, 'hanger')
    refused(c, {'do': 'new', 'game': 'knockoff', 'options': {'colour': 1}}, RuleError)
    refused(c, {'do': 'new', 'names': {'red': 'x' * 13}}, ValueError)
    refused(c, {'do': 'new', 'names': {'red': 'tab\there'}}, ValueError)
    refused(c, {'do': 'new', 'names': {'red': ''}}, ValueError)
    c.act({'do': 'new', 'game': 'horsecollar', 'options': {'target': 61, 'first': 'blue'},
           'names': {'red': 'Ann', 'blue': None}}, 40)
    v = c.view
    assert (v['screen'], v['game'], v['target'], v['turn']) == ('setup', 'horsecollar', 61,
                                                                'blue')
    assert v['names'] == {'red': 'Ann', 'blue': None}
    assert c._store.saves[-1]['names'] == {'red': 'Ann', 'blue': None}
    refused(c, {'do': 'target', 'value': 1000}, RuleError)
    # names survive a reload
    c2 = Controller(0, saved=c._store.saves[-1])
    assert c2.view['names'] == {'red': 'Ann', 'blue': None}
    # refused while the menu is open
    c.press('OK', 'hold', 50)
    refused(c, {'do': 'undo'}, RuleError, 'menu')


def test_press_validates():
    c = ctl()
    for button, gesture in (('PURPLE', 'tap'), ('OK', 'double'), ('RED', 'long'),
                            ('BLUE', 'hold'), (('RED', 'OK'), 'chord'), ('RED', 'chord'),
                            (3, 'tap'), ('OK', None)):
        before = snapshot(c)
        try:
            c.press(button, gesture, 0)
        except ValueError:
            pass
        else:
            raise AssertionError((button, gesture))
        assert snapshot(c) == before


def test_show_pin():
    c = ctl()
    assert 'pin' not in c.view
    c.show_pin('0421', 0)
    assert c.view['pin'] == '0421'
    c.show_pin(None, 10)
    assert 'pin' not in c.view
    for bad in (421, 'abcd', ''):
        try:
            c.show_pin(bad, 0)
        except ValueError:
            pass
        else:
            raise AssertionError(bad)
    c.show_pin('1234', 100)
    c.tick(100 + Controller.PIN_MS)
    assert 'pin' not in c.view


# press() against the board's own buttons: the same script, once as physical presses on the
# virtual board, once through ctl.press(); the views must be the same.
SCRIPT = [('tap', 'OK'), ('tap', 'BLUE'), ('tap', 'BLUE'), ('tap', 'RED_MINUS'),
          ('tap', 'OK'), ('tap', 'RED'), ('long', 'OK'), ('long', 'OK'), ('chord', None),
          ('chord', None), ('tap', 'RED'), ('tap', 'OK'), ('hold', 'OK'), ('tap', 'OK'),
          ('tap', 'BLUE'), ('tap', 'BLUE'), ('long', 'OK'), ('tap', 'BLUE'), ('tap', 'OK'),
          ('hold', 'OK'), ('tap', 'BLUE'), ('tap', 'BLUE'), ('long', 'OK'), ('tap', 'OK'),
          ('tap', 'RED'), ('tap', 'OK'), ('tap', 'OK')]
PHYSICAL = {'tap': 'tap %s', 'long': 'hold %s 1000', 'hold': 'hold %s 3200'}


def _views(sim, remote, refusals=None):
    # One virtual board at a time: the virtual machine's wires are shared by every sim.
    out = []
    for gesture, button in SCRIPT:
        if remote:
            try:
                sim.app.ctl.press(('RED', 'BLUE') if gesture == 'chord' else button, gesture,
                                  sim.now)
            except RuleError as e:      # a refused entry: said, as the board's message says it
                assert str(e) == sim.app.ctl.view['message'], e
                refusals.append(str(e))
            play(sim, ['wait 10'])
        elif gesture == 'chord':
            play(sim, ['chord RED BLUE 1200'])
        else:
            play(sim, [PHYSICAL[gesture] % button])
        v = dict(sim.app.ctl.view)
        v['message'] = None             # a message may have timed out on one of them
        out.append(json.dumps(v))
    out.append(json.dumps(sim.app.ctl.state()))
    return out


def test_press_gives_what_the_buttons_give():
    physical = _views(new_sim('pico_tm1637', 'press-a', Out()), False)
    refusals = []
    remote = _views(new_sim('pico_tm1637', 'press-b', Out()), True, refusals)
    assert refusals == ['needs a 3 to score'] * 2, refusals    # the script's refused entries
    for i in range(len(physical)):
        assert physical[i] == remote[i], (SCRIPT[i:i + 1], physical[i], remote[i])
