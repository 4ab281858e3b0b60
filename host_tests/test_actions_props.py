# Random actions and presses against the controller (hypothesis, CPython): every call either
# succeeds or raises RuleError/ValueError, a refusal changes nothing (view, state, version, no
# save), and the view always shows what the core holds.
import json
import os

from hypothesis import HealthCheck, given, settings, strategies as st

import app_probe  # noqa: F401  (firmware/ on the path)
from scoreboard.core import KINDS
from scoreboard.ui.controller import Controller

settings.register_profile('ci', max_examples=60, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('fuzz', max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))

SMALL = st.integers(0, 5)
VALUE = st.one_of(SMALL, SMALL, st.integers(-2, 30), st.sampled_from(
    [None, True, False, 1.5, 'end', 'red', 'blue', '', 'x' * 13, 'Ann', [], {}]))
NAMES = st.one_of(st.none(), st.dictionaries(st.sampled_from(['red', 'blue', 'green']),
                                             st.one_of(st.none(), st.text(max_size=14))))
OPTIONS = st.one_of(st.none(), st.dictionaries(
    st.sampled_from(['target', 'hammer', 'first', 'hanger', 'beds', 'doubles', 'corner',
                     'frames', 'colour']), VALUE, max_size=3))
ACTION = st.one_of(
    st.builds(lambda r: {'do': 'frame', 'red': r}, SMALL),
    st.builds(lambda b: {'do': 'frame', 'blue': b}, SMALL),
    st.builds(lambda p: {'do': 'frame', 'points': p}, st.integers(0, 30)),
    st.builds(lambda b: {'do': 'frame', 'bed': b}, st.sampled_from([1, 2, 3, 'end'])),
    st.fixed_dictionaries({'do': st.just('frame')}, optional={
        'red': VALUE, 'blue': VALUE, 'points': VALUE, 'bed': VALUE}),
    st.fixed_dictionaries({'do': st.sampled_from(['undo', 'redo', 'bank'])}),
    st.fixed_dictionaries({'do': st.just('target')}, optional={'value': VALUE}),
    st.fixed_dictionaries({'do': st.just('new')}, optional={
        'game': st.sampled_from(list(KINDS) + ['darts']), 'options': OPTIONS, 'names': NAMES}),
    st.sampled_from([{}, {'do': 'jump'}, None, [], {'do': 'undo', 'x': 1}]),
)
PRESS = st.tuples(st.sampled_from(['RED', 'BLUE', 'OK', 'RED_MINUS', 'BLUE_MINUS', 'PURPLE']),
                  st.sampled_from(['tap', 'tap', 'tap', 'long', 'hold', 'chord', 'double']))
CALL = st.one_of(st.tuples(st.just('act'), ACTION), st.tuples(st.just('press'), PRESS),
                 st.tuples(st.just('chord')))


class Store:
    def __init__(self):
        self.n = 0
        self.problem = None

    def save(self, state):
        json.dumps(state)
        self.n += 1
        return True


def snapshot(c):
    return json.dumps([c.view, c.state()], sort_keys=True)


@given(st.sampled_from(KINDS), st.lists(CALL, min_size=5, max_size=40))
def test_random_actions_succeed_or_refuse_cleanly(kind, calls):
    c = Controller(0, store=Store())
    c.act({'do': 'new', 'game': kind}, 0)
    c.press('OK', 'tap', 0)                 # in play
    now = 0
    for call in calls:
        now += 700
        before = snapshot(c)
        saves, version = c._store.n, c.version
        try:
            if call[0] == 'act':
                c.act(call[1], now)
            elif call[0] == 'chord':
                c.press(('RED', 'BLUE'), 'chord', now)
            else:
                c.press(call[1][0], call[1][1], now)
        except ValueError:              # RuleError is a ValueError
            assert snapshot(c) == before, call
            assert c._store.n == saves and c.version == version, call
        c.tick(now)
        g = c.game
        v = c.view
        if g is not None:
            assert (v['red'], v['blue'], v['winner']) == (g.points('red'), g.points('blue'),
                                                          g.winner)
            assert v['screen'] in ('play', 'over', 'menu')
        # the state always loads back to the same view
        c2 = Controller(now, saved=json.loads(json.dumps(c.state())))
        if c.menu is None:
            v2 = dict(c2.view)
            v1 = dict(v)
            v1['message'] = v2['message'] = None
            v1['pending'] = v2['pending']       # pending points are not saved
            v1.pop('pin', None)
            assert v1 == v2, (v1, v2)
