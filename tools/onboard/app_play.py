# The press-script game of the app benches (tools/bench_app.py): the firmware on a new
# simulator (tools/sim_engine.py) on an empty flash folder, the target moved to 99 in the menu,
# then one-point frames, red and blue in turn.
import os

import sim_engine


class Null:
    def write(self, s):
        pass


def new_sim(board, d):
    """A new simulator of `board` on the empty flash folder d."""
    try:
        os.mkdir(d)
    except OSError:
        for n in os.listdir(d):
            os.remove(d + '/' + n)
    return sim_engine.Sim(board, d, Null())


def play(sim, lines):
    for _, op, args in sim_engine.parse(lines, sim.board.BUTTONS):
        sim.run(op, args)


def setup(sim):
    """The target moved to 99 in the menu, and the game started."""
    play(sim, ['hold OK 3200', 'tap OK', 'hold BLUE 14000', 'hold OK 1000', 'tap OK'])
    assert sim.app.ctl.view['target'] == 99, sim.app.ctl.view


def frame(sim, i):
    """Frame i: one point to blue (i even) or red (i odd), entered with OK."""
    play(sim, ['tap ' + ('RED' if i % 2 else 'BLUE'), 'tap OK'])


def check(sim):
    """After setup and 100 frames: frame 101, 50 points each."""
    v = sim.app.ctl.view
    assert v['frame'] == 101 and v['red'] == 50 and v['blue'] == 50, v
