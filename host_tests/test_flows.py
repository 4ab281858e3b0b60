# runs-on: micropython
# Whole flows through the buttons: press scripts on the virtual board (tools/sim_engine.py), the
# same code path as the device, checked through the view model. Runs under both interpreters.
import sim_engine
from app_probe import Out, new_sim


def play(script, sim=None, board='bare'):
    """Run press-script text; returns (list of view dicts for each `state`, the sim)."""
    import json
    if sim is None:
        sim = new_sim(board, 'flows', Out())
    out = sim.out
    start = len(out.lines)
    for _, op, args in sim_engine.parse(script.split('\n'), sim.board.BUTTONS):
        sim.run(op, args)
    return [json.loads(x) for x in out.lines[start:] if x.strip().startswith('{')], sim


def taps(button, n):
    return ('tap %s\n' % button) * n


def test_first_boot_is_setup_for_knockoff():
    (v,), _ = play('state')
    assert v['screen'] == 'setup' and v['game'] == 'knockoff'
    assert (v['red'], v['blue'], v['hammer'], v['target']) == (0, 0, 'blue', 15)


def test_seed_000_worked_game_through_the_buttons():
    # Alice (red) opens, Ben (blue) has the hammer: frames Ben 5, Alice 4, Alice 4, Ben 3.
    script = 'tap OK\n' + taps('BLUE', 5) + 'state\ntap OK\nstate\n' + taps('RED', 4) + \
        'tap OK\n' + taps('RED', 4) + 'tap OK\nstate\n' + taps('BLUE', 3) + 'tap OK\nstate\n'
    s, _ = play(script)
    assert s[0]['pending'] == {'red': 0, 'blue': 5} and s[0]['blue'] == 0
    assert (s[1]['blue'], s[1]['hammer'], s[1]['frame'], s[1]['end']) == (5, 'red', 2, 2)
    assert (s[2]['red'], s[2]['blue'], s[2]['hammer']) == (8, 5, 'blue')
    assert (s[3]['red'], s[3]['blue'], s[3]['hammer'], s[3]['frame']) == (8, 8, 'red', 5)


def test_win_bank_and_games_won():
    script = 'tap OK\nhold RED 1550\nstate\ntap OK\nstate\n'
    s, sim = play(script)
    # a held RED repeats: 600 ms, then every 150 ms while held
    assert s[0]['pending']['red'] == 7
    s2, _ = play(taps('RED', 9) + 'tap OK\nstate\ntap OK\nstate\n', sim)
    over, setup = s2
    assert over['screen'] == 'over' and over['winner'] == 'red' and over['red'] == 16
    assert setup['screen'] == 'setup' and setup['games'] == {'red': 1, 'blue': 0}
    # the starter alternates: red opened game 1, so blue opens game 2 (red has the hammer)
    assert setup['hammer'] == 'red'


def test_refused_entry_keeps_pending_and_says_why():
    s, _ = play('tap OK\n' + taps('RED', 17) + 'tap OK\nstate\nwait 2500\nstate\n' +
                taps('BLUE', 1) + 'tap OK\nstate\n')
    assert s[0]['message'] == 'red max 16' and s[0]['pending']['red'] == 17
    assert s[0]['red'] == 0
    assert s[1]['message'] is None and s[1]['pending']['red'] == 17
    assert s[2]['message'] == 'only one side scores'


def test_long_ok_clears_pending_then_undoes_and_chord_redoes():
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + taps('BLUE', 2) +
                'hold OK 1000\nstate\nhold OK 1000\nstate\nchord RED BLUE 1200\nstate\n'
                'chord RED BLUE 1200\nstate\n')
    assert s[0]['pending'] == {'red': 0, 'blue': 0} and s[0]['red'] == 3
    assert s[1]['red'] == 0 and s[1]['message'] == 'undo' and s[1]['hammer'] == 'blue'
    assert s[2]['red'] == 3 and s[2]['message'] == 'redo'
    assert s[3]['message'] == 'no redo'


def test_blank_frame_switches_the_hammer():
    s, _ = play('tap OK\ntap OK\nstate\n')
    assert (s[0]['frame'], s[0]['hammer'], s[0]['red'], s[0]['blue']) == (2, 'red', 0, 0)


def test_setup_chooses_the_hammer():
    s, _ = play('tap RED\nstate\ntap OK\nstate\n' + taps('RED', 2) + 'tap OK\nstate\n')
    assert s[0]['hammer'] == 'red' and s[0]['screen'] == 'setup'
    assert s[1]['hammer'] == 'red' and s[1]['screen'] == 'play'
    assert s[2]['hammer'] == 'blue'


def choose_game(kind):
    """From setup on first boot: the menu, the game item stepped with BLUE to `kind`."""
    order = ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'practice', 'shovehapenny')
    return 'hold OK 3200\n' + taps('BLUE', order.index(kind)) + 'state\nhold OK 1000\n'


def test_menu_changes_the_game():
    s, _ = play(choose_game('horsecollar') + 'state\n')
    assert s[0]['screen'] == 'menu' and s[0]['menu'] == {'item': 'game', 'value': 'horsecollar'}
    assert s[1]['screen'] == 'setup' and s[1]['game'] == 'horsecollar'
    assert s[1]['turn'] == 'red' and s[1]['hammer'] is None and s[1]['target'] == 51


def test_horse_collar_turns_through_the_buttons():
    s, _ = play(choose_game('horsecollar') + 'tap OK\n' + taps('BLUE', 2) + 'tap OK\nstate\n' +
                'hold OK 1000\ntap OK\nstate\n' + taps('RED', 30) + 'tap OK\nstate\n')
    refused, collar, blue30 = s[1], s[2], s[3]
    # either button counts for the side whose turn it is; 2 cannot score without a 3
    assert refused['message'] == 'needs a 3 to score' and refused['pending']['red'] == 2
    assert refused['turn'] == 'red' and refused['red'] == 0
    # OK long cleared the 2, then OK committed a scoreless turn: a collar
    assert collar['red'] == 0 and collar['turn'] == 'blue' and collar['end'] == 2
    assert blue30['blue'] == 30 and blue30['turn'] == 'red' and blue30['frame'] == 2


def test_horse_collar_collar_and_round():
    s, _ = play(choose_game('horsecollar') + 'tap OK\ntap OK\nstate\n' + taps('BLUE', 9) +
                'tap OK\nstate\n')
    assert s[1]['turn'] == 'blue' and s[1]['red'] == 0 and s[1]['end'] == 2
    assert s[2]['blue'] == 9 and s[2]['turn'] == 'red' and s[2]['frame'] == 2


def test_practice_shots_alternate():
    s, _ = play(choose_game('practice') + 'tap OK\n' + taps('RED', 3) + 'tap OK\nstate\n' +
                taps('RED', 4) + 'tap OK\nstate\n')
    assert s[1]['red'] == 3 and s[1]['turn'] == 'blue'
    assert s[2]['blue'] == 4 and s[2]['turn'] == 'red'   # either button counts for the turn


def test_shovehapenny_cursor_marks_and_end():
    s, _ = play(choose_game('shovehapenny') + 'tap OK\nstate\ntap OK\ntap BLUE\ntap BLUE\n'
                'tap OK\nstate\ntap RED\ntap RED\ntap RED\nstate\ntap OK\nstate\n')
    start, marked, at_end, passed = s[1], s[2], s[3], s[4]
    assert start['cursor'] == 1 and start['beds']['red'] == [0] * 9 and start['turn'] == 'red'
    assert marked['beds']['red'][:3] == [1, 0, 1] and marked['red'] == 2 and marked['cursor'] == 3
    assert at_end['cursor'] == 'end'
    assert passed['turn'] == 'blue' and passed['cursor'] == 1 and passed['frame'] == 2


def test_menu_target_moves_the_line_in_play_and_undoes():
    s, _ = play('tap OK\n' + taps('RED', 12) + 'tap OK\n' +
                'hold OK 3200\ntap OK\nstate\n' + taps('RED', 4) + 'state\nhold OK 1000\nstate\n'
                'hold OK 1000\nstate\n')
    in_menu, lowered, over, undone = s
    assert in_menu['menu'] == {'item': 'target', 'value': 15}
    assert lowered['menu'] == {'item': 'target', 'value': 11}
    assert over['screen'] == 'over' and over['winner'] == 'red' and over['target'] == 11
    assert undone['screen'] == 'play' and undone['target'] == 15 and undone['red'] == 12


def test_menu_rule_change_restarts_at_setup_and_keeps_games():
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\n' +
                'hold OK 3200\ntap OK\ntap OK\ntap BLUE\nstate\nhold OK 1000\nstate\n')
    assert s[0]['menu'] == {'item': 'doubles', 'value': True}
    assert s[1]['screen'] == 'setup' and s[1]['games'] == {'red': 1, 'blue': 0}


def test_reset_games():
    # DESIGN section 4's order: new_game comes before reset_games (issue 12 added it)
    items = ('game target doubles blank hanger handicap best_of brightness new_game '
             'reset_games').split()
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\nhold OK 3200\n' +
                taps('OK', items.index('reset_games')) + 'state\ntap BLUE\nstate\n'
                'hold OK 1000\nstate\n')
    assert s[0]['menu'] == {'item': 'reset_games', 'value': 'no'}
    assert s[1]['menu']['value'] == 'yes'
    assert s[2]['games'] == {'red': 0, 'blue': 0} and s[2]['screen'] == 'setup'


def test_best_of_three_legs():
    items = 'game target doubles blank hanger handicap best_of'.split()
    win_red = 'tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\n'
    s, _ = play('hold OK 3200\n' + taps('OK', items.index('best_of')) + 'tap BLUE\nstate\n'
                'hold OK 1000\n' + win_red + 'state\n' + win_red + 'state\ntap OK\nstate\n')
    assert s[0]['menu'] == {'item': 'best_of', 'value': 3}
    assert s[1]['legs'] == {'red': 1, 'blue': 0} and s[1]['message'] is None
    assert s[2]['legs'] == {'red': 2, 'blue': 0} and s[2]['message'] == 'red match'
    assert s[2]['games'] == {'red': 2, 'blue': 0}
    assert s[3]['legs'] == {'red': 0, 'blue': 0} and s[3]['screen'] == 'play'


def test_dim_sleep_and_the_waking_press():
    s, sim = play('tap OK\nwait 600000\nstate\n')
    assert sim.app.ctl.dimmed and s[0]['screen'] == 'play'
    s, _ = play('wait 3000000\nstate\ntap RED\nstate\ntap RED\nstate\n', sim)
    assert s[0]['screen'] == 'sleep'
    assert s[1]['screen'] == 'play' and s[1]['pending']['red'] == 0   # only woke
    assert s[2]['pending']['red'] == 1
    assert not sim.app.ctl.dimmed


def test_power_cut_resumes_exactly():
    s, sim = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + taps('BLUE', 2) + 'tap OK\n'
                  'hold OK 1000\nstate\npower-cut\nstate\nchord RED BLUE 1200\nstate\n')
    before, after, redone = s
    before['message'] = after['message'] = None
    assert before == after
    assert redone['blue'] == 2 and redone['hammer'] == 'red'
    assert sim.boots == 2


def test_power_cut_in_menu_and_over_screens():
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\nstate\npower-cut\nstate\n'
                'tap OK\nhold OK 3200\npower-cut\nstate\n')
    assert s[0]['screen'] == 'over' and s[1]['screen'] == 'over' and s[1]['winner'] == 'red'
    assert s[2]['screen'] == 'setup' and s[2]['games'] == {'red': 1, 'blue': 0}


def test_comments_after_commands_are_ignored():
    prog = sim_engine.parse(['# a whole line', 'tap OK   # start the game', '', 'wait 5#x'],
                            {'RED': 1, 'BLUE': 2, 'OK': 3})
    assert [(n, op, args) for n, op, args in prog] == [(2, 'tap', ['OK']), (4, 'wait', [5])]


def test_minus_buttons_on_the_default_board():
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap RED_MINUS\ntap BLUE_MINUS\nstate\n',
                board='pico_tm1637')
    assert s[0]['pending'] == {'red': 2, 'blue': 0}


def test_script_errors_name_the_line():
    for text, why in (('tap PURPLE', 'unknown button'), ('jump OK', 'unknown command'),
                      ('wait soon', 'not a number'), ('hold OK', 'takes 2'),
                      ('chord RED RED 1000', 'two different')):
        try:
            sim_engine.parse(['state', text], {'RED': 1, 'BLUE': 2, 'OK': 3})
        except sim_engine.ScriptError as e:
            assert 'line 2' in str(e) and why in str(e), str(e)
        else:
            raise AssertionError('accepted ' + text)


def test_redo_waits_until_no_points_are_pending():
    # Horse collar: red's 4 entered and undone, then 2 pending for red. A redo now would give
    # the turn to blue and drop red's 2 (or, in a frame game, enter the frame twice): refused.
    s, _ = play(choose_game('horsecollar') + 'tap OK\n' + taps('RED', 4) + 'tap OK\n' +
                'hold OK 1000\n' + taps('RED', 2) + 'chord RED BLUE 1200\nstate\n' +
                'hold OK 1000\nchord RED BLUE 1200\nstate\n')
    refused, redone = s[1], s[2]
    assert refused['message'] == 'points pending' and refused['pending']['red'] == 2
    assert refused['turn'] == 'red' and refused['red'] == 0
    assert redone['message'] == 'redo' and redone['red'] == 4 and redone['turn'] == 'blue'


def test_shovehapenny_setup_starts_at_bed_one():
    # the cursor left on bed 8 of the last game; beds changed to 5: setup shows bed 1
    s, _ = play(choose_game('shovehapenny') + 'tap OK\n' + taps('RED', 3) + 'state\n' +
                'hold OK 3200\ntap OK\nstate\ntap BLUE\nhold OK 1000\nstate\n')
    moved, item, setup = s[1], s[2], s[3]
    assert moved['cursor'] == 8
    assert item['menu'] == {'item': 'beds', 'value': 9}
    assert setup['screen'] == 'setup' and setup['cursor'] == 1
    assert setup['beds']['red'] == [0] * 5


def test_brightness_stepped_in_the_menu_survives_a_power_cut():
    # Brightness applies while it is stepped, so it is saved then; the open menu itself is not
    # kept (its other changes apply when it is left): the board comes back on play.
    s, sim = play('tap OK\nhold OK 3200\n' + taps('OK', 7) + 'state\n' + taps('RED', 3) +
                  'state\npower-cut\nstate\n')
    item, stepped, back = s
    assert item['menu']['item'] == 'brightness'
    level = stepped['menu']['value']
    assert level == item['menu']['value'] - 3
    assert back['screen'] == 'play'
    assert sim.app.ctl.settings['brightness'] == level


# --- Issue 12: no game lost by accident, feedback, bring-up --------------------------------

def items_to(item, kind='knockoff', parts=()):
    """OK taps from the menu's first item to `item` (DESIGN section 4's order, as shown; on a
    board whose optional parts bring `parts`, 'sound' and 'learn', those too)."""
    from scoreboard.ui.menu import items_for
    return taps('OK', items_for(kind, parts).index(item))


def test_a_menu_change_sets_the_game_aside_and_ok_long_brings_it_back():
    s, _ = play('tap OK\n' + taps('RED', 3) + 'tap OK\n' + taps('BLUE', 2) + 'tap OK\nstate\n'
                'hold OK 3200\n' + items_to('blank') + 'tap BLUE\nhold OK 1000\nstate\n'
                'hold OK 1000\nstate\nhold OK 1000\nstate\n')
    before, setup, back, undone = s
    assert setup['screen'] == 'setup' and setup['red'] == setup['blue'] == 0
    assert back['message'] == 'game back'
    for k in ('screen', 'red', 'blue', 'hammer', 'frame', 'end', 'target', 'games', 'legs'):
        assert back[k] == before[k], k
    # exactly: the undo history came back too, and the rule went back to the game's own
    assert undone['message'] == 'undo' and undone['blue'] == 0 and undone['red'] == 3


def test_a_power_cut_right_after_a_menu_change_then_ok_long_brings_the_game_back():
    s, sim = play('tap OK\n' + taps('RED', 3) + 'tap OK\nstate\nhold OK 3200\n' +
                  items_to('hanger') + 'tap BLUE\nhold OK 1000\npower-cut\nstate\n'
                  'hold OK 1000\nstate\n')
    before, setup, back = s
    assert setup['screen'] == 'setup' and setup['red'] == 0
    assert back['screen'] == 'play' and back['red'] == 3 and back['hammer'] == before['hammer']
    assert back['message'] == 'game back'
    assert sim.boots == 2


def test_new_game_sets_the_game_aside():
    s, _ = play('tap OK\n' + taps('RED', 4) + 'tap OK\nhold OK 3200\n' + items_to('new_game') +
                'state\ntap BLUE\nstate\nhold OK 1000\nstate\nhold OK 1000\nstate\n')
    item, yes, setup, back = s
    assert item['menu'] == {'item': 'new_game', 'value': 'no'}
    assert yes['menu'] == {'item': 'new_game', 'value': 'yes'}
    assert setup['screen'] == 'setup' and setup['red'] == 0
    assert back['screen'] == 'play' and back['red'] == 4


def test_a_bank_brought_back_comes_off_the_tally():
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\nstate\ntap OK\nstate\npower-cut\n'
                'hold OK 1000\nstate\n')
    over, setup, back = s
    assert setup['games'] == {'red': 1, 'blue': 0} and setup['screen'] == 'setup'
    assert back['screen'] == 'over' and back['winner'] == 'red' and back['red'] == 15
    assert back['games'] == {'red': 0, 'blue': 0} and back['legs'] == {'red': 0, 'blue': 0}
    assert back['message'] == 'bank undone'


def test_the_set_aside_game_is_gone_after_the_new_games_first_entry():
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\ntap OK\ntap OK\n'
                'hold OK 3200\n' + items_to('new_game') + 'tap BLUE\nhold OK 1000\n'
                'hold OK 1000\nstate\n')
    # banked, the next game started and a blank frame entered, then new_game: nothing to
    # bring back but the blank-frame game
    assert s[0]['screen'] == 'play' and s[0]['frame'] == 2 and s[0]['games']['red'] == 1
    s, _ = play('tap OK\n' + taps('RED', 15) + 'tap OK\ntap OK\ntap OK\ntap OK\n'
                'hold OK 1000\nstate\n')
    assert s[0]['screen'] == 'play' and s[0]['message'] == 'undo'   # an undo, not a return
    s, _ = play('hold OK 1000\nstate\n')
    assert s[0]['screen'] == 'setup' and s[0]['message'] == 'no game'


def test_doubles_applies_at_once_without_a_new_game():
    s, sim = play('tap OK\n' + taps('RED', 3) + 'tap OK\nhold OK 3200\n' + items_to('doubles') +
                  'tap BLUE\nstate\nhold OK 1000\nstate\n')
    item, after = s
    assert item['menu'] == {'item': 'doubles', 'value': True}
    assert after['screen'] == 'play' and after['red'] == 3 and after['frame'] == 2
    assert sim.app.ctl.game.options['doubles'] is True
    s, _ = play('hold OK 3200\n' + items_to('doubles') + 'state\n', sim)
    assert s[0]['menu'] == {'item': 'doubles', 'value': True}


def test_collars_in_the_view_and_the_collar_message():
    s, _ = play(choose_game('horsecollar') + 'state\ntap OK\ntap OK\nstate\n' + taps('BLUE', 3) +
                'tap OK\nstate\n')
    setup, collar, scored = s[1], s[2], s[3]
    assert setup['collars'] == {'red': 0, 'blue': 0}
    assert collar['collars'] == {'red': 1, 'blue': 0} and collar['message'] == 'collar'
    assert scored['collars'] == {'red': 1, 'blue': 0} and scored['message'] is None
    s, _ = play('state\n')
    assert 'collars' not in s[0]                    # knock-off counts no collars


def test_the_moved_line_is_a_message_for_two_seconds():
    s, _ = play('tap OK\nhold OK 3200\n' + items_to('target') + taps('BLUE', 6) +
                'hold OK 1000\nstate\nwait 1500\nstate\nwait 600\nstate\n')
    assert s[0]['message'] == 'target 21' and s[0]['target'] == 21
    assert s[1]['message'] == 'target 21'
    assert s[2]['message'] is None and s[2]['target'] == 21


def test_holding_ok_says_what_letting_go_will_do():
    s, _ = play('tap OK\ndown OK\nwait 500\nstate\nwait 200\nstate\nwait 2000\nstate\n'
                'wait 400\nstate\nup OK\nwait 300\nstate\n')
    early, undo, still, menu, released = s
    assert early['message'] is None and early['screen'] == 'play'
    assert undo['message'] == 'undo' and still['message'] == 'undo'   # kept while held
    assert menu['screen'] == 'menu' and menu['message'] == 'menu'
    assert released['screen'] == 'menu'


def test_hold_feedback_clear_with_points_pending():
    s, _ = play('tap OK\n' + taps('RED', 2) + 'down OK\nwait 700\nstate\nup OK\nwait 300\n'
                'state\n')
    held, after = s
    assert held['message'] == 'clear' and held['pending']['red'] == 2
    assert after['pending']['red'] == 0 and after['message'] == 'clear'   # as undo says 'undo'


def test_the_menus_test_item_names_each_button():
    # pico_tm1637 has a buzzer and an IR receiver: its menu shows sound and learn before test
    s, _ = play('hold OK 3200\n' + items_to('test', parts=('sound', 'learn')) +
                'state\ntap RED\nstate\ntap OK\nstate\n'
                'hold BLUE 2000\nstate\ntap RED_MINUS\nstate\nhold OK 1000\nstate\n',
                board='pico_tm1637')
    start, red, ok, blue, minus, left = s
    assert start['menu'] == {'item': 'test', 'value': '-'}
    assert red['menu'] == {'item': 'test', 'value': 'RED'}
    assert ok['menu'] == {'item': 'test', 'value': 'OK'}      # OK tap does not leave the test
    assert blue['menu'] == {'item': 'test', 'value': 'BLUE'}   # nor does a held key step
    assert minus['menu'] == {'item': 'test', 'value': 'RED_MINUS'}
    assert left['screen'] == 'setup' and 'menu' not in left


def test_names_are_in_the_view():
    (v,), _ = play('state')
    assert v['names'] == {'red': None, 'blue': None}
