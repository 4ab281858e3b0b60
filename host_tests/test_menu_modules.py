# runs-on: micropython
# Stepping through the games in the menu loads each game's module (its traits); leaving the
# menu lets go of all but the chosen game's, the one in play and the one set aside, so a visit
# to the menu leaves no other game's code in the heap, and a dropped game loads again when it
# is wanted. Runs under both interpreters.
import sys

from scoreboard.core import KINDS
from scoreboard.ui.controller import Controller


def loaded():
    return [k for k in KINDS if 'scoreboard.core.' + k in sys.modules]


def through_every_game(c, now):
    c.press('OK', 'hold', now)
    assert c.view['menu']['item'] == 'game'
    start = c.view['menu']['value']
    for _ in KINDS:
        c.press('BLUE', 'tap', now)       # every game's items are built on the way
    assert c.view['menu']['value'] == start
    assert loaded() == list(KINDS)


def test_leaving_the_menu_keeps_only_the_games_in_use():
    c = Controller(0)
    c.press('OK', 'tap', 0)               # knock-off, in play
    c.act({'do': 'frame', 'red': 3, 'blue': 0}, 10)
    through_every_game(c, 20)
    c.press('OK', 'long', 30)             # left unchanged: the game goes on
    assert c.view['screen'] == 'play' and c.view['red'] == 3
    assert loaded() == ['knockoff']
    # Horse collar chosen: knock-off is set aside, both stay; the others go.
    through_every_game(c, 40)
    while c.view['menu']['value'] != 'horsecollar':
        c.press('BLUE', 'tap', 50)
    c.press('OK', 'long', 60)
    assert c.view['screen'] == 'setup' and c.view['game'] == 'horsecollar'
    assert sorted(loaded()) == ['horsecollar', 'knockoff']
    # OK long on setup brings the set-aside knock-off back, and it plays on.
    c.press('OK', 'long', 70)
    assert c.view['game'] == 'knockoff' and c.view['red'] == 3
    c.act({'do': 'frame', 'red': 0, 'blue': 2}, 80)
    assert (c.view['red'], c.view['blue']) == (3, 2)
    # A game dropped on the way loads again when it is chosen.
    through_every_game(c, 90)
    c.press('OK', 'long', 100)
    assert loaded() == ['knockoff']
    c.act({'do': 'new', 'game': 'shovehapenny'}, 110)
    assert c.view['game'] == 'shovehapenny' and 'beds' in c.view


def test_the_menu_itself_is_not_resident_during_play():
    # The menu's code is loaded when it opens and let go of when it closes; it opens again as
    # before, and its changes hold.
    c = Controller(0)
    c.press('OK', 'tap', 0)
    for n in range(2):
        c.press('OK', 'hold', 10 + n * 100)
        assert 'scoreboard.ui.menu' in sys.modules
        assert c.view['menu']['item'] == 'game'
        c.press('OK', 'tap', 20 + n * 100)        # to the target
        assert c.view['menu']['item'] == 'target'
        c.press('BLUE', 'tap', 30 + n * 100)
        c.press('OK', 'long', 40 + n * 100)       # leave
        assert c.view['screen'] == 'play'
        assert 'scoreboard.ui.menu' not in sys.modules
        assert 'scoreboard.remote.learn' not in sys.modules
    assert c.game.target == 17           # 15, one up at each visit
