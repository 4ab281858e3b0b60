"""Pulse trains a remote's receiver puts on its pin, generated from codes (host only).

A train is a list of edges `(t_us, level)` in time order, the level the pin takes at `t_us`;
before the first edge the pin is at its idle level (1 for an infrared receiver's active-low
output, 0 for a 433 MHz receiver). Jitter, glitches, noise, truncation and two remotes at once
are built from the same trains, deterministically from a seed (`Rng`), so that one table of
cases runs unchanged under CPython and the MicroPython unix port.
"""

NEC_IDLE = 1  # VS1838B: output low while the 38 kHz carrier is seen
RF_IDLE = 0  # superheterodyne 433 MHz receiver: output high while the carrier is on

NEC_PERIOD = 108000  # frame start to frame start while a key is held, us


class Rng:
    """xorshift32: the same numbers under both interpreters."""

    def __init__(self, seed=1):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def below(self, n):
        return self.next() % n

    def between(self, a, b):
        """An int in [a, b]."""
        return a + self.below(b - a + 1)


def _dur(us, jitter_pct, rng):
    if not jitter_pct or rng is None:
        return us
    return us + us * rng.between(-jitter_pct, jitter_pct) // 100


def _marks(t0, durations, idle, jitter_pct, rng):
    """Alternating mark, space, mark ... durations from t0 -> edges (ends after a mark)."""
    edges = []
    t = t0
    mark = 1 - idle
    lv = mark
    for d in durations:
        edges.append((t, lv))
        t += _dur(d, jitter_pct, rng)
        lv = 1 - lv
    edges.append((t, lv))
    return edges


def nec_durations(code, extended=None):
    """The mark/space durations of one NEC frame for `code` (address << 8 | command)."""
    addr = code >> 8
    cmd = code & 0xFF
    if extended is None:
        extended = addr > 0xFF
    if extended:
        lo = addr & 0xFFFF
    else:
        lo = addr | ((addr ^ 0xFF) << 8)
    bits = lo | (cmd << 16) | ((cmd ^ 0xFF) << 24)
    ds = [9000, 4500]
    i = 0
    while i < 32:
        ds.append(562)
        ds.append(1687 if (bits >> i) & 1 else 562)
        i += 1
    ds.append(562)
    return ds


NEC_REPEAT = (9000, 2250, 562)


def nec(code, t0=0, repeats=0, jitter_pct=0, rng=None, period=NEC_PERIOD, extended=None):
    """A press: one frame, then `repeats` repeat codes `period` apart (a key held)."""
    edges = _marks(t0, nec_durations(code, extended), NEC_IDLE, jitter_pct, rng)
    k = 1
    while k <= repeats:
        edges.extend(_marks(t0 + k * period, NEC_REPEAT, NEC_IDLE, jitter_pct, rng))
        k += 1
    return edges


def nec_repeats(t0, n, jitter_pct=0, rng=None, period=NEC_PERIOD):
    """`n` bare repeat codes (no frame before them)."""
    edges = []
    k = 0
    while k < n:
        edges.extend(_marks(t0 + k * period, NEC_REPEAT, NEC_IDLE, jitter_pct, rng))
        k += 1
    return edges


def ev1527_durations(code, base=350):
    """High/low durations of one frame: the sync (1:31), then 24 bits MSB first."""
    ds = [base, 31 * base]
    i = 23
    while i >= 0:
        if (code >> i) & 1:
            ds.append(3 * base)
            ds.append(base)
        else:
            ds.append(base)
            ds.append(3 * base)
        i -= 1
    return ds


def ev1527(code, t0=0, frames=4, base=350, jitter_pct=0, rng=None):
    """A press: `frames` frames back to back (each 128 base periods), then silence."""
    ds = []
    k = 0
    while k < frames:
        ds.extend(ev1527_durations(code, base))
        k += 1
    ds.pop()  # the last low runs into silence: the train ends on the last high's end
    return _marks(t0, ds, RF_IDLE, jitter_pct, rng)


def end(train):
    """The time of a train's last edge."""
    return train[-1][0] if train else 0


# --- combining trains -----------------------------------------------------------------------

def toggles(train, idle):
    """Edge times at which the level changes (dropping edges that change nothing)."""
    out = []
    lv = idle
    for t, v in train:
        if v != lv:
            out.append(t)
            lv = v
    return out


def from_toggles(ts, idle):
    """Sorted toggle times -> a train; toggles at the same instant cancel."""
    ts = sorted(ts)
    out = []
    lv = idle
    i = 0
    n = len(ts)
    while i < n:
        j = i
        while j < n and ts[j] == ts[i]:
            j += 1
        if (j - i) & 1:
            lv = 1 - lv
            out.append((ts[i], lv))
        i = j
    return out


def glitch(train, idle, n, rng, min_us=5, max_us=200, t0=None, t1=None):
    """`n` short flips of the level at random places between t0 and t1 (default: the train's
    span): spikes on a space, drop-outs in a mark."""
    if t0 is None:
        t0 = train[0][0] if train else 0
    if t1 is None:
        t1 = end(train)
    ts = toggles(train, idle)
    k = 0
    while k < n:
        t = rng.between(t0, max(t0, t1))
        ts.append(t)
        ts.append(t + rng.between(min_us, max_us))
        k += 1
    return from_toggles(ts, idle)


def noise(t0, t1, rng, idle, min_us=20, max_us=600):
    """Random edges from t0 to t1, each level lasting min_us..max_us: a receiver's output with
    no transmitter in range (a 433 MHz receiver's gain turned all the way up)."""
    out = []
    t = t0
    lv = idle
    while True:
        t += rng.between(min_us, max_us)
        if t >= t1:
            break
        lv = 1 - lv
        out.append((t, lv))
    if lv != idle:
        out.append((t1, idle))
    return out


def either(a, b, idle):
    """What one receiver outputs when two transmitters send at once: carrier if either has."""
    ev = []
    for t, v in a:
        ev.append((t, 0, v))
    for t, v in b:
        ev.append((t, 1, v))
    ev.sort()
    lvl = [idle, idle]
    timeline = []  # (t, level after every event at t)
    for t, who, v in ev:
        lvl[who] = v
        nv = idle if (lvl[0] == idle and lvl[1] == idle) else 1 - idle
        if timeline and timeline[-1][0] == t:
            timeline[-1] = (t, nv)
        else:
            timeline.append((t, nv))
    out = []
    lv = idle
    for t, nv in timeline:
        if nv != lv:
            out.append((t, nv))
            lv = nv
    return out


def truncate(train, t_cut, idle):
    """The train up to `t_cut`, the pin back at idle there (a press cut short, a remote
    pointed away mid-frame)."""
    out = [e for e in train if e[0] < t_cut]
    if out and out[-1][1] != idle:
        out.append((t_cut, idle))
    return out


def skew(train, idle, mark_us):
    """What a real receiver's output looks like: every mark `mark_us` longer and every space as
    much shorter (a VS1838B stretches its low pulses by 50-150 us, a 433 MHz receiver its highs
    at a weak signal; negative for the opposite)."""
    return [(t + mark_us if v == idle else t, v) for t, v in train]


def shift(train, dt):
    return [(t + dt, v) for t, v in train]
