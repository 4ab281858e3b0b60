"""Contact debounce for a bitmap of keys.

Algorithm: sym_eager_pk (QMK's name: symmetric, eager, per key). A key's first edge, press or
release, is reported at once; after it the key's raw input is ignored until it has been steady
for `settle_ms` (every bounce restarts that window); then the next difference between raw and
reported state is again reported at once. A release therefore reaches the gesture layer one
scan after it happens, and a bounce train of any length inside the window makes one edge.

Late scans and clock jumps: only edges seen in the samples count, so a scan 200 ms after the
last one reports the level it reads (one edge at most); a clock that runs backwards restarts
the window instead of freezing it. Like every eager algorithm, an isolated noise spike on an
idle line is reported as a short press (at least `settle_ms`): shielded wiring is the remedy.
"""

from array import array

from ..ticks import diff


class Debouncer:
    def __init__(self, settle_ms=20, width=8):
        self.settle_ms = settle_ms
        self._mask = (1 << width) - 1
        self._t = array('i', [0] * width)  # per key: start of its settle window
        self._raw = 0  # raw bits at the previous update
        self._stable = 0  # debounced bits
        self.settling = 0  # keys inside their settle window

    @property
    def stable(self):
        return self._stable

    def update(self, raw_bits, now_ms):
        """Feed one scan (raw bits, masked ms tick); return the debounced bits."""
        raw = raw_bits & self._mask
        work = (raw ^ self._raw) | self.settling | (raw ^ self._stable)
        k = 0
        while work:
            if work & 1:
                self._key(k, raw, now_ms)
            work >>= 1
            k += 1
        self._raw = raw
        return self._stable

    def _key(self, k, raw, now):
        # Kept small: a bytecode function whose frame exceeds 11 words gets it from the heap.
        b = 1 << k
        if self.settling & b:
            el = diff(now, self._t[k])
            if el < 0:  # the clock went back: time the window from now
                self._t[k] = now
                return
            if el < self.settle_ms:
                if (raw ^ self._raw) & b:  # a bounce: steady only from now
                    self._t[k] = now
                return
            self.settling &= ~b
        if (raw ^ self._stable) & b:
            self._stable ^= b
            self.settling |= b
            self._t[k] = now
