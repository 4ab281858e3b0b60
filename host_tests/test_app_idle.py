# runs-on: micropython
# The idle loop of the app allocates nothing on any board (measured under MicroPython with
# micropython.mem_total(); under CPython there is nothing to measure and the test only checks
# that every board runs).
import app_probe


def test_every_board_boots_and_the_idle_loop_allocates_nothing():
    for board in app_probe.boards():
        sim = app_probe.sim_for(board)
        v = sim.app.ctl.view
        assert v['screen'] == 'play' and v['red'] == 2 and v['pending']['blue'] == 1, board
        got = app_probe.idle_bytes_per_step(sim)
        assert got is None or got == 0, '%s: %s bytes per idle pass' % (board, got)


def test_booting_sets_the_heap_policy_where_the_collector_has_one():
    # main.py and the simulator both call prepare_heap() before the app loads; under
    # MicroPython it makes the collector run every GC_EVERY bytes (`make bench` measures what
    # that saves), under CPython it changes nothing and must not fail.
    import gc
    import scoreboard
    has = hasattr(gc, 'threshold')
    before = gc.threshold() if has else None
    try:
        sim = app_probe.sim_for('pico_tm1637')
        assert sim.app.ctl.view['screen'] == 'play'
        if has:
            assert gc.threshold() == scoreboard.GC_EVERY
    finally:
        if has:
            gc.threshold(before)


def test_main_py_sets_the_heap_policy_before_it_loads_the_app():
    with open(app_probe.ROOT + '/firmware/main.py') as f:
        code = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith('#')]
    policy = code.index('scoreboard.prepare_heap()')
    load = [i for i, ln in enumerate(code) if ln.startswith('from scoreboard import app')][0]
    assert policy < load and code[-1] == 'app.main()', code
