# runs-on: micropython
# The menu's `unpair` (DESIGN section 4): shown only where the network runner set the
# controller's on_unpair (a Wi-Fi board), 'no' until stepped to 'yes' like reset_games, and
# leaving the menu with 'yes' calls on_unpair once; with 'no' nothing is forgotten. With the real
# pairing (scoreboard.net.pairing) a paired phone's token is no longer known afterwards, on
# flash too. Runs under both interpreters.
import os

from scoreboard.net.pairing import Pairing
from scoreboard.ui.controller import Controller


def menu_items(c, now):
    """Open the menu (OK held 3 s) and walk it once with OK taps: the items shown, in order."""
    c.press('OK', 'hold', now)
    seen = []
    while True:
        item = c.view['menu']['item']
        if item in seen:
            return seen
        seen.append(item)
        c.press('OK', 'tap', now)


def to_item(c, name, now):
    for _ in range(40):
        if c.view['menu']['item'] == name:
            return c.view['menu']['value']
        c.press('OK', 'tap', now)
    raise AssertionError('no menu item ' + name)


def test_unpair_is_shown_only_where_the_runner_can_forget():
    c = Controller(0)
    items = menu_items(c, 0)
    assert 'unpair' not in items and items[-2:] == ['reset_games', 'test']
    c = Controller(0)
    c.on_unpair = lambda: None
    items = menu_items(c, 0)
    # After reset_games and before test (the last: there OK shows the keys, long OK leaves).
    assert items[-2:] == ['unpair', 'test'] and items[-3] == 'reset_games'
    # Changing the game in the menu rebuilds the list: unpair stays, and stays 'no'.
    c.press('OK', 'long', 0)
    c.press('OK', 'hold', 0)
    c.press('BLUE', 'tap', 0)
    assert c.view['menu']['item'] == 'game' and c.view['menu']['value'] != 'knockoff'
    assert to_item(c, 'unpair', 0) == 'no'


def test_leaving_with_yes_forgets_every_phone_once():
    calls = []
    c = Controller(0)
    c.on_unpair = lambda: calls.append(1)
    c.press('OK', 'hold', 0)
    assert to_item(c, 'unpair', 0) == 'no'
    c.press('OK', 'long', 0)                  # left with 'no': nothing forgotten
    assert calls == [] and c.view['screen'] == 'setup'
    c.press('OK', 'hold', 0)
    assert to_item(c, 'unpair', 0) == 'no'    # 'no' again on every opening
    c.press('BLUE', 'tap', 0)
    assert c.view['menu'] == {'item': 'unpair', 'value': 'yes'}
    c.press('RED', 'tap', 0)
    assert c.view['menu']['value'] == 'no'
    c.press('RED', 'tap', 0)
    assert c.view['menu']['value'] == 'yes'
    c.press('OK', 'long', 0)
    assert calls == [1]
    assert c.view['screen'] == 'setup' and c.menu is None


def test_unpair_with_the_real_pairing_forgets_the_tokens_on_flash():
    root = '/tmp/sb-unpair-' + ''.join(['%02x' % b for b in os.urandom(4)])
    os.mkdir(root)
    p = Pairing(root)
    tokens = []
    for _ in range(2):
        pin = p.request(0)
        tokens.append(p.confirm(pin, 0))
    assert p.paired(tokens[0]) and p.paired(tokens[1])
    c = Controller(0)
    c.on_unpair = p.forget_all                # as net/run.py's Runner sets it
    c.press('OK', 'hold', 0)
    to_item(c, 'unpair', 0)
    c.press('BLUE', 'tap', 0)
    c.press('OK', 'long', 0)
    assert not p.paired(tokens[0]) and not p.paired(tokens[1])
    again = Pairing(root)                     # after a power cut: still forgotten
    assert not again.paired(tokens[0]) and not again.paired(tokens[1])
