# runs-on: micropython
# The players' names (the view model's `names`, DESIGN section 4; issue 14) on the LED matrices:
# the winner's name on the game-over page ('ANN WINS' on a 64x16, the name alone when the two do
# not fit, in place of RED/BLUE on a 32x8), the hammer side's name on the setup page, and on a
# 64x16 both names beside the totals while nothing is pending. A name too long for its room is
# cut; a view without names draws exactly as before (test_layout_matrix's goldens); under
# MicroPython, drawing a view with names allocates nothing.
import test_layout_matrix as t

NAMES = {'red': 'Ann', 'blue': 'Benedict Lee'}
VIEWS = {
    'KO': dict(t.KO, names=NAMES, pending={'red': 0, 'blue': 0}),
    'OVER': dict(t.OVER, names=NAMES),
    'OVER_B': dict(t.OVER, names=NAMES, winner='blue'),
    'SETUP': dict(t.SETUP, names=NAMES),
    'SETUP_R': dict(t.SETUP, names=NAMES, hammer='red'),
}

GOLDEN = (
    ('m64', 'KO', (
        '..#....###.................................................#####',
        '..#....###....#..#..#.#..#...........##..###.#..#.###.##...#####',
        '.##...#...#..#.#.##.#.##.#...........#.#.#...##.#.#...#.#......#',
        '.##...#...#..###.#.##.#.##...........##..##..#.##.##..#.#......#',
        '..#.......#..#.#.#..#.#..#...........#.#.#...#..#.#...#.#.....#.',
        '..#.......#..#.#.#..#.#..#...........##..###.#..#.###.##......#.',
        '..#......#...................................................#..',
    ) + t.KO64_LOW),
    ('m64', 'OVER', (
        '..........###..#...#.#...#......#...#..###..#...#..####.........',
        '.........#...#.#...#.#...#......#...#...#...#...#.#.............',
        '.........#...#.##..#.##..#......#...#...#...##..#.#.............',
        '.........#...#.#.#.#.#.#.#......#.#.#...#...#.#.#..###..........',
        '.........#####.#..##.#..##......#.#.#...#...#..##.....#.........',
        '.........#...#.#...#.#...#......#.#.#...#...#...#.....#.........',
        '.........#...#.#...#.#...#.......#.#...###..#...#.####..........',
    ) + t.OVER64_LOW),
    ('m64', 'OVER_B', (
        '####..#####.#...#.#####.###....###...###..#####.......#.........',
        '#...#.#.....#...#.#.....#..#....#...#...#...#.........#.........',
        '#...#.#.....##..#.#.....#...#...#...#.......#.........#.........',
        '####..####..#.#.#.####..#...#...#...#.......#.........#.........',
        '#...#.#.....#..##.#.....#...#...#...#.......#.........#.........',
        '#...#.#.....#...#.#.....#..#....#...#...#...#.........#.........',
        '####..#####.#...#.#####.###....###...###....#.........#####.....',
    ) + t.OVER64_LOW),
    ('m64', 'SETUP_R', t.SETUP64_TOP + (
        '................................................................',
        '................................................###..#...#.#...#',
        '...............................................#...#.#...#.#...#',
        '#.#..#..#...#.#...#.###.##.....................#...#.##..#.##..#',
        '#.#.#.#.##.##.##.##.#...#.#....................#...#.#.#.#.#.#.#',
        '###.###.#.#.#.#.#.#.##..##.....................#####.#..##.#..##',
        '#.#.#.#.#...#.#...#.#...#.#....................#...#.#...#.#...#',
        '#.#.#.#.#...#.#...#.###.#.#....................#...#.#...#.#...#',
        '...............................................#################',
    )),
    ('m32', 'OVER', (
        '........###..#...#.#...#........',
        '.......#...#.#...#.#...#........',
        '.......#...#.##..#.##..#........',
        '.......#...#.#.#.#.#.#.#........',
        '.......#####.#..##.#..##........',
        '.......#...#.#...#.#...#........',
        '.......#...#.#...#.#...#........',
        '................................',
    )),
    ('m32', 'SETUP', (
        '.####.#####.#####...............',
        '#.....#.......#.....##..###.#..#',
        '#.....#.......#.....#.#.#...##.#',
        '.###..####....#.....##..##..#.##',
        '....#.#.......#.....#.#.#...#..#',
        '....#.#.......#.....##..###.#..#',
        '####..#####...#.................',
        '....................############',
    )),
)


def test_names_on_the_matrices():
    bad = []
    for panel, name, want in GOLDEN:
        disp, chip = t._build(panel)
        disp.show(VIEWS[name], 0)
        got = t._rows(panel, chip)
        if got != list(want):
            bad.append('%s %s (got | want)\n%s' % (panel, name, t._diff(got, list(want))))
    assert not bad, '\n\n'.join(bad)


def test_pending_points_take_the_names_place():
    # While a side has points pending on a 64x16, the gap shows the pending, not the names.
    disp, chip = t._build('m64')
    with_names = dict(t.KO, names=NAMES)          # red has 2 pending
    disp.show(with_names, 0)
    named = t._rows('m64', chip)
    disp.show(t.KO, 0)
    assert named == t._rows('m64', chip)


def test_without_names_nothing_changes():
    for panel in ('m32', 'm64', 'c32'):
        disp, chip = t._build(panel)
        for key in VIEWS:
            plain = dict(VIEWS[key])
            plain['names'] = {'red': None, 'blue': None}
            disp.show(plain, 0)
            a = t._rows(panel, chip)
            del plain['names']
            disp.show(plain, 0)
            assert a == t._rows(panel, chip), (panel, key)


def test_long_and_unusual_names_stay_in_bounds():
    odd = {'red': 'Zoë-Ångström', 'blue': 'WWWWWWWWWWWW'}     # 12 characters each
    for panel in ('m32', 'm64', 'c32'):
        disp, chip = t._build(panel)
        for key in VIEWS:
            v = dict(VIEWS[key], names=odd)
            for phase in range(8):
                disp.show(v, phase)
            rows = t._rows(panel, chip)
            assert len(rows) == len(t._rows(panel, chip)) and any(
                ch != '.' for r in rows for ch in r), (panel, key)
        # The cut name of a 32x8 setup page ends at the right edge, 'SET' untouched.
        if panel == 'm32':
            disp.show(dict(t.SETUP, names=odd), 0)
            cut = t._rows(panel, chip)
            disp.show(t.SETUP, 0)
            plain = t._rows(panel, chip)
            assert [r[:17] for r in cut] == [r[:17] for r in plain]
            assert cut[7].endswith('#') and cut[1][-1] == '#'


def test_drawing_names_allocates_nothing():
    if not t.MICROPYTHON:
        return          # gc.mem_alloc() is MicroPython's
    import gc
    import micropython
    for panel in ('m32', 'm64', 'c32'):
        disp, _ = t._build(panel)
        for key in sorted(VIEWS):
            for names in (NAMES, {'red': 'Zoë', 'blue': 'WWWWWWWWWWWW'}):
                v = dict(VIEWS[key], names=names)
                for phase in range(8):
                    disp.show(v, phase)
                gc.collect()
                before = gc.mem_alloc()
                micropython.heap_lock()
                try:
                    for phase in range(8, 48):
                        disp.show(v, phase)
                finally:
                    micropython.heap_unlock()
                assert gc.mem_alloc() - before == 0, (panel, key)
