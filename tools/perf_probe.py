# The measurements of tools/bench_perf.py, run under the MicroPython unix port (also CPython,
# without the byte counts): the real firmware on the virtual board of a board file, the loop
# stepped one pass every LOOP_MS on virtual time, the buttons driven on the virtual pins and the
# displays read back from the virtual chips (tools/virtual/virtual_board.py).
#
#   micropython tools/perf_probe.py latency BOARD [POSITIONS]
#   micropython tools/perf_probe.py bytes BOARD [FRAMES]
#   micropython tools/perf_probe.py idle BOARD plain|blink PASSES     (for callgrind)
#   micropython tools/perf_probe.py frames BOARD FRAMES              (for callgrind)
#   micropython tools/perf_probe.py wake BOARD
#
# Each prints one line of results (`key value ...`) for bench_perf.py to read.
import sys

import paths

paths.add(paths.TESTS)
ROOT = paths.ROOT
import app_probe  # noqa: E402  (sets the path: boards, firmware, the virtual parts)

import machine  # noqa: E402  (the virtual board's stand-in)

MASK = 0x1FFFFFFF
LOOP = 5
MAX_PASSES = 400        # a change not on the chip after this many passes (2 s) is reported so


class Clock:
    """The loop's virtual clock: one pass of the app every LOOP ms."""

    def __init__(self, sim):
        self.sim = sim
        self.app = sim.app
        self.pins = sim.board.BUTTONS

    def passes(self, n):
        app = self.app
        sim = self.sim
        i = 0
        while i < n:
            sim.now += LOOP
            app.step(sim.now & MASK)
            i += 1

    def jump(self, ms):
        # time passes with no pass of the loop (a late scan), then one pass
        self.sim.now += ms
        self.passes(1)

    def down(self, name):
        machine.drive(self.pins[name], 0)

    def up(self, name):
        machine.drive(self.pins[name], None)

    def tap(self, name, ms=80, gap=300):
        self.down(name)
        self.passes(ms // LOOP)
        self.up(name)
        self.passes(gap // LOOP)


def picture(sim):
    out = []
    for g in sim.chips:
        for c in g:
            out.append(c.digits() if c.kind == 'segments' else c.rows())
    return out


def until_changed(clk, before, limit=MAX_PASSES):
    """Passes until the chips show something other than `before` (1: the first pass)."""
    n = 0
    while n < limit:
        clk.passes(1)
        n += 1
        if picture(clk.sim) != before:
            return n
    return None


def until_version(clk, limit):
    ctl = clk.app.ctl
    v = ctl.version
    n = 0
    while n < limit and ctl.version == v:
        clk.passes(1)
        n += 1
    return ctl.version != v


def start_game(sim, target=99):
    """Boot done, the lamp test over: a new game of the board's default kind, to `target`
    where the game has one (so the sweeps never end it)."""
    from scoreboard.core import traits
    clk = Clock(sim)
    clk.passes(1100 // LOOP)
    ctl = sim.app.ctl
    names = [o[0] for o in traits(ctl.kind).OPTIONS]
    if 'target' in names:
        ctl.settings['opts'][ctl.kind] = {'target': target}
    clk.tap('OK')
    return clk


def latency(board, positions=40):
    """Release (or change) to chip, in passes, for a new pending point, a commit, the end of
    the undo's message (the score back) and the redo chord's message, at `positions` moments
    spread over 40 phases of 250 ms and across the passes inside a phase."""
    sim = app_probe.new_sim(board, 'perf-lat')
    clk = start_game(sim)
    ctl = sim.app.ctl
    got = {'point': [], 'commit': [], 'undo': [], 'message': []}
    side = 'RED'
    for p in range(positions):
        # a point pending: released at a moment `p` phases and p passes on
        clk.jump(1000 + 255 * p)
        before = picture(sim)
        clk.down(side)
        clk.passes(80 // LOOP)
        clk.up(side)
        got['point'].append(until_changed(clk, before))
        clk.passes(300 // LOOP)
        # the commit
        clk.jump(1000 + 255 * ((p * 7) % 40))
        before = picture(sim)
        clk.down('OK')
        clk.passes(80 // LOOP)
        clk.up('OK')
        got['commit'].append(until_changed(clk, before))
        # the undo: its message (said from 600 ms of OK held) ends 2 s later, the score back
        clk.jump(255 * ((p * 13) % 40))
        clk.down('OK')
        clk.passes(1000 // LOOP)
        clk.up('OK')
        clk.passes(2)
        before = picture(sim)
        if until_version(clk, 3000 // LOOP):
            n = picture(sim) != before and 1 or until_changed(clk, before)
        else:
            n = None
        got['undo'].append(n)
        # the redo chord: its message when the chord fires (1 s of RED and BLUE together)
        clk.jump(255 * ((p * 17) % 40))
        before = picture(sim)
        clk.down('RED')
        clk.down('BLUE')
        if until_version(clk, 1500 // LOOP):
            n = picture(sim) != before and 1 or until_changed(clk, before)
        else:
            n = None
        got['message'].append(n)
        clk.up('RED')
        clk.up('BLUE')
        clk.passes(2300 // LOOP)   # the message over
        side = 'BLUE' if side == 'RED' else 'RED'
    assert ctl.view['screen'] == 'play', ctl.view
    out = []
    for k in ('point', 'commit', 'undo', 'message'):
        out.append(k + ' ' + ','.join(['-' if x is None else str(x) for x in got[k]]))
    print('latency ' + ' '.join(out))


def frames(board, n):
    sim = app_probe.new_sim(board, 'perf-frames')
    clk = start_game(sim)
    side = 'RED'
    for _ in range(n):
        clk.tap(side)
        clk.tap('OK')
        side = 'BLUE' if side == 'RED' else 'RED'
    print('frames', n, sim.app.ctl.view['frame'])


class Meter:
    """A store's saves, with the bytes they allocate counted (gc off around the run): put in
    front of the store's own save, on the instance."""

    def __init__(self, store):
        self.real = store.save
        self.bytes = 0
        self.saves = 0
        store.save = self.save

    def save(self, state):
        import gc
        a = gc.mem_alloc()
        ok = self.real(state)
        self.bytes += gc.mem_alloc() - a
        self.saves += 1
        return ok


def bytes_per_frame(board, n=40):
    """Heap bytes allocated per committed frame (a side's tap and OK's tap, the save
    included), the collector off, averaged over n frames after 20 warm-up frames."""
    import gc
    sim = app_probe.new_sim(board, 'perf-bytes')
    clk = start_game(sim)
    meter = Meter(sim.app.store)      # the store the controller saves to
    side = 'RED'
    for _ in range(20):
        clk.tap(side)
        clk.tap('OK')
        side = 'BLUE' if side == 'RED' else 'RED'
    sides = ['RED', 'BLUE'] * (n // 2)
    gc.collect()
    meter.bytes = meter.saves = 0
    gc.disable()
    a = gc.mem_alloc()
    for s in sides:
        clk.tap(s)
        clk.tap('OK')
    b = gc.mem_alloc()
    gc.enable()
    k = len(sides)
    print('bytes', (b - a) // k, meter.bytes // max(1, meter.saves), meter.saves, k)


def idle(board, what, n):
    script = ('tap OK', 'tap RED', 'tap RED', 'tap OK')
    if what == 'blink':
        script += ('tap BLUE',)     # a point pending: it blinks
    sim = app_probe.sim_for(board, script)
    clk = Clock(sim)
    clk.passes(600)                 # the messages over, the timers settled
    clk.passes(n)
    print('idle', n)


def wake(board, lengths=(10, 20, 30, 40), offsets=(0, 5, 10, 15)):
    """Presses that begin and end while the loop waits between idle passes (app.main's
    pause: IDLE_MS with the buttons' IRQs armed): each must be one tap, a pending point."""
    from scoreboard import app as appmod
    sim = app_probe.new_sim(board, 'perf-wake')
    clk = start_game(sim)
    app = sim.app
    seen = missed = longest = 0
    side = 'RED'
    for ms in lengths:
        for off in offsets:
            clk.passes(60)
            pause = app.pause(sim.now & MASK) if hasattr(app, 'pause') else LOOP
            longest = max(longest, pause)
            if pause < ms + off + 1:
                continue            # not one wait long enough for this press
            pend = dict(app.ctl.view['pending'])
            key = 'red' if side == 'RED' else 'blue'
            t0 = sim.now
            sim.now = t0 + off      # inside the wait: no pass of the loop
            clk.down(side)
            sim.now += ms
            clk.up(side)
            sim.now = t0 + pause    # the wait over
            app.step(sim.now & MASK)
            clk.passes(60)
            if app.ctl.view['pending'][key] == pend[key] + 1:
                seen += 1
            else:
                missed += 1
            side = 'BLUE' if side == 'RED' else 'RED'
    armed = getattr(app, 'wake', None) is not None and app.wake.armed
    print('wake', seen, missed, longest, getattr(appmod, 'IDLE_MS', LOOP), 1 if armed else 0)


def main(argv):
    what = argv[1]
    board = argv[2]
    if what == 'latency':
        latency(board, int(argv[3]) if len(argv) > 3 else 40)
    elif what == 'bytes':
        bytes_per_frame(board, int(argv[3]) if len(argv) > 3 else 40)
    elif what == 'idle':
        idle(board, argv[3], int(argv[4]))
    elif what == 'frames':
        frames(board, int(argv[3]))
    elif what == 'wake':
        wake(board)
    else:
        raise SystemExit('unknown measurement ' + what)


if __name__ == '__main__':
    main(sys.argv)
