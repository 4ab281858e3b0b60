"""Brightness `auto`: the display's level 1..8 from a light sensor, smoothed so it never
flickers (DESIGN section 11).

A light-dependent resistor divider on an ADC pin (`read_u16()`, 0..65535; `invert` when the
LDR is on the ground side, so that light lowers the reading). `update(now)` from the loop
samples every SAMPLE_MS; the median of the last three samples (a flash or a shadow of one
sample is dropped outright) goes into an integer exponential filter (each sample moves it
1/2**SHIFT of the way: a lamp switched on is followed in two or three seconds). The filtered
reading maps linearly onto the levels between `dark` and `bright`, and a level is left only
when the reading is a HYST_DIV-th of a step past its edge, so a room that sits at a boundary,
with the ADC's noise on top, keeps one level. Integers only; no allocation per call.
"""

from .ticks import add, diff


class Light:
    LEVELS = 8
    SAMPLE_MS = 100
    SHIFT = 4
    HYST_DIV = 3  # a third of a step either side of each boundary

    def __init__(self, adc, dark=3000, bright=45000, invert=False):
        self._adc = adc
        self._dark = dark
        self._span = bright - dark
        self._invert = invert
        self._acc = -1  # filtered reading << SHIFT, -1: no sample yet
        self._a = 0  # the two samples before this one, for the median
        self._b = 0
        self._next = 0
        self._level = self.LEVELS

    @property
    def level(self):
        """The brightness level the room asks for, 1..LEVELS."""
        return self._level

    @property
    def reading(self):
        """The filtered reading, 0..65535 (or -1 before the first sample)."""
        return self._acc >> self.SHIFT if self._acc >= 0 else -1

    @property
    def percent(self):
        r = self.reading
        return -1 if r < 0 else r * 100 // 65535

    def update(self, now):
        """Sample when due; returns the level."""
        if self._acc >= 0 and diff(now, self._next) < 0:
            return self._level
        self._next = add(now, self.SAMPLE_MS)
        x = self._adc.read_u16()
        if self._invert:
            x = 65535 - x
        if self._acc < 0:  # the first reading: start there, not from dark
            self._acc = x << self.SHIFT
            self._a = self._b = x
            self._level = self._raw_level(x)
            return self._level
        a = self._a
        b = self._b
        self._a = b
        self._b = x
        if a > b:
            a, b = b, a
        m = a if x < a else (b if x > b else x)  # the median of a, b, x
        self._acc += m - (self._acc >> self.SHIFT)
        self._level = self._settle(self._acc >> self.SHIFT)
        return self._level

    def _edge(self, k):
        # the reading where level k begins (k = 2 .. LEVELS)
        return self._dark + (k - 1) * self._span // self.LEVELS

    def _raw_level(self, r):
        if r <= self._dark:
            return 1
        k = 1 + (r - self._dark) * self.LEVELS // self._span
        return k if k < self.LEVELS else self.LEVELS

    def _settle(self, r):
        cur = self._level
        k = self._raw_level(r)
        h = self._span // (self.LEVELS * self.HYST_DIV)
        while k > cur and r < self._edge(k) + h:  # not far enough above the edge
            k -= 1
        while k < cur and r >= self._edge(k + 1) - h:  # not far enough below it
            k += 1
        return k


def from_board(board, ADC, Pin):
    """The light sensor of a board file naming `LIGHT = pin` (an ADC pin), or None."""
    n = getattr(board, 'LIGHT', None)
    if n is None:
        return None
    if hasattr(ADC, 'ATTN_11DB'):  # esp32: the full 0..3.3 V range
        return Light(ADC(Pin(n), atten=ADC.ATTN_11DB))
    return Light(ADC(Pin(n)))
