# runs-on: micropython
# The pairing PIN on the board's own display (DESIGN section 10), read back from the virtual chips
# of every board in boards/ (each layout kind: two TM1637 modules, one module of 6 or 8 digits,
# 595 digits, WS2812 strip digits, 32x8 and 64x16 matrices, a WS2812 panel): a seven-segment pair
# reads 'PIn' / the PIN, a single module 'PIn 1234' or the two by turns, a matrix 'PIN 1234';
# over whatever screen is up (play, a message, setup, the menu, a sleeping display) for the 60 s,
# then the screen it covered comes back. The menu's `pair` item opens pairing at the board: a PIN
# at once, whatever the locks, and the locks cleared.

import app_probe
from app_probe import new_sim, play

import paths

paths.add(paths.LIB)          # microdot, for net/run.py
from scoreboard.net import pairing as P

# Seven-segment shapes written out here (bit0 = a .. bit6 = g), not taken from the firmware.
SHAPES = {0x00: ' ', 0x3F: '0', 0x06: '1', 0x5B: '2', 0x4F: '3', 0x66: '4', 0x6D: '5',
          0x7D: '6', 0x07: '7', 0x7F: '8', 0x6F: '9', 0x73: 'P', 0x30: 'I', 0x54: 'n',
          0x08: '_', 0x48: '='}

# The 32x8 picture of 'PIN 0427' as the chips show it: 'PIN' in 3x5 letters, the PIN in 4x7
# digits at the right (looked at, then written down).
PIN_32X8 = [
    '..............##....#...##..####',
    '##..###.#..#.#..#..##..#..#....#',
    '#.#..#..##.#.#..#.#.#.....#....#',
    '##...#..#.##.#..#.#.#....#....#.',
    '#....#..#..#.#..#.####..#.....#.',
    '#...###.#..#.#..#...#..#.....#..',
    '..............##....#..####..#..',
    '................................',
]
# The 64x16 picture: 'PIN 0427' in 5x14, centred.
_P16 = [
    '................................................................',
    '........####...###..#...#........###.....#...###..#####.........',
    '........#...#...#...#...#.......#...#...##..#...#.....#.........',
    '........#...#...#...##..#.......#...#..#.#......#....#..........',
    '........####....#...#.#.#.......#...#.#..#.....#....#...........',
    '........#.......#...#..##.......#...#.#####...#....#............',
    '........#.......#...#...#.......#...#....#...#.....#............',
    '........#......###..#...#........###.....#..#####..#............',
]
PIN_64X16 = [_P16[0]]
for _r in _P16[1:]:
    PIN_64X16 += [_r, _r]
PIN_64X16.append(_P16[0])

FIXED = b'\x01\xab' * 8          # rand(n) of the tests: the PIN '0427' (0x01ab = 427)


def rand(n):
    return FIXED[:n]


def shown(sim):
    """What each display's chips show: seven-segment text (chips joined by '|'), or pixel rows."""
    out = []
    for group in sim.chips:
        if group[0].kind == 'pixels':
            out.append(list(group[0].rows()))
        else:
            out.append('|'.join([''.join([SHAPES.get(b & 0x7F, '?') for b in c.digits()])
                                 for c in group]))
    return out


def now(sim):
    return sim.now & 0x1FFFFFFF


def wifi(sim):
    """The board's pairing hooked as the network runner hooks it (net/run.py)."""
    from scoreboard.net.run import Runner

    class Hub:
        def poll(self, ctl):      # no event streams here
            pass

    class Hooks:
        pairing = P.Pairing(sim.flash, show_pin=sim.app.ctl.show_pin, rand=rand)
        venue = None
        hub = Hub()
    Runner._hook(Hooks(), sim.app)
    return Hooks.pairing


def pin_pictures(sim):
    """Every picture the displays show over 4 s (the PIN and 'PIn' by turns take 4 s)."""
    seen = []
    for _ in range(16):
        play(sim, ['wait 250'])
        got = shown(sim)
        if got not in seen:
            seen.append(got)
    return seen


def reads_pin(pictures, pin='0427'):
    """True when the pictures read 'PIn' and the PIN (together or by turns) on every display."""
    for d in range(len(pictures[0])):
        texts = [p[d] for p in pictures]
        if isinstance(texts[0], list):
            want = PIN_64X16 if len(texts[0]) == 16 else PIN_32X8
            if pin != '0427' or texts != [want]:
                return False
            continue
        flat = [t.replace('|', ' ') for t in texts]
        together = ['PIn ' + pin in ' '.join(t.split()) for t in flat]
        apart = ([t for t in flat if t.strip() == 'PIn'] and
                 [t for t in flat if t.strip() == pin])
        if not (any(together) or apart):
            return False
        for t in flat:       # nothing else shows while the PIN does
            if t.strip() not in ('PIn', pin) and 'PIn ' + pin not in ' '.join(t.split()):
                return False
    return True


def test_every_board_shows_the_pin_over_play_and_then_the_score_again():
    for board in app_probe.boards()[1:]:
        sim = play(new_sim(board), ['tap OK', 'tap RED', 'tap RED', 'tap OK', 'wait 2500'])
        before = shown(sim)
        p = wifi(sim)
        assert p.request(now(sim)) == '0427'
        assert sim.app.ctl.view['pin'] == '0427'
        pics = pin_pictures(sim)
        assert reads_pin(pics), (board, pics)
        layout = '4+4' if ('|' in str(pics[0][0])) else (
            'pixels' if isinstance(pics[0][0], list) else len(pics[0][0]))
        if layout in (4, 6):          # a module for both sides: 'PIn' 1 s, the PIN 3 s
            assert len(pics) == 2, (board, pics)
        play(sim, ['wait %d' % (P.PIN_MS - 4000 - 300)])
        assert 'pin' in sim.app.ctl.view
        play(sim, ['wait 600'])          # the 60 s are over: the score as before
        p.tick(now(sim))
        play(sim, ['wait 100'])
        assert 'pin' not in sim.app.ctl.view
        assert shown(sim) == before, (board, shown(sim), before)


def test_the_pin_covers_setup_a_message_the_menu_and_wakes_a_sleeping_display():
    for board in ('pico_w_tm1637', 'pico_w_ws2812_digits', 'pico_max7219_digits',
                  'pico_max7219_matrix', 'pico_max7219_64x16'):
        sim = new_sim(board)
        play(sim, ['wait 1500'])
        p = wifi(sim)
        for lines in (['wait 10'], ['tap OK', 'hold OK 1000'], ['hold OK 3200']):
            play(sim, lines)           # setup; play with the message 'no undo'; the menu
            screen = sim.app.ctl.view['screen']
            p.request(now(sim))
            assert reads_pin(pin_pictures(sim)), (board, screen)
            p.confirm('0427', now(sim), '10.0.0.9')       # paired: the PIN goes
            play(sim, ['wait 300'])
            assert 'pin' not in sim.app.ctl.view
        assert sim.app.ctl.view['screen'] == 'menu'
        play(sim, ['hold OK 1000'])
        ctl = sim.app.ctl
        ctl.DIM_MS = 2000
        ctl.SLEEP_MS = 4000
        play(sim, ['wait 5000'])
        assert ctl.view['screen'] == 'sleep'
        assert all(not c.on for g in sim.chips for c in g), board
        ctl.DIM_MS = 600000           # the real timers again: the PIN's 60 s wake the display
        ctl.SLEEP_MS = 3600000
        p.request(now(sim))
        play(sim, ['wait 300'])
        assert ctl.view['screen'] != 'sleep' and all(c.on for g in sim.chips for c in g)
        assert reads_pin(pin_pictures(sim)), board


def to_item(sim, name):
    for _ in range(40):
        m = sim.app.ctl.view.get('menu')
        if m and m['item'] == name:
            return
        play(sim, ['tap OK'])
    raise AssertionError('no menu item ' + name)


def test_the_menus_pair_shows_a_pin_at_once_whatever_the_locks_and_clears_them():
    for board in ('pico_w_tm1637', 'esp32_ws2812_digits', 'pico_w_ws2812_digits'):
        sim = play(new_sim(board), ['tap OK'])
        p = wifi(sim)
        t = now(sim)
        for who in ('10.0.0.66', '10.0.0.67', '10.0.0.68', '10.0.0.69'):
            for _ in range(P.MAX_WRONG):
                try:
                    p.confirm('9999', t, who)
                except P.WrongPin:
                    pass
        try:
            p.confirm('9999', t, '10.0.0.70')     # the 21st wrong PIN of the hour
        except P.WrongPin:
            pass
        assert p.closed and p.locked(t, '10.0.0.66') == -1
        play(sim, ['hold OK 3200'])
        items = sim.app.ctl.menu['items']
        assert items[-3:] == ['pair', 'unpair', 'test'], items
        to_item(sim, 'pair')
        assert 'pin' not in sim.app.ctl.view
        play(sim, ['tap BLUE'])
        assert sim.app.ctl.view['pin'] == '0427'        # at once
        assert not p.closed and p.locked(now(sim), '10.0.0.66') == 0
        assert reads_pin(pin_pictures(sim)), board
        token = p.confirm('0427', now(sim), '10.0.0.66')   # the locked address pairs now
        assert p.paired(token)
        play(sim, ['wait 300'])
        assert sim.app.ctl.view['screen'] == 'menu'      # the menu it covered, still open
        assert sim.app.ctl.view['menu']['item'] == 'pair'


def test_boards_without_wifi_have_no_pair_item():
    sim = play(new_sim('pico_tm1637'), ['hold OK 3200'])
    assert 'pair' not in sim.app.ctl.menu['items']
