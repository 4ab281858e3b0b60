# runs-on: micropython
# Remotes, sound and light through the whole app on the virtual board (DESIGN section 11): the
# press-script commands `ir`, `rf`, `light` put real pulse trains on the receivers' pins and a
# level on the light sensor; the buzzer's tones are what the virtual PWM recorded. Seed 000's
# worked game is scored from an IR remote (pico_tm1637) and from an RF keyfob
# (pico_ws2812_digits); learn and test in the menu; the cues; brightness auto.
import json

from app_probe import Out, new_sim, play

IR_BOARD = 'pico_tm1637'
RF_BOARD = 'pico_ws2812_digits'
# The codes of the board files (the 21-key NEC remote; the example EV1527 fob).
IR = {'RED': '44', 'BLUE': '40', 'OK': '0x43', 'RED_MINUS': '07', 'BLUE_MINUS': '15'}
RF = {'RED': '5A5A58', 'BLUE': '0x5A5A54', 'OK': '5a5a52', 'CHORD': '5A5A5C'}

CLICK = 3000
CHIME = (1319, 1760)
WIN = (1047, 1319, 1568, 2093)
REFUSE = 196


def seed_000(cmd, codes):
    """Seed 000's worked game (core_scenarios.py): Ben 5, Alice 4, Alice 4, Ben 3, Ben 4,
    Alice 6, Ben 5: blue wins 17-14. Each +1 a press of the remote's key."""
    def key(name):
        return '%s %s' % (cmd, codes[name])

    s = [key('OK')]
    for red, blue in ((0, 5), (4, 0), (4, 0), (0, 3), (0, 4), (6, 0), (0, 5)):
        s += [key('RED')] * red + [key('BLUE')] * blue + [key('OK')]
    return s + ['state']


def last_view(sim):
    return json.loads(sim.out.lines[-1])


def check_seed_000(v, board):
    assert v['screen'] == 'over', (board, v)
    assert (v['red'], v['blue'], v['winner']) == (14, 17, 'blue'), (board, v)


def test_seed_000_scored_from_the_ir_remote():
    sim = play(new_sim(IR_BOARD, 'ir000', Out()), seed_000('ir', IR))
    check_seed_000(last_view(sim), IR_BOARD)
    # the board's own buttons were never touched: every key came through the receiver's pin
    assert sim.app.remotes[0].presses == len(seed_000('ir', IR)) - 1


def test_seed_000_scored_from_the_rf_keyfob():
    sim = play(new_sim(RF_BOARD, 'rf000', Out()), seed_000('rf', RF))
    check_seed_000(last_view(sim), RF_BOARD)
    # and the fob banks the game: OK on game over, then the new game's setup
    play(sim, ['rf %s' % RF['OK'], 'state'])
    v = last_view(sim)
    assert v['screen'] == 'setup' and v['games'] == {'red': 0, 'blue': 1}, v


def test_a_held_remote_key_is_a_held_button():
    sim = new_sim(IR_BOARD, 'irheld', Out())
    # held RED auto-repeats +1 (after 600 ms, then every 150 ms or faster)
    play(sim, ['ir 43', 'ir 44 2000', 'state'])
    v = last_view(sim)
    assert v['screen'] == 'play' and v['pending']['red'] >= 1 + (2000 - 600) // 150, v
    # OK held 1 s is a long press: the pending points are cleared
    play(sim, ['ir 43 1000', 'state'])
    assert last_view(sim)['pending'] == {'red': 0, 'blue': 0}
    # a frame, then OK long undoes it
    play(sim, ['ir 40', 'ir 40', 'ir 43', 'state'])
    assert last_view(sim)['blue'] == 2
    play(sim, ['ir 43 1000', 'state'])
    assert (last_view(sim)['blue'], last_view(sim)['message']) == (0, 'undo')
    # OK held past 3 s opens the menu
    play(sim, ['ir 43 3300', 'state'])
    assert last_view(sim)['screen'] == 'menu'


def test_the_keyfobs_two_keys_at_once_are_the_chord():
    sim = new_sim(RF_BOARD, 'rfchord', Out())
    play(sim, ['rf %s' % RF['OK'], 'rf %s' % RF['RED'], 'rf %s' % RF['OK'],
               'rf %s 1000' % RF['OK'], 'state'])
    v = last_view(sim)
    assert v['red'] == 0 and v['message'] == 'undo', v
    play(sim, ['rf %s 1300' % RF['CHORD'], 'state'])      # A and B held together: redo
    v = last_view(sim)
    assert v['red'] == 1 and v['message'] == 'redo', v


def test_remote_noise_makes_no_key():
    # A 433 MHz receiver with nothing in range outputs noise; an IR receiver in sunlight,
    # glitches. Three seconds of each (ten in `make fuzz`), mixed with half frames, never
    # press a key.
    from virtual import pulses
    import sweep
    us = sweep.pick(3000000, 10000000)
    for board, kind in ((RF_BOARD, 'rf'), (IR_BOARD, 'ir')):
        sim = new_sim(board, 'noise' + kind, Out())
        play(sim, ['wait 1500'])
        r = sim.receivers[kind]
        rng = pulses.Rng(7)
        t0 = sim.now * 1000 + 1000
        r.send(pulses.noise(t0, t0 + us, rng, r.idle, 30, 600))
        half = pulses.nec(0x43, t0=t0 + us + 1000000) if kind == 'ir' else pulses.ev1527(
            0x5A5A52, t0=t0 + us + 1000000, frames=1)
        r.send(pulses.truncate(half, pulses.end(half) - 3000, r.idle))
        before = sim.app.ctl.view
        play(sim, ['wait %d' % (us // 1000 + 3000), 'state'])
        v = last_view(sim)
        assert v['screen'] == 'setup' and v['pending'] == before['pending'], (board, v)
        assert v['hammer'] == before['hammer'] and v['message'] is None, (board, v)
        assert sim.app.ctl.menu is None


# --- the menu: learn and test ----------------------------------------------------------------

def to_item(sim, item):
    from scoreboard.ui.menu import items_for
    ctl = sim.app.ctl
    play(sim, ['hold OK 3200'])
    n = items_for(ctl.kind, ctl.parts).index(item)
    play(sim, ['tap OK'] * n)
    assert ctl.view['menu']['item'] == item, ctl.view


def menu_value(sim):
    return sim.app.ctl.view['menu']['value']


def test_board_parts_bring_their_menu_items():
    from scoreboard.ui.menu import items_for
    assert new_sim(IR_BOARD, 'items1').app.ctl.parts == ('sound', 'learn')
    assert new_sim(RF_BOARD, 'items2').app.ctl.parts == ('learn',)
    assert new_sim('pico_max7219_digits', 'items3').app.ctl.parts == ()
    items = items_for('knockoff', ('sound', 'learn'))
    assert items[-3:] == ['sound', 'learn', 'test']   # test keeps OK: it stays last
    assert 'sound' not in items_for('knockoff') and 'learn' not in items_for('knockoff')


def test_learn_binds_a_new_remote_and_keeps_it_across_a_power_cut():
    sim = new_sim(IR_BOARD, 'learn', Out())
    to_item(sim, 'learn')
    assert menu_value(sim) == '-'
    play(sim, ['tap BLUE'])
    assert menu_value(sim) == 'RED'
    new = ['2001', '2002', '2003', '2004', '2005']
    play(sim, ['ir ' + new[0]])
    assert menu_value(sim) == 'BLUE'
    sim.tones()
    play(sim, ['ir ' + new[0]])                 # already RED's: refused, a low buzz
    assert menu_value(sim) == 'BLUE'
    assert [t[0] for t in json_tones(sim)] == [REFUSE]
    for code, then in zip(new[1:], ('OK', 'RED_MINUS', 'BLUE_MINUS', 'done')):
        play(sim, ['ir ' + code])
        assert menu_value(sim) == then, (code, sim.app.ctl.view)
    saved = sim.app.ctl.settings['remote']['ir']
    assert saved == {'0x2001': 'RED', '0x2002': 'BLUE', '0x2003': 'OK', '0x2004': 'RED_MINUS',
                     '0x2005': 'BLUE_MINUS'}, saved
    # no learned press acted as a key: still in the menu, on the same item
    assert sim.app.ctl.view['menu']['item'] == 'learn'
    play(sim, ['hold OK 1000', 'power-cut', 'wait 1500'])
    # the new remote scores; the board file's codes are gone
    play(sim, ['ir 2003', 'ir 44', 'ir 2002', 'ir 2002', 'ir 2001', 'ir 2005', 'state'])
    v = last_view(sim)
    assert v['screen'] == 'play' and v['pending'] == {'red': 1, 'blue': 1}, v
    assert sim.app.remotes[0].codes[0x2003] == 'OK' and 0x43 not in sim.app.remotes[0].codes


def test_learn_stopped_early():
    sim = new_sim(RF_BOARD, 'learn2', Out())
    to_item(sim, 'learn')
    play(sim, ['tap RED', 'rf 123451', 'rf 123452'])
    assert menu_value(sim) == 'OK'
    play(sim, ['tap OK'])                       # two keys are not a remote: nothing kept
    ctl = sim.app.ctl
    assert 'remote' not in ctl.settings and ctl.learning is None
    assert ctl.view['menu']['item'] == 'test'   # and the OK tap moved on
    play(sim, ['hold OK 1000'])
    to_item(sim, 'learn')
    play(sim, ['tap BLUE', 'rf 123451', 'rf 123452', 'rf 123454', 'state'])
    assert menu_value(sim) == 'RED_MINUS'
    play(sim, ['hold OK 1000'])                 # three are: kept, and the menu left
    assert ctl.menu is None
    assert ctl.settings['remote'] == {'rf': {'0x123451': 'RED', '0x123452': 'BLUE',
                                             '0x123454': 'OK'}}
    play(sim, ['rf 123454', 'rf 123452', 'state'])
    assert last_view(sim)['pending']['blue'] == 1


def test_test_item_shows_each_remote_code_and_button():
    sim = new_sim(IR_BOARD, 'test', Out())
    to_item(sim, 'test')
    play(sim, ['ir 44'])
    assert menu_value(sim) == '44 RED'
    play(sim, ['ir BEEF'])                      # a code no button has: shown all the same
    assert menu_value(sim) == 'BEEF'
    play(sim, ['tap BLUE'])                     # the board's buttons still show their names
    assert menu_value(sim) == 'BLUE'
    play(sim, ['ir 0x43'])                      # OK from the remote: stays on test
    assert menu_value(sim) == '43 OK' and sim.app.ctl.view['menu']['item'] == 'test'


# --- sound -----------------------------------------------------------------------------------

def json_tones(sim):
    sim.out.lines = []
    sim.run('tones', [])
    return json.loads(sim.out.lines[-1])['tones']


def test_the_buzzer_clicks_chimes_plays_the_win_and_buzzes_a_refusal():
    sim = new_sim(IR_BOARD, 'sound', Out())
    play(sim, ['tap OK'])
    assert [t[0] for t in json_tones(sim)] == [CLICK]
    play(sim, ['tap BLUE', 'tap OK'])
    assert [t[0] for t in json_tones(sim)] == [CLICK, CLICK] + list(CHIME)
    play(sim, ['tap RED', 'tap BLUE', 'tap OK'])    # both sides scoring a frame: refused
    assert [t[0] for t in json_tones(sim)] == [CLICK, CLICK, CLICK, REFUSE]
    assert sim.app.ctl.view['pending'] == {'red': 1, 'blue': 1}
    play(sim, ['tap RED_MINUS'] + ['tap BLUE'] * 13 + ['tap OK', 'wait 1000'])   # 1 + 14: won
    tones = json_tones(sim)
    assert sim.app.ctl.view['winner'] == 'blue'
    assert [t[0] for t in tones[-4:]] == list(WIN), tones
    # every tone is scheduled (the loop ran on): durations as the tunes say, within a pass
    from scoreboard import sound
    want = [ms for hz, ms in sound.WIN if hz]
    got = [t[1] for t in tones[-4:]]
    assert all(abs(a - b) <= 10 for a, b in zip(got, want)), (got, want)
    # the remote's presses click too
    play(sim, ['ir 44'])
    assert [t[0] for t in json_tones(sim)] == [CLICK]


def test_sound_off_silences_and_is_kept_across_a_power_cut():
    sim = new_sim(IR_BOARD, 'soundoff', Out())
    to_item(sim, 'sound')
    assert menu_value(sim) == 'on'
    play(sim, ['tap BLUE'])
    assert menu_value(sim) == 'off'
    play(sim, ['hold OK 1000'])
    json_tones(sim)
    play(sim, ['tap OK', 'tap BLUE', 'tap OK', 'tap RED', 'tap BLUE', 'tap OK', 'ir 44'])
    assert json_tones(sim) == []
    play(sim, ['power-cut', 'wait 1500', 'tap BLUE', 'tap RED_MINUS', 'tap OK'])
    assert json_tones(sim) == [] and sim.app.ctl.settings['sound'] == 'off'
    to_item(sim, 'sound')
    assert menu_value(sim) == 'off'
    play(sim, ['tap RED', 'hold OK 1000'])     # on again: heard at once
    play(sim, ['tap BLUE'])
    assert CLICK in [t[0] for t in json_tones(sim)]


# --- brightness auto -------------------------------------------------------------------------

def set_auto(sim):
    to_item(sim, 'brightness')
    play(sim, ['tap BLUE'] * 3)
    assert menu_value(sim) == 'auto'
    play(sim, ['tap BLUE'])                     # auto is the end of the range
    assert menu_value(sim) == 'auto'
    play(sim, ['tap RED'])
    assert menu_value(sim) == 8
    play(sim, ['tap BLUE', 'hold OK 1000'])


def test_brightness_auto_follows_the_light_and_is_kept():
    sim = new_sim(RF_BOARD, 'auto', Out())
    set_auto(sim)
    app = sim.app
    assert app.ctl.settings['brightness'] == 'auto'
    play(sim, ['light 95', 'wait 5000'])
    assert app._level == 7, app._level          # the top level (0..7 for the displays)
    play(sim, ['light 5', 'wait 5000'])
    assert app._level == 0, app._level
    play(sim, ['light 50', 'wait 5000'])
    mid = app._level
    assert 2 <= mid <= 5, mid
    play(sim, ['power-cut', 'wait 3000'])
    assert sim.app.ctl.settings['brightness'] == 'auto' and sim.app._level == mid
    # a fixed level ignores the room
    to_item(sim, 'brightness')
    play(sim, ['tap RED', 'tap RED', 'hold OK 1000', 'light 100', 'wait 3000'])
    assert sim.app._level == 6
    # boards without a light sensor have no auto
    other = new_sim(IR_BOARD, 'noauto', Out())
    to_item(other, 'brightness')
    play(other, ['tap BLUE'] * 4)
    assert menu_value(other) == 8


def test_brightness_auto_does_not_flicker_at_a_threshold():
    from virtual import pulses
    sim = new_sim(RF_BOARD, 'flicker', Out())
    set_auto(sim)
    app = sim.app
    light = app.light
    adc = light._adc
    # The room sits exactly on the edge between levels 4 and 5, the ADC noisy on top.
    adc.value = light._edge(5)
    adc.noise = 1500
    adc.rng = pulses.Rng(3)
    play(sim, ['wait 3000'])
    levels = []
    for _ in range(60):
        play(sim, ['wait 500'])
        levels.append(app._level)
    changes = sum(1 for a, b in zip(levels, levels[1:]) if a != b)
    assert changes == 0, levels
    assert levels[0] in (3, 4)


def test_script_commands_are_checked():
    import sim_engine
    bad = ['ir', 'ir xyz', 'ir 44 10 20', 'light 101', 'light -1', 'rf 0x']
    for line in bad:
        try:
            sim_engine.parse_line(1, line, {'RED': 1})
        except sim_engine.ScriptError:
            continue
        raise AssertionError('accepted: %s' % line)
    assert sim_engine.parse_line(1, 'ir 0x10EF 500', {})[1] == [0x10EF, 500]
    assert sim_engine.parse_line(1, 'rf abcde1', {})[1] == [0xABCDE1]
    sim = new_sim('pico_max7219_digits', 'nopart', Out())
    try:
        sim.run('ir', [0x44])
    except sim_engine.NoPart:
        return
    raise AssertionError('ir on a board without a receiver')


def test_the_boards_name_their_parts():
    import paths
    paths.add(paths.BOARDS)
    ir = __import__(IR_BOARD)
    rf = __import__(RF_BOARD)
    assert ir.IR['pin'] != ir.BUZZER and rf.RF['pin'] != rf.LIGHT
    assert rf.LIGHT in (26, 27, 28)             # an ADC pin on a Pico
    for codes, table in ((ir.IR['codes'], IR), (rf.RF['codes'], RF)):
        for name in codes.values():
            assert int(table[name].replace('0x', ''), 16) in codes


def test_the_loop_decodes_remotes_and_follows_the_light_heap_locked():
    # Every pass of the loop with its parts at work (a receiver full of noise and of a held
    # key's frames, brightness auto sampling the light) allocates nothing: each pass runs with
    # the heap locked (the harness plays the edges onto the pin between passes, unlocked).
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return                                  # CPython: nothing to measure
    from virtual import pulses
    sim = new_sim(RF_BOARD, 'locked', Out())
    set_auto(sim)
    play(sim, ['tap OK', 'tap RED', 'tap RED', 'wait 1000'])   # pending points blink
    r = sim.receivers['rf']
    t0 = sim.now * 1000 + 1000
    r.send(pulses.noise(t0, t0 + 2000000, pulses.Rng(5), r.idle, 30, 600))
    r.send(pulses.ev1527(0x123451, t0=t0 + 2500000, frames=8))  # a fob no button has
    app = sim.app
    now = sim.now
    for i in range(1000):
        now += 5
        r.play(now)
        if i == 500:
            sim.light(90)
        heap_lock()
        try:
            app.step(now & 0x1FFFFFFF)
        finally:
            heap_unlock()
    sim.now = now
    assert app.remotes[0].last_code == 0x123451
    assert app.ctl.view['pending']['red'] == 2


def test_an_entry_from_the_phone_chimes_too():
    sim = new_sim(IR_BOARD, 'phone', Out())
    play(sim, ['tap OK', 'wait 500'])
    json_tones(sim)
    sim.app.ctl.act({'do': 'frame', 'red': 3, 'blue': 0}, sim.now)
    play(sim, ['wait 500'])
    assert [t[0] for t in json_tones(sim)] == list(CHIME)
    sim.app.ctl.act({'do': 'frame', 'red': 12, 'blue': 0}, sim.now)
    play(sim, ['wait 1000'])
    assert [t[0] for t in json_tones(sim)] == list(WIN)
