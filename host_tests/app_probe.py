# Measurements of the whole app on the virtual board, shared by the tests and tools/bench_app.py.
# Runs under MicroPython (where micropython.mem_total() counts every heap allocation, including
# function frames that gc.mem_alloc() deltas miss) and under CPython (no allocation figures).
import os
import sys


def _unique():
    # Test folders are per process: parallel runs must not share a virtual flash.
    return ''.join(['%02x' % b for b in os.urandom(4)])


_RUN = _unique()

HERE = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
ROOT = HERE + '/..'
if ROOT + '/tools' not in sys.path:
    sys.path.insert(0, ROOT + '/tools')
import sim_engine  # noqa: E402

sim_engine.setup_path(ROOT)
FIXTURES = HERE + '/fixtures/boards'
if FIXTURES not in sys.path:
    sys.path.insert(0, FIXTURES)

try:
    from micropython import mem_total
except ImportError:
    mem_total = None


class Null:
    def write(self, s):
        pass


def boards():
    names = [n[:-3] for n in os.listdir(ROOT + '/boards') if n.endswith('.py')]
    names.sort()
    return ['bare'] + names


def flash_dir(tag):
    d = '/tmp/sb-probe-%s-%s' % (_RUN, tag)
    try:
        os.mkdir(d)
    except OSError:
        for n in os.listdir(d):
            os.remove(d + '/' + n)
    return d


def sim_for(board, script=('tap OK', 'tap RED', 'tap RED', 'tap OK', 'tap BLUE')):
    sim = sim_engine.Sim(board, flash_dir(board), Null())
    for _, op, args in sim_engine.parse(list(script), sim.board.BUTTONS):
        sim.run(op, args)
    return sim


def _steps(app, now, n):
    for _ in range(n):
        now += 5
        app.step(now & 0x1FFFFFFF)
    return now


def idle_bytes_per_step(sim, n=1000):
    """Bytes the loop allocates per pass while nobody presses anything (pending points blink,
    so the displays redraw every phase). None where it cannot be measured."""
    if mem_total is None:
        return None
    import gc
    now = _steps(sim.app, sim.now, 20)
    gc.collect()
    t0 = mem_total()
    now = _steps(sim.app, now, n)
    t1 = mem_total()
    sim.now = now
    return (t1 - t0) / n


def latency_ms(sim, button='OK'):
    """Virtual ms from the release of a tap to the moment a chip shows something new."""
    def picture():
        return [[c.digits() if c.kind == 'segments' else
                 [c.pixel(x, y) for y in range(c.height) for x in range(c.width)]
                 for c in g] for g in sim.chips]
    sim.press(button)
    sim.advance(80)
    before = picture()
    sim.release(button)
    t = 0
    while t < 200:
        sim.advance(1)
        t += 1
        if picture() != before:
            return t
    return None
