# Random button streams against the firmware on the virtual board (hypothesis, CPython): presses
# of any length, contact bounce, chords, holds, waits and power cuts. No exception escapes the
# loop, the view always shows what the core holds, and a power cut never loses a committed entry
# or a banked game. `make fuzz` runs it long (HYPOTHESIS_PROFILE=fuzz).
import os
import tempfile

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import paths  # noqa: E402
import sim_engine  # noqa: E402

paths.virtual()
paths.ahead(paths.FIXTURES)

settings.register_profile('ci', max_examples=40, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('fuzz', max_examples=1500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))

BUTTON = st.sampled_from(['RED', 'BLUE', 'OK', 'RED_MINUS', 'BLUE_MINUS'])
OPS = st.lists(st.one_of(
    st.tuples(st.just('tap'), BUTTON),
    st.tuples(st.just('tap'), st.just('OK')),
    st.tuples(st.just('down'), BUTTON),
    st.tuples(st.just('up'), BUTTON),
    st.tuples(st.just('wait'), st.integers(1, 4000)),
    st.tuples(st.just('bounce'), BUTTON, st.lists(st.integers(1, 6), min_size=1, max_size=6)),
    st.tuples(st.just('hold'), st.just('OK'), st.sampled_from([700, 1500, 3100])),
    st.tuples(st.just('chord'), st.integers(200, 1500)),
    st.tuples(st.just('power-cut')),
), max_size=60)


class Null:
    def write(self, s):
        pass


def check_view(sim):
    ctl = sim.app.ctl
    v = ctl.view
    g = ctl.game
    if g is None:
        assert v['screen'] in ('setup', 'menu', 'sleep') and v['red'] == v['blue'] == 0
        return
    assert (v['red'], v['blue']) == (g.points('red'), g.points('blue'))
    assert (v['hammer'], v['turn'], v['frame'], v['winner']) == (g.hammer, g.turn, g.frame,
                                                                g.winner)
    assert v['game'] == g.KIND
    if v['screen'] == 'over':
        assert g.over
    if v['screen'] == 'play':
        assert not g.over


def saved(sim):
    ctl = sim.app.ctl
    return (ctl.game.to_dict() if ctl.game else None, ctl.match.to_dict(), ctl.settings,
            ctl.screen)


@given(OPS)
def test_random_buttons_and_power_cuts(ops):
    with tempfile.TemporaryDirectory() as flash:
        sim = sim_engine.Sim('bare', flash, Null())
        for op in ops:
            kind = op[0]
            if kind == 'tap':
                sim.run('tap', [op[1]])
            elif kind == 'down':
                sim.press(op[1])
                sim.advance(5)
            elif kind == 'up':
                sim.release(op[1])
                sim.advance(5)
            elif kind == 'wait':
                sim.advance(op[1])
            elif kind == 'bounce':
                for ms in op[2]:
                    if op[1] in sim.held:
                        sim.release(op[1])
                    else:
                        sim.press(op[1])
                    sim.advance(ms)
            elif kind == 'hold':
                sim.run('hold', [op[1], op[2]])
            elif kind == 'chord':
                sim.run('chord', ['RED', 'BLUE', op[1]])
            elif kind == 'power-cut':
                before = saved(sim)
                if sim.app.ctl.menu is not None:
                    before = before[:3]     # leaving the menu by power cut keeps what was saved
                sim.run('power-cut', [])
                after = saved(sim)
                assert after[:len(before)] == before, 'a power cut lost committed state'
            check_view(sim)
