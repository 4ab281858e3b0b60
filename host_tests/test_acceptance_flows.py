# Acceptance checks through the buttons, written black-box from DESIGN section 4 (gestures,
# screens, menu, "No game is lost by accident", sleep), section 6 (press scripts) and section 7
# (power cuts, a full flash), and the seeds: press-script lines played on the virtual board
# in-process (tools/sim_engine.py, the engine tools/sim.py runs), checked through the view model.
import json

import pytest

import sim_engine
from app_probe import Out, new_sim

MENU_ITEMS = ('game', 'target', 'doubles', 'blank', 'hanger', 'handicap', 'corner', 'beds',
              'gift', 'last_mark', 'best_of', 'brightness', 'new_game', 'reset_games', 'test',
              'sound', 'learn', 'unpair')
GAMES = ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'practice', 'shovehapenny')
VIEW_KEYS = ('screen', 'game', 'red', 'blue', 'pending', 'hammer', 'turn', 'frame', 'end',
             'target', 'winner', 'games', 'legs', 'message', 'names')


def play(script, sim=None, board='bare', tag='acc'):
    """Run press-script text; returns (the view dicts printed for each `state`, the sim)."""
    if sim is None:
        sim = new_sim(board, tag, Out())
    start = len(sim.out.lines)
    for _, op, args in sim_engine.parse(script.split('\n'), sim.board.BUTTONS):
        sim.run(op, args)
    return [json.loads(x) for x in sim.out.lines[start:] if x.strip().startswith('{')], sim


def taps(button, n):
    return ('tap %s\n' % button) * n


MENU = 'hold OK 3100\n'           # OK hold: the menu
LEAVE = 'hold OK 1000\n'          # OK long: leave the menu


def to_game(kind):
    """From setup or play: the menu, the game item moved on to `kind` (BLUE steps up), left."""
    return MENU + taps('BLUE', GAMES.index(kind)) + LEAVE


def menu_walk(sim):
    """The (item, value) pairs seen tapping OK through the menu until `test` (which keeps OK)."""
    seen = []
    vs, _ = play(MENU + 'state', sim)
    v = vs[0]
    while True:
        seen.append((v['menu']['item'], v['menu']['value']))
        if v['menu']['item'] == 'test' or len(seen) > 20:
            break
        v = play('tap OK\nstate', sim)[0][0]
    return seen


def committed(v):
    return (v['screen'], v['game'], v['red'], v['blue'], v['hammer'], v['turn'], v['frame'],
            v['end'], v['target'], v['winner'], v['games'], v['legs'])


# --- the view model ---------------------------------------------------------------------------

def test_first_boot_and_view_keys():
    (v,), _ = play('state')
    for k in VIEW_KEYS:
        assert k in v, k
    assert 'pin' not in v and 'menu' not in v
    assert (v['screen'], v['game'], v['red'], v['blue'], v['target']) == ('setup', 'knockoff',
                                                                       0, 0, 15)
    assert (v['hammer'], v['turn'], v['winner']) == ('blue', None, None)
    assert v['pending'] == {'red': 0, 'blue': 0}
    assert v['games'] == {'red': 0, 'blue': 0} and v['legs'] == {'red': 0, 'blue': 0}
    assert v['names'] == {'red': None, 'blue': None}


def test_view_keys_of_each_game():
    for kind in GAMES:
        (setup, game, menu), _ = play(to_game(kind) + 'state\ntap OK\nstate\n' + MENU + 'state')
        assert setup['game'] == kind and setup['screen'] == 'setup'
        assert game['screen'] == 'play' and menu['screen'] == 'menu'
        assert menu['menu']['item'] == 'game' and menu['menu']['value'] == kind
        for v in (setup, game, menu):
            for k in VIEW_KEYS:
                assert k in v, (kind, k)
        assert ('beds' in game and 'cursor' in game) == (kind == 'shovehapenny')
        assert ('collars' in game) == (kind == 'horsecollar')
    # turn games name the side to act and no hammer; frame games the hammer and no turn
    (hc,), _ = play(to_game('horsecollar') + 'tap OK\nstate')
    assert (hc['turn'], hc['hammer'], hc['target'], hc['collars']) == ('red', None, 51,
                                                                       {'red': 0, 'blue': 0})
    (sh,), _ = play(to_game('shovehapenny') + 'tap OK\nstate')
    assert sh['beds'] == {'red': [0] * 9, 'blue': [0] * 9} and sh['cursor'] == 1
    assert (sh['turn'], sh['hammer']) == ('red', None)


# --- seed 000 through the buttons ----------------------------------------------------------

def test_seed_000_worked_game():
    script = ('tap OK\n' + taps('BLUE', 5) + 'state\ntap OK\nstate\n' + taps('RED', 4) +
              'tap OK\nstate\n' + taps('RED', 4) + 'tap OK\nstate\n' + taps('BLUE', 3) +
              'tap OK\nstate\n')
    pend, f1, f2, f3, f4 = play(script, board='pico_tm1637')[0]
    assert pend['pending'] == {'red': 0, 'blue': 5} and pend['blue'] == 0   # pending, not yet in
    assert (f1['red'], f1['blue'], f1['hammer'], f1['frame'], f1['end']) == (0, 5, 'red', 2, 2)
    assert (f2['red'], f2['blue'], f2['hammer'], f2['frame'], f2['end']) == (4, 5, 'blue', 3, 1)
    assert (f3['red'], f3['blue'], f3['hammer']) == (8, 5, 'blue')  # Alice scored again
    assert (f4['red'], f4['blue'], f4['hammer'], f4['frame'], f4['screen']) == (8, 8, 'red', 5,
                                                                                 'play')
    for v in (f1, f2, f3, f4):
        assert v['pending'] == {'red': 0, 'blue': 0} and v['winner'] is None


def test_win_game_over_bank_and_next_game():
    s, _ = play('tap OK\n' + taps('RED', 12) + 'tap OK\n' + taps('BLUE', 2) + 'tap OK\n' +
                taps('RED', 5) + 'tap OK\nstate\ntap RED\ntap BLUE\nchord RED BLUE 1200\n'
                'state\ntap OK\nstate\n')
    over, still, setup = s
    # "a side on twelve that scores five has won"
    assert (over['screen'], over['winner'], over['red'], over['blue']) == ('over', 'red', 17, 2)
    assert committed(still) == committed(over) and still['pending'] == {'red': 0, 'blue': 0}
    assert (setup['screen'], setup['red'], setup['blue'], setup['winner']) == ('setup', 0, 0,
                                                                               None)
    assert setup['games'] == {'red': 1, 'blue': 0}
    # the starter alternates: red opened game 1, blue opens game 2, so red has the hammer
    assert setup['hammer'] == 'red'


def test_ok_long_at_game_over_undoes():
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\nstate\nhold OK 1000\nstate\n')
    assert s[0]['screen'] == 'over'
    assert (s[1]['screen'], s[1]['red'], s[1]['winner']) == ('play', 0, None)


# --- gestures ----------------------------------------------------------------------------------

def test_tap_long_hold_boundaries_of_ok():
    base = 'tap OK\ntap RED\ntap OK\n'          # red 1, frame 2
    (t,), _ = play(base + 'hold OK 550\nstate')
    assert (t['screen'], t['frame'], t['red']) == ('play', 3, 1)       # a tap: a blank frame
    (lg,), _ = play(base + 'hold OK 650\nstate')
    assert (lg['screen'], lg['frame'], lg['red']) == ('play', 1, 0)    # long: undo
    (lg2,), _ = play(base + 'hold OK 2900\nstate')
    assert (lg2['screen'], lg2['frame'], lg2['red']) == ('play', 1, 0)
    (h,), _ = play(base + 'hold OK 3100\nstate')
    assert h['screen'] == 'menu' and (h['red'], h['frame']) == (1, 2)  # hold: menu, no undo
    # the release that ends a hold does nothing: still in the menu, on its first item
    (h2,), _ = play(base + 'hold OK 5000\nstate')
    assert h2['screen'] == 'menu' and h2['menu']['item'] == 'game'


def test_hold_fires_at_3_s_while_still_held():
    s, _ = play('tap OK\ntap RED\ntap OK\ndown OK\nwait 500\nstate\nwait 300\nstate\n'
                'wait 2300\nstate\nup OK\nwait 300\nstate')
    early, undo, menu, after = s
    assert early['message'] is None and early['screen'] == 'play'
    assert undo['message'] == 'undo' and undo['red'] == 1            # feedback, nothing done
    assert menu['screen'] == 'menu' and menu['message'] == 'menu'
    assert after['screen'] == 'menu' and after['red'] == 1


def test_clear_feedback_and_long_ok_clears_pending_first():
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + taps('BLUE', 2) +
                'down OK\nwait 700\nstate\nup OK\nwait 300\nstate\nhold OK 1000\nstate\n')
    held, cleared, undone = s
    assert held['message'] == 'clear' and held['pending']['blue'] == 2
    assert cleared['pending'] == {'red': 0, 'blue': 0} and cleared['red'] == 3
    assert undone['red'] == 0 and undone['frame'] == 1


def test_auto_repeat():
    # a held RED or BLUE: +1 after 600 ms, then every 150 ms (or faster)
    (v,), _ = play('tap OK\nhold RED 1000\nstate')
    assert v['pending']['red'] >= 3
    (v,), _ = play('tap OK\nhold BLUE 2000\nstate')
    assert v['pending']['blue'] >= 10
    (v,), _ = play('tap OK\nhold RED 550\nstate')           # a tap is one
    assert v['pending']['red'] == 1
    (early, v), _ = play('tap OK\ndown RED\nwait 500\nstate\nwait 1000\nup RED\nwait 300\n'
                         'state')
    assert early['pending']['red'] == 0                      # nothing before 600 ms
    assert 6 <= v['pending']['red'] <= 12                    # 1500 ms held: 600, 750 ... 1500


def test_debounce_counts_a_bouncing_contact_once():
    bounce = 'down RED\nwait 4\nup RED\nwait 3\ndown RED\nwait 5\nup RED\nwait 2\ndown RED\n'
    (v,), _ = play('tap OK\n' + bounce + 'wait 100\nup RED\nwait 4\ndown RED\nwait 3\nup RED\n'
                   'wait 300\nstate')
    assert v['pending']['red'] == 1


def test_chord_redo_needs_one_second():
    base = 'tap OK\n' + taps('RED', 2) + 'tap OK\nhold OK 1000\n'    # red 2, undone
    (v,), _ = play(base + 'chord RED BLUE 1200\nstate')
    assert (v['red'], v['frame'], v['message']) == (2, 2, 'redo')
    (v,), _ = play(base + 'chord RED BLUE 1200\nchord RED BLUE 1200\nstate')
    assert v['red'] == 2 and v['frame'] == 2                         # nothing more to redo
    (v,), _ = play(base + 'chord RED BLUE 700\nstate')
    assert v['red'] == 0 and v['message'] != 'redo'                 # too short: no redo


def test_redo_lost_after_a_new_entry():
    (v,), _ = play('tap OK\n' + taps('RED', 2) + 'tap OK\nhold OK 1000\ntap OK\n'
                   'chord RED BLUE 1200\nstate')
    assert (v['red'], v['frame'], v['hammer']) == (0, 2, 'red')    # the blank frame stays


def test_refused_entry_shows_a_message_and_keeps_pending():
    (v,), _ = play('tap OK\n' + taps('RED', 2) + taps('BLUE', 1) + 'tap OK\nstate')
    assert v['message'] and v['pending'] == {'red': 2, 'blue': 1} and v['frame'] == 1
    (v,), _ = play('tap OK\n' + taps('RED', 17) + 'tap OK\nstate')
    assert v['message'] and v['pending']['red'] == 17 and v['red'] == 0


def test_minus_buttons_take_a_pending_point_back():
    (a, b), _ = play('tap OK\n' + taps('RED', 3) + 'tap RED_MINUS\nstate\n' +
                     taps('RED_MINUS', 4) + 'state')
    assert a['pending']['red'] == 2
    assert b['pending']['red'] == 0 and b['red'] == 0


# --- setup ---------------------------------------------------------------------------------

def test_setup_chooses_the_hammer_and_the_first_side():
    s, _ = play('tap RED\nstate\ntap BLUE\nstate\ntap RED\ntap OK\nstate\n' + taps('BLUE', 2) +
                'tap OK\nstate')
    assert s[0]['hammer'] == 'red' and s[0]['screen'] == 'setup'
    assert s[1]['hammer'] == 'blue'
    assert s[2]['screen'] == 'play' and s[2]['hammer'] == 'red'
    assert s[3]['hammer'] == 'red' and s[3]['blue'] == 2           # blue scored: red last
    (a, b), _ = play(to_game('horsecollar') + 'tap BLUE\nstate\ntap OK\nstate')
    assert a['turn'] == 'blue' and b['turn'] == 'blue' and b['screen'] == 'play'


def test_chord_on_setup_does_nothing():
    (a, b), _ = play('state\nchord RED BLUE 1200\nstate')
    assert committed(a) == committed(b)


# --- the menu ------------------------------------------------------------------------------

def test_menu_items_of_each_game():
    want = {
        'knockoff': {'target': 15, 'doubles': False, 'blank': 'switch', 'hanger': 4,
                     'handicap': None},
        'horsecollar': {'target': 51, 'hanger': 13, 'corner': 26},
        'shovehapenny': {'beds': 9, 'gift': True, 'last_mark': 'any'},
    }
    common = {'best_of': 1, 'new_game': 'no', 'reset_games': 'no'}
    for kind in GAMES:
        sim = play(to_game(kind))[1]
        seen = menu_walk(sim)
        items = [i for i, _ in seen]
        assert items[0] == 'game' and seen[0][1] == kind
        assert items[-1] == 'test'
        for i in items:
            assert i in MENU_ITEMS, i
        assert len(set(items)) == len(items)
        values = dict(seen)
        for k, v in list(want.get(kind, {}).items()) + list(common.items()):
            assert values.get(k, 'missing') == v, (kind, k, values.get(k, 'missing'))
        assert 'brightness' in values
        if kind in ('fourframe', 'practice', 'shovehapenny'):
            assert 'target' not in values, kind    # no line to move in these games


def test_menu_red_blue_change_the_value_and_ok_long_leaves():
    (a, b, c), _ = play(MENU + 'tap BLUE\nstate\ntap RED\nstate\n' + LEAVE + 'state')
    assert a['menu'] == {'item': 'game', 'value': 'tapdraw'}
    assert b['menu'] == {'item': 'game', 'value': 'knockoff'}
    assert c['screen'] == 'setup' and c['game'] == 'knockoff' and 'menu' not in c
    # values wrap round: below the first game is the last
    (a,), _ = play(MENU + 'tap RED\nstate')
    assert a['menu']['value'] == 'shovehapenny'


def test_doubles_applies_at_once_without_a_new_game():
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + MENU + 'tap OK\ntap OK\nstate\n'
                'tap BLUE\nstate\n' + LEAVE + 'state\n' + MENU + 'tap OK\ntap OK\nstate')
    item, changed, back, again = s
    assert item['menu'] == {'item': 'doubles', 'value': False}
    assert changed['menu'] == {'item': 'doubles', 'value': True}
    assert back['screen'] == 'play' and (back['red'], back['frame']) == (3, 2)
    assert again['menu'] == {'item': 'doubles', 'value': True}


def test_target_applies_at_once_as_an_entry():
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + MENU + 'tap OK\nstate\n' +
                taps('BLUE', 6) + 'state\n' + LEAVE + 'state\nwait 2500\nstate\n'
                'hold OK 1000\nstate\nchord RED BLUE 1200\nstate')
    item, moved, play_, later, undone, redone = s
    assert item['menu'] == {'item': 'target', 'value': 15}
    assert moved['menu'] == {'item': 'target', 'value': 21}
    assert play_['screen'] == 'play' and play_['target'] == 21 and play_['red'] == 3
    assert play_['message'] == 'target 21'
    assert later['message'] is None and later['target'] == 21
    assert undone['target'] == 15 and undone['red'] == 3           # undone like any entry
    assert redone['target'] == 21


def test_target_below_a_score_wins_at_once():
    (v,), _ = play('tap OK\n' + taps('RED', 5) + 'tap OK\n' + MENU + 'tap OK\n' +
                   taps('RED', 10) + LEAVE + 'state')
    assert (v['target'], v['screen'], v['winner']) == (5, 'over', 'red')


def test_game_change_sets_the_game_aside_and_ok_long_brings_it_back():
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + taps('BLUE', 2) + 'tap OK\n' +
                MENU + 'tap BLUE\n' + LEAVE + 'state\n' + LEAVE + 'state\nhold OK 1000\nstate')
    setup, back, undone = s
    assert (setup['screen'], setup['game'], setup['red'], setup['blue']) == ('setup', 'tapdraw',
                                                                             0, 0)
    assert (back['screen'], back['game'], back['red'], back['blue']) == ('play', 'knockoff', 3, 2)
    assert (back['hammer'], back['frame']) == ('red', 3)           # blue scored last
    assert back['message']                                          # it says so
    assert (undone['blue'], undone['frame']) == (0, 2)              # undo history came back


def test_rule_change_sets_the_game_aside():
    # blank rule: switch -> keep is a rule option: a new game at setup, the old one kept aside
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + MENU + 'tap OK\ntap OK\ntap OK\n'
                'state\ntap BLUE\n' + LEAVE + 'state\n' + LEAVE + 'state')
    item, setup, back = s
    assert item['menu']['item'] == 'blank'
    assert setup['screen'] == 'setup' and setup['red'] == 0
    assert back['screen'] == 'play' and back['red'] == 3


def test_new_game_yes_sets_aside_and_survives_a_power_cut():
    # knockoff items: game target doubles blank hanger handicap best_of brightness new_game
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + MENU + taps('OK', 8) + 'state\n'
                'tap BLUE\nstate\n' + LEAVE + 'state\npower-cut\nwait 1500\nstate\n' + LEAVE +
                'state\npower-cut\nwait 1500\nstate')
    item, yes, setup, after_cut, back, after_cut2 = s
    assert item['menu'] == {'item': 'new_game', 'value': 'no'}
    assert yes['menu'] == {'item': 'new_game', 'value': 'yes'}
    assert setup['screen'] == 'setup' and setup['red'] == 0
    assert after_cut['screen'] == 'setup' and after_cut['red'] == 0
    assert back['screen'] == 'play' and (back['red'], back['frame']) == (3, 2)
    assert committed(after_cut2) == committed(back)


def test_new_game_left_on_no_changes_nothing():
    (v,), _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + MENU + taps('OK', 8) + LEAVE +
                   'state')
    assert v['screen'] == 'play' and v['red'] == 3


def test_bank_is_set_aside_and_taken_back_off_the_tally():
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\nstate\npower-cut\nwait 1500\n'
                'state\n' + LEAVE + 'state\npower-cut\nwait 1500\nstate')
    banked, cut, back, cut2 = s
    assert banked['screen'] == 'setup' and banked['games'] == {'red': 1, 'blue': 0}
    assert cut['games'] == {'red': 1, 'blue': 0}
    assert (back['screen'], back['winner'], back['red']) == ('over', 'red', 15)
    assert back['games'] == {'red': 0, 'blue': 0} and back['legs'] == {'red': 0, 'blue': 0}
    assert back['message']
    assert committed(cut2) == committed(back)


def test_set_aside_game_is_gone_after_the_new_games_first_entry():
    (v,), _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + MENU + 'tap BLUE\n' + LEAVE +
                   'tap OK\ntap RED\ntap OK\n' + LEAVE + 'state')
    # OK long in play on the new game is its undo, not the old game back
    assert v['game'] == 'tapdraw' and v['red'] == 0


def test_reset_games_and_best_of_three():
    win_r = 'tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\n'
    win_b = 'tap OK\n' + taps('BLUE', 15) + 'tap OK\ntap OK\n'
    s, sim = play(MENU + taps('OK', 6) + 'state\ntap BLUE\n' + LEAVE + win_r + 'state\n' +
                  win_b + 'state\n' + win_r + 'state\n')
    item, g1, g2, g3 = s
    assert item['menu'] == {'item': 'best_of', 'value': 1}
    assert g1['legs'] == {'red': 1, 'blue': 0} and g1['hammer'] == 'red'
    assert g2['legs'] == {'red': 1, 'blue': 1} and g2['hammer'] == 'blue'
    assert g3['games'] == {'red': 2, 'blue': 1}
    assert g3['message']                                            # the match result is said
    s, _ = play(MENU + taps('OK', 9) + 'state\ntap BLUE\n' + LEAVE + 'state', sim)
    item, reset = s
    assert item['menu'] == {'item': 'reset_games', 'value': 'no'}
    assert reset['games'] == {'red': 0, 'blue': 0} and reset['legs'] == {'red': 0, 'blue': 0}
    assert reset['screen'] == 'setup'


def test_menu_test_item_names_each_button():
    s, _ = play(MENU + taps('OK', 10) + 'state\ntap RED\nstate\ntap BLUE\nstate\ntap OK\nstate\n'
                'tap RED_MINUS\nstate\n' + LEAVE + 'state')
    item, red, blue, ok, minus, left = s
    assert item['menu']['item'] == 'test'
    assert red['menu'] == {'item': 'test', 'value': 'RED'}
    assert blue['menu']['value'] == 'BLUE' and ok['menu']['value'] == 'OK'
    assert minus['menu']['value'] == 'RED_MINUS'
    assert left['screen'] == 'setup' and 'menu' not in left       # OK long leaves


# --- the other games through the buttons -------------------------------------------------

def test_horse_collar_through_the_buttons():
    s, _ = play(to_game('horsecollar') + 'tap OK\n' + taps('RED', 10) + 'tap OK\nstate\n'
                'tap OK\nstate\n' + taps('BLUE', 2) + 'tap OK\nstate\n')
    r1, collar, refused = s
    assert (r1['red'], r1['turn'], r1['frame']) == (10, 'blue', 1)
    assert collar['collars'] == {'red': 0, 'blue': 1} and collar['message'] == 'collar'
    assert (collar['turn'], collar['frame']) == ('red', 2)
    # RED or BLUE adds for the side whose turn it is; 2 cannot score: refused, pending kept
    assert refused['pending'] == {'red': 2, 'blue': 0} and refused['message']
    assert refused['red'] == 10


def test_horse_collar_game_over_shows_collars():
    s, _ = play(to_game('horsecollar') + 'tap OK\ntap OK\n' + 'hold BLUE 9000\n' + 'tap OK\n'
                'state\ntap OK\nstate')
    over, setup = s
    assert over['screen'] == 'over' and over['winner'] == 'blue' and over['blue'] >= 51
    assert over['collars'] == {'red': 1, 'blue': 0}
    assert setup['screen'] == 'setup' and setup['games'] == {'red': 0, 'blue': 1}


def test_practice_through_the_buttons():
    s, _ = play(to_game('practice') + 'tap OK\n' + taps('RED', 3) + 'tap OK\nstate\n' +
                taps('RED', 5) + 'tap OK\nstate\nhold OK 1000\n' + taps('OK', 7) + 'state\n' +
                taps('OK', 8) + 'state')
    shot, refused, frame2, over = s
    assert (shot['red'], shot['turn']) == (3, 'blue')   # RED adds for the side whose turn it is
    assert refused['pending']['blue'] == 5 and refused['message'] and refused['blue'] == 0
    assert (frame2['frame'], frame2['turn']) == (2, 'blue')   # the opener changes every frame
    assert (over['screen'], over['winner']) == ('over', 'red')


def test_shove_hapenny_through_the_buttons():
    s, _ = play(to_game('shovehapenny') + 'tap OK\ntap BLUE\nstate\ntap RED\ntap RED\nstate\n' +
                taps('BLUE', 4) + taps('OK', 5) + 'state\ntap OK\nstate\n' + taps('RED', 4) +
                'state\ntap OK\nstate\n')
    up, end, five, sixth, at_end, passed = s
    assert up['cursor'] == 2
    assert end['cursor'] == 'end'                       # 1 -> END going down
    assert five['beds']['red'][3] == 3 and five['beds']['blue'][3] == 2   # full bed gifts
    assert (five['red'], five['blue'], five['turn']) == (3, 2, 'red')
    assert sixth['message'] and sixth['beds'] == five['beds']            # five coins a turn
    assert at_end['cursor'] == 'end'
    assert passed['turn'] == 'blue'


def test_shove_hapenny_undo_and_redo():
    s, _ = play(to_game('shovehapenny') + 'tap OK\ntap OK\ntap OK\nhold OK 1000\nstate\n'
                'chord RED BLUE 1200\nstate')
    undone, redone = s
    assert undone['beds']['red'][0] == 1 and redone['beds']['red'][0] == 2


def test_four_frame_through_the_buttons():
    s, _ = play(to_game('fourframe') + 'tap OK\n' + taps('RED', 3) + 'tap OK\n' + taps('OK', 3) +
                'state')
    (v,) = s
    assert (v['screen'], v['winner'], v['red']) == ('over', 'red', 3)


# --- sleep -------------------------------------------------------------------------------------

def test_sleep_after_an_hour_and_the_first_press_only_wakes():
    s, sim = play('tap OK\n' + taps('RED', 2) + 'tap OK\ntap BLUE\nwait 3500000\nstate\n'
                  'wait 200000\nstate\ntap RED\nstate\ntap RED\nstate')
    awake, asleep, woken, counted = s
    assert awake['screen'] == 'play'
    assert asleep['screen'] == 'sleep'
    assert woken['screen'] == 'play' and woken['pending'] == {'red': 0, 'blue': 1}
    assert counted['pending'] == {'red': 1, 'blue': 1}
    for gesture in ('tap OK', 'hold OK 1000', 'hold OK 3100', 'chord RED BLUE 1200'):
        (before, after), _ = play('wait 3700000\nstate\n' + gesture + '\nstate', sim)
        assert before['screen'] == 'sleep'
        assert after['screen'] == 'play' and committed(after)[2:] == committed(counted)[2:]
        assert after['pending'] == counted['pending']


# --- power cuts -------------------------------------------------------------------------------

GAME = ['tap OK'] + ['tap BLUE'] * 5 + ['tap OK'] + ['tap RED'] * 4 + ['tap OK',
        'hold OK 1000', 'chord RED BLUE 1200', 'tap OK'] + [
        'hold OK 3100', 'tap OK', 'tap BLUE', 'hold OK 1000'] + ['tap RED'] * 3 + ['tap OK']


def test_power_cut_at_every_step_keeps_every_committed_entry():
    # A power cut after any line: the board comes back with every committed entry (pending
    # points are RAM), on the same screen outside the menu.
    for i in range(1, len(GAME) + 1):
        lines = '\n'.join(GAME[:i])
        s, sim = play(lines + '\nstate\npower-cut\nwait 1500\nstate', tag='cut')
        before, after = s
        if before['screen'] == 'menu':
            continue
        assert committed(after) == committed(before), (i, GAME[i - 1])
        assert after['pending'] == {'red': 0, 'blue': 0}


def test_a_key_held_through_power_up_does_nothing():
    s, _ = play('tap OK\ntap RED\ntap OK\nstate\ndown OK\nwait 200\npower-cut\nwait 1500\n'
                'up OK\nwait 300\nstate\ndown RED\nwait 200\npower-cut\nwait 1200\nup RED\n'
                'wait 300\nstate')
    before, a, b = s
    assert committed(a) == committed(before)
    assert committed(b) == committed(before) and b['pending'] == {'red': 0, 'blue': 0}


@pytest.mark.parametrize('errno_, reason', [(28, 'flash full'), (5, 'flash error')])
def test_a_failed_save_is_said_and_saved_later(monkeypatch, errno_, reason):
    import builtins

    import scoreboard.store as store
    real = builtins.open

    def failing(path, mode='r', *a, **k):
        if 'w' in mode or 'a' in mode or '+' in mode:
            raise OSError(errno_, reason)
        return real(path, mode, *a, **k)

    _, sim = play('tap OK\ntap RED\ntap OK')
    monkeypatch.setattr(store, 'open', failing, raising=False)
    (v,), _ = play('tap BLUE\ntap OK\nstate', sim)
    assert (v['blue'], v['frame']) == (1, 3)                    # play goes on
    assert 'not saved' in v['message'] and reason in v['message']
    monkeypatch.undo()
    (v,), _ = play('wait 11000\npower-cut\nwait 1500\nstate', sim)
    assert (v['red'], v['blue'], v['frame']) == (1, 1, 3)


def test_a_press_while_dimmed_counts():
    # idle 10 min: dim (still awake); only the display that slept (60 min) swallows a press
    (dim, pressed), _ = play('tap OK\nwait 700000\nstate\ntap RED\nstate')
    assert dim['screen'] == 'play'
    assert pressed['pending']['red'] == 1


def test_the_moved_line_shows_for_2_s():
    s, _ = play('tap OK\n' + MENU + 'tap OK\ntap BLUE\n' + LEAVE + 'state\nwait 1400\nstate\n'
                'wait 600\nstate')
    first, still, gone = s
    assert first['message'] == 'target 16' and still['message'] == 'target 16'
    assert gone['message'] is None and gone['target'] == 16


def test_a_slot_with_a_good_crc_and_unusable_content_is_not_a_crash():
    # DESIGN 7: "Corrupt or foreign files are ignored with a message, never a crash loop":
    # slots written by the store itself (a valid CRC) whose content the firmware cannot use.
    import copy

    from app_probe import flash_dir
    from scoreboard.store import Store
    _, sim = play('tap OK\ntap RED\ntap OK\ntap BLUE\ntap BLUE\ntap OK', tag='crafted')
    good = Store(sim.flash).load()
    assert good is not None

    def bad(path, value):
        s = copy.deepcopy(good)
        d = s
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
        return s

    cases = [bad(('game', 'kind'), 'chess'), bad(('game', 'log'), ['a', 'b']),
             bad(('game', 'log'), [True]), bad(('game', 'log'), [99999, 99999]),
             bad(('game', 'options', 'target'), 0), bad(('settings', 'game'), 'chess'),
             bad(('v',), 2), [1, 2, 3], bad(('match', 'games'), {'red': -5, 'blue': 'x'}),
             bad(('names',), {'red': 'x' * 5000, 'blue': 5}), bad(('cursor',), 99)]
    for state in cases:
        d = flash_dir('crafted2')
        Store(d).save(state)
        sim2 = sim_engine.Sim('bare', d, Out())
        s, _ = play('state\ntap OK\ntap RED\ntap OK\nstate\npower-cut\nwait 1500\nstate', sim2)
        boot, after, cut = s
        assert boot['screen'] in ('setup', 'play'), state
        if boot['screen'] == 'setup':
            assert boot['message'], state           # a game was lost: it says so
        else:
            for side in ('red', 'blue'):           # what it kept is sane
                assert isinstance(boot['games'][side], int) and boot['games'][side] >= 0
                n = boot['names'][side]
                assert n is None or (isinstance(n, str) and len(n) <= 12)
        assert after['screen'] == 'play' and committed(cut) == committed(after)


def test_best_of_one_each_game_is_a_match():
    win_r = 'tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\nstate\n'
    win_b = 'tap OK\n' + taps('BLUE', 15) + 'tap OK\ntap OK\nstate\n'
    (g1, g2), _ = play(win_r + win_b)
    assert g1['games'] == {'red': 1, 'blue': 0} and g2['games'] == {'red': 1, 'blue': 1}
    assert g1['hammer'] == 'red' and g2['hammer'] == 'blue'     # the starter alternates


def test_set_aside_variants():
    base = 'tap OK\n' + taps('RED', 2) + 'tap OK\n'               # red 2, frame 2
    change = MENU + 'tap BLUE\n' + LEAVE
    # a game over (not banked) that a menu change replaces comes back to its game over
    (v,), _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\n' + change + LEAVE + 'state')
    assert (v['screen'], v['game'], v['winner'], v['red']) == ('over', 'knockoff', 'red', 15)
    # choosing the hammer on the setup that follows is no entry: the game still comes back
    (v,), _ = play(base + change + 'tap RED\ntap BLUE\n' + LEAVE + 'state')
    assert (v['screen'], v['game'], v['red'], v['frame']) == ('play', 'knockoff', 2, 2)
    # a second menu change on that setup replaces no game in play: the first still comes back
    (v,), _ = play(base + change + change + LEAVE + 'state')
    assert (v['screen'], v['game'], v['red'], v['frame']) == ('play', 'knockoff', 2, 2)
    # a bank, then a menu change on the setup that follows: the banked game still comes back
    (v,), _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\n' + change + LEAVE + 'state')
    assert (v['screen'], v['winner'], v['games']) == ('over', 'red', {'red': 0, 'blue': 0})
    # it comes back once: the next OK long is an undo in that game
    (a, b), _ = play(base + change + LEAVE + 'state\n' + LEAVE + 'state')
    assert a['red'] == 2 and (b['red'], b['frame'], b['screen']) == (0, 1, 'play')


def test_lamp_test_dim_and_off_on_the_default_board():
    sim = new_sim('pico_tm1637', 'lamp', Out())

    def segs():
        return [c.digits() for g in sim.chips for c in g]

    def levels():
        return [(c.on, c.level) for g in sim.chips for c in g]

    sim.advance(100)
    lamp = segs()
    assert lamp and all(all(d == 0xFF for d in digits) for digits in lamp)   # every segment
    sim.advance(1500)
    assert segs() != lamp                                                  # then the setup
    play('tap OK\ntap RED\ntap OK', sim)
    awake = levels()
    assert all(on for on, _ in awake)
    sim.advance(590000)
    assert levels() == awake                                               # 9.8 min: as it was
    sim.advance(20000)
    dim = levels()
    assert all(on for on, _ in dim) and all(d < a for (_, d), (_, a) in zip(dim, awake))
    sim.advance(3000000)
    assert all(not on for on, _ in levels()) and sim.app.ctl.view['screen'] == 'sleep'
    play('tap RED', sim)
    assert levels() == awake and sim.app.ctl.view['pending']['red'] == 0   # only woken


def test_games_won_are_kept_across_a_game_change():
    (v,), _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\ntap OK\ntap RED\ntap OK\n' +
                   MENU + 'tap BLUE\n' + LEAVE + 'state')
    assert (v['screen'], v['game'], v['games']) == ('setup', 'tapdraw', {'red': 1, 'blue': 0})


def test_settings_survive_a_power_cut():
    cut = 'power-cut\nwait 1500\n'
    s, _ = play('tap OK\ntap RED\ntap OK\n' + MENU + taps('OK', 6) + 'tap BLUE\ntap OK\n'
                'tap BLUE\ntap BLUE\n' + LEAVE + cut + MENU + taps('OK', 6) + 'state\ntap OK\n'
                'state\n' + LEAVE + MENU + 'tap OK\ntap OK\ntap BLUE\n' + LEAVE + cut + MENU +
                'tap OK\ntap OK\nstate')
    assert [v['menu'] for v in s] == [{'item': 'best_of', 'value': 3},
                                      {'item': 'brightness', 'value': 8},
                                      {'item': 'doubles', 'value': True}]


def test_raising_the_line_at_game_over_puts_the_game_back_in_play():
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\nstate\n' + MENU + 'tap OK\n' +
                taps('BLUE', 6) + LEAVE + 'state\n' + LEAVE + 'state')
    over, back, undone = s
    assert over['screen'] == 'over'
    assert (back['screen'], back['target'], back['winner'], back['red']) == ('play', 21, None, 15)
    assert (undone['screen'], undone['target'], undone['winner']) == ('over', 15, 'red')


def test_shove_hapenny_coins_of_a_turn_survive_a_power_cut():
    s, _ = play(to_game('shovehapenny') + 'tap OK\ntap BLUE\ntap OK\ntap BLUE\ntap OK\ntap OK\n'
                'state\npower-cut\nwait 1500\nstate\ntap OK\ntap OK\nstate\ntap OK\nstate')
    before, after, five, sixth = s
    assert before['beds']['red'][:3] == [0, 1, 2] and after['beds'] == before['beds']
    assert (after['turn'], after['screen']) == ('red', 'play')
    assert five['red'] + five['blue'] == 5            # two more coins after the cut, no more
    assert sixth['beds'] == five['beds'] and sixth['message']


def test_the_deciding_bank_can_be_taken_back_and_a_new_match_follows():
    win_r = 'tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\n'
    s, _ = play(MENU + taps('OK', 6) + 'tap BLUE\n' + LEAVE + win_r + win_r + 'state\n' + LEAVE +
                'state\ntap OK\nstate\n' + win_r + 'state')
    match, unbanked, again, next_match = s
    assert match['games'] == {'red': 2, 'blue': 0} and match['legs'] == {'red': 2, 'blue': 0}
    assert match['message']                                   # best of 3 decided: said
    assert (unbanked['screen'], unbanked['winner']) == ('over', 'red')
    assert unbanked['games'] == {'red': 1, 'blue': 0} and unbanked['legs'] == {'red': 1, 'blue': 0}
    assert again['games'] == match['games'] and again['legs'] == match['legs']
    assert next_match['games'] == {'red': 3, 'blue': 0}
    assert next_match['legs'] == {'red': 1, 'blue': 0}       # a new match began
