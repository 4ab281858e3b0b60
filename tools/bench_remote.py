"""Remote receivers: the edge IRQ's cost and allocation, and the decode cost per frame.

    .venv/bin/micropython tools/bench_remote.py

The IRQ handler (`EdgeRing.irq`, reading the real `time.ticks_us` and a pin) is called as the
pin IRQ would call it; the frames are real pulse trains (tools/virtual/pulses.py) drained from
the ring through the decoder and the key adapter, as the loop's `bits(now)` does. Allocation is
counted with `micropython.mem_total()` (every heap allocation, even one freed at once) and then
checked with the heap locked. On CPython only the times are shown.
"""

import gc

import paths

paths.setup()
from scoreboard.remote.adapter import RemoteKeys  # noqa: E402
from scoreboard.remote.ev1527 import EV1527  # noqa: E402
from scoreboard.remote.nec import NEC  # noqa: E402
from scoreboard.remote.ring import EdgeRing  # noqa: E402
from virtual import pulses  # noqa: E402

try:
    import micropython

    _mem_total = micropython.mem_total
    heap_lock = micropython.heap_lock
    heap_unlock = micropython.heap_unlock
except (ImportError, AttributeError):
    _mem_total = heap_lock = heap_unlock = None

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

    def _clock():
        return ticks_us() & 0x1FFFFFFF
else:
    _clock = None  # the ring reads time.ticks_us itself, as on a board

N_EDGES = 20000
N_FRAMES = 200
CHUNK = 100  # edges per loop pass: 5 ms of the densest RF noise


class Pin:
    def __init__(self):
        self.v = 1

    def value(self):
        return self.v


class Loaded:
    """Edges of a train, put into a ring as the IRQ would (times from the train)."""

    def __init__(self, train, size=256):
        self.train = [(t & 0x1FFFFFFF, v) for t, v in train]
        self.ring = EdgeRing(size, _clock or ticks_us)

    def fill(self, base):
        put = self.ring.put
        for t, v in self.train:
            put(t + base, v)


def irq_cost():
    pin = Pin()
    ring = EdgeRing(64, _clock)
    irq = ring.irq
    ring.irq(pin)
    ring.get()
    gc.collect()
    t0 = _mem_total() if _mem_total else 0
    u0 = ticks_us()
    i = 0
    while i < N_EDGES:
        pin.v ^= 1
        irq(pin)
        if ring.head == 0:  # keep it from filling: the loop drains as it goes
            ring.tail = ring.head
        i += 1
    u1 = ticks_us()
    t1 = _mem_total() if _mem_total else 0
    # the loop itself, without the call, to subtract
    u2 = ticks_us()
    i = 0
    while i < N_EDGES:
        pin.v ^= 1
        if ring.head == 0:
            ring.tail = ring.head
        i += 1
    u3 = ticks_us()
    per = (ticks_diff(u1, u0) - ticks_diff(u3, u2)) * 100 // N_EDGES
    locked = 'not checked'
    if heap_lock:
        heap_lock()
        try:
            i = 0
            while i < 1000:
                pin.v ^= 1
                irq(pin)
                ring.tail = ring.head
                i += 1
            locked = 'ok'
        except MemoryError:
            locked = 'ALLOCATES'
        finally:
            heap_unlock()
    print('edge IRQ (EdgeRing.irq)           %d.%02d us/edge, heap traffic %d B in %d edges '
          '(goal 0), heap-locked: %s' % (per // 100, per % 100, t1 - t0, N_EDGES, locked))


def decode_cost(label, decoder, train, codes, frames_in_train, unit='frame'):
    """Time bits() draining the train in chunks of at most CHUNK edges (a loop pass's worth)."""
    keys = RemoteKeys(EdgeRing(256, _clock), decoder, codes)
    ring = keys._ring
    edges = [(t & 0x1FFFFFFF, v) for t, v in train]
    span = pulses.end(train) + 200000
    base = 0
    now = 0
    gc.collect()
    traffic = 0
    total = 0
    n = 0
    while n < N_FRAMES // 10 if len(edges) > 1000 else n < N_FRAMES:
        base += span
        i = 0
        while i < len(edges):
            j = min(i + CHUNK, len(edges))
            while i < j:
                t, v = edges[i]
                ring.put(t + base, v)
                i += 1
            now += 5
            m0 = _mem_total() if _mem_total else 0
            u0 = ticks_us()
            keys.bits(now)
            u1 = ticks_us()
            m1 = _mem_total() if _mem_total else 0
            total += ticks_diff(u1, u0)
            traffic += m1 - m0
        now += span // 1000
        n += 1
    per_frame = total * 100 // (n * frames_in_train)
    per_edge = total * 100 // (n * len(edges))
    print('%-36s %d.%02d us/%s (%d.%02d us/edge), heap traffic %d B in %d runs (goal 0); '
          '%d presses decoded'
          % (label, per_frame // 100, per_frame % 100, unit, per_edge // 100, per_edge % 100,
             traffic, n, keys.presses))
    return keys


def latency():
    # The key bit follows the frame's last edge at the next bits() call: one loop pass.
    keys = RemoteKeys(EdgeRing(256, _clock), NEC, {0x10EF: 'RED'})
    train = pulses.nec(0x10EF, t0=1000)
    last = pulses.end(train)
    for t, v in train:
        keys._ring.put(t, v)
    now = last // 1000
    b = keys.bits(now)
    print('remote key to the key bitmap       the first bits() after the frame\'s last edge '
          '(%s): one loop pass, <= 5 ms (goal: a button\'s, <= 10 ms to the digits)'
          % ('down' if b else 'MISSED'))


class _Null:
    def write(self, s):
        pass


def to_digits(board, kind, start, code):
    """Virtual ms from the last edge of a remote's tap of `code` (a blank frame: the hammer
    marker moves) to the moment the board's chips show it, on the virtual board: the pulse
    train on the receiver's pin, the firmware's IRQ, decoder, key bits, input, controller,
    render and drivers, as `make sim` runs them."""
    import os

    import sim_engine

    paths.virtual()
    d = '/tmp/sb-bench-remote-%s' % kind
    try:
        os.mkdir(d)
    except OSError:
        for n in os.listdir(d):
            os.remove(d + '/' + n)
    sim = sim_engine.Sim(board, d, _Null())
    sim.run(kind, [start])  # the game starts
    sim.advance(3000)  # no message, nothing blinking: only the press can change the digits

    def picture():
        return [[c.digits() for c in g] for g in sim.chips]

    before = picture()
    r = sim.receivers[kind]
    end = r.press(code, sim.now)
    last = end - 1  # ms of the train's last edge
    while sim.now < end + 1000:
        sim.advance(1)
        if picture() != before:
            return sim.now - last
    return None


def latency_to_digits():
    from scoreboard.remote.ev1527 import EV1527

    ir = to_digits('pico_tm1637', 'ir', 0x43, 0x43)
    rf = to_digits('pico_ws2812_digits', 'rf', 0x5A5A52, 0x5A5A52)
    print('remote tap to changed digits       IR (pico_tm1637) %s ms, RF (pico_ws2812_digits) %s '
          'ms after the last edge sent (virtual time): a tap is known at its release, %d / %d ms '
          'after the last frame or repeat (NEC / EV1527), then debounce and a pass as a button\'s'
          % (ir, rf, NEC.RELEASE_MS, EV1527.RELEASE_MS))


def main():
    print('ring slot: tick << 1 | level in an array of 256 ints (%d bytes, allocated once)'
          % (256 * 4))
    irq_cost()
    decode_cost('NEC frame (68 edges)', NEC, pulses.nec(0x10EF), {0x10EF: 'RED'}, 1)
    decode_cost('NEC frame + 9 repeats', NEC, pulses.nec(0x10EF, repeats=9), {0x10EF: 'RED'},
                10)
    decode_cost('EV1527 press (6 frames, 300 edges)', EV1527, pulses.ev1527(0xABCDE1, frames=6),
                {0xABCDE1: 'RED'}, 6)
    rng = pulses.Rng(1)
    noise = pulses.noise(0, 1000000, rng, 0, 30, 600)
    decode_cost('RF receiver noise (%d edges/s)' % len(noise), EV1527, noise,
                {0xABCDE1: 'RED'}, 1, 's of noise')
    latency()
    latency_to_digits()
    print('goals: IRQ allocates 0 B and takes a few us; decode allocates 0 B and a frame costs '
          'well under one 5 ms loop pass')
    print('(the unix port on a PC: a 125 MHz RP2040 runs bytecode some 30-50 times slower)')


main()
