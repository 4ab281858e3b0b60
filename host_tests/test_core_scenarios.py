# runs-on: micropython
# The scenario tables of core_scenarios.py, played through the public core API on both
# interpreters. Every step is also checked against a reload: to_dict()/load_game() at that
# point must give a game that behaves exactly the same.
from core_scenarios import BAD_CALLS, BAD_GAMES, SCENARIOS
from scoreboard.core import BLUE, RED, RuleError, load_game, new_game


def snapshot(g):
    d = g.to_dict()
    return (d, g.points(RED), g.points(BLUE), g.hammer, g.turn, g.frame, g.end, g.winner, g.over)


def act(g, step):
    op = step[0]
    if op == 'frame':
        return g.enter_frame(red=step[1], blue=step[2])
    if op == 'shot':
        return g.enter_shot(step[1])
    if op == 'mark':
        return g.mark(step[1])
    if op == 'end_turn':
        return g.end_turn()
    if op == 'target':
        return g.set_target(step[1])
    raise AssertionError('unknown step %r' % (step,))


def check(g, want, where):
    for k in want:
        w = want[k]
        if k == 'points':
            got = (g.points(RED), g.points(BLUE))
        elif k == 'collars':
            got = (g.collars(RED), g.collars(BLUE))
        elif k == 'beds':
            got = (g.beds(RED), g.beds(BLUE))
        else:
            got = getattr(g, k)
        assert got == w, '%s: %s is %r, expected %r' % (where, k, got, w)


def play(name, kind, opts, steps):
    g = new_game(kind, **opts)
    for i in range(len(steps)):
        step = steps[i]
        where = '%s, step %d %r' % (name, i + 1, step)
        op = step[0]
        if op == 'is':
            check(g, step[1], where)
        elif op == 'undo':
            assert g.undo() is step[1], where
        elif op == 'redo':
            assert g.redo() is step[1], where
        elif op == 'refuse':
            before = snapshot(g)
            try:
                act(g, step[1])
            except RuleError:
                pass
            else:
                raise AssertionError(where + ': not refused')
            assert snapshot(g) == before, where + ': refused entry changed the game'
        else:
            try:
                got = act(g, step)
            except RuleError as e:
                raise AssertionError('%s: refused (%s)' % (where, e))
            if op == 'mark':
                assert got == step[2], '%s: credited %r, expected %r' % (where, got, step[2])
        g2 = load_game(g.to_dict())
        assert snapshot(g2) == snapshot(g), where + ': reload differs'
        g3 = load_game(g.to_dict(compact=True))
        assert snapshot(g3) == snapshot(g), where + ': compact reload differs'
    return g


def test_scenarios():
    for name, kind, opts, steps in SCENARIOS:
        play(name, kind, opts, steps)


def test_scenario_count():
    # The tables are the specification: keep every kind covered.
    kinds = [s[1] for s in SCENARIOS]
    for kind in ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'practice', 'shovehapenny'):
        assert kind in kinds, kind


def test_bad_calls_raise_rule_error_and_change_nothing():
    for kind, method, args, kwargs in BAD_CALLS:
        g = new_game(kind)
        before = snapshot(g)
        try:
            getattr(g, method)(*args, **kwargs)
        except RuleError:
            pass
        else:
            raise AssertionError('%s.%s%r%r not refused' % (kind, method, args, kwargs))
        assert snapshot(g) == before, (kind, method)


def test_bad_games_raise_rule_error():
    for kind, opts in BAD_GAMES:
        try:
            new_game(kind, **opts)
        except RuleError as e:
            # the reason names the option at fault (or the unknown game)
            name = list(opts)[0] if opts else kind
            assert name in str(e), (kind, opts, str(e))
        else:
            raise AssertionError('new_game(%r, %r) not refused' % (kind, opts))


def test_rule_error_is_a_value_error():
    assert issubclass(RuleError, ValueError)
    assert RED == 'red' and BLUE == 'blue'


def test_defaults():
    g = new_game('knockoff')
    assert (g.target, g.hammer, g.turn, g.frame, g.end) == (15, BLUE, None, 1, 1)
    assert new_game('horsecollar').target == 51
    assert new_game('horsecollar').turn == RED
    assert new_game('practice').turn == RED
    assert new_game('shovehapenny').beds(RED) == [0] * 9
    assert new_game('shovehapenny', beds=5).beds(BLUE) == [0] * 5
    assert new_game('tapdraw').target == 15


def test_load_game_refuses_damaged_dicts():
    g = new_game('knockoff')
    g.enter_frame(red=3)
    good = g.to_dict()
    bad = [None, 5, 'x', [], {}, {'kind': 'knockoff'},
           {'kind': 'darts', 'options': {}, 'log': [], 'redo': []},
           {'kind': 'knockoff', 'options': {'target': 'x'}, 'log': [], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [['f', 3, 3]], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [['f', 3]], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [['z', 1, 1]], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [3], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [[]], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [['f', 1.5, 0]], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [['f', 16, 0]] * 2, 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [], 'redo': [['f', 40, 0]]},
           {'kind': 'knockoff', 'options': {1: 2}, 'log': [], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': 'ff', 'redo': []},
           {'format': 99, 'kind': 'knockoff', 'options': {}, 'log': [], 'redo': []},
           {'kind': 'shovehapenny', 'options': {}, 'log': [['m', 3]] * 6, 'redo': []},
           {'kind': 'horsecollar', 'options': {}, 'log': [['f', 0, 3]], 'redo': []},
           # the compact form: codes that are not entries, or entries the rules refuse
           {'kind': 'knockoff', 'options': {}, 'log': [0], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [6], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [-1], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [1 << 30], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [2 | 21 << 3 | 1 << 13], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [5 | 1 << 3], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [1 | 3 << 3 | 3 << 13], 'redo': []},
           {'kind': 'knockoff', 'options': {}, 'log': [True], 'redo': []}]
    for d in bad:
        try:
            load_game(d)
        except RuleError:
            pass
        else:
            raise AssertionError('load_game accepted %r' % (d,))
    assert load_game(good).points(RED) == 3
    compact = g.to_dict(compact=True)
    assert compact['log'] == [1 | 3 << 3] and load_game(compact).to_dict() == good


def test_compact_form_is_shared_and_load_copies_it():
    # the board serialises to_dict(compact=True) at once, so it shares the log instead of
    # copying it; a game loaded from it must not share anything with the game it came from
    g = new_game('knockoff')
    g.enter_frame(red=3)
    d = g.to_dict(compact=True)
    g2 = load_game(d)
    g.enter_frame(blue=2)
    assert len(d['log']) == 2                       # shared: it follows the game
    assert g2.points(BLUE) == 0 and g2.frame == 2   # copied: the loaded game did not move
    g2.enter_frame(red=1)
    assert g.points(RED) == 3 and len(d['log']) == 2
    assert g.to_dict()['log'] == [['f', 3, 0], ['f', 0, 2]]


def test_reload_keeps_undo_and_redo():
    g = new_game('knockoff')
    g.enter_frame(red=3)
    g.enter_frame(blue=2)
    g.enter_frame(red=1)
    g.undo()
    g2 = load_game(g.to_dict())
    assert g2.redo() is True
    assert g2.points(RED) == 4
    assert g2.undo() and g2.undo() and g2.undo()
    assert g2.undo() is False
    assert (g2.points(RED), g2.points(BLUE), g2.hammer) == (0, 0, BLUE)


def test_most_per_frame():
    assert new_game('knockoff').most(RED) == 16
    assert new_game('knockoff', handicap=RED).most(RED) == 20
    assert new_game('knockoff', handicap=RED).most(BLUE) == 16
