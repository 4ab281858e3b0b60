"""Allocation and time per input scan: buttons -> debounce -> gestures (unix port or a board).

    .venv/bin/micropython tools/bench_input.py

Prints, for each state (idle; OK held; RED held, repeating; RED+BLUE chord held), the heap bytes
allocated per scan+debounce+gesture update (goal 0) and the time per update. Allocation is read
two ways: `micropython.mem_total()` counts every heap allocation, even a block freed at once
(such as the frame of a bytecode function whose state is over 11 words), and the
`gc.mem_alloc()` delta counts what is left behind as garbage. On CPython only times are shown.
"""

import gc

import paths

paths.setup()

from scoreboard.drivers.buttons import Buttons
from scoreboard.ui import keys
from scoreboard.ui.debounce import Debouncer
from scoreboard.ui.gestures import Gestures
from scoreboard.ui.ticks import add, mask

try:
    import micropython

    _mem_total = micropython.mem_total
except (ImportError, AttributeError):
    micropython = None
    _mem_total = None

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


class FakePin:
    """An active-low input: 1 when released, 0 while pressed."""

    def __init__(self):
        self.v = 1

    def value(self):
        return self.v


class Counter:
    def __init__(self):
        self.n = 0

    def event(self, kind, key):
        self.n += 1


N = 2000
SCAN_MS = 5


def run(btn, deb, ges, now, n, chatter=None, period=1):
    i = 0
    while i < n:
        if chatter is not None and i % period == 0:  # flip a contact every `period` scans
            chatter.v ^= 1
        ges.update(deb.update(btn.scan(), now), now)
        now = add(now, SCAN_MS)
        i += 1
    return now


def us_per(u0, u1):
    h = ticks_diff(u1, u0) * 100 // N
    return h // 100, h % 100


def measure(label, btn, deb, ges, now, chatter=None, period=1):
    now = run(btn, deb, ges, now, 50, chatter, period)  # settle into the state being measured
    gc.collect()
    base = 0
    if _mem_total is not None:  # the loop's own frame: one heap block per run() call
        t0 = _mem_total()
        run(btn, deb, ges, now, 0, chatter, period)
        base = _mem_total() - t0
        t0 = _mem_total()
    a0 = gc.mem_alloc() if hasattr(gc, 'mem_alloc') else 0
    u0 = ticks_us()
    now = run(btn, deb, ges, now, N, chatter, period)
    u1 = ticks_us()
    a1 = gc.mem_alloc() if hasattr(gc, 'mem_alloc') else 0
    if _mem_total is not None:
        t1 = _mem_total()
        print('%-32s heap traffic %d B, garbage %d B in %d updates; %d.%02d us/update'
              % ((label, t1 - t0 - base, a1 - a0, N) + us_per(u0, u1)))
    else:
        print('%-32s %d.%02d us/update' % ((label,) + us_per(u0, u1)))
    return now


def main():
    pins = {}
    table = []
    k = 0
    while k < keys.COUNT:
        pins[k] = FakePin()
        table.append((k, pins[k]))
        k += 1
    btn = Buttons(table)
    deb = Debouncer()
    c = Counter()
    ges = Gestures(c.event)
    now = mask(0x3FFFFF00)  # near the wrap of a 2**30 device clock
    # A long hold would need N * 5 ms > HOLD_MS: make the held states last through the run.
    now = measure('idle', btn, deb, ges, now)
    pins[keys.OK].v = 0
    now = measure('OK held (past HOLD)', btn, deb, ges, now)
    pins[keys.OK].v = 1
    now = run(btn, deb, ges, now, 20)
    pins[keys.RED].v = 0
    now = measure('RED held (repeating)', btn, deb, ges, now)
    pins[keys.BLUE].v = 0
    ges.CHORD_MS = 10 ** 6  # stay armed: the costliest steady state
    now = measure('RED+BLUE held (chord armed)', btn, deb, ges, now)
    del ges.CHORD_MS
    now = measure('RED+BLUE held (chord fired)', btn, deb, ges, now)
    pins[keys.RED].v = 1
    pins[keys.BLUE].v = 1
    now = measure('all released, idle again', btn, deb, ges, now)
    now = measure('RED chattering (never settles)', btn, deb, ges, now, pins[keys.RED])
    pins[keys.RED].v = 1
    now = run(btn, deb, ges, now, 20)
    now = measure('RED tapped every 100 ms', btn, deb, ges, now, pins[keys.RED], 20)
    pins[keys.RED].v = 1
    now = run(btn, deb, ges, now, 20)
    now = measure('OK tapped every 100 ms', btn, deb, ges, now, pins[keys.OK], 20)
    print('events seen:', c.n)


main()
