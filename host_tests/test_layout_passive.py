# DESIGN section 4, "The display never misleads across the room": for every seven-segment
# board, the digits its chips receive (the TM1637 bit stream, the MAX7219 words, the 595
# bytes, decoded by the virtual chips in tools/virtual) at every blink and page phase of a
# passive minute of play show no number but each side's own total and pending points, in that
# side's place (shove ha'penny's cursor bed answers a press for 2 s, then the totals show).
# Under MicroPython each refresh runs with the heap locked.
# runs-on: micropython
import sys

import virtual_first  # noqa: F401  (tools/virtual first on the path)

import machine  # noqa: E402  (tools/virtual/machine.py)

import paths  # noqa: E402

paths.add(paths.BOARDS)

MICROPYTHON = sys.implementation.name == 'micropython'
MINUTE = 240                # phases of 250 ms

# Digit shapes (bit0 = a .. bit6 = g), written out here rather than taken from the font.
DIGIT = {0x3F: '0', 0x06: '1', 0x5B: '2', 0x4F: '3', 0x66: '4', 0x6D: '5', 0x7D: '6',
         0x07: '7', 0x7F: '8', 0x6F: '9'}

SEVEN_SEGMENT_BOARDS = ('pico_tm1637', 'pico_tm1637_ends', 'pico_max7219_digits', 'pico_595')

# Passive play: nothing pressed for a minute. Every other count has a value no side's total
# or pending points has, so any of them showing in a score position is caught.
PLAY = (
    {'screen': 'play', 'game': 'knockoff', 'red': 12, 'blue': 7,
     'pending': {'red': 4, 'blue': 0}, 'hammer': 'blue', 'turn': None, 'frame': 6, 'end': 2,
     'target': 21, 'winner': None, 'games': {'red': 3, 'blue': 8},
     'legs': {'red': 1, 'blue': 0}, 'message': None},
    {'screen': 'play', 'game': 'knockoff', 'red': 12, 'blue': 7,
     'pending': {'red': 0, 'blue': 0}, 'hammer': 'red', 'turn': None, 'frame': 6, 'end': 2,
     'target': 15, 'winner': None, 'games': {'red': 3, 'blue': 8},
     'legs': {'red': 1, 'blue': 0}, 'message': None},
    {'screen': 'play', 'game': 'tapdraw', 'red': 19, 'blue': 18,
     'pending': {'red': 0, 'blue': 3}, 'hammer': 'red', 'turn': None, 'frame': 11, 'end': 1,
     'target': 21, 'winner': None, 'games': {'red': 0, 'blue': 2},
     'legs': {'red': 0, 'blue': 0}, 'message': None},
    {'screen': 'play', 'game': 'horsecollar', 'red': 104, 'blue': 97,
     'pending': {'red': 0, 'blue': 26}, 'hammer': None, 'turn': 'blue', 'frame': 9, 'end': 1,
     'target': 151, 'winner': None, 'games': {'red': 5, 'blue': 6},
     'legs': {'red': 0, 'blue': 0}, 'collars': {'red': 3, 'blue': 2}, 'message': None},
    {'screen': 'play', 'game': 'fourframe', 'red': 5, 'blue': 8,
     'pending': {'red': 0, 'blue': 0}, 'hammer': 'red', 'turn': None, 'frame': 3, 'end': 1,
     'target': None, 'winner': None, 'games': {'red': 1, 'blue': 2},
     'legs': {'red': 0, 'blue': 0}, 'message': None},
    {'screen': 'play', 'game': 'practice', 'red': 7, 'blue': 6,
     'pending': {'red': 0, 'blue': 4}, 'hammer': None, 'turn': 'blue', 'frame': 2, 'end': 2,
     'target': None, 'winner': None, 'games': {'red': 0, 'blue': 0},
     'legs': {'red': 0, 'blue': 0}, 'message': None},
    # shove ha'penny: the cursor bed (4) and the marks in it show for the first 2 s after a
    # change only (CURSOR_PHASES below), then the totals
    {'screen': 'play', 'game': 'shovehapenny', 'red': 2, 'blue': 1,
     'pending': {'red': 0, 'blue': 0}, 'hammer': None, 'turn': 'red', 'frame': 9, 'end': 3,
     'target': None, 'winner': None, 'games': {'red': 7, 'blue': 8},
     'legs': {'red': 0, 'blue': 0}, 'beds': {'red': [3, 3, 0, 1, 0], 'blue': [3, 0, 0, 2, 0]},
     'cursor': 4, 'message': None},
)
CURSOR_PHASES = 8           # 2 s: the answer to a press, not a passive display


def _chips(drv):
    import tm1637 as vtm
    import max7219 as vmax
    import sr595 as vsr
    import ws2812_digits as vws
    out = []
    for mod in (vtm, vmax, vsr, vws):
        out += mod.chips_for(drv)
    return out


def runs(cells):
    """The numbers (runs of digit shapes, dp ignored) in a list of segment bytes, with the
    cell each starts at."""
    out = []
    cur = ''
    start = 0
    for i in range(len(cells)):
        ch = DIGIT.get(cells[i] & 0x7F)
        if ch is None:
            if cur:
                out.append((start, cur))
            cur = ''
        else:
            if not cur:
                start = i
            cur += ch
    if cur:
        out.append((start, cur))
    return out


def _own(view, side):
    nums = [str(view[side])]
    p = view['pending'][side]
    if p:
        nums.append(str(p))
    return nums


def check_sides(view, red_cells, blue_cells):
    """One module a side: each module's numbers are that side's total and pending only."""
    bad = []
    for side, cells in (('red', red_cells), ('blue', blue_cells)):
        for _, n in runs(cells):
            if n not in _own(view, side):
                bad.append((side, n))
    return bad


def check_single(view, cells, letters):
    """Both sides on one module: numbers in red's half are red's, in blue's half blue's; when
    one side shows at a time its letter leads ('r104') and every number is that side's."""
    w = len(cells)
    lead = cells[0] & 0x7F
    bad = []
    for start, n in runs(cells):
        if lead == letters['r']:
            side = 'red'
        elif lead == letters['b']:
            side = 'blue'
        else:
            side = 'red' if start < w // 2 else 'blue'
        if n not in _own(view, side):
            bad.append((side, n, start))
    return bad


def _show(disp, view, phase):
    if not MICROPYTHON:
        disp.show(view, phase)
        return
    from micropython import heap_lock, heap_unlock
    heap_lock()
    try:
        disp.show(view, phase)
    finally:
        heap_unlock()


def test_runs_reader():
    assert runs([0x06, 0x5B, 0x48, 0x5B]) == [(0, '12'), (3, '2')]
    assert runs([0x08, 0, 0x06, 0x5B | 0x80]) == [(2, '12')]
    assert runs([0x78, 0, 0x06, 0x6D]) == [(2, '15')]        # 't 15': the 15 is caught
    assert check_sides(PLAY[1], [0x78, 0, 0x06, 0x6D], [0x08, 0, 0, 0x07]) == [('red', '15')]


def test_a_passive_minute_shows_only_each_sides_numbers():
    from scoreboard.render.font7 import FONT
    letters = {'r': FONT[ord('r') - 32], 'b': FONT[ord('b') - 32]}
    for name in SEVEN_SEGMENT_BOARDS:
        machine.reset_all()
        if name in sys.modules:
            del sys.modules[name]
        board = __import__(name)
        disps = board.displays()
        for disp in disps:
            chips = []
            for drv in disp.drivers:
                chips += _chips(drv)
            assert len(chips) == len(disp.drivers), name
            for view in PLAY:
                seen = 0
                cursor = 0
                for phase in range(MINUTE):
                    _show(disp, view, phase)
                    if 'beds' in view and phase < CURSOR_PHASES:
                        # the entry's 2 s: the cursor bed's number shows (the entry needs it)
                        cursor += any(n == '4' for c in chips for _, n in runs(c.digits()))
                        continue
                    if len(chips) == 2:
                        bad = check_sides(view, chips[0].digits(), chips[1].digits())
                    else:
                        bad = check_single(view, chips[0].digits(), letters)
                    assert not bad, (name, view['game'], phase, bad,
                                     [c.digits() for c in chips])
                    for c in chips:
                        seen += len(runs(c.digits()))
                assert seen > MINUTE - CURSOR_PHASES, (name, view['game'])   # totals shown
                assert 'beds' not in view or cursor, name      # and the cursor bed before
            disp.deinit()


def test_the_old_info_view_would_have_failed():
    # The check above catches what the displays showed before issue 12: 't 15' / 'End2' in
    # the red and blue modules, 'F3' beside a total.
    view = PLAY[1]
    t15 = [0x78, 0, 0x06, 0x6D]
    end2 = [0x79, 0x54, 0x5E, 0x5B]
    assert check_sides(view, t15, end2) == [('red', '15'), ('blue', '2')]
    f3 = [0x71, 0x4F, 0, 0, 0, 0x6D]
    assert check_sides(PLAY[4], f3, [0, 0, 0, 0, 0, 0x7F]) == [('red', '3')]
