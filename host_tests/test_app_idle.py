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
