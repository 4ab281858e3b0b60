# The game catalogue (firmware/scoreboard/catalogue.py): the games, their names in words and
# the traits the phone's page and the venue read, built from the core and declared nowhere
# else. A seventh game added to the core (one module, one name in core.KINDS) is offered by
# the page and accepted by the venue service without touching either.
import json
import os
import shutil
import subprocess
import sys

import app_probe  # noqa: F401  (puts firmware/ on the path)
from scoreboard import catalogue, core
from scoreboard.ui import keys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_catalogue_is_the_core_s():
    assert catalogue.KINDS is core.KINDS
    assert catalogue.BUTTONS is keys.NAMES
    assert [catalogue.title(k) for k in core.KINDS] == [
        'Knock-off', 'Tap and draw', 'Horse collar', 'Four-frame match', 'Placement practice',
        "Shove ha'penny"]
    table = catalogue.games()
    assert sorted(table) == sorted(core.KINDS)
    for kind in core.KINDS:
        t = core.traits(kind)
        assert table[kind]['entry'] == t.ENTRY
        assert [o[0] for o in table[kind]['options']] == [o[0] for o in t.OPTIONS]
        assert [o[1] for o in table[kind]['options']] == [o[1] for o in t.OPTIONS]


def test_the_gestures_a_second_input_sends_are_the_ones_it_takes():
    from scoreboard.ui import actions
    assert sorted(actions.GESTURES) == sorted(catalogue.GESTURES)


def test_pin_rule():
    assert catalogue.pin_ok('0427')
    for bad in ('427', '04270', 4270, None, 'abcd', '04 7'):
        assert not catalogue.pin_ok(bad), bad


def test_the_network_and_the_venue_read_it():
    from scoreboard.net import page, web
    from venue import records
    assert page.games is catalogue.games
    assert web.BUTTONS is catalogue.BUTTONS and web.GESTURES is catalogue.GESTURES
    assert records.catalogue is catalogue


SEVENTH = '''from .knockoff import Knockoff


class Curling(Knockoff):
    KIND = 'curling'
    TITLE = 'table curling'


GAME = Curling
'''

CHECK = r'''
import json
import sys
sys.path[:0] = [%(fw)r, %(tools)r]
from scoreboard import catalogue
from scoreboard.net import page
from venue import records
print(json.dumps({
    'kinds': list(catalogue.KINDS),
    'title': catalogue.title('curling'),
    'page': 'curling' in json.loads(page.game_table()[len('const GAMES='):-2]),
    'record': records.game(json.dumps({'id': 'b-1', 'table': 't1', 'game': 'curling',
                                       'red': 15, 'blue': 3, 'winner': 'red'}).encode(),
                           't1')['game'],
    'state': records.state(json.dumps({'screen': 'play', 'game': 'curling', 'red': 1,
                                       'blue': 0}).encode())['game'],
    'from': catalogue.__file__,
}))
'''


def test_a_seventh_game_in_the_core_is_offered_and_accepted(tmp_path):
    fw = tmp_path / 'firmware'
    shutil.copytree(os.path.join(ROOT, 'firmware'), fw)
    (fw / 'scoreboard' / 'core' / 'curling.py').write_text(SEVENTH)
    init = fw / 'scoreboard' / 'core' / '__init__.py'
    text = init.read_text()
    old = "'practice', 'shovehapenny')"
    assert old in text
    init.write_text(text.replace(old, "'practice', 'shovehapenny', 'curling')", 1))
    r = subprocess.run([sys.executable, '-c', CHECK % {'fw': str(fw),
                                                       'tools': os.path.join(ROOT, 'tools')}],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got['from'].startswith(str(fw))
    assert got['kinds'][-1] == 'curling' and got['title'] == 'table curling'
    assert got['page'] and got['record'] == 'curling' and got['state'] == 'curling'
