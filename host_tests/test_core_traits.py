# runs-on: micropython
# Each game declares its traits in its own core module (scoreboard.core.traits); the ui reads
# them and never compares a game's name, and the menu steps through the core's own ranges.
import app_probe
from scoreboard.core import KINDS, RuleError, new_game, traits
from scoreboard.ui import menu

WANT = {  # kind: (TURNS, ENTRY, FRAMES, COLLARS)
    'knockoff': (False, 'frame', None, False),
    'tapdraw': (False, 'frame', None, False),
    'horsecollar': (True, 'turn', None, True),
    'fourframe': (False, 'frame', 4, False),
    'practice': (True, 'shot', 2, False),
    'shovehapenny': (True, 'bed', None, False),
}


def test_every_kind_declares_its_traits():
    assert sorted(WANT) == sorted(KINDS)
    for kind in KINDS:
        t = traits(kind)
        assert (t.TURNS, t.ENTRY, t.FRAMES, t.COLLARS) == WANT[kind], kind
        g = new_game(kind)
        # the traits agree with the game itself
        assert (g.turn is not None) == t.TURNS, kind
        if t.FRAMES is not None:
            assert g.options['frames'] == t.FRAMES
        # every option's default is one of its allowed values
        for name, default, allowed in t.OPTIONS:
            if type(allowed) is list:
                assert allowed[0] <= default <= allowed[1], (kind, name)
            else:
                assert default in allowed, (kind, name)


def test_unknown_kinds_are_refused():
    for bad in ('darts', 'base', '', None, 3):
        try:
            traits(bad)
        except RuleError:
            pass
        else:
            raise AssertionError(bad)


def test_the_menu_steps_through_the_cores_ranges():
    # hanger: the core takes 1..99 in knock-off, 3..99 in horse collar; the menu stops there
    for kind, lo, hi in (('knockoff', 1, 99), ('horsecollar', 3, 99)):
        assert menu.step('hanger', lo, -1, kind) == lo
        assert menu.step('hanger', hi, 1, kind) == hi
        assert traits(kind).allowed('hanger') == [lo, hi]
    assert menu.step('target', 99, 1, 'knockoff') == 99
    assert menu.step('target', 99, 1, 'horsecollar') == 100
    assert menu.step('target', 999, 1, 'horsecollar') == 999
    # choices wrap, in the core's order
    assert menu.step('corner', 26, 1, 'horsecollar') == 13
    assert menu.step('corner', 13, 1, 'horsecollar') == 26
    assert menu.step('handicap', None, 1, 'knockoff') == 'red'
    assert menu.step('doubles', False, 1, 'knockoff') is True
    assert menu.step('gift', True, 1, 'shovehapenny') is False
    # every value a menu step gives, the core takes
    for kind in KINDS:
        for item in menu.items_for(kind):
            if item not in menu.GAME_ITEMS:
                continue
            v = new_game(kind).options[item]
            for _ in range(5):
                v = menu.step(item, v, 1, kind)
                new_game(kind, **{item: v})


def test_items_follow_the_game():
    assert 'blank' not in menu.items_for('horsecollar')
    assert 'target' not in menu.items_for('shovehapenny')
    assert 'beds' in menu.items_for('shovehapenny')
    for kind in KINDS:
        items = menu.items_for(kind)
        assert items[0] == 'game' and items[-1] == 'test'
        assert 'new_game' in items and 'reset_games' in items


def test_no_game_name_in_the_ui_or_the_cores_shared_code():
    root = app_probe.ROOT + '/firmware/scoreboard/'
    files = ['ui/' + n for n in ('controller.py', 'input.py', 'menu.py', 'view.py', 'state.py',
                                 'match.py', 'keys.py', 'gestures.py', 'debounce.py', 'ticks.py')]
    files += ['core/base.py', 'app.py']
    for f in files:
        with open(root + f) as fh:
            text = fh.read()
        for kind in KINDS:
            assert kind not in text, (f, kind)
