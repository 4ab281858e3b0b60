# The virtual board for tests: a fresh flash folder per test run, a simulator on it, press-script
# lines played on it, and the measurements of the whole app shared with tools/bench_app.py.
# Runs under MicroPython and CPython (allocation figures only under MicroPython).
import os


def _unique():
    # Test folders are per process: parallel runs must not share a virtual flash.
    return ''.join(['%02x' % b for b in os.urandom(4)])


_RUN = _unique()

HERE = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
ROOT = HERE + '/..'
import paths  # noqa: E402
import sim_engine  # noqa: E402

paths.virtual()
FIXTURES = paths.FIXTURES
paths.add(FIXTURES)

try:
    from micropython import mem_total
except ImportError:
    mem_total = None


class Null:
    def write(self, s):
        pass


class Out:
    """Collects what the simulator prints (one JSON line per `state`)."""

    def __init__(self):
        self.lines = []

    def write(self, s):
        self.lines.append(s)


class QuietDisplay:
    """The brightness() and power() of a test's display: they do nothing."""

    def brightness(self, level):
        pass

    def power(self, on):
        pass


class StubBoard:
    """A board of the given displays, its buttons on the virtual pins 40 (RED), 41, 42 (OK)."""
    BUTTONS = {'RED': 40, 'BLUE': 41, 'OK': 42}

    def __init__(self, displays):
        self.ds = displays

    def displays(self):
        return self.ds


class NoStore:
    """A store with nothing saved that takes every save."""
    message = None
    problem = None

    def load(self, check=None):
        return None

    def save(self, state):
        return True


def boards():
    names = [n[:-3] for n in os.listdir(ROOT + '/boards') if n.endswith('.py')]
    names.sort()
    return ['bare'] + names


def flash_dir(tag):
    """An empty folder for a virtual flash, private to this test process."""
    d = '/tmp/sb-test-%s-%s' % (_RUN, tag)
    try:
        os.mkdir(d)
    except OSError:
        for n in os.listdir(d):
            os.remove(d + '/' + n)
    return d


def play(sim, lines):
    """Run press-script lines on a simulator."""
    for _, op, args in sim_engine.parse(list(lines), sim.board.BUTTONS):
        sim.run(op, args)
    return sim


def new_sim(board, tag=None, out=None):
    return sim_engine.Sim(board, flash_dir(tag or board), out or Null())


def sim_for(board, script=('tap OK', 'tap RED', 'tap RED', 'tap OK', 'tap BLUE')):
    return play(new_sim(board), script)


def _steps(app, now, n):
    for _ in range(n):
        now += 5
        app.step(now & 0x1FFFFFFF)
    return now


def idle_bytes_per_step(sim, n=1000):
    """Heap bytes the loop allocates per pass while nobody presses anything (pending points
    blink, so the displays redraw every phase). Measured by running the passes with the heap
    locked: any allocation raises MemoryError, so completing them proves 0 (function frames
    then live on the C stack; micropython.mem_total() would count the refused attempts, so it
    cannot be used here). Where a pass does allocate, the garbage per pass is measured with
    the collector off. None where it cannot be measured (CPython)."""
    if mem_total is None:
        return None
    import gc
    from micropython import heap_lock, heap_unlock
    now = _steps(sim.app, sim.now, 20)
    heap_lock()
    try:
        now = _steps(sim.app, now, n)
        locked_ok = True
    except MemoryError:
        locked_ok = False
    heap_unlock()
    if locked_ok:
        sim.now = now
        return 0
    gc.collect()
    gc.disable()
    t0 = gc.mem_alloc()
    now = _steps(sim.app, now, n)
    t1 = gc.mem_alloc()
    gc.enable()
    sim.now = now
    return max(1, t1 - t0) / n


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
