# Properties of the scoring core under random play (hypothesis, CPython). A short seeded run is
# part of `make test`; `make fuzz` raises the example count (HYPOTHESIS_PROFILE=fuzz).
import os

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis import given

from scoreboard.core import BLUE, RED, RuleError, load_game, new_game

settings.register_profile('ci', max_examples=150, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('fuzz', max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))

side = st.sampled_from([RED, BLUE])
KNOCK_OPTS = st.fixed_dictionaries({}, optional={
    'target': st.integers(1, 99), 'hammer': side, 'blank': st.sampled_from(['switch', 'keep']),
    'hanger': st.integers(3, 9), 'handicap': st.sampled_from([None, RED, BLUE]),
    'doubles': st.booleans()})
GAMES = st.one_of(
    st.tuples(st.just('knockoff'), KNOCK_OPTS),
    st.tuples(st.just('tapdraw'), st.fixed_dictionaries({}, optional={
        'scoring': st.sampled_from(['owner', 'leader']), 'target': st.integers(1, 40),
        'hammer': side, 'blank': st.sampled_from(['switch', 'keep'])})),
    st.tuples(st.just('horsecollar'), st.fixed_dictionaries({}, optional={
        'target': st.integers(1, 120), 'first': side, 'corner': st.sampled_from([13, 26])})),
    st.tuples(st.just('fourframe'), st.fixed_dictionaries({}, optional={
        'hammer': side, 'frames': st.integers(1, 6)})),
    st.tuples(st.just('practice'), st.fixed_dictionaries({}, optional={
        'first': side, 'frames': st.integers(1, 4)})),
    st.tuples(st.just('shovehapenny'), st.fixed_dictionaries({}, optional={
        'beds': st.sampled_from([5, 9]), 'first': side, 'gift': st.booleans(),
        'last_mark': st.sampled_from(['any', 'earned'])})),
)
ACTIONS = st.lists(st.one_of(
    st.tuples(st.just('frame'), st.integers(0, 20), st.integers(0, 20)),
    st.tuples(st.just('frame1'), side, st.integers(0, 60)),
    st.tuples(st.just('shot'), st.integers(-1, 5)),
    st.tuples(st.just('mark'), st.integers(0, 10)),
    st.tuples(st.just('end_turn')),
    st.tuples(st.just('target'), st.integers(0, 120)),
    st.tuples(st.just('undo')),
    st.tuples(st.just('redo')),
), max_size=120)


def state(g):
    return (g.to_dict(), g.points(RED), g.points(BLUE), g.hammer, g.turn, g.frame, g.end,
            g.winner, g.over)


def do(g, a):
    op = a[0]
    if op == 'frame':
        g.enter_frame(red=a[1], blue=a[2])
    elif op == 'frame1':
        g.enter_frame(**{a[1]: a[2]})
    elif op == 'shot':
        g.enter_shot(a[1])
    elif op == 'mark':
        g.mark(a[1])
    elif op == 'end_turn':
        g.end_turn()
    elif op == 'target':
        g.set_target(a[1])
    elif op == 'undo':
        g.undo()
    elif op == 'redo':
        g.redo()


@given(GAMES, ACTIONS)
def test_random_play_keeps_every_invariant(game, actions):
    kind, opts = game
    g = new_game(kind, **opts)
    start = state(g)
    for a in actions:
        before = state(g)
        try:
            do(g, a)
        except RuleError:
            assert state(g) == before, 'a refused entry changed the game'
            continue
        # Totals never go negative and never go down except by undo.
        assert g.points(RED) >= 0 and g.points(BLUE) >= 0
        if kind == 'knockoff' and a[0] in ('frame', 'frame1'):
            gained = (g.points(RED) - before[1], g.points(BLUE) - before[2])
            assert 0 in gained, 'knock-off credited both sides in one frame'
        if g.over:
            assert g.winner in (RED, BLUE)
        # Reload at every step behaves identically, undo history included.
        g2 = load_game(g.to_dict())
        assert state(g2) == state(g)
    # Undoing everything returns to the start; redoing everything returns to the end.
    end = state(g)
    n = 0
    while g.undo():
        n += 1
    assert state(g)[1:] == start[1:] and g.to_dict()['log'] == []
    for _ in range(n):
        assert g.redo()
    assert state(g)[1:] == end[1:]


class KnockoffModel:
    """An independent, deliberately plain model of knock-off scoring from the seeds."""

    def __init__(self, target, hammer, blank):
        self.score = {RED: 0, BLUE: 0}
        self.target, self.hammer, self.blank = target, hammer, blank
        self.winner = None
        self.frames = 0

    def frame(self, red, blue):
        if self.winner or (red and blue) or red > 16 or blue > 16:
            return False
        self.score[RED] += red
        self.score[BLUE] += blue
        self.frames += 1
        if red:
            self.hammer = BLUE
        elif blue:
            self.hammer = RED
        elif self.blank == 'switch':
            self.hammer = RED if self.hammer == BLUE else BLUE
        for s in (RED, BLUE):
            if self.score[s] >= self.target:
                self.winner = s
        return True


@given(st.integers(1, 99), side, st.sampled_from(['switch', 'keep']),
       st.lists(st.tuples(st.integers(0, 17), st.integers(0, 17)), max_size=80))
def test_knockoff_matches_an_independent_model(target, hammer, blank, frames):
    g = new_game('knockoff', target=target, hammer=hammer, blank=blank)
    m = KnockoffModel(target, hammer, blank)
    for red, blue in frames:
        ok = m.frame(red, blue)
        try:
            g.enter_frame(red=red, blue=blue)
            took = True
        except RuleError:
            took = False
        assert took == ok, (red, blue)
        assert (g.points(RED), g.points(BLUE)) == (m.score[RED], m.score[BLUE])
        assert g.hammer == m.hammer
        assert g.winner == m.winner
        assert g.frame == m.frames + 1


def brute_totals(values, count, capped, cap, need):
    """Every total of up to `count` weights, each worth one of `values` or (at most `cap` of
    them) `capped`, with some weight worth `need` or more (0 always counts): by enumeration."""
    from itertools import combinations_with_replacement
    choices = [(v, False) for v in values] + ([(capped, True)] if cap else [])
    seen = {0}
    for k in range(1, count + 1):
        for pick in combinations_with_replacement(choices, k):
            if sum(1 for _, c in pick if c) > cap:
                continue
            if need and not any(v >= need for v, _ in pick):
                continue
            seen.add(sum(v for v, _ in pick))
    return seen


@given(st.lists(st.integers(1, 14), min_size=1, max_size=4, unique=True), st.integers(1, 5),
       st.integers(1, 30), st.integers(0, 2), st.integers(0, 4))
def test_totals_bitmask_matches_enumeration(values, count, capped, cap, need):
    # capped may equal one of the free values (horse collar with corners counted as end
    # hangers): weights worth it the free way are not limited.
    from scoreboard.core.base import totals_bitmask
    mask = totals_bitmask(tuple(values), count, capped=capped, cap=cap, need=need)
    got = {n for n in range(mask.bit_length()) if (mask >> n) & 1}
    assert got == brute_totals(values, count, capped, cap, need)


def test_horse_collar_turn_totals_match_enumeration_for_every_option():
    from scoreboard.core.horsecollar import CORNERS, NEEDED, WEIGHTS, turn_totals
    for hanger in (3, 10, 13, 20):
        for corner in (13, 26):
            mask = turn_totals(hanger, corner)
            got = {n for n in range(mask.bit_length()) if (mask >> n) & 1}
            assert got == brute_totals((1, 2, 3, hanger), WEIGHTS, corner, CORNERS, NEEDED), \
                (hanger, corner)
