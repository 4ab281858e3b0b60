# runs-on: micropython
# The saved state's format (ui/state.py): written and read there only, with a version; what
# the controller restores is the documented fields, one by one; a state of an earlier version
# is brought up through MIGRATE, a version with no way up is refused (the store then falls
# back to its other slot).
import json

import app_probe  # noqa: F401  (puts firmware/ on the path)
from scoreboard.core import new_game
from scoreboard.ui import state as states
from scoreboard.ui.controller import Controller

FIELDS = ['aside', 'choice', 'cursor', 'game', 'match', 'names', 'opener', 'screen',
          'settings', 'v']


def played():
    c = Controller(0)
    c.start(0)
    c.enter({'red': 3, 'blue': 0}, 10)
    c.after_entry(10)
    return c


def test_the_written_state_is_the_documented_fields():
    d = json.loads(json.dumps(played().state()))
    assert sorted(d) == FIELDS
    assert d['v'] == states.VERSION == 1
    assert d['screen'] == 'play' and d['game']['kind'] == 'knockoff'


def test_only_the_documented_fields_are_taken():
    # Keys of a state that name the controller's own attributes change nothing: the state is
    # read field by field, not set by attribute name.
    d = json.loads(json.dumps(played().state()))
    d['message'] = 'forged'
    d['version'] = 999
    d['asleep'] = True
    d['unsaved'] = 'forged'
    c = Controller(0, saved=d)
    assert c.message is None and c.version < 999 and not c.asleep and c.unsaved is None
    assert c.view['red'] == 3 and c.view['screen'] == 'play'


def test_the_screen_follows_from_the_game_not_from_the_file():
    d = json.loads(json.dumps(played().state()))
    d['screen'] = 'over'
    assert Controller(0, saved=d).screen == 'play'


def test_an_earlier_version_is_migrated_and_an_unknown_one_refused():
    # A made-up version 0 that kept the game under another key: its step brings it to 1.
    d = json.loads(json.dumps(played().state()))
    old = dict(d, v=0, played=d['game'])
    del old['game']

    def from_v0(s):
        s = dict(s)
        s['game'] = s.pop('played')
        s['v'] = 1
        return s

    states.MIGRATE[0] = from_v0
    try:
        c = Controller(0, saved=old)
        assert c.view['red'] == 3 and c.message is None
        assert c.game.undo() and c.game.points('red') == 0
    finally:
        del states.MIGRATE[0]
    for bad in (dict(d, v=0), dict(d, v=2), dict(d, v='1'), dict(d, v=None)):
        c = Controller(0, saved=bad)
        assert c.message == 'state lost' and c.game is None, bad
        try:
            states.check(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(bad)


def test_a_set_aside_game_is_saved_with_its_fields():
    c = played()
    g = new_game('horsecollar')
    g.enter_frame(red=5)
    c.set_aside(g)
    d = json.loads(json.dumps(c.state()))
    assert sorted(d['aside']) == ['choice', 'cursor', 'game', 'match', 'names', 'opener']
    c2 = Controller(0, saved=d)
    assert c2.aside['game'].points('red') == 5
